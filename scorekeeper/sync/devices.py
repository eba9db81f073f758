"""The other devices on a sync target: what version each runs, and what is done with what an older one sends.

Every device's head says, from 1.0.0 on, the app version that wrote it, the record formats it reads and
writes and when it synced (remote.py). A device whose head says nothing runs a version before 1.0.0: such a
version turned a game it could not read into a deletion at its next sync. So a deletion from a device whose
match format predates this one's is never applied blindly (`hold_deletion`): the game stays here and the
deletion waits beside it as a conflict ("deleted on another device") until a person decides, with a sentence
naming the device to update. Settings lists the devices seen (`devices_seen`) and which need an update.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.games.base import Message
from scorekeeper.release import FIRST_RELEASE, FORMATS
from scorekeeper.store.match_file import describe_match
from scorekeeper.sync.merging import _conflict, _other
from scorekeeper.sync.remote import Entry, Head
from scorekeeper.sync.running import Running
from scorekeeper.sync.state import SyncState
from scorekeeper.sync.versions import leq


def hold_deletion(run: Running, head: Head, entry: Entry, rec: dict[str, Any]) -> bool:
    """A deletion of a match from a device with an older match format: True when the match is kept here and
    the deletion waits as a conflict (or beside the conflict already open); False when there is nothing here
    to keep (the deletion is applied as any other)."""
    local, _ = run.store.matches.stored(entry.id)
    if local is None or rec["del"]:
        return False
    doc = run.sync.conflict_doc(entry.id)
    if doc is None:
        _conflict(run, head, entry, rec, local)
    else:  # beside the versions already in conflict (its device's earlier one replaced): a decision answers it
        with run.store.files.lock.held():
            doc = run.sync.conflict_doc(entry.id)
            if doc is None:  # a person resolved it meanwhile: the resolution goes out with the next sync
                return True
            others = [
                o
                for o in doc.get("others", [])
                if o.get("device") != head.device or not leq(o["vv"], entry.vv)
            ]
            run.sync.write_conflict(entry.id, {**doc, "others": [*others, _other(head, entry)]})
        run.store.matches._tell(entry.id)
    if head.app:
        said = Message(
            "{device} runs an older version of the app ({version}) and deleted {what}. The game is kept here "
            "until you decide in its conflict; update the app on {device}.",
            device=head.name,
            version=head.app,
            what=describe_match(local),
        )
    else:
        said = Message(
            "{device} runs a version of the app from before {version} and deleted {what}. The game is kept "
            "here until you decide in its conflict; update the app on {device}.",
            device=head.name,
            version=FIRST_RELEASE,
            what=describe_match(local),
        )
    run.report.notes.append(said)
    return True


@dataclass(frozen=True)
class DeviceSeen:
    """Another device as its head described it at this device's last sync."""

    device: str
    name: str
    app: str
    """Its app version ("": before 1.0.0)."""
    at: str
    """When it last synced (ISO time, UTC; "" when its head does not say)."""
    outdated: bool
    """It reads and writes older formats than this device: update it."""
    newer: bool
    """It writes newer formats than this device: update this one."""


def devices_seen(data_dir: Path) -> list[DeviceSeen]:
    """The other devices this data folder's syncs have seen on any target, the latest word of each, newest
    sync first (none before this folder's first sync)."""
    if not (data_dir / "sync" / "state.json").is_file():
        return []
    state = SyncState.load(data_dir)
    latest: dict[str, dict[str, Any]] = {}
    for target in state.targets.values():
        for device, said in target.devices.items():
            if device != state.device and str(said.get("at", "")) >= str(
                latest.get(device, {}).get("at", "")
            ):
                latest[device] = said
    seen = []
    for device, said in latest.items():
        formats = said.get("formats") if isinstance(said.get("formats"), dict) else {}
        assert isinstance(formats, dict)
        older = any(int(formats.get(kind, 0)) < number for kind, number in FORMATS.items())
        newer = any(int(formats.get(kind, 0)) > number for kind, number in FORMATS.items())
        seen.append(
            DeviceSeen(
                device,
                str(said.get("name") or device),
                str(said.get("app", "")),
                str(said.get("at", "")),
                older,
                newer,
            )
        )
    return sorted(seen, key=lambda d: (d.at, d.name), reverse=True)
