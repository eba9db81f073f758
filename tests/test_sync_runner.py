"""SyncRunner: syncs at start, after a save, on `sync_now`; never blocks its caller; retries what may pass."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from sync_support import Devices
from test_store_support import new_match

from scorekeeper.exchange.transfer import export_json_text, import_json_text
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame
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
    match = new_match(a, rounds=1)  # its players are added now (each addition syncs too)
    runner = SyncRunner(a, devices.target, after_save=0.05, interval=3600)
    finished, seen = _waiter(runner)
    runner.start()
    try:
        assert finished.wait(20)
        assert runner.status.last_error is None and runner.status.last_report is not None
        finished.clear()
        match = a.save_match(match)  # returns at once; the sync follows on the runner's thread
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


def _rename(store: Store) -> None:
    store.rename_player(store.list_players()[0].id, "Anna B.")


def _archive(store: Store) -> None:
    store.archive_player(store.list_players()[0].id)


def _add(store: Store) -> None:
    store.add_player("Ben")


def _save_game(store: Store) -> None:
    store.save_digital_game(SavedGame.new("racko", {"players": 2}, 7, log=["stock"]))


def _delete_game(store: Store) -> None:
    store.delete_digital_game(store.list_digital_games()[0].id)


@pytest.mark.parametrize("edit", [_add, _rename, _archive, _save_game, _delete_game])
def test_every_synced_kind_of_change_syncs_after_a_save(
    tmp_path: Path, edit: Callable[[Store], None]
) -> None:
    """Players and saved digital games sync a few seconds after a change, like matches (not only at the next
    interval): the change reaches the other device without a "Sync now"."""
    devices = Devices(tmp_path, 2)
    a, b = devices.stores
    a.add_player("Anna")  # made before the runner starts: each test's one change follows its first sync
    a.save_digital_game(SavedGame.new("racko", {"players": 2}, 8))
    runner = SyncRunner(a, devices.target, after_save=0.05, interval=3600)
    finished, _ = _waiter(runner)
    runner.start()
    try:
        assert finished.wait(20)  # the first sync, at start
        finished.clear()
        edit(a)
        assert finished.wait(20), "no sync followed the change"
        assert runner.status.last_report is not None and runner.status.last_report.sent >= 1
        devices.sync(1)
        assert [p.to_dict() for p in b.list_players(True)] == [p.to_dict() for p in a.list_players(True)]
        assert {g.id for g in b.list_digital_games()} == {g.id for g in a.list_digital_games()}
    finally:
        runner.stop()
        devices.close()


def test_the_store_tells_each_kind_of_change(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    told: list[tuple[str, str]] = []
    store.watch_changes(lambda kind, record_id: told.append((kind, record_id)))
    try:
        player = store.add_player("Anna")
        store.rename_player(player.id, "Anna B.")
        store.archive_player(player.id)
        game = store.save_digital_game(SavedGame.new("racko", {"players": 2}, 1))
        store.delete_digital_game(game.id)
        import_json_text(store, export_json_text(store))
        assert told == [
            ("player", player.id),
            ("player", player.id),
            ("player", player.id),
            ("digital", game.id),
            ("digital", game.id),
            ("import", ""),
        ]
    finally:
        store.close()
