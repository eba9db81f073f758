"""The Store: the one object the app uses to keep players, matches, saved games and settings.

Layout of a data folder (schema 2):
    meta.json            schema version of the folder
    players.json         players                      settings.json   language, theme, ...
    matches/<id>.json    one file per match           index/bucket-NN.json  match summaries, by id hash
    digital/<id>.json    one file per saved digital game
    backups/             daily snapshots (full exports), the last 5 kept
    trash/               deleted matches
Every `x.json` that holds the player's data has `x.json.bak`, the version before its last write.
Recording a round rewrites one match file and one index bucket, so it costs the same with 10 or 10,000 rounds
of history.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scorekeeper.games.base import Message, RuleError, day_of
from scorekeeper.match import Match, now_iso
from scorekeeper.store import migrate, snapshots
from scorekeeper.store.errors import (
    ConflictError,
    CorruptFileError,
    InputError,
    NewerFileError,
    NewerVersionError,
    StoreError,
)
from scorekeeper.store.index import MatchIndex, fingerprint
from scorekeeper.store.locking import FolderLock
from scorekeeper.store.paths import INDEX_BUCKETS, Layout, resolve_data_dir
from scorekeeper.store.people import PlayersMixin, SettingsMixin
from scorekeeper.store.records import MatchSummary
from scorekeeper.store.recovery import describe_tables, load, stamp
from scorekeeper.store.saved import SavedGamesMixin
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import backup_path, fsync_dir, is_tmp, read_envelope, write_envelope
from scorekeeper.store.transfer import TransferMixin

MATCH_KIND = "match"
MATCH_TABLE = "match"


def describe_match(data: dict[str, Any]) -> Message:
    """How messages name a match: "the Rage game of Anna, Ben and Cleo (started 2026-05-01)"."""
    from scorekeeper.match import GAME_TITLES

    names = [str(n) for n in data.get("names", [])]
    if len(names) > 1:
        people: str = Message("{players} and {last}", players=", ".join(names[:-1]), last=names[-1])
    else:
        people = "".join(names)
    title = GAME_TITLES.get(str(data.get("game")))
    started = str(data.get("created", ""))[:10]
    if title is None:
        return Message(
            "the saved game of {players} (started {date})" if started else "the saved game of {players}",
            players=people,
            date=day_of(started),
        )
    return Message(
        "the {game} game of {players} (started {date})" if started else "the {game} game of {players}",
        game=title,
        players=people,
        date=day_of(started),
    )


def _match_tables(data: dict[str, Any]) -> Tables:
    return {MATCH_TABLE: {"1": data}}


class Store(PlayersMixin, SettingsMixin, SavedGamesMixin, TransferMixin):
    """Open with `Store.open(data_dir)`; see /work/notes/STORE_API.md for the whole API."""

    def __init__(self, root: Path) -> None:
        self.data_dir = root
        self.layout = Layout(root)
        self.recovery_messages: list[Message] = []
        """What was recovered, for the player: each a Message (an English str that can be translated)."""
        self._lock = FolderLock(self.layout.lock)
        self._index = MatchIndex(self.layout, self._note)

    # ---------------------------------------------------------------- lifecycle
    @classmethod
    def open(cls, data_dir: str | os.PathLike[str] | None = None) -> Store:
        """Open (creating if missing) the store in `data_dir` (see `resolve_data_dir`). Damaged files are
        recovered and reported in `recovery_messages`; data of a newer app version raises NewerVersionError
        before anything in the folder is touched."""
        root = resolve_data_dir(data_dir)
        layout = Layout(root)
        migrate.refuse_newer(layout)  # read-only check, before the lock file is even created
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(
                "Cannot create the data folder {folder} ({reason}).", folder=str(root), reason=error.strerror
            ) from error
        store = cls(root)
        with store._lock.held():
            store.recovery_messages += migrate.bring_up_to_date(layout)
            missing = [folder for folder in layout.folders() if not folder.is_dir()]
            for folder in missing:
                folder.mkdir(exist_ok=True)
            if missing:
                fsync_dir(root)  # the new folders survive a power cut along with the files put in them
            store._remove_leftover_temp_files()
            store._check_players()
            store._check_settings()
            store._check_index()
            store.recovery_messages += snapshots.take_if_due(store)
        return store

    def close(self) -> None:
        self._lock.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _remove_leftover_temp_files(self) -> None:
        """Temporary files of writes cut short by a crash (only ever incomplete copies; the lock is held,
        so no write is in progress)."""
        for folder in (self.layout.root, *self.layout.folders()):
            for entry in os.scandir(folder):
                if is_tmp(entry.name):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)

    def _write(self, path: Path, kind: str, tables: Tables) -> os.stat_result:
        return write_envelope(path, kind, tables, keep_backup=True)

    # ---------------------------------------------------------------- matches
    def _load_match(self, match_id: str, *, restore_missing: bool = False) -> Match | None:
        """The stored match, recovering a damaged file (the message goes to recovery_messages)."""
        path = self.layout.match(match_id)
        found: list[Match] = []

        def validate(tables: Tables) -> None:
            match = Match.from_dict(tables[MATCH_TABLE]["1"])
            if match.id != match_id:
                raise CorruptFileError(path, Message("the file holds a different game"))
            found.append(match)

        try:
            loaded = load(
                path,
                MATCH_KIND,
                what=lambda t: describe_tables(t, MATCH_TABLE, describe_match, Message("a saved game")),
                validate=validate,
                from_snapshot=lambda: self._snapshot_record("matches", match_id, _match_tables),
                restore_missing=restore_missing,
            )
        except NewerFileError:
            self._note(
                Message(
                    "A saved game ({file}) was written by a newer version of the app and is skipped.",
                    file=path.name,
                )
            )
            return None
        if loaded.message:
            self._note(loaded.message)
        if loaded.tables is None:
            return None
        match = found[-1] if found else Match.from_dict(loaded.tables[MATCH_TABLE]["1"])
        if loaded.restored:
            with contextlib.suppress(OSError, StoreError):
                self._index.put(MatchSummary.of(match), os.stat(path))
        return match

    def _note(self, message: Message) -> None:
        if message not in self.recovery_messages:
            self.recovery_messages.append(message)

    def get_match(self, match_id: str) -> Match | None:
        """The match with this id, or None."""
        if not _is_id(match_id):
            return None
        path = self.layout.match(match_id)
        try:
            tables = read_envelope(path, MATCH_KIND)
            if tables is None:
                return None
            return Match.from_dict(tables[MATCH_TABLE]["1"])
        except (CorruptFileError, RuleError, KeyError, TypeError):
            with self._lock.held():
                return self._load_match(match_id)
        except NewerFileError:
            return self._load_match(match_id)

    def save_match(self, match: Match) -> Match:
        """Store a new match or a change to one. The stored version must equal `match.version` (else
        ConflictError and nothing changes); the match is written with version + 1, which is also set on
        `match`, together with `updated`."""
        if not isinstance(match, Match):
            raise TypeError("save_match needs a Match")
        if not _is_id(match.id):
            raise InputError("This game has an id that cannot be used as a file name; it was not saved.")
        with self._lock.held():
            path = self.layout.match(match.id)
            stored = self._stored_version(match.id, path)
            if stored != match.version:
                raise ConflictError(_conflict_message(match, stored))
            data = match.to_dict()
            data["version"] = match.version + 1
            data["updated"] = now_iso()
            _check_json(data)
            stat = self._write(path, MATCH_KIND, _match_tables(data))
            match.version, match.updated = data["version"], data["updated"]
            self._index.put(MatchSummary.of(match), stat)
        return match

    def _stored_version(self, match_id: str, path: Path) -> int:
        """The version on disk (0: no such match). Only the version is needed, so no full validation."""
        try:
            tables = read_envelope(path, MATCH_KIND)
            if tables is None:
                return 0
            version = tables[MATCH_TABLE]["1"]["version"]
            if isinstance(version, int):
                return version
        except (CorruptFileError, KeyError, TypeError):
            pass
        except NewerFileError as error:
            raise StoreError(
                "This game was saved by a newer version of the app; it cannot be changed here."
            ) from error
        recovered = self._load_match(match_id)
        return recovered.version if recovered else 0

    def delete_match(self, match_id: str) -> bool:
        """Remove a match from the list. Its file is moved to `trash/`, not erased."""
        if not _is_id(match_id):
            return False
        with self._lock.held():
            path = self.layout.match(match_id)
            found = path.exists()
            # Index first: a crash after it leaves a file the next open lists again (the delete is simply
            # lost), never an index entry whose file is gone.
            self._index.remove(match_id)
            if found:
                os.replace(path, self.layout.trash / f"{match_id}-{stamp()}.json")
            with contextlib.suppress(FileNotFoundError):
                backup_path(path).unlink()
        return found

    def list_matches(
        self, status: str | None = None, game: str | None = None, player: str | None = None
    ) -> list[MatchSummary]:
        """Summaries of the stored matches, most recently changed first; filters are exact values."""
        summaries = self._index.summaries()
        if self._index.damaged:  # a bucket was set aside just now: rebuild it from the match files
            with self._lock.held():
                self._check_index()
            summaries = self._index.summaries()
        rows = [
            summary
            for summary in summaries
            if (status is None or summary.status == status)
            and (game is None or summary.game == game)
            and (player is None or player in summary.players)
        ]
        return sorted(rows, key=lambda s: (s.updated, s.created, s.id), reverse=True)

    def iter_matches(
        self, status: str | None = None, game: str | None = None, player: str | None = None
    ) -> Iterator[Match]:
        """The full matches (for statistics), in list_matches order; a match that vanished is skipped."""
        for summary in self.list_matches(status, game, player):
            match = self.get_match(summary.id)
            if match is not None:
                yield match

    def _check_index(self) -> None:
        """Make the index agree with the match files (see index.py): rebuild what is stale or damaged,
        restore a match file that is missing, drop what cannot be restored."""
        buckets = {n: dict(self._index.bucket_entries(n)) for n in range(INDEX_BUCKETS)}
        self._index.damaged = False
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
                    match = self._load_match(match_id, restore_missing=True) if _is_id(match_id) else None
                    if match is not None:
                        entries[match_id] = self._entry(match)
        for match_id, entry in files.items():
            number = self.layout.bucket_of(match_id)
            known = buckets[number].get(match_id)
            if known is not None and known.get("file") == fingerprint(entry.stat()):
                continue
            changed.add(number)
            buckets[number].pop(match_id, None)
            match = self._load_match(match_id) if _is_id(match_id) else None
            if match is not None:
                buckets[number][match_id] = self._entry(match)
        for number in sorted(changed):
            self._index.write_bucket(number, buckets[number])

    def _entry(self, match: Match) -> dict[str, Any]:
        return {**MatchSummary.of(match).to_dict(), "file": fingerprint(os.stat(self.layout.match(match.id)))}

    # ---------------------------------------------------------------- snapshots as last resort
    def _snapshot_record(self, section: str, record_id: str, wrap: Any) -> Tables | None:
        record = snapshots.find_record(self.layout, section, record_id)
        return None if record is None else wrap(record)

    def snapshot(self) -> Path:
        """Write a full snapshot (an export) into backups/ now; the oldest beyond the last 5 are removed."""
        with self._lock.held():
            return snapshots.take(self)

    def list_snapshots(self) -> list[Path]:
        """Snapshot files, newest first."""
        return snapshots.existing(self.layout)


def _is_id(value: object) -> bool:
    from scorekeeper.store.paths import is_safe_id

    return is_safe_id(value)


def _check_json(data: Any) -> None:
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InputError("This game holds something that cannot be saved ({error}).", error=error) from None


def _conflict_message(match: Match, stored: int) -> Message:
    what = describe_match(match.to_dict())
    if stored == 0:
        return Message(
            "Your change to {what} was not saved: the game was deleted on another device.", what=what
        )
    return Message(
        "Your change to {what} was not saved: it was changed on another device in the meantime "
        "(saved edit {stored}, this screen showed edit {shown}). Reload the game and enter the change again.",
        what=what,
        stored=stored,
        shown=match.version,
    )


__all__ = ["NewerVersionError", "Store"]
