"""Matches: one file each (`matches/<id>.json`), listed through the index, with a per-match undo history.

The store is the only owner of a match: `change` applies a pure change to the stored match under the
folder's write lock, so a round recorded by a digital game or a table never conflicts with an edit made
meanwhile. Every change is versioned; `save` (a new match, an edit a screen made on the version it showed)
refuses a stale version: the stored version must equal the version the change was made on, else
ConflictError (another device saved in between) and nothing changes. Undo and redo are ordinary changes of
that kind: they take back (or bring back) the latest change only when the device's screen shows the stored
version, so they never drop a round another device saved meanwhile.

The history lives in the match file beside the match; what it holds and how undo and redo change it is
`store/undo.py`.

Whoever shows a match elsewhere (a live table keeping score, `scorekeeper.table.keeping`) may `watch` the
matches: every listener is told the id of each match saved, undone, redone or deleted, after the write and
outside the store's lock (a listener may take its own locks and read the store).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from scorekeeper.games.base import Message, RuleError
from scorekeeper.model.match import Match
from scorekeeper.model.match_data import made_by_newer
from scorekeeper.model.player_row import ROW_VERSION
from scorekeeper.model.stamps import change_stamp
from scorekeeper.spans import span
from scorekeeper.store.errors import (
    ConflictError,
    CorruptFileError,
    InputError,
    NewerFileError,
    StoreError,
)
from scorekeeper.store.files import Files, FilesPart
from scorekeeper.store.index import MatchIndex, fingerprint
from scorekeeper.store.match_file import (
    MATCH_KIND,
    MATCH_TABLE,
    check_storable,
    conflict_message,
    describe_match,
    match_tables,
)
from scorekeeper.store.newer import exported_records, newer_file_record, newer_summary
from scorekeeper.store.paths import INDEX_BUCKETS, is_safe_id
from scorekeeper.store.photos import Photos, photo_ids_of
from scorekeeper.store.records import MatchSummary
from scorekeeper.store.recovery import describe_tables, load, stamp
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import backup_path, is_tmp, read_envelope, read_json
from scorekeeper.store.undo import (
    HISTORY_TABLE,
    MatchHistory,
    history_after_change,
    stepped,
    what_undo_and_redo_do,
)
from scorekeeper.store.written import WrittenMatches

log = logging.getLogger(__name__)


class Matches(FilesPart):
    """The matches of one data folder."""

    def __init__(self, files: Files) -> None:
        super().__init__(files)
        self.index = MatchIndex(self.layout, files.note, read_only=files.read_only)
        self.listeners: list[Callable[[str], None]] = []
        self._written = WrittenMatches()

    def watch(self, listener: Callable[[str], None]) -> None:
        """Call `listener(match_id)` after every change to a match (see the module's docstring)."""
        if listener not in self.listeners:
            self.listeners.append(listener)

    def unwatch(self, listener: Callable[[str], None]) -> None:
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)

    def _tell(self, match_id: str) -> None:
        """Tell the listeners; one that fails (a closed page) must not fail the save or the others."""
        for listener in list(self.listeners):
            try:
                listener(match_id)
            except Exception:
                log.exception("a listener to the matches failed")
        self.files.changes.tell("match", match_id)

    # ---------------------------------------------------------------- reading
    def _load(self, match_id: str, *, restore_missing: bool = False) -> Match | None:
        """The stored match, recovering a damaged file (the message goes to the notes); None also for a match
        made by a newer version, which is kept as it is (`newer`)."""
        found = self._read(match_id, restore_missing=restore_missing)
        return found if isinstance(found, Match) else None

    def _read(self, match_id: str, *, restore_missing: bool = False) -> Match | MatchSummary | None:
        """The stored match, or the summary of one made by a newer version (a newer file, a game this version
        does not know: never damage, never set aside, docs/DATA.md "Newer data"), or None; a damaged file is
        recovered (the message goes to the notes)."""
        path = self.layout.match(match_id)
        found: list[Match | MatchSummary] = []

        def validate(tables: Tables) -> None:
            data = tables[MATCH_TABLE]["1"]
            match = MatchSummary.of_newer(match_id, data) if made_by_newer(data) else Match.from_dict(data)
            if data.get("id") != match_id:
                raise CorruptFileError(path, Message("the file holds a different game"))
            found.append(match)

        try:
            loaded = load(
                path,
                MATCH_KIND,
                what=lambda t: describe_tables(t, MATCH_TABLE, describe_match, Message("a saved game")),
                validate=validate,
                from_snapshot=lambda: self.files.snapshot_record("matches", match_id, match_tables),
                restore_missing=restore_missing,
            )
        except NewerFileError:
            return MatchSummary.of_newer(match_id, newer_file_record(path))
        if loaded.message:
            self._note(loaded.message)
        if loaded.tables is None:
            return None
        data = loaded.tables[MATCH_TABLE]["1"]
        if found:
            match = found[-1]
        else:
            match = MatchSummary.of_newer(match_id, data) if made_by_newer(data) else Match.from_dict(data)
        if loaded.restored:
            summary = match if isinstance(match, MatchSummary) else MatchSummary.of(match)
            with contextlib.suppress(OSError, StoreError):
                self.index.put(summary, os.stat(path))
        return match

    def newer(self, match_id: str) -> MatchSummary | None:
        """The summary of a match kept read-only because a newer version of the app made it (a newer file, a
        game this version does not know); None for any other id. Screens say so instead of "not found"."""
        return newer_summary(self.layout.match(match_id), match_id) if is_safe_id(match_id) else None

    def newer_records(self) -> list[dict[str, Any]]:
        """The records of the listed matches a newer version made that an export carries (`store/newer.py`)."""
        return exported_records((s.id, self.layout.match(s.id)) for s in self.list() if s.newer)

    def get(self, match_id: str) -> Match | None:
        """The match with this id, or None."""
        if not is_safe_id(match_id):
            return None
        known = self.written(match_id)
        if known is not None:
            return known
        path = self.layout.match(match_id)
        try:
            tables = read_envelope(path, MATCH_KIND)
            if tables is None:
                return None
            return Match.from_dict(tables[MATCH_TABLE]["1"])
        except (CorruptFileError, RuleError, KeyError, TypeError):
            with self._lock.held():
                return self._load(match_id)
        except NewerFileError:
            return None  # kept as it is, listed read-only (`newer`)

    def stored(self, match_id: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The stored match data (None: no such match) and its history. Only shape, no rules check."""
        path = self.layout.match(match_id)
        try:
            tables = read_envelope(path, MATCH_KIND)
            if tables is None:
                return None, {}
            data = tables[MATCH_TABLE]["1"]
            if isinstance(data.get("version"), int):
                history = tables.get(HISTORY_TABLE, {}).get("1", {})
                return data, history if isinstance(history, dict) else {}
        except (CorruptFileError, KeyError, TypeError, AttributeError):
            pass
        except NewerFileError as error:
            raise StoreError(
                "This game was saved by a newer version of the app; it cannot be changed here."
            ) from error
        recovered = self._load(match_id)
        return (recovered.to_dict() if recovered else None), {}

    # ---------------------------------------------------------------- changing
    def save(self, match: Match, description: str = "") -> Match:
        """Store a new match, or a change made on a version a screen showed. The stored version must equal
        `match.version` (else ConflictError and nothing changes); the match is checked (rules and plain data)
        before anything is written, and written with version + 1 and a new `updated`. Returns the saved match;
        `match` itself is a value and stays as it was. `description` names the change for a later undo
        ("Round 3 added"). A change that must not conflict with one made meanwhile is `change`."""
        if not isinstance(match, Match):
            raise TypeError("save_match needs a Match")
        if not is_safe_id(match.id):
            raise InputError("This game has an id that cannot be used as a file name; it was not saved.")
        with span("store.check"):
            data = match.to_dict()
            data["version"] = match.version + 1
            data["updated"] = change_stamp()
            checked = check_storable(data)
        with self._lock.held():
            self.files.refuse_if_read_only()
            with span("store.read"):
                stored, history = self.stored(match.id)
            stored_version = stored["version"] if stored else 0
            if stored_version != match.version:
                raise ConflictError(conflict_message(match, stored_version))
            if stored is not None:
                with span("store.history"):
                    history = history_after_change(
                        stored, history, data["version"], description, data["updated"]
                    )
            self._save_file(checked, data, history)
        with span("store.tell"):
            self._tell(match.id)
        return checked

    def change(self, match_id: str, change: Callable[[Match], Match], why: str = "") -> Match:
        """Apply `change` (a pure function: the match as stored -> the match wanted, e.g.
        `lambda m: m.with_round(result)`) to the stored match under the folder's write lock, and write what it
        returns with version + 1 and `why` in the undo history ("Round 3 added"). Returns the saved match.

        The change always applies to the stored version, so it never conflicts with a change made meanwhile
        by another screen, device (a sync) or process: both are kept. A change that no longer applies raises
        what it raises (RuleError: the rules refuse it now) and nothing changes; a change that returns the
        stored match itself (`m`) has nothing left to do: nothing is written and the stored match returned.
        ConflictError: the match is not there (deleted)."""
        with self._lock.held():
            self.files.refuse_if_read_only()
            with span("store.read"):
                stored, history = self.stored(match_id) if is_safe_id(match_id) else (None, {})
                if stored is None:
                    raise ConflictError("This game was not found. It may have been deleted.")
                current = self.written(match_id, stored["version"]) or Match.from_dict(stored)
            changed = change(current)
            if changed is current:
                return current
            if not isinstance(changed, Match) or changed.id != match_id:
                raise TypeError("a change to a match must return that match")
            with span("store.check"):
                data = changed.to_dict()
                data["version"] = stored["version"] + 1
                data["updated"] = change_stamp()
                checked = check_storable(data, changed)
            with span("store.history"):
                history = history_after_change(stored, history, data["version"], why, data["updated"])
            self._save_file(checked, data, history)
        with span("store.tell"):
            self._tell(match_id)
        return checked

    def _save_file(
        self, match: Match | MatchSummary, data: dict[str, Any], history: dict[str, Any] | None
    ) -> None:
        """Write the match file, then its index entry. A failed index write does not undo the save (the
        index is rebuilt from the files); the caller is told the truth: the game was saved."""
        path = self.layout.match(data["id"])
        self._written.forget(data["id"])
        with span("store.write"):
            stat = self._write(path, MATCH_KIND, match_tables(data, history))
        if isinstance(match, Match):
            self._written.remember(match, stat)
        with span("store.index"):
            self.index.put(MatchSummary.of(match), stat)

    def written(self, match_id: str, version: int | None = None) -> Match | None:
        """The match as this store last wrote it while its file is still that write (`store/written.py`)."""
        return self._written.get(match_id, self.layout.match(match_id), version)

    def history(self, match_id: str) -> MatchHistory:
        """What undo / redo would do now (read only)."""
        stored, history = self.stored(match_id) if is_safe_id(match_id) else (None, {})
        return MatchHistory(0, None, None) if stored is None else what_undo_and_redo_do(stored, history)

    def undo(self, match_id: str, shown_version: int) -> Match:
        """Take back the latest change of the match. `shown_version` is the version the device shows: if the
        match was changed since (on any device), ConflictError and nothing changes."""
        return self._step(match_id, shown_version, "undo", "redo")

    def redo(self, match_id: str, shown_version: int) -> Match:
        """Bring back the change the latest undo took back (same conflict rule as undo)."""
        return self._step(match_id, shown_version, "redo", "undo")

    def _step(self, match_id: str, shown_version: int, take: str, give: str) -> Match:
        with self._lock.held():
            self.files.refuse_if_read_only()
            stored, history = self.stored(match_id) if is_safe_id(match_id) else (None, {})
            if stored is None:
                raise ConflictError("This game was not found. It may have been deleted.")
            version = stored["version"]
            if version != shown_version:
                raise ConflictError(
                    "Nothing was undone or redone: {what} was changed on another device in the meantime "
                    "(saved edit {stored}, this screen showed edit {shown}). Reload the game to see the change.",
                    what=describe_match(stored),
                    stored=version,
                    shown=shown_version,
                )
            data, history = stepped(match_id, stored, history, take, give)  # InputError: nothing to take
            match = check_storable(data)
            self._save_file(match, data, history)
        self._tell(match_id)
        return match

    def delete(self, match_id: str) -> bool:
        """Remove a match from the list. Its file is moved to `trash/`, not erased."""
        if not is_safe_id(match_id):
            return False
        with self._lock.held():
            self.files.refuse_if_read_only()
            path = self.layout.match(match_id)
            found = path.exists()
            photos = self._photo_ids(path) if found else []
            # Index first: a crash after it leaves a file the next open lists again (the delete is simply
            # lost), never an index entry whose file is gone.
            self.index.remove(match_id)
            if found:
                os.replace(path, self.layout.trash / f"{match_id}-{stamp()}.json")
                Photos(self.files).to_trash(photos)  # the photos go to the trash with their match
            with contextlib.suppress(FileNotFoundError):
                backup_path(path).unlink()
        if found:
            self._tell(match_id)
        return found

    def _photo_ids(self, path: Path) -> list[str]:
        """The photo ids the match file at `path` names (none when it cannot be read: it goes to the trash
        all the same)."""
        try:
            tables = read_json(path).get("tables", {})
            return [p for doc in tables.get(MATCH_TABLE, {}).values() for p in photo_ids_of(doc)]
        except (OSError, ValueError, AttributeError, CorruptFileError):
            return []

    # ---------------------------------------------------------------- listing
    def list(
        self, status: str | None = None, game: str | None = None, player: str | None = None
    ) -> list[MatchSummary]:
        """Summaries of the stored matches, most recently changed first (`updated`, stamped to the microsecond by
        `change_stamp`; ties of times an older version wrote to the second: the later started, then the id, so
        the order is the same on every run); filters are exact values."""
        summaries = self.index.summaries()
        if self.index.damaged:  # a bucket was set aside just now: rebuild it from the match files
            with self._lock.held():
                self.check_index()
            summaries = self.index.summaries()
        rows = [
            summary
            for summary in summaries
            if (status is None or summary.status == status)
            and (game is None or summary.game == game)
            and (player is None or player in summary.players)
        ]
        return sorted(rows, key=lambda s: (s.updated, s.created, s.id), reverse=True)

    def iterate(
        self, status: str | None = None, game: str | None = None, player: str | None = None
    ) -> Iterator[Match]:
        """The full matches (for statistics), in list order; a match that vanished, or that a newer version
        made (it cannot be scored here), is skipped."""
        for summary in self.list(status, game, player):
            match = None if summary.newer else self.get(summary.id)
            if match is not None:
                yield match

    def check_index(self) -> None:
        """Make the index agree with the match files (see index.py): rebuild what is stale or damaged,
        restore a match file that is missing, drop what cannot be restored. Where the index cannot be
        written (full disk, read-only folder) the rebuilt buckets are kept in memory."""
        buckets = {n: dict(self.index.bucket_entries(n)) for n in range(INDEX_BUCKETS)}
        self.index.damaged = False
        files = {
            entry.name[: -len(".json")]: entry
            for entry in os.scandir(self.layout.matches)
            if entry.name.endswith(".json") and not is_tmp(entry.name)
        }
        changed: set[int] = set()
        for number, entries in buckets.items():
            for match_id in list(entries):
                if match_id not in files:  # the file went missing: a backup may still have it
                    changed.add(number)
                    del entries[match_id]
                    match = self._read(match_id, restore_missing=True) if is_safe_id(match_id) else None
                    if match is not None:
                        entries[match_id] = self._entry(match)
        for match_id, entry in files.items():
            number = self.layout.bucket_of(match_id)
            known = buckets[number].get(match_id)
            if known is not None and known.get("file") == fingerprint(entry.stat()) and not lacks_row(known):
                continue
            changed.add(number)
            buckets[number].pop(match_id, None)
            match = self._read(match_id) if is_safe_id(match_id) else None
            if match is not None:
                buckets[number][match_id] = self._entry(match)
        for number in sorted(changed | set(self.index.unwritten)):
            self.index.write_bucket(number, buckets[number])

    def _entry(self, match: Match | MatchSummary) -> dict[str, Any]:
        summary = match if isinstance(match, MatchSummary) else MatchSummary.of(match)
        return {**summary.to_dict(), "file": fingerprint(os.stat(self.layout.match(match.id)))}

    def path(self, match_id: str) -> Path:
        return self.layout.match(match_id)


def lacks_row(entry: dict[str, Any]) -> bool:
    """Whether an index entry of a match with rounds lacks the row player statistics read (an entry written by a
    version before them, or by one with an older row): it is made again from the match file at open, once."""
    if entry.get("newer") is True or not (entry.get("rounds") or entry.get("is_over")):
        return False
    row = entry.get("stats")
    return not (isinstance(row, dict) and isinstance(row.get("v"), int) and row["v"] >= ROW_VERSION)
