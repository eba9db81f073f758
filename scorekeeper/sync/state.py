"""This device's sync state, kept in the data folder (`sync/`), never on the target:

    sync/device.json   {"device": <id>}      the device id, made once per data folder
    sync/state.json    {"seq": n, "seen": {device: seq}, "records": {key: record}, "pending": [key]}
    sync/.lock         one sync at a time (the app's runner and a command-line sync)

`records` maps "m:<match id>", "p:<player id>", "d:<saved game id>" to the record's version vector (`vv`),
whether it is deleted (`del`), what the local copy looked like when sync last saw it (`mark`: a match's or
saved game's (version, updated), a player's content hash) and a few `anc`estors for merging (versions.py).
A local change is found by comparing the mark, so data saved by any earlier version needs nothing new: its
first sync publishes every record as this device's change.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.store.locking import FolderLock
from scorekeeper.store.storage import atomic_write_bytes, dumps, is_tmp

PREFIX = {"match": "m", "player": "p", "digital": "d"}
"""The prefix of each kind of record's key in `records` ("m:<match id>", ...)."""


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (FileNotFoundError, ValueError):
        return None


@dataclass
class SyncState:
    folder: Path
    device: str
    seq: int = 0
    seen: dict[str, int] = field(default_factory=dict)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)
    """Records whose version is not on the target yet (a sync stopped after merging, before writing)."""

    @classmethod
    def load(cls, data_dir: Path) -> SyncState:
        folder = data_dir / "sync"
        folder.mkdir(exist_ok=True)
        device = device_id(data_dir)
        doc = _read(folder / "state.json")
        if not isinstance(doc, dict) or doc.get("device") != device:
            return cls(folder, device)  # lost or damaged: the next sync publishes everything again, merges
        return cls(
            folder,
            device,
            int(doc.get("seq", 0)),
            {str(k): int(v) for k, v in dict(doc.get("seen", {})).items()},
            dict(doc.get("records", {})),
            [str(key) for key in doc.get("pending", [])],
        )

    def save(self) -> None:
        doc = {"device": self.device, "seq": self.seq, "seen": self.seen, "records": self.records}
        doc["pending"] = self.pending
        atomic_write_bytes(self.folder / "state.json", dumps(doc))

    def record(self, key: str) -> dict[str, Any]:
        return self.records.setdefault(key, {"vv": {}, "del": False, "mark": None, "anc": []})

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq


def device_id(data_dir: Path) -> str:
    """This data folder's device id, made at its first sync and kept (`sync/device.json`)."""
    path = data_dir / "sync" / "device.json"
    doc = _read(path)
    if isinstance(doc, dict) and isinstance(doc.get("device"), str) and doc["device"].isalnum():
        return doc["device"]
    path.parent.mkdir(parents=True, exist_ok=True)
    device = uuid.uuid4().hex[:16]
    atomic_write_bytes(path, dumps({"device": device}))
    return device


@contextlib.contextmanager
def sync_lock(data_dir: Path) -> Iterator[None]:
    """One sync of a data folder at a time, across threads and processes."""
    folder = data_dir / "sync"
    folder.mkdir(parents=True, exist_ok=True)
    lock = FolderLock(folder / ".lock")
    try:
        with lock.held():
            for entry in os.scandir(folder):  # temporary files of a sync that was killed
                if is_tmp(entry.name):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
            yield
    finally:
        lock.close()
