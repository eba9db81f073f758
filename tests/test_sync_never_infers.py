"""No absence and no refusal ever becomes a deletion; what was skipped is asked for again; a deletion from a
device of a version before 1.0.0 is held for a person (issue: any device, any version, any order).

A "feeder" device here is written by hand on the folder target (its head and log files), so it can send what
no device of this version would: a damaged record, a junk file, a head without a version.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sync_support import Devices, as_before_1_0, game

from scorekeeper.release import FORMATS, VERSION
from scorekeeper.store import Store
from scorekeeper.sync import remote
from scorekeeper.sync.devices import devices_seen
from scorekeeper.sync.engine import Run, sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.held import HeldRecords

FEEDER = "feed0000feed0000"


def feed(target: Path, entries: list[remote.Entry], *, app: str = "", first: int = 1) -> None:
    """The feeder device's head and one log file holding `entries` (a head without `app`: before 1.0.0)."""
    folder = target / "devices" / FEEDER
    (folder / "log").mkdir(parents=True, exist_ok=True)
    last = entries[-1].seq
    file = f"log/{last:010d}-00000000.json"
    (folder / file).write_bytes(remote.chunk_bytes(FEEDER, entries))
    chunks = (remote.Chunk(first, last, file),)
    formats = tuple(sorted(FORMATS.items())) if app else ()
    head = remote.Head(FEEDER, "Anna's phone", last, chunks, None, (), app, formats, "2026-12-07T10:00:00Z")
    (folder / "head.json").write_bytes(remote.head_bytes(head))


def a_match(store: Store) -> dict[str, Any]:
    """A stored match's data, as another device would publish it (a copy to spoil)."""
    made = game(store, rounds=2)
    data, _ = store.matches.stored(made.id)
    assert data is not None
    return {k: v for k, v in data.items() if k != "version"}


def own_entries(target: Path, store: Store) -> list[dict[str, Any]]:
    """Every entry this device ever wrote to the target."""
    device = json.loads((store.data_dir / "sync" / "device.json").read_text())["device"]
    found = []
    for path in sorted((target / "devices" / device / "log").glob("*.json")):
        doc = json.loads(path.read_bytes())
        found += doc.get("entries", [])
    return found


