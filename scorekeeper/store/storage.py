"""Atomic files and the TinyDB storage built on them.

TinyDB's own JSONStorage rewrites its file in place, so a crash mid-write leaves half a file. Here every
write goes to a temporary file in the same folder, is flushed to disk (fsync), replaces the old file in one
step (`os.replace`, atomic on POSIX and Windows) and then the folder itself is flushed so the rename
survives a power cut. At any instant the file is either the complete old or the complete new version.
(The match index, derived data, skips the two flushes: see `atomic_write_bytes`.)

Each file is an *envelope*: `{"scorekeeper": <kind>, "schema": <n>, "tables": {<TinyDB tables>}}`, so a
file states what it is and which schema wrote it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from scorekeeper.games.base import Message
from scorekeeper.spans import span
from scorekeeper.store.errors import CorruptFileError, NewerFileError, WriteError
from scorekeeper.store.schema import CURRENT_SCHEMA, upgrade_envelope

TMP_MARK = ".tmp-"
FILE_MODE = 0o600
"""Data files are the owner's only (scores, names, owner devices): written so whatever the umask; a file written
again gets this mode too (the new version replaces it)."""
BAK_SUFFIX = ".bak"


WRITTEN: list[Callable[[Path], None]] = []
"""Called with the path after every durable write: the static web build copies the data folder to the browser's
IndexedDB then (scorekeeper/static/worker.py)."""


def fsync_dir(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk; Windows has no directory handles to flush."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tmp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")


def is_tmp(name: str) -> bool:
    return name.startswith(".") and TMP_MARK in name


def atomic_write_bytes(
    path: Path, data: bytes, *, keep_backup: bool = False, durable: bool = True
) -> os.stat_result:
    """Write `data` to `path` all-or-nothing. With `keep_backup` the previous version stays as `<name>.bak`
    (a hard link to the old file, so keeping it costs no copy). Returns the new file's stat. The file is
    FILE_MODE (owner only), also when it was more open before.

    `durable=False` leaves out the two flushes (file and folder) for data that can be derived again: the write
    is still all-or-nothing for the app, but a power cut may bring back the old version (or an empty file,
    which reads as damaged). Only the match index writes so: it is checked against the match files at every
    open and rebuilt from them (index.py), and its flushes were half the cost of saving a round."""
    tmp = _tmp_path(path)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), FILE_MODE)
        try:
            write_all(fd, data, path)
            if durable:
                with span("disk.fsync"):
                    os.fsync(fd)
        finally:
            os.close(fd)
        if keep_backup and path.exists():
            _link_backup(path)
        os.replace(tmp, path)
        if durable:
            with span("disk.fsync"):
                fsync_dir(path.parent)
            for written in WRITTEN:
                written(path)
        return os.stat(path)
    except OSError as error:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise WriteError(_write_message(path, error)) from error


def write_all(fd: int, data: bytes, path: Path) -> None:
    """Write every byte of `data` to `fd` (the file for `path`); tests replace this to simulate a full disk."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _link_backup(path: Path) -> None:
    """Make `<name>.bak` the current (last good) version, replacing the older backup in one step."""
    bak = backup_path(path)
    staging = _tmp_path(bak)
    try:
        os.link(path, staging)
    except (OSError, AttributeError):  # no hard links on this file system (or none at all: Pyodide): copy
        fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), FILE_MODE)
        try:
            write_all(fd, path.read_bytes(), staging)
        finally:
            os.close(fd)
    os.replace(staging, bak)


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BAK_SUFFIX)


def _write_message(path: Path, error: OSError) -> Message:
    import errno

    why: str
    if error.errno == errno.ENOSPC:
        why = Message("the storage is full")
    elif error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = Message("the app may not write to its data folder")
    else:
        why = error.strerror or Message("the system refused the write")
    return Message(
        "Could not save ({why}). Nothing was changed; free some space or check {folder} and retry.",
        why=why,
        folder=str(path.parent),
    )


