"""Fixtures every test folder can use: the real WebDAV server the sync tests run against (tests/sync_servers.py).
And one rule for the in-process UI tests: a coroutine the app makes and never runs fails the test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from sync_servers import DavServer, wsgidav_server


@pytest.fixture
def webdav_server(tmp_path: Path) -> Iterator[DavServer]:
    """WsgiDAV on a free loopback port over a fresh folder (with "sync/" made), a user and a password, and a
    fault layer in front (`webdav_server.faults.append(Fault(507, "PUT", after=3))`)."""
    with wsgidav_server(tmp_path) as server:
        yield server


HARNESS = "test_ui_core_harness"

NEVER_AWAITED = (
    pytest.mark.filterwarnings("error:coroutine .* was never awaited:RuntimeWarning"),
    # Python reports that warning from the coroutine's finalizer, where it cannot raise: pytest passes it on as
    # an unraisable-exception warning in the test that dropped the coroutine.
    pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning"),
)


def uses_harness(module: ModuleType) -> bool:
    """The module builds screens on the in-process harness: it takes something from it, or from a test module
    that does (its fixtures)."""
    for value in vars(module).values():
        name = origin(value)
        if name.endswith(HARNESS):
            return True
        other = sys.modules.get(name)
        tests_module = other is not None and other is not module and name.startswith(("test_", "tests."))
        if tests_module and any(origin(v).endswith(HARNESS) for v in vars(other).values()):
            return True
    return False


def origin(value: object) -> str:
    """The name of the module `value` was defined in ("" for values without one)."""
    return str(getattr(value, "__module__", "") or "")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Not for the whole suite: servers and threads there end coroutines at shutdown, at no test in particular.
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and uses_harness(module):
            for mark in NEVER_AWAITED:
                item.add_marker(mark)


@pytest.fixture(autouse=True)
def _harness_sessions_closed() -> Iterator[None]:
    """After each test, the in-process harness (imported under either name) finishes and closes its sessions."""
    yield
    for name in (HARNESS, f"tests.{HARNESS}"):
        harness = sys.modules.get(name)
        if harness is not None:
            harness.close_all()
