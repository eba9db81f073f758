"""Fixtures every test folder can use: the real WebDAV server the sync tests run against (tests/sync_servers.py),
the static web build.
And, after each test, the in-process UI harness finishes what its sessions scheduled and closes them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sync_servers import DavServer, wsgidav_server


@pytest.fixture
def webdav_server(tmp_path: Path) -> Iterator[DavServer]:
    """WsgiDAV on a free loopback port over a fresh folder (with "sync/" made), a user and a password, and a
    fault layer in front (`webdav_server.faults.append(Fault(507, "PUT", after=3))`)."""
    with wsgidav_server(tmp_path) as server:
        yield server


@pytest.fixture(scope="session")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static web build (`make static`), built once per test process (40 s: Node compiles the Python and
    makes the snapshot of the started interpreter) and shared by every module that serves it: they only read it."""
    from scorekeeper.static import build as static_build

    out = tmp_path_factory.mktemp("static") / "dist"
    static_build.build(out)
    return out


# Modules whose module-scoped fixture is dear (the compatibility suite's old versions checked out and played, a
# static build, a seeded app served): under `pytest -n N --dist loadgroup` (`make test`, `make check`) each runs
# whole on one worker, so the fixture is made once rather than once on every worker that got some of its tests.
ONE_WORKER = {
    "test_compat_versions.py",
    "test_static_build.py",
    "test_static_site.py",
    "test_history_stats_settings_screens.py",
    "test_layout_and_focus.py",
}


# Tests without a browser that took 9 s or more on this 2-core machine (`--durations`, two workers, loaded), besides
# those marked `slow` where they stand: `make check` leaves them out (`make test` runs them). A module by its
# name, a test by "module::name" (every parameter of it; a class: every test in it).
SLOW = {
    "test_compat_versions.py",  # checks out and plays two older versions: ~20 s each before its first test
    "test_static_build.py",  # builds the static site (Pyodide compiles it in Node): ~35 s
    "test_hosting_guard.py::test_a_tables_code_stops_working_when_its_game_is_over",
    "test_hosting_transport.py::test_what_a_client_sends_cannot_forge_a_log_line_or_fill_the_log",
    "test_play_session.py::test_resume_after_every_move_is_exact",
    "test_racko_bots.py::test_hard_beats_random_and_baseline",
    "test_racko_rules.py::test_validators_raise_only_rule_errors",
    "test_rage_bots.py::test_strength_smoke",
    "test_sim.py::test_round_robin_plays_every_strength_against_every_other",
    "test_store_crash.py::test_sigkill_at_random_moments_loses_nothing_reported",
    "test_store_killloop.py::test_sigkill_over_saves_undo_and_imports_loses_nothing_acknowledged",
    "test_store_photos.py::test_the_bench_adds_a_4_mb_phone_photo",
    "test_sync_cli.py::test_one_sync_reports_in_a_line_and_failures_exit_non_zero",
    "test_sync_concurrency_machine.py::test_concurrent_writers_converge_on_a_folder",
    "test_sync_concurrency_machine.py::test_concurrent_writers_converge_on_webdav",
    "test_sync_target_machine.py::test_devices_switching_and_emptied_targets_converge",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
        # the function, or the class (a state machine's TestCase)
        test = item.nodeid.split("::")[1].split("[")[0]
        if item.path.name in SLOW or f"{item.path.name}::{test}" in SLOW:
            item.add_marker(pytest.mark.slow)


HARNESS = "test_ui_core_harness"


@pytest.fixture(autouse=True)
def _harness_sessions_closed() -> Iterator[None]:
    """After each test, the in-process harness (imported under either name) finishes and closes its sessions."""
    yield
    for name in (HARNESS, f"tests.{HARNESS}"):
        harness = sys.modules.get(name)
        if harness is not None:
            harness.close_all()
