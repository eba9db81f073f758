"""The files on the target, and reading them as untrusted input.

    target.json                            {"scorekeeper": "sync-target", "schema": 1, "target": <id>}
                                           the target's identity (identity.py)
    devices/<device id>/head.json          {"scorekeeper": "sync-head", "schema": 1, "device", "name", "seq",
                                             "chunks": [{"from", "to", "file", "parts"?}], "older"?,
                                             "lost"?: {device: seq}, "app"?: "1.0.0",
                                             "formats"?: {kind: n}, "at"?: <ISO time>,
                                             "wants"?: [photo id, ...]}
    devices/<device id>/log/older-<seq>-<random>.json
                                           {"scorekeeper": "sync-older", "schema": 1, "device", "chunks",
                                             "older"}   the chunks that left the head (HEAD_CHUNKS)
    devices/<device id>/log/<to>-<random>.json
                                           {"scorekeeper": "sync-log", "schema": 1, "device", "entries": [...]}

An entry is one record's full version: {"seq", "kind": "match" | "player" | "digital", "id", "vv",
"deleted", "data"}. A device appends a chunk of entries per sync and then rewrites its head (with the version
tag it read, so a second copy of the same device id is refused), so another device reads only the chunks
after the sequence number it saw last. Whatever does not have this shape is refused with `RemoteProblem`.

`app`, `formats` and `at` in a head (from 1.0.0 on, scorekeeper/release.py): the version of the app that
wrote it, the record formats it reads and writes, and when it synced last. A head without them was written by a
version before 1.0.0 (its formats count as 0). Versions before read a head by the keys they know and leave the
others alone, so the schema stays 1.

`wants` in a head: photos named by games this device holds whose files it could not find (sync/photos.py):
a device that has one writes it to the target again.

`lost` in a head: a log file of that device (whose head had that sequence number) was missing on the target
for two syncs in a row and was skipped; that device then sends everything it holds again (engine.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeGuard

from scorekeeper.games.base import Message
from scorekeeper.store.paths import is_safe_id

SCHEMA = 1
MAX_FILE_BYTES = 32 * 1024 * 1024
CHUNK_ENTRIES = 200
"""Entries per log file (a sync that sends more writes several parts of one chunk)."""
HEAD_CHUNKS = (2, 6)
"""The head lists up to 6 chunks; beyond that all but the newest 2 move to an older-chunks file (one
small file every 4 syncs, one more read per 4 chunks for a device catching up), so the head that every
sync moves three times (its own read and write, every other device's read) adds at most about 1 KB to a
one-change sync (bench sync: `one_change_ratio_bytes_most_to_10`)."""
HISTORY_SENT = 10
"""Undo steps sent with a match (each is a whole earlier state; the device keeps up to 25)."""
KINDS = ("match", "player", "digital")


class RemoteProblem(Exception):
    """A file on the target that cannot be used; `newer` when a newer app version wrote it."""

    def __init__(self, reason: Message, *, newer: bool = False) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.newer = newer


@dataclass(frozen=True)
class Chunk:
    """What one sync wrote: the entries with sequence numbers `first`..`last`, in `parts` files."""

    first: int
    last: int
    file: str
    parts: int = 1

    @property
    def files(self) -> list[str]:
        stem = self.file.removesuffix(".json")
        return [self.file, *(f"{stem}-{part}.json" for part in range(1, self.parts))]


@dataclass(frozen=True)
class Head:
    device: str
    name: str
    seq: int
    chunks: tuple[Chunk, ...]
    older: str | None = None
    """The file listing the chunks before `chunks` (each such file points to the one before it), so the
    head stays small however long the device has synced."""
    lost: tuple[tuple[str, int], ...] = ()
    """(device, its head's sequence number) for each device one of whose log files this device skipped as
    missing or unreadable: that device sends everything again."""
    app: str = ""
    """The app version that wrote the head ("" before 1.0.0, whose heads do not say)."""
    formats: tuple[tuple[str, int], ...] = ()
    """(kind of record, format) the writing device reads and writes; none before 1.0.0."""
    at: str = ""
    """When the device last synced here (ISO time, UTC; "" before 1.0.0)."""
    wants: tuple[str, ...] = ()
    """Photo ids the device lacks and found on no device's photo folder: whoever has one sends it again."""

    def format_of(self, kind: str) -> int:
        """The format of `kind` the device reads and writes (0: a version before 1.0.0, which does not say)."""
        return dict(self.formats).get(kind, 0)


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    id: str
    vv: dict[str, int]
    deleted: bool
    data: dict[str, Any] | None
    history: dict[str, Any] | None = None
    """A match's undo and redo stacks ({"undo": [...], "redo": [...]}), so undo works on every device."""


def head_path(device: str) -> str:
    return f"devices/{device}/head.json"


def _document(raw: bytes, kind: str) -> dict[str, Any]:
    if len(raw) > MAX_FILE_BYTES:
        raise RemoteProblem(Message("the file is too large"))
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise RemoteProblem(Message("the file is not valid JSON")) from None
    if not isinstance(doc, dict) or doc.get("scorekeeper") != kind:
        raise RemoteProblem(Message("the file has the wrong shape"))
    schema = doc.get("schema")
    if not _is_int(schema) or schema < 1:
        raise RemoteProblem(Message("the file has no valid schema version"))
    if schema > SCHEMA:
        raise RemoteProblem(Message("written by a newer app version"), newer=True)
    return doc


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_head(raw: bytes, device: str) -> Head:
    doc = _document(raw, "sync-head")
    seq, name = doc.get("seq"), doc.get("name", "")
    if doc.get("device") != device or not _is_int(seq) or seq < 0:
        raise RemoteProblem(Message("the device's head file has the wrong shape"))
    chunks, older = _chunks(doc)
    shown = name if isinstance(name, str) and 0 < len(name) <= 60 else device
    notes = doc.get("lost")
    lost = tuple(
        sorted((k, v) for k, v in notes.items() if is_safe_id(k) and _is_int(v))
        if isinstance(notes, dict)
        else ()
    )
    app, formats, at = doc.get("app"), doc.get("formats"), doc.get("at")
    return Head(
        device,
        shown,
        seq,
        chunks,
        older,
        lost,
        app if isinstance(app, str) and 0 < len(app) <= 40 and app.isprintable() else "",
        tuple(
            sorted((k, v) for k, v in formats.items() if k in KINDS and _is_int(v) and 0 <= v < 1_000_000)
            if isinstance(formats, dict)
            else ()
        ),
        at if isinstance(at, str) and 0 < len(at) <= 40 and at.isprintable() else "",
        _wants(doc.get("wants")),
    )


MAX_WANTS = 500
"""Photo ids a head asks for at most (the rest are asked for once these have come)."""


def _wants(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(sorted({p for p in value[:MAX_WANTS] if is_safe_id(p)}))


def parse_older(raw: bytes, device: str) -> tuple[tuple[Chunk, ...], str | None]:
    """The chunks an older-chunks file lists, and the file before it."""
    doc = _document(raw, "sync-older")
    if doc.get("device") != device:
        raise RemoteProblem(Message("the device's head file has the wrong shape"))
    return _chunks(doc)


def _chunks(doc: dict[str, Any]) -> tuple[tuple[Chunk, ...], str | None]:
    chunks, older = doc.get("chunks"), doc.get("older")
    if not isinstance(chunks, list) or not (older is None or (isinstance(older, str) and _safe_file(older))):
        raise RemoteProblem(Message("the device's head file has the wrong shape"))
    parsed = []
    for item in chunks:
        if not isinstance(item, dict):
            raise RemoteProblem(Message("the device's head file has the wrong shape"))
        first, last, file, parts = item.get("from"), item.get("to"), item.get("file"), item.get("parts", 1)
        if not (_is_int(first) and _is_int(last) and isinstance(file, str) and _is_int(parts)):
            raise RemoteProblem(Message("the device's head file has the wrong shape"))
        if not _safe_file(file) or not 1 <= parts <= 100_000:
            raise RemoteProblem(Message("the device's head file has the wrong shape"))
        parsed.append(Chunk(first, last, file, parts))
    return tuple(parsed), older


def _safe_file(file: str) -> bool:
    parts = file.split("/")
    return len(parts) == 2 and parts[0] == "log" and is_safe_id(parts[1].removesuffix(".json"))


def _chunk_list(chunks: tuple[Chunk, ...]) -> list[dict[str, Any]]:
    return [
        {"from": c.first, "to": c.last, "file": c.file} | ({"parts": c.parts} if c.parts > 1 else {})
        for c in chunks
    ]


def head_bytes(head: Head) -> bytes:
    doc = {"scorekeeper": "sync-head", "schema": SCHEMA, "device": head.device, "name": head.name}
    older = {"older": head.older} if head.older else {}
    lost = {"lost": dict(head.lost)} if head.lost else {}
    said = {"app": head.app, "formats": dict(head.formats), "at": head.at} if head.app else {}
    said |= {"wants": list(head.wants)} if head.wants else {}
    return _dump({**doc, "seq": head.seq, "chunks": _chunk_list(head.chunks), **older, **lost, **said})


def older_bytes(device: str, chunks: tuple[Chunk, ...], older: str | None) -> bytes:
    doc = {"scorekeeper": "sync-older", "schema": SCHEMA, "device": device, "chunks": _chunk_list(chunks)}
    return _dump({**doc, "older": older})


def entry_doc(e: Entry) -> dict[str, Any]:
    """An entry as a log file holds it (and as `sync/held.json` keeps it)."""
    doc = {"seq": e.seq, "kind": e.kind, "id": e.id, "vv": e.vv, "deleted": e.deleted, "data": e.data}
    return doc | ({"history": e.history} if e.history else {})


def chunk_bytes(device: str, entries: list[Entry]) -> bytes:
    items = [entry_doc(e) for e in entries]
    return _dump({"scorekeeper": "sync-log", "schema": SCHEMA, "device": device, "entries": items})


def _dump(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def parse_chunk(raw: bytes, device: str) -> tuple[list[Entry], list[Message]]:
    """The entries of a chunk; an entry of the wrong shape is left out with a reason (the others count)."""
    doc = _document(raw, "sync-log")
    items = doc.get("entries")
    if doc.get("device") != device or not isinstance(items, list):
        raise RemoteProblem(Message("the log file has the wrong shape"))
    entries, problems = [], []
    for item in items:
        entry = parse_entry(item)
        if entry is None:
            problems.append(Message("a record has the wrong shape"))
        else:
            entries.append(entry)
    return entries, problems


def parse_entry(item: Any) -> Entry | None:
    """An entry of a log file, or None when it has the wrong shape."""
    if not isinstance(item, dict):
        return None
    seq, kind, record_id, vv = item.get("seq"), item.get("kind"), item.get("id"), item.get("vv")
    deleted, data = item.get("deleted"), item.get("data")
    if not (_is_int(seq) and kind in KINDS and is_safe_id(record_id) and isinstance(deleted, bool)):
        return None
    if not isinstance(vv, dict) or not all(is_safe_id(k) and _is_int(v) and v > 0 for k, v in vv.items()):
        return None
    if deleted != (data is None) or (data is not None and not isinstance(data, dict)):
        return None
    if data is not None and data.get("id") != record_id:
        return None
    history = item.get("history")
    if history is not None and not _history_shape(history, str(record_id)):
        return None
    return Entry(seq, str(kind), str(record_id), dict(vv), deleted, data, history)


def _history_shape(history: Any, record_id: str) -> bool:
    """Undo and redo stacks of whole earlier states of the same match (each state is checked by the rules
    again when it is undone to)."""
    if not isinstance(history, dict) or set(history) - {"undo", "redo"}:
        return False
    for stack in history.values():
        if not isinstance(stack, list) or len(stack) > HISTORY_SENT:
            return False
        for step in stack:
            if not isinstance(step, dict) or not isinstance(step.get("what", ""), str):
                return False
            for state in (step.get("before"), step.get("after")):
                if state is not None and (not isinstance(state, dict) or state.get("id") != record_id):
                    return False
    return True
