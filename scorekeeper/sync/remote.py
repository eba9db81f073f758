"""The files on the target, and reading them as untrusted input.

    devices/<device id>/head.json          {"scorekeeper": "sync-head", "schema": 1, "device", "name", "seq",
                                             "chunks": [{"from", "to", "file"}]}
    devices/<device id>/log/<to>-<random>.json
                                           {"scorekeeper": "sync-log", "schema": 1, "device", "entries": [...]}

An entry is one record's full version: {"seq", "kind": "match" | "player" | "digital", "id", "vv",
"deleted", "data"}. A device appends a chunk of entries per sync and then rewrites its head (with the version
tag it read, so a second copy of the same device id is refused), so another device reads only the chunks
after the sequence number it saw last. Whatever does not have this shape is refused with `RemoteProblem`.
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
    first: int
    last: int
    file: str


@dataclass(frozen=True)
class Head:
    device: str
    name: str
    seq: int
    chunks: tuple[Chunk, ...]


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
    seq, chunks, name = doc.get("seq"), doc.get("chunks"), doc.get("name", "")
    if doc.get("device") != device or not _is_int(seq) or seq < 0 or not isinstance(chunks, list):
        raise RemoteProblem(Message("the device's head file has the wrong shape"))
    parsed = []
    for item in chunks:
        if not isinstance(item, dict):
            raise RemoteProblem(Message("the device's head file has the wrong shape"))
        first, last, file = item.get("from"), item.get("to"), item.get("file")
        if not (_is_int(first) and _is_int(last) and isinstance(file, str)) or not _safe_file(file):
            raise RemoteProblem(Message("the device's head file has the wrong shape"))
        parsed.append(Chunk(first, last, file))
    shown = name if isinstance(name, str) and 0 < len(name) <= 60 else device
    return Head(device, shown, seq, tuple(parsed))


def _safe_file(file: str) -> bool:
    parts = file.split("/")
    return len(parts) == 2 and parts[0] == "log" and is_safe_id(parts[1].removesuffix(".json"))


def head_bytes(head: Head) -> bytes:
    chunks = [{"from": c.first, "to": c.last, "file": c.file} for c in head.chunks]
    doc = {"scorekeeper": "sync-head", "schema": SCHEMA, "device": head.device, "name": head.name}
    return _dump({**doc, "seq": head.seq, "chunks": chunks})


def chunk_bytes(device: str, entries: list[Entry]) -> bytes:
    items = [
        {"seq": e.seq, "kind": e.kind, "id": e.id, "vv": e.vv, "deleted": e.deleted, "data": e.data}
        | ({"history": e.history} if e.history else {})
        for e in entries
    ]
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
        entry = _entry(item)
        if entry is None:
            problems.append(Message("a record has the wrong shape"))
        else:
            entries.append(entry)
    return entries, problems


def _entry(item: Any) -> Entry | None:
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
