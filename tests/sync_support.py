"""Three devices (three data folders) over one folder target, for the sync tests."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.match import Match
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.report import SyncReport


class Devices:
    def __init__(self, tmp_path: Path, count: int = 3) -> None:
        (tmp_path / "target").mkdir(exist_ok=True)
        self.target = FolderTarget(tmp_path / "target")
        self.stores = [Store.open(tmp_path / f"device{n}") for n in range(count)]

    def sync(self, *order: int) -> list[SyncReport]:
        return [sync_once(self.stores[n], self.target) for n in order]

    def everyone_twice(self) -> None:
        for _ in range(2):
            self.sync(*range(len(self.stores)))

    def close(self) -> None:
        for store in self.stores:
            store.close()


def rounds_of(store: Store, match_id: str) -> list[dict]:
    match = store.get_match(match_id)
    assert match is not None
    return match.rounds


def change(store: Store, match_id: str, edit) -> Match:
    match = store.get_match(match_id)
    assert match is not None
    edit(match)
    return store.save_match(match)
