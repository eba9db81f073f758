"""The match index: one summary per match, split by match id into small bucket files.

The index is derived data: every entry records the stat fingerprint (inode, size, modification time) of the
match file it was made from. At open the fingerprints are compared with the files, so an entry left stale by
a crash between writing a match and writing its index bucket (or a file changed by hand) is rebuilt from the
file; a damaged bucket is set aside and rebuilt from the match files.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.games.base import Message
from scorekeeper.store.errors import CorruptFileError, WriteError
from scorekeeper.store.paths import INDEX_BUCKETS, Layout
from scorekeeper.store.records import MatchSummary
from scorekeeper.store.recovery import load
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import atomic_write_bytes, dumps, envelope

TABLE = "matches"
KIND = "index"

Fingerprint = list[int]


def fingerprint(stat: os.stat_result) -> Fingerprint:
    return [stat.st_ino, stat.st_size, stat.st_mtime_ns]


def _validate(tables: Tables) -> None:
    for entry in tables.get(TABLE, {}).values():
        MatchSummary.from_dict(entry)
        file = entry["file"]
        if not (isinstance(file, list) and len(file) == 3 and all(isinstance(n, int) for n in file)):
            raise CorruptFileError(Path("index"), Message("an entry has no file fingerprint"))


class MatchIndex:
    """Reads and updates the bucket files; caches each bucket until its file changes."""

    def __init__(self, layout: Layout, note: Callable[[Message], None], *, read_only: bool = False) -> None:
        self.layout = layout
        self.read_only = read_only
        """A read-only folder: the index lives in memory only (nothing is even tried on disk)."""
        self.note = note
        self.damaged = False
        """Set when a bucket had to be set aside: the owner rebuilds the index from the match files."""
        self._cache: dict[int, tuple[Fingerprint | None, dict[str, dict[str, Any]]]] = {}
        self._encoded: dict[str, tuple[dict[str, Any], bytes]] = {}
        """match id -> (its entry, that entry as JSON): a bucket is written by joining its entries' JSON, so a
        save encodes only the entry it changed, whatever the size of the history (`encode_bucket`)."""
        self.unwritten: dict[int, dict[str, dict[str, Any]]] = {}
        """Buckets whose write failed (disk full, read-only folder): served from memory, written again with
        the next change of the bucket. The index is derived data, so losing these only costs a rebuild."""

    # ------------------------------------------------------------------ reading
    def bucket_entries(self, number: int) -> dict[str, dict[str, Any]]:
        """id -> entry of one bucket (a damaged bucket is set aside and counts as empty until rebuilt)."""
        if number in self.unwritten:
            return self.unwritten[number]
        path = self.layout.bucket(number)
        try:
            current: Fingerprint | None = fingerprint(os.stat(path))
        except FileNotFoundError:
            current = None
        cached = self._cache.get(number)
        if cached is not None and cached[0] == current:
            return cached[1]
        loaded = load(path, KIND, what=lambda _t: Message("the list of saved games"), validate=_validate)
        if loaded.message:
            self.damaged = True
            self.note(
                Message(
                    "The list of saved games could not be read ({reason}) and was rebuilt from the saved games; "
                    "the damaged file was kept as {file}."
                    if loaded.aside
                    else "The list of saved games could not be read ({reason}) and was rebuilt from the saved games.",
                    reason=loaded.reason,
                    file=loaded.aside.name if loaded.aside else "",
                )
            )
        entries = {entry["id"]: entry for entry in (loaded.tables or {}).get(TABLE, {}).values()}
        # Keyed by the stat taken *before* reading: a bucket replaced meanwhile is simply read again.
        self._cache[number] = (current, entries)
        return entries

    def all_entries(self) -> dict[str, dict[str, Any]]:
        entries: dict[str, dict[str, Any]] = {}
        for number in range(INDEX_BUCKETS):
            entries.update(self.bucket_entries(number))
        return entries

    def places(self) -> list[str]:
        """The places matches were played at (`Match.place`), most used first, then the most recently played,
        then by name; spellings that differ only in case or spaces around are one place, named as in its most
        recent match. From the entries as stored (no summary is built, no match file read): cheap with 10,000."""
        found: dict[str, tuple[int, str, str]] = {}  # key -> (matches, latest update, name there)
        for entry in self.all_entries().values():
            place = entry.get("place")
            if not isinstance(place, str) or not place.strip():
                continue
            key, updated = place.strip().casefold(), str(entry.get("updated", ""))
            count, latest, name = found.get(key, (0, "", ""))
            found[key] = (count + 1, *((updated, place.strip()) if updated >= latest else (latest, name)))
        ranked = sorted(found.values(), key=lambda item: item[2].casefold())
        ranked.sort(key=lambda item: item[1], reverse=True)  # stable sorts: the later key decides first
        ranked.sort(key=lambda item: item[0], reverse=True)
        return [name for _count, _latest, name in ranked]

    def summaries(self) -> list[MatchSummary]:
        return [MatchSummary.from_dict(entry) for entry in self.all_entries().values()]

    # ------------------------------------------------------------------ writing
    def put(self, summary: MatchSummary, stat: os.stat_result) -> None:
        """Record (or replace) one match's summary; rewrites only that match's bucket."""
        self.put_many([(summary, stat)])

    def put_many(self, items: list[tuple[MatchSummary, os.stat_result]]) -> None:
        """Record many summaries with one write per bucket they fall into (import batches)."""
        changed: dict[int, dict[str, dict[str, Any]]] = {}
        for summary, stat in items:
            number = self.layout.bucket_of(summary.id)
            if number not in changed:
                changed[number] = dict(self.bucket_entries(number))
            changed[number][summary.id] = {**summary.to_dict(), "file": fingerprint(stat)}
        for number, entries in changed.items():
            self.write_bucket(number, entries)

    def remove(self, match_id: str) -> None:
        number = self.layout.bucket_of(match_id)
        entries = dict(self.bucket_entries(number))
        self._encoded.pop(match_id, None)
        if entries.pop(match_id, None) is not None:
            self.write_bucket(number, entries)

    def write_bucket(self, number: int, entries: dict[str, dict[str, Any]]) -> None:
        """Replace a whole bucket. A failed write keeps the bucket in memory (see `unwritten`)."""
        self._cache.pop(number, None)
        if self.read_only:
            self.unwritten[number] = entries
            return
        try:
            # Not flushed to disk (durable=False): a bucket lost in a power cut is rebuilt from the match files
            # at the next open (see the module docstring), and the save of a round waits only for its match.
            stat = atomic_write_bytes(
                self.layout.bucket(number), self.encode_bucket(entries), keep_backup=False, durable=False
            )
        except WriteError:
            self.unwritten[number] = entries
        else:
            self.unwritten.pop(number, None)
            self._cache[number] = (fingerprint(stat), entries)  # what was just written: no need to read it

    def encode_bucket(self, entries: dict[str, dict[str, Any]]) -> bytes:
        """The bucket file for `entries`, byte for byte what `dumps(envelope(...))` makes of the table
        `{"1": entry, "2": ...}` (entries by id), but made of each entry's JSON as last encoded: an entry object
        is never changed once stored in a bucket (`put_many` makes new ones), so the same object has the
        same JSON."""
        parts = []
        for i, match_id in enumerate(sorted(entries), start=1):
            entry = entries[match_id]
            known = self._encoded.get(match_id)
            if known is None or known[0] is not entry:
                known = (entry, dumps(entry))
                self._encoded[match_id] = known
            parts.append(b'"%d":%s' % (i, known[1]))
        head, tail = dumps(envelope(KIND, {TABLE: {}})).split(b"{}", 1)
        return head + b"{" + b",".join(parts) + b"}" + tail
