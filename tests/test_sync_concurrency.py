"""Merging under concurrency (issue 49, point 3), deterministic: two devices that each changed different parts
of a match merge cleanly however often one of them syncs while the other's change is on its way, and however
a save on a device falls inside its own sync. Each test interleaves the two devices' syncs at a fixed point (a
target that runs the other device's saves and syncs when the syncing device is about to write), so it needs
no threads and no timing."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from sync_support import Devices, a_round, change, game

from scorekeeper.model import playtime
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.state import SyncState
from scorekeeper.sync.versions import ANCESTORS_KEPT


class Meanwhile:
    """A folder target that runs `then` once, the first time the device syncing through it writes (it has read
    every other device by then): what another device does while this sync is on its way."""

    def __init__(self, target: FolderTarget, then: Callable[[], None], on: str = "write") -> None:
        self.target, self.then, self.on, self.name = target, then, on, target.name
        self.done = False

    def _maybe(self, kind: str, path: str) -> None:
        if not self.done and kind == self.on and (kind == "write" or "/log/" in path):
            self.done = True
            self.then()

    def read(self, path: str) -> tuple[bytes, str] | None:
        self._maybe("read", path)
        return self.target.read(path)

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        self._maybe("write", path)
        return self.target.write(path, data, expect)

    def list(self, folder: str) -> list[str]:
        return self.target.list(folder)

    def check(self) -> None:
        self.target.check()


@pytest.fixture
def two(tmp_path: Path):
    made = Devices(tmp_path, count=2)
    yield made
    made.close()


def _no_conflict(devices: Devices) -> None:
    for store in devices.stores:
        assert store.conflicts() == [], "no conflict: the two devices changed different parts"


def _same(devices: Devices, match_id: str) -> None:
    contents = [dataclasses.asdict(store.get_match(match_id)) for store in devices.stores]  # type: ignore[arg-type]
    for one in contents:
        for local in ("version", "updated"):
            one.pop(local)
    assert contents[0] == contents[1], "both devices hold the same match"


@pytest.mark.parametrize("busy_syncs", [1, 4, 9])
def test_notes_written_while_the_other_device_syncs_many_rounds_merge(two: Devices, busy_syncs: int) -> None:
    """Device 1 plays on and syncs `busy_syncs` times while device 0's note is on its way (device 0 read
    device 1 before those syncs, wrote after them): the note and every round arrive on both, no conflict."""
    a, b = two.stores
    match = begun(a)
    two.sync(0, 1, 0)
    change(a, match.id, lambda m: dataclasses.replace(m, notes="a long evening"))

    def busy() -> None:
        for n in range(busy_syncs):
            change(b, match.id, played(n))
            sync_once(b, two.target)

    sync_once(a, Meanwhile(two.target, busy))
    two.sync(1)
    _no_conflict(two)  # not even for a while: a conflict on a device that plays on would stay there
    two.sync(0, 1, 0)
    _no_conflict(two)
    _same(two, match.id)
    final = a.get_match(match.id)
    assert final is not None and final.notes == "a long evening"
    assert len(final.rounds) == 1 + busy_syncs


def test_a_save_inside_every_sync_of_the_busy_device_still_merges(two: Devices) -> None:
    """Device 1 saves a round while each of its syncs reads device 0's new note (so the merge cannot be written
    then and waits for the next sync), again and again: every note and every round end on both devices, no
    conflict."""
    a, b = two.stores
    match = begun(a)
    two.sync(0, 1, 0)
    saved = 1
    for n in range(6):
        change(a, match.id, lambda m, n=n: dataclasses.replace(m, notes=f"note {n}"))
        sync_once(a, two.target)
        change(b, match.id, played(n))

        def save(n: int = n) -> None:
            change(b, match.id, played(100 + n))

        sync_once(b, Meanwhile(two.target, save, on="read"))
        saved += 2
    two.sync(1, 0, 1, 0, 1)
    _no_conflict(two)
    _same(two, match.id)
    final = a.get_match(match.id)
    assert final is not None and final.notes == "note 5" and len(final.rounds) == saved


def test_both_devices_busy_while_the_other_syncs_merge(two: Devices) -> None:
    """Each device edits its own part and syncs several times while the other's sync is on its way, in turn."""
    a, b = two.stores
    match = begun(a)
    two.sync(0, 1, 0)
    for turn in range(4):
        change(a, match.id, lambda m, turn=turn: dataclasses.replace(m, notes=f"note {turn}"))

        def busy(turn: int = turn) -> None:
            for n in range(5):
                change(b, match.id, played(10 * turn + n))
                sync_once(b, two.target)

        sync_once(a, Meanwhile(two.target, busy))

        def other(turn: int = turn) -> None:
            for n in range(5):
                change(a, match.id, lambda m, n=n: dataclasses.replace(m, notes=f"note {turn}.{n}"))
                sync_once(a, two.target)

        change(b, match.id, played(500 + turn))
        sync_once(b, Meanwhile(two.target, other))
    two.sync(0, 1, 0, 1)
    _no_conflict(two)
    _same(two, match.id)


