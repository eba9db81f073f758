"""The one file primitive every part of the store works through: the folder's layout, its write lock, atomic
envelope writes (refused up front when the folder is read-only), the recovery notes for the player and the
last-resort lookup in the backup snapshots."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import scorekeeper.store.snapshots as snapshots
from scorekeeper.games.base import Message
from scorekeeper.store.errors import WriteError
from scorekeeper.store.locking import FolderLock
from scorekeeper.store.paths import Layout
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import write_envelope
from scorekeeper.store.watchers import Watchers


def read_only_reason(error: OSError) -> Message | None:
    """Why the folder can only be read, for the player; None when `error` is not about permissions."""
    if error.errno == errno.EROFS:
        return Message("the data folder is on a read-only disk")
    if error.errno in (errno.EACCES, errno.EPERM):
        return Message("the app has no permission to write to the data folder")
    return None


class Files:
    """One data folder's files. `read_only` is set when the folder cannot be written at all (read-only disk,
    no permission); then every write is refused with `read_only_reason` and nothing on disk is touched."""

    def __init__(self, root: Path, *, read_only_reason: Message | None = None) -> None:
        self.layout = Layout(root)
        self.read_only_reason = read_only_reason
        self.lock = FolderLock(self.layout.lock, os_lock=read_only_reason is None)
        self.notes: list[Message] = []
        self.changes = Watchers()
        """Told (kind, id) after every change that sync carries: a match, a player, a saved digital game."""

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    def note(self, message: Message) -> None:
        """Tell the player once what was recovered."""
        if message not in self.notes:
            self.notes.append(message)

    def refuse_if_read_only(self) -> None:
        if self.read_only_reason is not None:
            raise WriteError(
                "Could not save ({why}). The games are shown read-only; {what}",
                why=self.read_only_reason,
                what=Message(
                    "move the data folder to a place the app may write to, or give it write permission, "
                    "and restart the app."
                ),
            )

    def write(self, path: Path, kind: str, tables: Tables, *, keep_backup: bool = True) -> os.stat_result:
        """Write one envelope file atomically (see storage.py)."""
        self.refuse_if_read_only()
        return write_envelope(path, kind, tables, keep_backup=keep_backup)

    def snapshot_record(self, section: str, record_id: str, wrap: Callable[[Any], Tables]) -> Tables | None:
        """The newest snapshot's copy of a record, wrapped as a file's tables (None when none has it)."""
        record = snapshots.find_record(self.layout, section, record_id)
        return None if record is None else wrap(record)


def newer_file_note(path: Path) -> Message:
    """What the player is told once about a saved game written by a newer app version (it is skipped, not
    repaired)."""
    return Message(
        "A saved game ({file}) was written by a newer version of the app and is skipped.", file=path.name
    )


class FilesPart:
    """A part of the store (matches, players, settings, saved games) that works on one data folder's files."""

    def __init__(self, files: Files) -> None:
        self.files = files
        self.layout = files.layout
        self._lock = files.lock
        self._note = files.note
        self._write = files.write
        self._snapshot_record = files.snapshot_record
