"""Which target a sync talks to, and what this device has sent there (the sync state's `TargetState`).

A target knows itself: `target.json` at its root, {"scorekeeper": "sync-target", "schema": 1, "target": <id>},
written once by the first device that finds none (write-if-absent; then read back, and what is there is
adopted: two devices making it at once end up with one identity). A target emptied or recreated loses it,
so it gets a new one.

The rules (`find`):
- The same target as last time (its address, and this device's head there with the sequence number this
  device last wrote, or none where it wrote none): its state, without reading `target.json` (a sync that
  changed one thing costs no more). Another device's folder gone from it is found when its head is read.
- A known identity: its state; but if this device's head there is gone or behind what it wrote (its folder
  was removed or restored from an older copy), the target lost files: everything is sent again.
- An unknown identity whose `devices/<this device>/head.json` has the sequence number an earlier version's
  state says it last wrote (`legacy`): that state is adopted (no full resend for an existing user).
- Any other: a target new to this device (or, at an address it synced with before, emptied): everything this
  device holds is sent, whoever wrote it, with its version vector; merging equal contents changes nothing.
"""

from __future__ import annotations

import json
import secrets
from typing import Literal

from scorekeeper.sync.remote import Head
from scorekeeper.sync.state import SyncState, TargetState
from scorekeeper.sync.target import SyncError, Target

IDENTITY = "target.json"
SCHEMA = 1

Why = Literal["new", "emptied", "lost"] | None
"""Why everything goes to the target again: it is new to this device, it was emptied, or it lost files."""


def address_of(target: Target) -> str:
    """Where the target is: a WebDAV target's URL (no user or password in it), a folder's path."""
    url = getattr(target, "url", None)
    return url if isinstance(url, str) else target.name


def parse(raw: bytes) -> str | None:
    """The identity in a `target.json`, or None when the file is not one (it is then written anew)."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("scorekeeper") != "sync-target":
        return None
    found = doc.get("target")
    if isinstance(found, str) and 8 <= len(found) <= 64 and found.isalnum():
        return found  # a newer schema keeps the same identity field
    return None


def identity_bytes(target_id: str) -> bytes:
    doc = {"scorekeeper": "sync-target", "schema": SCHEMA, "target": target_id}
    return json.dumps(doc, separators=(",", ":")).encode("utf-8")


def read_or_make(target: Target) -> str:
    """The target's identity, made now if it has none (raises SyncError when the target fails)."""
    got = target.read(IDENTITY)
    found = parse(got[0]) if got is not None else None
    if found is not None:
        return found
    made = secrets.token_hex(8)
    try:
        target.write(IDENTITY, identity_bytes(made), expect=got[1] if got is not None else "")
    except SyncError as error:
        if error.problem != "changed":
            raise
    # Another device may have made one at the same moment: the file as it is now is the identity.
    again = target.read(IDENTITY)
    return (parse(again[0]) if again is not None else None) or made


def same(state: SyncState, target: Target, own: Head | None) -> TargetState | None:
    """The state of the target this device synced with last time at this address, when its own head there
    is the one it wrote last (or none where it wrote none: it has nothing there to lose)."""
    address = address_of(target)
    seq = own.seq if own is not None else 0
    return next((t for t in state.targets.values() if t.address == address and t.head == seq), None)


def find(state: SyncState, target: Target, own: Head | None) -> tuple[TargetState, Why]:
    """This device's state for the target by its identity (read, or made; added to `state.targets`) and why
    everything goes to it again (None: only what it has not had yet)."""
    address = address_of(target)
    key = read_or_make(target)
    known_here = state.targets.get(key)
    if known_here is not None:
        known_here.address = address
        if known_here.head > (own.seq if own is not None else 0):
            known_here.sent, known_here.head = {}, 0
            return known_here, "lost"
        return known_here, None
    legacy = state.legacy
    if legacy is not None and own is not None and own.seq == legacy.head:
        legacy.address = address
        state.targets[key], state.legacy = legacy, None
        return legacy, None
    emptied = [other for other, known in state.targets.items() if known.address == address]
    for other in emptied:  # what was there is gone: its state would never be used again
        del state.targets[other]
    fresh = state.targets[key] = TargetState(address)
    return fresh, "emptied" if emptied else "new"
