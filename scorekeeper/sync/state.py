"""This device's sync state, kept in the data folder (`sync/`), never on the target:

    sync/device.json   {"device": <id>}      the device id, made once per data folder
    sync/state.json    {"device", "seq": n, "records": {key: record}, "targets": {target id: per target},
                        "legacy"?: per target}
    sync/.lock         one sync at a time (the app's runner and a command-line sync)

`records` maps "m:<match id>", "p:<player id>", "d:<saved game id>" to the record's version vector (`vv`),
whether it is deleted (`del`), what the local copy looked like when sync last saw it (`mark`: a match's or
saved game's (version, updated), a player's content hash) and a few `anc`estors for merging (versions.py).
They describe the data, so every target shares them. A local change is found by comparing the mark, so data
saved by any earlier version needs nothing new: its first sync publishes every record as this device's change.

What went to and came from a target is kept per target, by the identity the target carries (`target.json`
at its root, identity.py), in `TargetState`: the sequence number of this device's head there, the position
read in every other device's log there (`seen`), and the version each record had when it was last sent
there or read from there (`sent`, a fingerprint of its version vector). A record whose version vector differs
from `sent` goes out with the next sync to that target; a target new to this device (or emptied) has an empty
`sent`, so it gets every record this device holds.

A state.json written before targets had identities (no "targets") is kept as `legacy`: the state of the one
target it was last used with. The first sync with a target whose `devices/<this device>/head.json` has the
sequence number that state says this device last wrote adopts it (no full resend for an existing user); any
other target is new.
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
from scorekeeper.sync.versions import digest

PREFIX = {"match": "m", "player": "p", "digital": "d"}
"""The prefix of each kind of record's key in `records` ("m:<match id>", ...)."""


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (FileNotFoundError, ValueError):
        return None


def fingerprint(vv: dict[str, int]) -> str:
    """A version vector in a few characters (what `TargetState.sent` keeps)."""
    return digest(vv)


@dataclass
class TargetState:
    """What this device sent to and read from one target (see the module's docstring)."""

    address: str = ""
    """Where the target was reached last (a folder's path, a server's URL without user or password)."""
    head: int = 0
    """The sequence number of the head this device last wrote there (0: none yet)."""
    seen: dict[str, int] = field(default_factory=dict)
    sent: dict[str, str] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    """Device -> a log file its head names that was not there at the last sync (skipped if still missing)."""
    lost: dict[str, int] = field(default_factory=dict)
    """Device -> its head's sequence number when one of its log files was skipped as missing: said in this
    device's head there until that device has written a newer head."""
    answered: dict[str, int] = field(default_factory=dict)
    """Device -> the `lost` note about this device in its head that this device answered (sent all again)."""
    devices: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Device -> what its head said at the last sync ({"name", "app", "at", "formats"}: Settings lists them)."""

    @classmethod
    def from_doc(cls, doc: Any) -> TargetState:
        if not isinstance(doc, dict):
            return cls()
        return cls(
            str(doc.get("address", "")),
            int(doc.get("head", 0)),
            {str(k): int(v) for k, v in dict(doc.get("seen", {})).items()},
            {str(k): str(v) for k, v in dict(doc.get("sent", {})).items()},
            {str(k): str(v) for k, v in dict(doc.get("missing", {})).items()},
            {str(k): int(v) for k, v in dict(doc.get("lost", {})).items()},
            {str(k): int(v) for k, v in dict(doc.get("answered", {})).items()},
            {str(k): dict(v) for k, v in dict(doc.get("devices", {})).items() if isinstance(v, dict)},
        )

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "address": self.address,
            "head": self.head,
            "seen": self.seen,
            "sent": self.sent,
        }
        names = ("missing", "lost", "answered", "devices")
        extra = {name: getattr(self, name) for name in names if getattr(self, name)}
        return doc | extra


@dataclass
class SyncState:
    folder: Path
    device: str
    seq: int = 0
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    targets: dict[str, TargetState] = field(default_factory=dict)
    legacy: TargetState | None = None
    """The state of the target an earlier version last synced with (adopted by the target it matches)."""

    @classmethod
    def load(cls, data_dir: Path) -> SyncState:
        folder = data_dir / "sync"
        folder.mkdir(exist_ok=True)
        device = device_id(data_dir)
        doc = _read(folder / "state.json")
        if not isinstance(doc, dict) or doc.get("device") != device:
            return cls(folder, device)  # lost or damaged: the next sync publishes everything again, merges
        try:
            return cls._parse(folder, device, doc)
        except (ValueError, TypeError, AttributeError, KeyError):
            return cls(folder, device)  # damaged inside: the same

    @classmethod
    def _parse(cls, folder: Path, device: str, doc: dict[str, Any]) -> SyncState:
        records = dict(doc.get("records", {}))
        state = cls(folder, device, int(doc.get("seq", 0)), records)
        if isinstance(doc.get("targets"), dict):
            state.targets = {str(k): TargetState.from_doc(v) for k, v in doc["targets"].items()}
            state.legacy = (
                TargetState.from_doc(doc["legacy"]) if isinstance(doc.get("legacy"), dict) else None
            )
        else:  # written before targets had identities: what it says holds for the target it was last used with
            pending = {str(key) for key in doc.get("pending", [])}
            state.legacy = TargetState(
                head=state.seq,
                seen={str(k): int(v) for k, v in dict(doc.get("seen", {})).items()},
                sent={
                    k: fingerprint(r["vv"]) for k, r in records.items() if k not in pending and r.get("vv")
                },
            )
        return state

    def save(self) -> None:
        doc: dict[str, Any] = {"device": self.device, "seq": self.seq, "records": self.records}
        doc["targets"] = {key: target.to_doc() for key, target in self.targets.items()}
        if self.legacy is not None:
            doc["legacy"] = self.legacy.to_doc()
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
