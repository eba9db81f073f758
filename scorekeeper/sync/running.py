"""What the parts of one sync work on (`Running`): the collecting of this device's changes (local.py), the
applying of the other devices' (merging.py, others.py, devices.py) and the photos (photos.py).

A Protocol below the engine: `engine.Run` is the one sync that has all of it, and these modules know it only by
this, so the engine imports them and none of them imports the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

from scorekeeper.store.conflicts import SyncRecords
from scorekeeper.store.repo import Store
from scorekeeper.sync.identity import Why
from scorekeeper.sync.remote import Entry
from scorekeeper.sync.report import SyncReport
from scorekeeper.sync.state import SyncState, TargetState
from scorekeeper.sync.target import Target


class Running(Protocol):
    """One sync in progress, as its parts see it (`engine.Run`)."""

    store: Store
    target: Target
    sync: SyncRecords
    state: SyncState
    me: str
    """This device."""
    here: TargetState
    """This device's state for the target."""
    why: Why
    """Why everything goes to the target again (None: it does not)."""
    out: dict[str, Entry]
    """The entries going out, by `send`."""
    report: SyncReport
    resolved: dict[str, dict[str, int]]
    new_matches: dict[str, tuple[Entry, dict[str, Any]]]
    """The matches new to this device, with the entry each came in."""

    def send(self, kind: str, record_id: str, rec: dict[str, Any], data: dict[str, Any] | None) -> None:
        """Put a record in the chunk going out."""

    def bump(self, rec: dict[str, Any], extra: dict[str, int] | None = None) -> None:
        """Give a record this device's next sequence number in its version vector."""
