"""Three devices (three data folders) over one folder target, for the sync tests."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from sync_servers import PASSWORD, USER

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.report import SyncReport

ROOT = Path(__file__).resolve().parents[1]


def cli_sync(data: Path, url: str, password: str = PASSWORD) -> subprocess.CompletedProcess[str]:
    """`main.py --data-dir DATA sync --to URL`, as a user runs it, with the sync account in the environment."""
    environment = {**os.environ, "SCOREKEEPER_SYNC_USER": USER, "SCOREKEEPER_SYNC_PASSWORD": password}
    environment.pop("SCOREKEEPER_DATA", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--data-dir", str(data), "sync", "--to", url],
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
        timeout=120,
    )


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


def as_before_1_0(target: Path, store: Store) -> None:
    """Make the device's head on a folder target look like one of a version before 1.0.0 (which says nothing
    of its version, formats and time)."""
    device = json.loads((store.data_dir / "sync" / "device.json").read_text())["device"]
    path = target / "devices" / device / "head.json"
    doc = json.loads(path.read_bytes())
    for key in ("app", "formats", "at"):
        doc.pop(key)
    path.write_bytes(json.dumps(doc).encode())


def rounds_of(store: Store, match_id: str) -> list[dict]:
    match = store.get_match(match_id)
    assert match is not None
    return match.rounds


def change(store: Store, match_id: str, edit) -> Match:
    """`edit` (Match -> Match) applied to the stored match on this device, as the app's screens change it."""
    return store.change_match(match_id, edit)


def game(store: Store, rounds: int = 1, seed: int = 1) -> Match:
    """A Ruck Zuck match of Anna, Ben and Cleo (players made as needed) with `rounds` rounds, saved."""
    rng = random.Random(seed)
    existing = {p.name: p for p in store.list_players()}
    people = [existing.get(n) or store.add_player(n) for n in ("Anna", "Ben", "Cleo")]
    match = Match.new("ruckzuck", {"rounds": 50}, [p.id for p in people], names=[p.name for p in people])
    for _ in range(rounds):
        match = match.with_round(a_round(rng))
    return store.save_match(match)


def a_round(rng: random.Random) -> dict:
    """A valid Ruck Zuck round of three: one seat went out, the others typed their penalty totals."""
    out = rng.randrange(3)
    return {"hands": [0 if seat == out else rng.randrange(1, 60) for seat in range(3)], "out": out}
