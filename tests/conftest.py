"""Fixtures every test folder can use: the real WebDAV server the sync tests run against (tests/sync_servers.py).
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


HARNESS = "test_ui_core_harness"


@pytest.fixture(autouse=True)
def _harness_sessions_closed() -> Iterator[None]:
    """After each test, the in-process harness (imported under either name) finishes and closes its sessions."""
    yield
    for name in (HARNESS, f"tests.{HARNESS}"):
        harness = sys.modules.get(name)
        if harness is not None:
            harness.close_all()
