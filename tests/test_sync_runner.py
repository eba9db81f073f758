"""SyncRunner: syncs at start, after a save, on `sync_now`; never blocks its caller; retries what may pass."""

from __future__ import annotations

import threading
from pathlib import Path

from sync_support import Devices
from test_store_support import new_match

from scorekeeper.sync.runner import SyncRunner, SyncStatus
from scorekeeper.sync.target import SyncError


def _waiter(runner: SyncRunner) -> tuple[threading.Event, list[SyncStatus]]:
    finished = threading.Event()
    seen: list[SyncStatus] = []

    def listen(status: SyncStatus) -> None:
        seen.append(status)
        if not status.running:
            finished.set()

    runner.add_listener(listen)
    return finished, seen


def test_runs_at_start_and_after_a_save_and_reports(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 2)
    a, b = devices.stores
    runner = SyncRunner(a, devices.target, after_save=0.05, interval=3600)
    finished, seen = _waiter(runner)
    runner.start()
    try:
        assert finished.wait(20)
        assert runner.status.last_error is None and runner.status.last_report is not None
        finished.clear()
        a.save_match(new_match(a, rounds=1))  # returns at once; the sync follows on the runner's thread
        assert finished.wait(20)
        assert runner.status.last_report.sent >= 1
        assert any(s.running and s.total for s in seen)  # progress was reported
        devices.sync(1)
        assert len(b.list_matches()) == 1
    finally:
        runner.stop()
        devices.close()


def test_a_failure_that_may_pass_is_retried(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 1)
    (store,) = devices.stores
    calls: list[int] = []

    class Flaky:
        name = "flaky"

        def __getattr__(self, attribute: str):
            if len(calls) < 2 and attribute == "read":
                calls.append(1)

                def fail(*_args: object) -> None:
                    raise SyncError("timeout", "flaky")

                return fail
            return getattr(devices.target, attribute)

    runner = SyncRunner(store, Flaky(), interval=3600, retry=0.05)
    done = threading.Event()
    runner.add_listener(lambda status: done.set() if status.last_report is not None else None)
    runner.start()
    try:
        assert done.wait(20)  # two time-outs, then a sync that finished
        assert len(calls) == 2 and runner.status.last_error is None
    finally:
        runner.stop()
        devices.close()


def test_sync_now_and_no_target(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 1)
    (store,) = devices.stores
    wanted: list[object] = [None]
    runner = SyncRunner(store, lambda: wanted[0], interval=3600)
    finished, _ = _waiter(runner)
    runner.start()
    try:
        wanted[0] = devices.target
        runner.sync_now()
        assert finished.wait(20)
        assert runner.status.last_report is not None
    finally:
        runner.stop()
        devices.close()
