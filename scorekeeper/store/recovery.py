"""Damaged files: set aside, never deleted, and replaced by the last good copy.

Outcome for a file that cannot be read (empty, cut off, binary garbage, JSON of the wrong shape):
1. it is renamed `<name>.corrupt-<time>` in its folder (kept for a human or a later fix);
2. its backup `<name>.bak` (the version before the last write) is restored if that one reads well;
3. otherwise the newest snapshot in `backups/` that holds the data is used;
4. otherwise the caller's fallback applies (players rebuilt from the matches, default settings, an empty
   index rebuilt from the match files, a match left out of the list);
and a sentence for the player says what happened and what was restored.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.games.base import N_, Capitalized, Message, RuleError
from scorekeeper.store.errors import CorruptFileError, WriteError
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import backup_path, fsync_dir, read_envelope, write_envelope

CORRUPT_MARK = ".corrupt-"

Validator = Callable[[Tables], None]
"""Raises (CorruptFileError, ValueError, RuleError, KeyError, TypeError) when tables have the wrong shape."""


@dataclass
class Loaded:
    """The usable content of a file after any recovery, and what the player should be told."""

    tables: Tables | None
    message: Message | None = None
    restored: bool = False
    reason: str = ""
    aside: Path | None = None


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S")


def set_aside(path: Path) -> Path:
    """Rename a damaged file to `<name>.corrupt-<time>` (never overwriting an earlier one)."""
    target = path.with_name(f"{path.name}{CORRUPT_MARK}{stamp()}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}{CORRUPT_MARK}{stamp()}-{counter}")
    os.replace(path, target)
    with contextlib.suppress(OSError):
        fsync_dir(path.parent)
    return target


def _valid(path: Path, kind: str, validate: Validator | None) -> Tables | None:
    """The tables of a file if it reads and validates; None when missing; raises CorruptFileError."""
    tables = read_envelope(path, kind)
    if tables is not None and validate is not None:
        try:
            validate(tables)
        except CorruptFileError:
            raise
        except (ValueError, RuleError, KeyError, TypeError, AttributeError) as error:
            raise CorruptFileError(
                path, Message("the content has the wrong shape ({error})", error=error)
            ) from None
    return tables


def load(
    path: Path,
    kind: str,
    *,
    what: Callable[[Tables | None], str],
    validate: Validator | None = None,
    from_snapshot: Callable[[], Tables | None] | None = None,
    restore_missing: bool = False,
) -> Loaded:
    """Read `path`, recovering it as the module docstring says. `what(tables)` names the content for the
    player ("the player list"); it gets the best tables known (the restored ones) or None.
    NewerFileError passes through untouched: a file from a newer version is never renamed or rewritten."""
    try:
        tables = _valid(path, kind, validate)
    except CorruptFileError as error:
        reason = error.reason
    else:
        if tables is not None or not restore_missing:
            return Loaded(tables)
        reason = Message("the file is missing")
        if not backup_path(path).exists() and from_snapshot is None:
            return Loaded(None)

    aside = None
    with contextlib.suppress(OSError):  # a read-only folder: the damaged file simply stays where it is
        aside = set_aside(path) if path.exists() else None
    source, tables = _last_good(path, kind, validate, from_snapshot)
    if tables is None:
        template = _NO_COPY_KEPT if aside else _NO_COPY
        message = Message(
            template, what=Capitalized("{what}", what=what(None)), reason=reason, file=_name(aside)
        )
        return Loaded(None, message, reason=reason, aside=aside)
    try:
        write_envelope(path, kind, tables, keep_backup=False)
    except WriteError:
        pass  # the restored content is still served from memory; the next save writes it
    message = Message(
        _RESTORED_KEPT if aside else _RESTORED,
        what=Capitalized("{what}", what=what(tables)),
        reason=reason,
        source=source,
        file=_name(aside),
    )
    return Loaded(tables, message, restored=True, reason=reason, aside=aside)


_NO_COPY = N_("{what} could not be read ({reason}) and no good copy was found.")
_NO_COPY_KEPT = N_(
    "{what} could not be read ({reason}) and no good copy was found. The damaged file was kept as {file}."
)
_RESTORED = N_("{what} could not be read ({reason}); {source} was restored.")
_RESTORED_KEPT = N_(
    "{what} could not be read ({reason}); {source} was restored. The damaged file was kept as {file}."
)


def _name(path: Path | None) -> str:
    return path.name if path is not None else ""


def _last_good(
    path: Path, kind: str, validate: Validator | None, from_snapshot: Callable[[], Tables | None] | None
) -> tuple[Message, Tables | None]:
    bak = backup_path(path)
    with contextlib.suppress(CorruptFileError, OSError):
        tables = _valid(bak, kind, validate)
        if tables is not None:
            return Message("the previous copy"), tables
    if from_snapshot is not None:
        with contextlib.suppress(CorruptFileError, ValueError, RuleError, KeyError, TypeError, OSError):
            tables = from_snapshot()
            if tables is not None and validate is not None:
                validate(tables)
            if tables is not None:
                return Message("the copy from the latest backup snapshot"), tables
    return Message(""), None


def describe_tables(
    tables: Tables | None, table: str, describe: Callable[[dict[str, Any]], str], default: str
) -> str:
    """Name a one-document file by its content, e.g. "the Rage game of Anna, Ben and Cleo"."""
    if tables:
        doc = tables.get(table, {}).get("1")
        if isinstance(doc, dict):
            with contextlib.suppress(Exception):
                return describe(doc)
    return default