def spoiled(kind: str, data: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """(kind, id, data) of a record this version refuses to store: every refusal `Run._unreadable` makes."""
    if kind == "unscorable":
        rounds = [dict(data["rounds"][0], hands=[1, 2])]  # two hands for three seats
        return "match", data["id"], {**data, "id": "spoilt1", "rounds": rounds}
    if kind == "wrong type":
        return "match", data["id"], {**data, "id": "spoilt2", "players": "Anna"}
    if kind == "player":
        return "player", "pl1", {"id": "pl1", "name": 7}
    return "digital", "dg1", {"id": "dg1", "game": "racko", "seats": "two"}


@pytest.mark.parametrize("kind", ["unscorable", "wrong type", "player", "saved game"])
def test_a_record_that_cannot_be_read_is_held_and_never_sent_as_deleted(tmp_path: Path, kind: str) -> None:
    devices = Devices(tmp_path, 2)
    try:
        base = a_match(devices.stores[1])
        record_kind, _, data = spoiled(kind, base)
        bad = remote.Entry(1, record_kind, data["id"], {FEEDER: 1}, False, data)
        feed(tmp_path / "target", [bad])
        first = sync_once(devices.stores[0], devices.target)
        assert any("kept until this app can read it" in str(m) for m in first.skipped)
        for _ in range(3):  # the next syncs neither say it again as new nor delete it
            again = sync_once(devices.stores[0], devices.target)
            assert not any("kept until" in str(m) for m in again.skipped)
            assert any("cannot be read here" in str(m) for m in again.notes)
        sent = own_entries(tmp_path / "target", devices.stores[0])
        assert not [e for e in sent if e["id"] == data["id"] and e["deleted"]]
        key = {"match": "m", "player": "p", "digital": "d"}[record_kind] + ":" + data["id"]
        held = HeldRecords(devices.stores[0].data_dir / "sync")
        assert held.items[key].entry.data == data and held.items[key].name == "Anna's phone"
        state = json.loads((devices.stores[0].data_dir / "sync" / "state.json").read_bytes())
        assert key not in state["records"]  # nothing about it in the sync state: nothing to infer from
    finally:
        devices.close()


def test_a_held_record_is_stored_once_the_app_can_read_it(tmp_path: Path, monkeypatch) -> None:
    """An update of the app that reads it: the next sync stores it, and it leaves the hold."""
    devices = Devices(tmp_path, 2)
    try:
        data = {**a_match(devices.stores[1]), "id": "later1"}
        feed(tmp_path / "target", [remote.Entry(1, "match", "later1", {FEEDER: 1}, False, data)], app="9.0.0")
        real = Run._unreadable
        monkeypatch.setattr(
            Run, "_unreadable", lambda self, entry: "too new" if entry.id == "later1" else None
        )
        sync_once(devices.stores[0], devices.target)
        assert devices.stores[0].get_match("later1") is None
        assert "m:later1" in HeldRecords(devices.stores[0].data_dir / "sync").items
        monkeypatch.setattr(Run, "_unreadable", real)  # the app was updated
        report = sync_once(devices.stores[0], devices.target)
        assert devices.stores[0].get_match("later1") is not None and report.new == 1
        assert HeldRecords(devices.stores[0].data_dir / "sync").items == {}
    finally:
        devices.close()


def test_a_held_record_goes_on_unchanged_to_another_target(tmp_path: Path) -> None:
    """A device between two targets passes on what it cannot read, with its version vector, and not back."""
    devices = Devices(tmp_path, 2)
    try:
        data = spoiled("unscorable", a_match(devices.stores[1]))[2]
        feed(tmp_path / "target", [remote.Entry(1, "match", data["id"], {FEEDER: 1}, False, data)])
        sync_once(devices.stores[0], devices.target)
        (tmp_path / "other").mkdir()
        other = FolderTarget(tmp_path / "other")
        sync_once(devices.stores[0], other)
        passed = [e for e in own_entries(tmp_path / "other", devices.stores[0]) if e["id"] == data["id"]]
        assert [(e["vv"], e["deleted"], e["data"]) for e in passed] == [({FEEDER: 1}, False, data)]
        sync_once(devices.stores[0], devices.target)
        back = [e for e in own_entries(tmp_path / "target", devices.stores[0]) if e["id"] == data["id"]]
        assert back == []
    finally:
        devices.close()


def test_a_game_gone_without_a_delete_is_not_deleted_elsewhere(tmp_path: Path) -> None:
    """A match file set aside as damaged (or lost with a restored folder) is no person's delete."""
    devices = Devices(tmp_path, 2)
    try:
        made = game(devices.stores[0], rounds=2)
        devices.everyone_twice()
        path = devices.stores[0].matches.path(made.id)
        path.rename(path.with_name(path.name + ".corrupt-20261207T100000"))
        devices.stores[0].close()
        devices.stores[0] = Store.open(tmp_path / "device0")
        assert devices.stores[0].get_match(made.id) is None
        devices.everyone_twice()
        assert not [e for e in own_entries(tmp_path / "target", devices.stores[0]) if e["deleted"]]
        assert devices.stores[1].get_match(made.id) is not None
    finally:
        devices.close()


def test_a_persons_delete_still_travels(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 2)
    try:
        made = game(devices.stores[0])
        devices.everyone_twice()
        devices.stores[0].delete_match(made.id)
        devices.everyone_twice()
        assert devices.stores[1].get_match(made.id) is None
        assert devices.stores[1].conflicts() == []
    finally:
        devices.close()


def test_a_delete_from_a_device_before_1_0_is_held_as_a_conflict(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 2)
    try:
        made = game(devices.stores[0], rounds=2)
        devices.everyone_twice()
        devices.stores[1].delete_match(made.id)
        sync_once(devices.stores[1], devices.target)
        as_before_1_0(tmp_path / "target", devices.stores[1])
        report = sync_once(devices.stores[0], devices.target)
        assert devices.stores[0].get_match(made.id) is not None
        assert [c.match_id for c in devices.stores[0].conflicts()] == [made.id]
        said = " ".join(str(m) for m in report.notes)
        assert "from before" in said and "update the app on" in said
        assert [d.outdated for d in devices_seen(devices.stores[0].data_dir)] == [True]
    finally:
        devices.close()


def test_every_head_says_its_version_formats_and_time(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 2)
    try:
        game(devices.stores[0])
        devices.everyone_twice()
        device = json.loads((devices.stores[0].data_dir / "sync" / "device.json").read_text())["device"]
        head = remote.parse_head((tmp_path / "target" / remote.head_path(device)).read_bytes(), device)
        assert (head.app, dict(head.formats)) == (VERSION, FORMATS) and head.at.startswith("20")
        seen = devices_seen(devices.stores[1].data_dir)
        assert [(d.device, d.app, d.outdated, d.newer) for d in seen] == [(device, VERSION, False, False)]
    finally:
        devices.close()


JUNK = {
    "too large": b" " * (remote.MAX_FILE_BYTES + 1),
    "not JSON": b"\x00\xff junk",
    "wrong shape": b'{"scorekeeper": "sync-log", "schema": 1, "device": "x", "entries": 3}',
}


@pytest.mark.parametrize("junk", list(JUNK))
def test_a_skipped_file_is_asked_for_again_until_everything_arrived(tmp_path: Path, junk: str) -> None:
    """A device's log file replaced by junk on the target: skipped with a sentence; the device that wrote it is
    asked to send everything again, and the reader ends with every game (before: stuck at what it had)."""
    devices = Devices(tmp_path, 3)
    try:
        writer, reader = devices.stores[1], devices.stores[2]
        for seed in range(3):
            game(writer, seed=seed)
        devices.sync(1, 2)
        for seed in range(3, 7):
            game(writer, seed=seed)
        devices.sync(1)
        device = json.loads((writer.data_dir / "sync" / "device.json").read_text())["device"]
        head = remote.parse_head((tmp_path / "target" / remote.head_path(device)).read_bytes(), device)
        log = tmp_path / "target" / "devices" / device / head.chunks[-1].file
        log.write_bytes(JUNK[junk])
        first = sync_once(reader, devices.target)
        assert first.skipped and len(reader.list_matches()) < 7
        assert any("Still waiting for" in str(m) for m in first.notes)
        devices.sync(1)  # the writer reads the reader's head: it sends everything again
        report = sync_once(reader, devices.target)
        assert len(reader.list_matches()) == 7
        assert not any("Still waiting for" in str(m) for m in report.notes)
        assert not [e for e in own_entries(tmp_path / "target", reader) if e["deleted"]]
    finally:
        devices.close()


def test_a_photo_whose_file_is_missing_is_said_once_and_asked_for_from_who_has_it(tmp_path: Path) -> None:
    """Device 0 took the photo and sent it; device 1 got it; device 0's file and the target's copy are lost
    (a restored phone, a sync tool that dropped it). Device 0 says so once, device 2 (which never got it) says
    once that it waits, both ask for it in their heads, and device 1 writes it again: everyone has it."""
    import dataclasses
    import io

    from PIL import Image

    devices = Devices(tmp_path, 3)
    try:
        first = devices.stores[0]
        match = game(first, rounds=1)
        out = io.BytesIO()
        Image.new("RGB", (800, 600), (200, 30, 30)).save(out, "JPEG")
        photo_id = first.photos.add(out.getvalue())
        first.change_match(match.id, lambda m: dataclasses.replace(m, photos=[photo_id]))
        devices.sync(0, 1)
        assert devices.stores[1].photos.image(photo_id) is not None
        for path in (
            first.photos.path(photo_id),
            *(tmp_path / "target").glob(f"devices/*/photos/{photo_id}*"),
        ):
            path.unlink()
        first.change_match(match.id, lambda m: dataclasses.replace(m, notes="the photo's file is gone here"))
        said = " ".join(str(m) for m in devices.sync(0)[0].notes)
        assert "missing on this device" in said
        waiting = " ".join(str(m) for m in devices.sync(2)[0].notes)
        assert "not on the sync target yet" in waiting
        again = devices.sync(0, 2)
        assert not any(
            "missing on this device" in str(m) or "target yet" in str(m) for r in again for m in r.notes
        )
        devices.sync(1, 0, 2)  # device 1 reads the heads asking for it and writes it again
        assert [store.photos.image(photo_id) is not None for store in devices.stores] == [True] * 3
        assert devices.stores[2].get_match(match.id).notes == "the photo's file is gone here"
    finally:
        devices.close()


def test_a_second_delete_from_an_old_device_joins_the_open_conflict(tmp_path: Path) -> None:
    """The old device deletes again while the first deletion waits as a conflict: the conflict holds the newer
    deletion, so a person's decision answers it (the kept game's version has seen it)."""
    devices = Devices(tmp_path, 1)
    try:
        here = devices.stores[0]
        made = game(here, rounds=2)
        devices.sync(0)
        state = json.loads((here.data_dir / "sync" / "state.json").read_bytes())
        mine = state["records"][f"m:{made.id}"]["vv"]
        first = remote.Entry(1, "match", made.id, {**mine, FEEDER: 1}, True, None)
        feed(tmp_path / "target", [first])
        devices.sync(0)
        assert [c.match_id for c in here.conflicts()] == [made.id]
        second = remote.Entry(2, "match", made.id, {**mine, FEEDER: 2}, True, None)
        feed(tmp_path / "target", [first, second])
        devices.sync(0)
        (conflict,) = here.conflicts()
        assert [o.versions for o in conflict.others] == [{**mine, FEEDER: 2}]
        here.resolve_conflict(made.id, "this")
        devices.sync(0)
        state = json.loads((here.data_dir / "sync" / "state.json").read_bytes())
        assert state["records"][f"m:{made.id}"]["vv"][FEEDER] == 2
        assert here.get_match(made.id) is not None and here.conflicts() == []
    finally:
        devices.close()