def test_old_sync_state_with_a_plain_ancestor_list_still_merges(two: Devices) -> None:
    """A state.json written by an earlier version (ancestors as a plain list of {vv, h}) loads and merges."""
    a, b = two.stores
    match = begun(a)
    two.sync(0, 1, 0)
    for store in (a, b):
        state = SyncState.load(store.data_dir)
        rec = state.records[f"m:{match.id}"]
        assert isinstance(rec["anc"], list)
        rec["anc"] = [{"vv": c["vv"], "h": c["h"]} for c in rec["anc"]][-4:]
        state.save()
    change(a, match.id, lambda m: dataclasses.replace(m, notes="n"))
    change(b, match.id, played(1))
    two.sync(0, 1, 0, 1)
    _no_conflict(two)
    _same(two, match.id)


def a_round_seeded(seed: int) -> dict:
    return a_round(random.Random(seed))


def played(seed: int) -> Callable[[Match], Match]:
    """A round entered, with the clock paused or resumed around it (what a busy scoreboard changes)."""

    def edit(match: Match) -> Match:
        clock = match.clock or playtime.started([], now_iso())
        clock = playtime.stopped(clock, now_iso()) if seed % 2 else playtime.started(clock, now_iso())
        return dataclasses.replace(match, clock=clock).with_round(a_round_seeded(seed))

    return edit


def begun(store, rounds: int = 1) -> Match:
    """A match with notes, a place and a running clock (every field there from the start), saved."""
    match = game(store, rounds=rounds)
    return change(
        store,
        match.id,
        lambda m: dataclasses.replace(m, notes="begun", place="home", clock=playtime.started([], now_iso())),
    )


def test_the_ancestors_stay_readable_by_the_version_before_and_small(two: Devices) -> None:
    """After busy syncs on both sides, every entry of a record's ancestors still has a vector and hashes (what
    the version before reads); the window is one entry with an empty vector and no hashes (an empty ancestor
    there, the same as none); beside it, only the last few versions and the tagged ones are listed."""
    test_both_devices_busy_while_the_other_syncs_merge(two)
    windows = 0
    for store in two.stores:
        state = SyncState.load(store.data_dir)
        for rec in state.records.values():
            for entry in rec["anc"]:
                assert isinstance(entry["vv"], dict) and isinstance(entry["h"], dict)
                if "w" in entry:
                    windows += 1
                    assert entry["vv"] == {} and entry["h"] == {}
            listed = [entry for entry in rec["anc"] if "w" not in entry]
            assert len([entry for entry in listed if not entry.get("by")]) <= ANCESTORS_KEPT
            assert len(listed) <= ANCESTORS_KEPT + 3 * len(two.stores)
    assert windows, "the busy syncs left versions in a window"
