"""Sync between three devices (three data folders) over a folder target: what merges silently, what is a
conflict, what is skipped, and that nothing a device saved is lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sync_support import Devices, change, rounds_of
from test_store_support import new_match, rz_round

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once


@pytest.fixture
def devices(tmp_path: Path):
    made = Devices(tmp_path)
    yield made
    made.close()


def R(a: int, b: int, c: int, out: int) -> dict:
    hands = [a, b, c]
    hands[out] = 0
    return {"hands": hands, "out": out}


def test_a_new_match_and_its_players_reach_every_device(devices: Devices) -> None:
    a, b, c = devices.stores
    match = a.save_match(new_match(a, rounds=2))
    reports = devices.sync(0, 1, 2)
    assert (reports[1].new, reports[2].new) == (1, 1)
    assert str(reports[1].summary) == "1 new game"
    for store in (b, c):
        assert rounds_of(store, match.id) == match.rounds
        assert [p.name for p in store.list_players()] == ["Anna", "Ben", "Cleo"]
    assert str(devices.sync(1)[0].summary) == "Nothing new"


def test_different_rounds_and_matches_merge_silently(devices: Devices) -> None:
    a, b, c = devices.stores
    first = a.save_match(new_match(a, rounds=2))
    second = a.save_match(new_match(a, rounds=1, seed=2))
    devices.everyone_twice()
    change(a, first.id, lambda m: m.with_round(R(5, 6, 7, 0)))
    change(b, first.id, lambda m: m.with_round_edited(0, R(1, 2, 3, 1)))
    change(c, second.id, lambda m: m.with_round(R(9, 9, 9, 2)))
    devices.everyone_twice()
    expected = [R(1, 2, 3, 1), first.rounds[1], R(5, 6, 7, 0)]
    for store in devices.stores:
        assert rounds_of(store, first.id) == expected
        assert rounds_of(store, second.id)[-1] == R(9, 9, 9, 2)
        assert store.conflicts() == []
        assert not any(s.conflict for s in store.list_matches())


def test_the_same_round_changed_on_two_devices_is_a_conflict_until_someone_chooses(devices: Devices) -> None:
    a, b, _c = devices.stores
    match = a.save_match(new_match(a, rounds=1))
    devices.everyone_twice()
    change(a, match.id, lambda m: m.with_round(R(1, 1, 1, 0)))
    change(b, match.id, lambda m: m.with_round(R(2, 2, 2, 1)))
    devices.everyone_twice()
    for store in devices.stores:
        (conflict,) = store.conflicts()
        assert conflict.match_id == match.id
        assert [s.conflict for s in store.list_matches()] == [True]
        versions = {rounds_of(store, match.id)[-1]["out"], conflict.other.match.rounds[-1]["out"]}
        assert versions == {0, 1}  # both rounds kept
    assert rounds_of(a, match.id)[-1] == R(1, 1, 1, 0)  # each device still shows its own round
    assert rounds_of(b, match.id)[-1] == R(2, 2, 2, 1)
    b.resolve_conflict(match.id, "other")  # b takes a's round
    devices.everyone_twice()
    for store in devices.stores:
        assert store.conflicts() == []
        assert rounds_of(store, match.id)[-1] == R(1, 1, 1, 0)


def test_keep_both_makes_two_games_everywhere(devices: Devices) -> None:
    a, b, _ = devices.stores
    match = a.save_match(new_match(a, rounds=1))
    devices.everyone_twice()
    change(a, match.id, lambda m: m.with_round_edited(0, R(1, 1, 1, 0)))
    change(b, match.id, lambda m: m.with_round_edited(0, R(2, 2, 2, 1)))
    devices.everyone_twice()
    a.resolve_conflict(match.id, "both")
    devices.everyone_twice()
    for store in devices.stores:
        assert store.conflicts() == []
        firsts = sorted(store.get_match(s.id).rounds[0]["out"] for s in store.list_matches())
        assert firsts == [0, 1]


def deleted_here_edited_there(devices: Devices) -> Match:
    """A one-round match all three devices have, deleted on the first while the second adds a round, both
    synced: a conflict of an edit against a delete."""
    a, b, _c = devices.stores
    match = a.save_match(new_match(a, rounds=1))
    devices.everyone_twice()
    a.delete_match(match.id)
    change(b, match.id, lambda m: m.with_round(R(3, 3, 3, 2)))
    devices.everyone_twice()
    return match


def test_an_edit_against_a_delete_is_a_conflict_and_the_trash_keeps_the_match(devices: Devices) -> None:
    a, _b, _c = devices.stores
    match = deleted_here_edited_there(devices)
    assert list(a.layout.trash.iterdir())  # the deleted match is in a's trash
    for store in devices.stores:
        (_conflict,) = store.conflicts()
        assert rounds_of(store, match.id)[-1] == R(3, 3, 3, 2)  # the edit is shown everywhere
    assert a.conflicts()[0].this_deleted
    a.resolve_conflict(match.id, "this")  # a deletes it after all
    devices.everyone_twice()
    for store in devices.stores:
        assert store.conflicts() == [] and store.list_matches() == []


def test_a_delete_reaches_every_device(devices: Devices) -> None:
    a, b, c = devices.stores
    match = a.save_match(new_match(a, rounds=1))
    devices.everyone_twice()
    c.delete_match(match.id)
    reports = devices.sync(2, 0, 1)
    assert reports[1].deleted == 1 and str(reports[1].summary) == "1 deleted"
    for store in devices.stores:
        assert store.list_matches() == []
    assert list(b.layout.trash.iterdir())


def test_player_renames_and_archive_merge_and_saved_games_sync(devices: Devices) -> None:
    from scorekeeper.store import SavedGame

    a, b, c = devices.stores
    anna = a.add_player("Anna")
    devices.everyone_twice()
    b.rename_player(anna.id, "Anna B")
    c.archive_player(anna.id)
    a.save_digital_game(SavedGame.new("ruckzuck", {"rounds": 3, "players": 2}, 7))
    devices.everyone_twice()
    for store in devices.stores:
        player = store.get_player(anna.id)
        assert (player.name, player.archived) == ("Anna B", True)
        assert len(store.list_digital_games()) == 1


def test_what_a_sync_brought_counts_players_and_games_in_progress(devices: Devices) -> None:
    """A rename or a game in progress from another device is news too ("1 player updated"), counted once
    on the device it reached, not again at the next sync, and not on the device it came from."""
    from scorekeeper.store import SavedGame

    a, b, _c = devices.stores
    anna = a.add_player("Anna")
    devices.sync(0)
    (first,) = devices.sync(1)
    assert (first.players, first.digital) == (0, 0)  # a new player comes with its games, it is not news
    a.rename_player(anna.id, "Anna A")
    saved = a.save_digital_game(SavedGame.new("ruckzuck", {"rounds": 3, "players": 2}, 7))
    assert devices.sync(0)[0].brought is False  # its own changes are not news to the device that made them
    (report,) = devices.sync(1)
    assert (report.players, report.digital) == (1, 1) and report.brought
    assert devices.sync(1)[0].brought is False  # nothing new since
    a.delete_digital_game(saved.id)
    devices.sync(0)
    (gone,) = devices.sync(1)
    assert (gone.players, gone.digital) == (0, 1)
    assert b.list_digital_games() == []


def test_a_device_reads_only_what_changed(devices: Devices, monkeypatch: pytest.MonkeyPatch) -> None:
    a, _b, _ = devices.stores
    for seed in range(30):
        a.save_match(new_match(a, rounds=1, seed=seed))
    devices.everyone_twice()
    one = a.list_matches()[0]
    change(a, one.id, lambda m: m.with_round(rz_round()))
    devices.sync(0)
    reads: list[str] = []
    original = devices.target.read
    monkeypatch.setattr(devices.target, "read", lambda path: reads.append(path) or original(path))
    assert devices.sync(1)[0].changed == 1
    assert len(reads) == 3  # own head, the head of the one device that wrote, its one new chunk
    chunk = [path for path in reads if "/log/" in path]
    assert len(json.loads(original(chunk[0])[0])["entries"]) == 1


def test_untrusted_files_are_skipped_with_the_device_named(devices: Devices) -> None:
    a, b, _ = devices.stores
    a.save_match(new_match(a, rounds=1))
    devices.sync(0)
    device = next(p.name for p in (devices.target.root / "devices").iterdir())
    folder = devices.target.root / "devices" / device
    head = json.loads((folder / "head.json").read_text())
    chunk = folder / head["chunks"][0]["file"]
    good = chunk.read_bytes()
    before = sorted(p.name for p in b.data_dir.rglob("*.json") if "sync" not in p.parts)
    for bad in (
        b"{not json",
        json.dumps(
            {"scorekeeper": "sync-log", "schema": 1, "device": device, "entries": [{"seq": "x"}]}
        ).encode(),
        b"[]",
    ):
        chunk.write_bytes(bad)
        state = b.data_dir / "sync" / "state.json"
        state.unlink(missing_ok=True)
        report = devices.sync(1)[0]
        assert report.new == 0 and report.skipped
        assert head["name"] in str(report.skipped[0])  # the device it came from is named
        assert b.list_matches() == []
    chunk.write_bytes(good)
    (b.data_dir / "sync" / "state.json").unlink()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("scorekeeper.sync.remote.MAX_FILE_BYTES", len(good) - 1)  # a huge file
        report = devices.sync(1)[0]
    assert b.list_matches() == [] and "too large" in str(report.skipped[-1])
    data = json.loads(good)
    data["entries"][0]["data"]["rounds"] = [{"hands": "lots"}]
    chunk.write_bytes(json.dumps(data).encode())
    (b.data_dir / "sync" / "state.json").unlink()
    report = devices.sync(1)[0]
    assert b.list_matches() == [] and "could not be read" in str(report.skipped[-1])
    head["schema"] = 2
    (folder / "head.json").write_text(json.dumps(head))
    report = devices.sync(1)[0]
    assert "update the app on this device" in str(report.skipped[-1])
    assert sorted(p.name for p in b.data_dir.rglob("*.json") if "sync" not in p.parts) == before


def test_data_saved_without_sync_opens_and_syncs_unchanged(devices: Devices, tmp_path: Path) -> None:
    import shutil

    old = tmp_path / "old"
    shutil.copytree(Path(__file__).parent / "fixtures" / "data_804ac6b", old)  # written by an earlier version
    match_files = {p.name: p.read_bytes() for p in (old / "matches").iterdir()}
    store = Store.open(old)
    before = {s.id: store.get_match(s.id).rounds for s in store.list_matches()}
    sync_once(store, devices.target)
    devices.sync(1)
    assert before
    assert {
        s.id: devices.stores[1].get_match(s.id).rounds for s in devices.stores[1].list_matches()
    } == before
    assert {p.name: p.read_bytes() for p in (old / "matches").iterdir()} == match_files  # untouched
    store.close()


def test_the_undo_history_travels_with_the_match(devices: Devices) -> None:
    a, b, c = devices.stores
    match = a.save_match(new_match(a, rounds=1))
    change(a, match.id, lambda m: m.with_round(R(4, 4, 4, 1)))
    devices.everyone_twice()
    history = b.match_history(match.id)
    assert history.undo is not None
    b.undo_match(match.id, history.version)  # b takes back the round a entered
    devices.everyone_twice()
    for store in devices.stores:
        assert rounds_of(store, match.id) == match.rounds[:1]
        assert store.conflicts() == []
    redo = c.match_history(match.id)
    assert redo.redo is not None
    c.redo_match(match.id, redo.version)
    devices.everyone_twice()
    for store in devices.stores:
        assert rounds_of(store, match.id)[-1] == R(4, 4, 4, 1)


def test_keeping_the_other_devices_delete_deletes_everywhere(devices: Devices) -> None:
    _a, b, _ = devices.stores
    match = deleted_here_edited_there(devices)
    (conflict,) = b.conflicts()
    assert conflict.other.deleted and not conflict.this_deleted
    b.resolve_conflict(match.id, "other")
    devices.everyone_twice()
    for store in devices.stores:
        assert store.conflicts() == [] and store.list_matches() == []
    assert list(b.layout.trash.iterdir())  # the trash keeps b's version


def test_a_second_copy_of_the_same_device_writing_at_once_is_refused(devices: Devices, monkeypatch) -> None:
    from scorekeeper.sync import engine
    from scorekeeper.sync.target import SyncError

    a = devices.stores[0]
    a.save_match(new_match(a, rounds=1))
    devices.sync(0)
    a.save_match(new_match(a, rounds=1, seed=5))
    original = engine.Run._publish

    def other_copy_first(run, own, tag):  # the other copy rewrites the head between our read and our write
        head = devices.target.read(f"devices/{run.me}/head.json")
        devices.target.write(f"devices/{run.me}/head.json", head[0] + b" ")
        original(run, own, tag)

    monkeypatch.setattr(engine.Run, "_publish", other_copy_first)
    with pytest.raises(SyncError) as refused:
        devices.sync(0)
    assert refused.value.problem == "changed" and refused.value.retry_later
    monkeypatch.undo()
    devices.sync(0, 1)  # the next sync goes through, and nothing is lost
    assert len(devices.stores[1].list_matches()) == 2


def test_the_head_stays_small_and_older_chunks_are_still_found(
    devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.sync import remote

    monkeypatch.setattr(
        remote, "CHUNK_ENTRIES", 2
    )  # the first sync's 7 records (4 games, 3 players): 4 parts
    monkeypatch.setattr(remote, "HEAD_CHUNKS", (2, 4))
    a, b, c = devices.stores
    for seed in range(4):
        a.save_match(new_match(a, rounds=1, seed=seed))
    devices.sync(0, 2)
    for seed in range(4, 14):
        a.save_match(new_match(a, rounds=1, seed=seed))
        devices.sync(0)
    device = next(p for p in (devices.target.root / "devices").iterdir())
    head = json.loads((device / "head.json").read_text())
    assert len(head["chunks"]) <= 4 and head["older"]
    assert any(p.name.endswith("-3.json") for p in (device / "log").iterdir())  # the first sync's 4th part
    devices.sync(1, 2)  # b reads from the start, c from where it stopped
    for store in (b, c):
        assert len(store.list_matches()) == 14
