"""The Store: the one object the app uses to keep players, matches, saved games and settings.

It is composed of parts over one file primitive (`Files`: layout, lock, atomic writes, recovery notes):
`store.matches`, `store.players`, `store.settings_part`, `store.saved`. Snapshots (snapshots.py, of the
whole document: document.py) are plain functions over those parts; the exchange formats (JSON and CSV export and
import, BG Stats) are functions over a Store in `scorekeeper.exchange`, which the store does not know. The
methods below are the app's API; most simply hand over to a part.

Layout of a data folder (schema 2):
    meta.json            schema version of the folder
    players.json         players                      settings.json   language, theme, ...
    matches/<id>.json    one file per match (and its undo history)   index/bucket-NN.json  match summaries
    digital/<id>.json    one file per saved digital game
    backups/             daily snapshots (full exports), the last 5 kept
    photos/<id>.jpg      a match's photos, each with <id>.thumb.jpg (photos.py)
    trash/               deleted matches (and their photos, trash/photos/)
Every `x.json` that holds the player's data has `x.json.bak`, the version before its last write.
Recording a round rewrites one match file and one index bucket, so it costs the same with 10 or 10,000 rounds
of history.

A folder that cannot be written (read-only disk, no permission) opens read-only: `read_only` is True,
`read_only_reason` says why, every change raises WriteError, and the index is rebuilt in memory. On a full
disk the store opens as usual; whatever cannot be written is kept in memory and written with a later change.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import scorekeeper.store.batch as batch
import scorekeeper.store.locking as locking
import scorekeeper.store.migrate as migrate
import scorekeeper.store.snapshots as snapshots
from scorekeeper.games.base import Message
from scorekeeper.model.match import Match
from scorekeeper.model.player_row import MatchRow, RowCache
from scorekeeper.store.conflicts import Conflict, Keep, SyncRecords
from scorekeeper.store.document import build_export
from scorekeeper.store.errors import NewerVersionError, StoreError, WriteError
from scorekeeper.store.files import Files, read_only_reason
from scorekeeper.store.match_file import describe_match
from scorekeeper.store.matches import Matches
from scorekeeper.store.paths import Layout, make_private_dir, resolve_data_dir
from scorekeeper.store.people import Players, Settings
from scorekeeper.store.photos import Photos
from scorekeeper.store.records import MatchSummary, Player, SavedGame
from scorekeeper.store.saved import SavedGames
from scorekeeper.store.storage import fsync_dir, is_tmp
from scorekeeper.store.undo import MatchHistory

__all__ = ["NewerVersionError", "Store", "describe_match"]


class Store:
    """Open with `Store.open(data_dir)`."""

    def __init__(self, root: Path, *, read_only: Message | None = None) -> None:
        self.data_dir = root
        self.files = Files(root, read_only_reason=read_only)
        self.layout: Layout = self.files.layout
        self.matches = Matches(self.files)
        self.players = Players(self.files, self.matches.list)
        self.settings_part = Settings(self.files)
        self.saved = SavedGames(self.files)
        self.sync_records = SyncRecords(self.matches)
        self.photos = Photos(self.files)
        self._stat_rows = RowCache()

    @property
    def recovery_messages(self) -> list[Message]:
        """What was recovered, for the player: each a Message (an English str that can be translated)."""
        return self.files.notes

    @property
    def read_only(self) -> bool:
        return self.files.read_only

    @property
    def read_only_reason(self) -> Message | None:
        """Why the data can only be read (a translatable Message), or None."""
        return self.files.read_only_reason

    # ---------------------------------------------------------------- lifecycle
    @classmethod
    def open(cls, data_dir: str | os.PathLike[str] | None = None) -> Store:
        """Open (creating if missing) the store in `data_dir` (see `resolve_data_dir`). Damaged files are
        recovered and reported in `recovery_messages`; data of a newer app version raises NewerVersionError
        before anything in the folder is touched; a folder that cannot be written opens read-only."""
        root = resolve_data_dir(data_dir)
        layout = Layout(root)
        migrate.refuse_newer(layout)  # read-only check, before the lock file is even created
        try:
            make_private_dir(root)  # the owner's only (0700): the PIN and device tokens are in it
            os.close(locking.open_lock_file(layout.lock))
        except OSError as error:
            reason = read_only_reason(error)
            if reason is None or not root.is_dir():
                raise StoreError(
                    "Cannot create the data folder {folder} ({reason}).",
                    folder=str(root),
                    reason=error.strerror,
                ) from error
            return cls._open_read_only(root, reason)
        store = cls(root)
        with store.files.lock.held():
            store.files.notes.extend(migrate.bring_up_to_date(layout))
            missing = [folder for folder in layout.folders() if not folder.is_dir()]
            for folder in missing:
                folder.mkdir(exist_ok=True)
            if missing:
                fsync_dir(root)  # the new folders survive a power cut along with the files put in them
            cut_short = batch.recover(layout)
            if cut_short is not None:
                store.files.note(cut_short)
            store._remove_leftover_temp_files()
            with contextlib.suppress(WriteError):  # a full disk: the player list is rebuilt in memory
                store.players._check_players()
            with contextlib.suppress(WriteError):
                store.settings_part._check_settings()
            store.matches.check_index()
            store.files.notes.extend(snapshots.take_if_due(layout, lambda: store.document(for_snapshot=True)))
        return store

    @classmethod
    def _open_read_only(cls, root: Path, reason: Message) -> Store:
        store = cls(root, read_only=reason)
        try:
            if store.layout.matches.is_dir():
                store.matches.check_index()  # in memory: nothing is written to a read-only folder
        except OSError as error:  # not even readable
            raise StoreError(
                "Cannot read the data folder {folder} ({reason}).", folder=str(root), reason=error.strerror
            ) from error
        return store

    def close(self) -> None:
        self.files.lock.close()

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

    # ---------------------------------------------------------------- matches
    def get_match(self, match_id: str) -> Match | None:
        """The match with this id, or None."""
        return self.matches.get(match_id)

    def newer_match(self, match_id: str) -> MatchSummary | None:
        """What is known of a match a newer version of the app made (kept read-only, see Matches.newer);
        None for any other id."""
        return self.matches.newer(match_id)

    def save_match(self, match: Match, description: str = "") -> Match:
        """See Matches.save: a new match, or an edit made on the version a screen showed (ConflictError when
        it is stale); checked before writing; returns the saved match (`match` stays as it was);
        `description` names the change for undo."""
        return self.matches.save(match, description)

    def change_match(self, match_id: str, change: Callable[[Match], Match], why: str = "") -> Match:
        """See Matches.change: `change` (Match -> Match, pure) applied to the stored match under the write
        lock and saved; never a conflict with a change made meanwhile; RuleError when it no longer applies
        (nothing changes). Returns the saved match. `why` names the change for undo."""
        return self.matches.change(match_id, change, why)

    def delete_match(self, match_id: str) -> bool:
        return self.matches.delete(match_id)

    def watch_matches(self, listener: Callable[[str], None]) -> None:
        """Call `listener(match_id)` after every save, undo, redo or delete of a match (outside the lock)."""
        self.matches.watch(listener)

    def unwatch_matches(self, listener: Callable[[str], None]) -> None:
        self.matches.unwatch(listener)

    def watch_changes(self, listener: Callable[[str, str], None]) -> None:
        """Call `listener(kind, id)` after every change that sync carries (outside the lock): a match saved,
        undone, redone or deleted ("match"), a player added, renamed, recoloured or archived ("player"), a
        digital game saved or deleted ("digital"), an import ("import", id ""). Settings are not told: they stay
        on each device."""
        self.files.changes.watch(listener)

    def unwatch_changes(self, listener: Callable[[str, str], None]) -> None:
        self.files.changes.unwatch(listener)

    def list_matches(
        self, status: str | None = None, game: str | None = None, player: str | None = None
    ) -> list[MatchSummary]:
        """Summaries of the stored matches, most recently changed first; filters are exact values. A match
        another device changed differently has `conflict` set."""
        summaries = self.matches.list(status, game, player)
        conflicted = self.sync_records.conflict_ids()
        if not conflicted:
            return summaries
        return [dataclasses.replace(s, conflict=True) if s.id in conflicted else s for s in summaries]

    def places(self) -> list[str]:
        """The places games were played at, most used first, then the most recently played (`MatchIndex.places`):
        what a place is chosen from. Read from the index, never from the match files."""
        self.matches.index.all_entries()
        if self.matches.index.damaged:  # a bucket was set aside just now: `list` rebuilds it from the files
            self.matches.list()
        return self.matches.index.places()

    def stat_rows(self) -> list[MatchRow]:
        """The finished matches as player statistics read them (`player_row.rows_of`), oldest start first:
        from the index alone (a match file is read only for an entry an older version wrote), and from rows kept
        since the last call where an entry did not change."""
        index = self.matches.index
        index.all_entries()
        if index.damaged:  # a bucket was set aside just now: `list` rebuilds it from the files
            self.matches.list()
        return self._stat_rows.rows(index.all_entries().values(), self.get_match)

    def conflicts(self) -> list[Conflict]:
        """Matches changed differently on two devices (by sync), each with the other devices' versions."""
        return self.sync_records.conflicts()

    def resolve_conflict(self, match_id: str, keep: Keep) -> str:
        """Keep this device's version of a conflicting match, the other device's, or both (the other
        becomes a separate game). Returns the id of the match holding the other version when both are
        kept (else `match_id`). Every device drops the conflict at its next sync."""
        with self.files.lock.held():
            self.files.refuse_if_read_only()
            return self.sync_records.resolve(match_id, keep)

    def iter_matches(
        self, status: str | None = None, game: str | None = None, player: str | None = None
    ) -> Iterator[Match]:
        return self.matches.iterate(status, game, player)

    def match_history(self, match_id: str) -> MatchHistory:
        """What undo / redo would take back or bring back now (from any device)."""
        return self.matches.history(match_id)

    def undo_match(self, match_id: str, shown_version: int) -> Match:
        """Take back the latest change; ConflictError if the match changed since `shown_version`."""
        return self.matches.undo(match_id, shown_version)

    def redo_match(self, match_id: str, shown_version: int) -> Match:
        return self.matches.redo(match_id, shown_version)

    # ---------------------------------------------------------------- players
    def list_players(self, include_archived: bool = False) -> list[Player]:
        return self.players.list_players(include_archived)

    def get_player(self, player_id: str) -> Player | None:
        return self.players.get_player(player_id)

    def add_player(self, name: str, colour: str = "") -> Player:
        return self.players.add_player(name, colour)

    def rename_player(self, player_id: str, name: str) -> Player:
        return self.players.rename_player(player_id, name)

    def set_player_colour(self, player_id: str, colour: str) -> Player:
        return self.players.set_player_colour(player_id, colour)

    def archive_player(self, player_id: str, archived: bool = True) -> Player:
        return self.players.archive_player(player_id, archived)

    # ---------------------------------------------------------------- settings
    def settings(self) -> dict[str, Any]:
        return self.settings_part.settings()

    def get_setting(self, key: str, default: Any = None) -> Any:
        return self.settings_part.get_setting(key, default)

    def set_setting(self, key: str, value: Any) -> None:
        self.settings_part.set_setting(key, value)

    def update_settings(self, values: dict[str, Any]) -> None:
        self.settings_part.update_settings(values)

    # ---------------------------------------------------------------- saved digital games
    def get_digital_game(self, game_id: str) -> SavedGame | None:
        return self.saved.get_digital_game(game_id)

    def list_digital_games(self, *, read_only: bool = False) -> list[SavedGame]:
        """Every saved digital game, most recently saved first; `read_only`: shared, not copied (never change
        one: `SavedGames.list_digital_games`)."""
        return self.saved.list_digital_games(read_only=read_only)

    def save_digital_game(self, saved: SavedGame) -> SavedGame:
        return self.saved.save_digital_game(saved)

    def last_played(self) -> dict[str, str]:
        """Match id -> when its digital game was last saved (moves save it; the match changes per round)."""
        return self.saved.last_played()

    def rounds_in_play(self) -> dict[str, int]:
        """Match id -> the round (from 0) its digital game holds: being played while the match has that many
        rounds, over (the next one not yet dealt) once it has one more."""
        return self.saved.rounds_in_play()

    def set_aside_digital_game(self, game_id: str) -> SavedGame | None:
        return self.saved.set_aside_digital_game(game_id)

    def bring_back_digital_game(self, game_id: str) -> SavedGame | None:
        return self.saved.bring_back_digital_game(game_id)

    def delete_digital_game(self, game_id: str) -> bool:
        return self.saved.delete_digital_game(game_id)

    # ---------------------------------------------------------------- snapshots
    def document(self, *, for_snapshot: bool = False) -> dict[str, Any]:
        """Everything in the store as one JSON-safe document (document.py): a snapshot's content, and the JSON
        export's (`scorekeeper.exchange.transfer`)."""
        return build_export(
            self.players, self.settings_part, self.matches, self.saved, for_snapshot=for_snapshot
        )

    def snapshot(self) -> Path:
        """Write a full snapshot (an export) into backups/ now; the oldest beyond the last 5 are removed."""
        with self.files.lock.held():
            self.files.refuse_if_read_only()
            return snapshots.take(self.layout, self.document(for_snapshot=True))

    def list_snapshots(self) -> list[Path]:
        """Snapshot files, newest first."""
        return snapshots.existing(self.layout)

    @contextlib.contextmanager
    def importing(self, *, snapshot_first: bool) -> Iterator[None]:
        """Hold the write lock for an import (WriteError at once where the store is read-only), with a snapshot
        taken first when `snapshot_first` (an import that adds or replaces games keeps the way back); once the
        import is done (not when it raised) the app's watchers are told. The import itself, all or nothing, is
        the exchange format's (`scorekeeper.exchange`)."""
        with self.files.lock.held():
            self.files.refuse_if_read_only()
            if snapshot_first:
                self.snapshot()
            yield
        self.files.changes.tell("import", "")
