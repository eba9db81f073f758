"""Records from other devices that this device cannot store (yet): held as they came, never a deletion.

A record another device sent that this version cannot read (a damaged entry, a round it cannot score, a field
or option a newer version added that it must not take over) used to be dropped after its sync state record was
made, and the next sync then found a state record without a game and told every device the game was deleted.
Now nothing about it enters the sync state: the entry is kept here, whole, in `sync/held.json`:

    {"held": {key: {"device", "name", "app", "reason", "newer", "targets": [...], "entry": {...as in a log
    file}}}}

- it is tried again at every sync (`Run.retry_held`): after an update of the app it is stored like any other;
- it is passed on unchanged to every other target this device syncs with (`Run.pass_on_held`), so a device
  between two targets never stands in the way of a game;
- it is listed in the report and in Settings ("2 games from Anna's phone need a newer version of the app").

Lost or damaged, the file starts again empty: the devices that wrote the records still have them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.games.base import Message, Plural
from scorekeeper.store.storage import atomic_write_bytes, dumps
from scorekeeper.sync.remote import Entry, Head, entry_doc, parse_entry

FILE = "held.json"


@dataclass
class Held:
    """One record held here: the entry as it came, which device sent it and why it is not stored."""

    device: str
    name: str
    app: str
    reason: str
    newer: bool
    entry: Entry
    targets: set[str] = field(default_factory=set)
    """The targets (by identity) that have it: the one it came from, and those it was passed on to."""

    def to_doc(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "name": self.name,
            "app": self.app,
            "reason": self.reason,
            "newer": self.newer,
            "targets": sorted(self.targets),
            "entry": entry_doc(self.entry),
        }


class HeldRecords:
    """The records held in a data folder's `sync/held.json` (by key: "m:<id>", "p:<id>", "d:<id>")."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE
        self.items: dict[str, Held] = {}
        self.changed = False
        try:
            doc = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return
        items = doc.get("held") if isinstance(doc, dict) else None
        for key, item in items.items() if isinstance(items, dict) else ():
            entry = parse_entry(item.get("entry")) if isinstance(item, dict) else None
            if entry is None:
                continue
            self.items[str(key)] = Held(
                str(item.get("device", "")),
                str(item.get("name", "")),
                str(item.get("app", "")),
                str(item.get("reason", "")),
                bool(item.get("newer")),
                entry,
                {str(t) for t in item.get("targets", []) if isinstance(t, str)}
                if isinstance(item.get("targets"), list)
                else set(),
            )

    def hold(self, key: str, head: Head, entry: Entry, reason: str, *, newer: bool) -> None:
        """Keep `entry` (unless a later version of the same record is held already)."""
        known = self.items.get(key)
        if known is not None and _covers(known.entry.vv, entry.vv):
            return
        self.items[key] = Held(head.device, head.name, head.app, reason, newer, entry)
        self.changed = True

    def release(self, key: str) -> None:
        """The record was stored (or a later version replaced it): no longer held."""
        if self.items.pop(key, None) is not None:
            self.changed = True

    def save(self) -> None:
        if self.changed:
            doc = {"held": {key: held.to_doc() for key, held in sorted(self.items.items())}}
            atomic_write_bytes(self.path, dumps(doc))
            self.changed = False

    def summary(self) -> list[Message]:
        """A sentence per device whose records wait here: for a newer version, or as unreadable."""
        waiting: dict[tuple[str, bool], int] = {}
        for held in self.items.values():
            name = held.name or held.device
            waiting[(name, held.newer)] = waiting.get((name, held.newer), 0) + 1
        said: list[Message] = []
        for (name, newer), count in sorted(waiting.items()):
            if newer:
                said.append(
                    Plural(
                        "{n} record from {device} needs a newer version of the app: update the app on this "
                        "device to see it.",
                        "{n} records from {device} need a newer version of the app: update the app on this "
                        "device to see them.",
                        count,
                        device=name,
                    )
                )
            else:
                said.append(
                    Plural(
                        "{n} record from {device} cannot be read here; it is kept and tried again at every "
                        "sync.",
                        "{n} records from {device} cannot be read here; they are kept and tried again at every "
                        "sync.",
                        count,
                        device=name,
                    )
                )
        return said


def _covers(a: dict[str, int], b: dict[str, int]) -> bool:
    """`a` has seen everything `b` has."""
    return all(counter <= a.get(device, 0) for device, counter in b.items())
