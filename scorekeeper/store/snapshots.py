"""Daily snapshots: a full export in `backups/`, the last few kept; the last resort of recovery."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.games.base import Message
from scorekeeper.store.errors import CorruptFileError, StoreError
from scorekeeper.store.paths import Layout
from scorekeeper.store.recovery import stamp
from scorekeeper.store.storage import atomic_write_bytes, dumps, read_json

KEEP = 5
DUE_AFTER_S = 24 * 3600
PREFIX = "snapshot-"


def existing(layout: Layout) -> list[Path]:
    """Snapshot files, newest first (names carry the time, so name order is time order)."""
    if not layout.backups.is_dir():
        return []
    return sorted(
        (p for p in layout.backups.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(".json")),
        reverse=True,
    )


def take(layout: Layout, document: dict[str, Any]) -> Path:
    """Write `document` (a full export) as a snapshot now and drop the oldest beyond KEEP."""
    path = layout.backups / f"{PREFIX}{stamp()}.json"
    counter = 1
    while path.exists():
        counter += 1
        path = layout.backups / f"{PREFIX}{stamp()}-{counter}.json"
    atomic_write_bytes(path, dumps(document))
    for old in existing(layout)[KEEP:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return path


def take_if_due(layout: Layout, document: Callable[[], dict[str, Any]]) -> list[Message]:
    """Take the daily snapshot when the newest is older than a day (or there is none)."""
    snaps = existing(layout)
    with contextlib.suppress(OSError):
        if snaps and time.time() - snaps[0].stat().st_mtime < DUE_AFTER_S:
            return []
    try:
        take(layout, document())
    except StoreError as error:
        return [Message("The daily backup copy could not be written: {error}", error=error)]
    return []


def find_record(layout: Layout, section: str, record_id: str) -> Any:
    """The newest snapshot's copy of a record: `record_id` "*" gives the whole section (players, settings),
    otherwise the record with that id in a list section (matches, digital_games). None if no snapshot has it."""
    for path in existing(layout):
        try:
            document = read_json(path)
        except (CorruptFileError, OSError):
            continue
        if not isinstance(document, dict) or section not in document:
            continue
        value = document[section]
        if record_id == "*":
            return value
        if isinstance(value, list):
            for record in value:
                if isinstance(record, dict) and record.get("id") == record_id:
                    return record
    return None
