"""All-or-nothing writes of many files (an import): stage, flush once, commit, move into place.

1. Every new file is written into `import-staging/` (no flush per file: that is what made imports slow).
2. The whole folder is flushed to disk in one call (`syncfs`; one fsync per file where that is missing).
3. The journal `import-journal.json` listing every staged file and its target is written atomically: this
   is the commit point.
4. Each staged file replaces its target (`os.replace`, the previous version kept as `<name>.bak`), the
   folders are flushed, and the journal is removed.

A crash before step 3 leaves the old data (the staging folder is removed at the next open); a crash after it
leaves a journal, and the next open finishes step 4. Either way the player is told which happened.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from scorekeeper.games.base import Message
from scorekeeper.store.errors import WriteError
from scorekeeper.store.paths import Layout
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import (
    FILE_MODE,
    _link_backup,
    atomic_write_bytes,
    dumps,
    envelope,
    fsync_dir,
    read_json,
    write_all,
)


def _syncfs(folder: Path) -> bool:
    """Flush the file system holding `folder` in one call (Linux); False where that is not available."""
    if not hasattr(os, "O_DIRECTORY"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syncfs = libc.syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(folder, os.O_RDONLY)
    try:
        return syncfs(fd) == 0
    finally:
        os.close(fd)


class Batch:
    """Collects files to write; `commit()` puts all of them in place or (on an error) none."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.moves: list[tuple[str, str]] = []
        """(staged file name, target path relative to the data folder)"""
        layout.staging.mkdir(exist_ok=True)

    def add(self, target: Path, kind: str, tables: Tables) -> None:
        staged = self.layout.staging / f"{len(self.moves)}.json"
        try:
            fd = os.open(
                staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), FILE_MODE
            )
            try:
                write_all(fd, dumps(envelope(kind, tables)), target)
            finally:
                os.close(fd)
        except OSError as error:
            self.abandon()
            raise _import_write_error(error) from error
        self.moves.append((staged.name, str(target.relative_to(self.layout.root))))

    def commit(self) -> list[Path]:
        """Make every staged file durable, then move them all into place. Returns the targets."""
        if not self.moves:
            self.abandon()
            return []
        try:
            if not _syncfs(self.layout.staging):
                for name, _target in self.moves:
                    fd = os.open(self.layout.staging / name, os.O_RDONLY)
                    try:
                        os.fsync(fd)
                    finally:
                        os.close(fd)
            atomic_write_bytes(self.layout.journal, json.dumps(self.moves).encode("utf-8"))
        except (OSError, WriteError) as error:
            self.abandon()
            raise _import_write_error(error) from error
        return finish(self.layout, self.moves)

    def abandon(self) -> None:
        with contextlib.suppress(OSError):
            shutil.rmtree(self.layout.staging)


def _import_write_error(error: Exception) -> WriteError:
    return WriteError(
        "The import could not be written ({reason}). Nothing was changed; free some space and import again.",
        reason=getattr(error, "strerror", None) or str(error),
    )


def finish(layout: Layout, moves: Iterable[tuple[str, str]]) -> list[Path]:
    """Step 4: move the staged files into place (again: a file already moved is skipped)."""
    targets: list[Path] = []
    folders: set[Path] = set()
    for name, relative in moves:
        target = layout.root / relative
        staged = layout.staging / name
        targets.append(target)
        if staged.exists():
            if target.exists():
                _link_backup(target)
            os.replace(staged, target)
            folders.add(target.parent)
    for folder in folders:
        fsync_dir(folder)
    layout.journal.unlink()
    fsync_dir(layout.root)
    with contextlib.suppress(OSError):
        shutil.rmtree(layout.staging)
    return targets


def recover(layout: Layout) -> Message | None:
    """At open (lock held): finish an import whose journal was written, drop one that was not."""
    if layout.journal.exists():
        try:
            moves = read_json(layout.journal)
            finish(layout, [(str(name), str(target)) for name, target in moves])
        except Exception:
            with contextlib.suppress(OSError):
                layout.journal.unlink()
            return Message("An import was cut short and could not be completed; import the file again.")
        return Message("An import was cut short; it has now been completed.")
    if layout.staging.exists():
        with contextlib.suppress(OSError):
            shutil.rmtree(layout.staging)
        return Message("An import was cut short before it changed anything; your data is as it was. "
                       "Import the file again.")  # fmt: skip
    return None