def dumps(document: Any) -> bytes:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def read_json(path: Path) -> Any:
    """Parse a JSON file; CorruptFileError says in plain words why it is unusable. FileNotFoundError passes."""
    raw = path.read_bytes()
    if not raw.strip():
        raise CorruptFileError(path, Message("the file is empty"))
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CorruptFileError(path, Message("the file is not text (binary garbage)")) from None
    except json.JSONDecodeError as error:
        end = raw.rstrip()
        if (
            error.pos >= len(end) - 1
            or error.msg.startswith("Unterminated")
            or not end.endswith((b"}", b"]"))
        ):
            raise CorruptFileError(path, Message("the file is cut off (truncated)")) from None
        raise CorruptFileError(
            path, Message("the file is not valid JSON (line {line})", line=error.lineno)
        ) from None


ENVELOPE_KEYS = frozenset({"scorekeeper", "schema", "tables"})
_newer_keys: dict[Path, dict[str, Any]] = {}
"""Keys a newer version put on a file's envelope beside `ENVELOPE_KEYS`, by file, as this process last read
them: `write_envelope` writes them back when it replaces that file (every change reads the file before it
writes it; docs/DATA.md, "Newer data"). Only files that have such keys are in it."""


def open_envelope(path: Path, kind: str, document: Any) -> dict[str, dict[str, Any]]:
    """The TinyDB tables inside an envelope, upgraded from an older schema; raises on anything else."""
    if not isinstance(document, dict) or document.get("scorekeeper") != kind:
        raise CorruptFileError(path, Message("the file does not hold {kind} data (wrong shape)", kind=kind))
    schema = document.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise CorruptFileError(path, Message("the file has no valid schema version (wrong shape)"))
    if schema > CURRENT_SCHEMA:
        raise NewerFileError(path, schema)
    tables = document.get("tables")
    if not isinstance(tables, dict) or not all(
        isinstance(table, dict) and all(isinstance(doc, dict) for doc in table.values())
        for table in tables.values()
    ):
        raise CorruptFileError(path, Message("the file's tables have the wrong shape"))
    newer = {key: value for key, value in document.items() if key not in ENVELOPE_KEYS}
    if newer:
        _newer_keys[path] = newer
    else:
        _newer_keys.pop(path, None)
    return upgrade_envelope(kind, schema, tables)


def read_envelope(path: Path, kind: str) -> dict[str, dict[str, Any]] | None:
    """The tables of the file at `path`, or None when there is no file."""
    try:
        document = read_json(path)
    except FileNotFoundError:
        return None
    return open_envelope(path, kind, document)


def envelope(kind: str, tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"scorekeeper": kind, "schema": CURRENT_SCHEMA, "tables": tables}


def write_envelope(
    path: Path,
    kind: str,
    tables: dict[str, dict[str, Any]],
    *,
    keep_backup: bool = True,
    durable: bool = True,
) -> os.stat_result:
    with span("disk.encode"):
        newer = _newer_keys.get(path)
        data = dumps({**envelope(kind, tables), **newer} if newer else envelope(kind, tables))
    return atomic_write_bytes(path, data, keep_backup=keep_backup, durable=durable)


class AtomicJSONStorage(Storage):
    """A TinyDB storage over one envelope file, written atomically; reads fail loudly on a damaged file
    (CorruptFileError) instead of TinyDB's late JSONDecodeError, so the store can recover it."""

    def __init__(self, path: Path | str, kind: str, keep_backup: bool = True) -> None:
        self.path = Path(path)
        self.kind = kind
        self.keep_backup = keep_backup
        self.last_stat: os.stat_result | None = None

    def read(self) -> dict[str, dict[str, Any]] | None:
        return read_envelope(self.path, self.kind)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        self.last_stat = write_envelope(self.path, self.kind, data, keep_backup=self.keep_backup)

    def close(self) -> None:
        """Nothing is held open between operations."""


def tinydb(path: Path, kind: str, *, keep_backup: bool = True) -> TinyDB:
    """A TinyDB over one atomic envelope file. Made per operation, so no cache outlives a change made by
    another session."""
    return TinyDB(path, storage=AtomicJSONStorage, kind=kind, keep_backup=keep_backup)
