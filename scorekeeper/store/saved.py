"""Saved digital games: one file each, versioned like matches so two devices cannot overwrite each other."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from copy import deepcopy
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

from scorekeeper.games.base import Message, day_of
from scorekeeper.model.stamps import change_stamp, now_iso
from scorekeeper.store.errors import ConflictError, CorruptFileError, InputError, NewerFileError, StoreError
from scorekeeper.store.files import Files, FilesPart, newer_file_note
from scorekeeper.store.index import Fingerprint, fingerprint
from scorekeeper.store.paths import is_safe_id
from scorekeeper.store.records import SavedGame
from scorekeeper.store.recovery import describe_tables, load, stamp
from scorekeeper.store.saved_data import ASIDE
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import backup_path, is_tmp, read_envelope

T = TypeVar("T")
KIND = "digital"
TABLE = "game"
_SETTLED_NS = 2_000_000_000
"""How long before a read the folder must have last changed for the read's answer to be kept (`_while_unchanged`):
more than any file system's clock tick (FAT's is 2 s)."""


def _tables(data: dict[str, Any]) -> Tables:
    return {TABLE: {"1": data}}


def _describe(doc: dict[str, Any]) -> Message:
    from scorekeeper.model.match import GAME_TITLES

    return Message(
        "the saved {game} game from {date}",
        game=GAME_TITLES.get(str(doc.get("game")), ""),
        date=day_of(str(doc.get("created", ""))),
    )


class Played(NamedTuple):
    """What one saved game tells the match lists: its match, when it was last saved, the round (from 0) it
    holds."""

    match_id: str
    updated: str
    round: int


def _copy(game: SavedGame) -> SavedGame:
    """`game` with its own options, log and data (a kept answer is shared; the copy may be changed)."""
    return replace(game, options=deepcopy(game.options), log=deepcopy(game.log), data=deepcopy(game.data))


def _played_of(path: str) -> Played | None:
    """What the saved game in the file at `path` tells the lists; None when it is set aside or unreadable."""
    try:
        tables = read_envelope(Path(path), KIND)
        data = tables[TABLE]["1"] if tables else None
    except (CorruptFileError, NewerFileError, KeyError, TypeError, OSError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("data"), dict) or ASIDE in data["data"]:
        return None
    match_id, updated, index = data.get("match_id"), data.get("updated"), data["data"].get("round", 0)
    if not isinstance(match_id, str) or not isinstance(updated, str):
        return None
    return Played(match_id, updated, index if isinstance(index, int) and not isinstance(index, bool) else -1)


class SavedGames(FilesPart):
    """Saved digital games (`digital/<id>.json`)."""

    def __init__(self, files: Files) -> None:
        super().__init__(files)
        # What `last_played` read of each file, with the file's fingerprint: a file is read again only when it
        # was written since (every move writes one game; the others stay as they were).
        self._played: dict[str, tuple[Fingerprint, Played | None]] = {}
        self._kept: dict[str, tuple[tuple[int, int], Any]] = {}
        """Per question (`_while_unchanged`): the folder's (inode, modification time) and the answer for it."""

    def write_record(self, data: dict[str, Any]) -> None:
        """Write a checked saved game's data as it is (import: the version is the caller's decision)."""
        self._write(self.layout.saved_game(data["id"]), KIND, _tables(data))

    def _load_saved(self, game_id: str) -> SavedGame | None:
        path = self.layout.saved_game(game_id)

        def validate(tables: Tables) -> None:
            if SavedGame.from_dict(tables[TABLE]["1"]).id != game_id:
                raise CorruptFileError(path, Message("the file holds a different game"))

        try:
            tables = read_envelope(path, KIND)
            if tables is None:
                return None
            validate(tables)
            return SavedGame.from_dict(tables[TABLE]["1"])
        except NewerFileError:
            self._note(newer_file_note(path))
            return None
        except (CorruptFileError, ValueError, KeyError, TypeError):
            pass
        with self._lock.held():
            loaded = load(
                path,
                KIND,
                what=lambda t: describe_tables(t, TABLE, _describe, Message("a saved digital game")),
                validate=validate,
                from_snapshot=lambda: self._snapshot_record("digital_games", game_id, _tables),
            )
        if loaded.message:
            self._note(loaded.message)
        return SavedGame.from_dict(loaded.tables[TABLE]["1"]) if loaded.tables else None

    def get_digital_game(self, game_id: str) -> SavedGame | None:
        return self._load_saved(game_id) if is_safe_id(game_id) else None

    def list_digital_games(self, *, read_only: bool = False) -> list[SavedGame]:
        """Every saved digital game, most recently saved first: copies of its own for each caller (one may
        change a game and save it), read from the files only when the folder changed (`_while_unchanged`:
        home lists them on every redraw; reading 1,000 took 62 ms, copying them takes 13). `read_only`: the
        kept games themselves, not copied, for a caller that only looks (home, which draws a page of them);
        changing one would change every later answer, so such a caller copies one it means to change."""
        games = self._while_unchanged("games", self._load_all)
        return list(games) if read_only else [_copy(game) for game in games]

    def _load_all(self) -> list[SavedGame]:
        games = []
        for entry in os.scandir(self.layout.digital):
            if entry.name.endswith(".json") and not is_tmp(entry.name):
                game = self._load_saved(entry.name[: -len(".json")])
                if game is not None:
                    games.append(game)
        return sorted(games, key=lambda g: (g.updated, g.id), reverse=True)

    def last_played(self) -> dict[str, str]:
        """Match id -> when its game was last saved (the latest, should it have several), games set aside not
        counted: every move saves a digital match's game, while the match itself changes only when a round
        ends. Read from the files as they are (no rules check, no recovery: only a list's order depends on it;
        a file that cannot be read counts as not played)."""
        return {match_id: played.updated for match_id, played in self._latest().items()}

    def rounds_in_play(self) -> dict[str, int]:
        """Match id -> the round (from 0) its saved game holds (its latest, games set aside not counted), read
        as `last_played` reads. The match has that many rounds while the round is played; one more once it
        ended, until the next round is dealt."""
        return {match_id: played.round for match_id, played in self._latest().items()}

    def _latest(self) -> dict[str, Played]:
        return self._while_unchanged("played", self._scan)

    def _while_unchanged(self, question: str, read: Callable[[], T]) -> T:
        """`read()`'s answer to `question`, kept while the folder of saved games stays as it was (the caller
        must not change it). Every write (a new file moved into place, a backup linked, a file removed)
        changes the folder's modification time, so while it stays the same the answer does (no stat per file:
        2.7 ms for 1,000 games, on every list drawn). Trusted only once the folder was last changed well before
        it was read: a write within the same tick of a coarse clock would leave the time as it was."""
        before = time.time_ns()
        folder = os.stat(self.layout.digital)
        state = (folder.st_ino, folder.st_mtime_ns)
        kept = self._kept.get(question)
        if kept is not None and kept[0] == state:
            return cast(T, kept[1])
        answer = read()
        if before - folder.st_mtime_ns > _SETTLED_NS:
            self._kept[question] = (state, answer)
        else:
            self._kept.pop(question, None)
        return answer

    def _scan(self) -> dict[str, Played]:
        known: dict[str, tuple[Fingerprint, Played | None]] = {}
        latest: dict[str, Played] = {}
        with os.scandir(self.layout.digital) as entries:
            for entry in entries:
                if not entry.name.endswith(".json") or is_tmp(entry.name):
                    continue
                try:
                    file = fingerprint(entry.stat())
                except OSError:
                    continue
                earlier = self._played.get(entry.name)
                read = earlier[1] if earlier is not None and earlier[0] == file else _played_of(entry.path)
                known[entry.name] = (file, read)
                before = latest.get(read.match_id) if read is not None else None
                if read is not None and (before is None or read.updated > before.updated):
                    latest[read.match_id] = read
        self._played = known
        return latest

    def save_digital_game(self, saved: SavedGame) -> SavedGame:
        """Like save_match: the stored version must equal `saved.version`; written with version + 1."""
        if not isinstance(saved, SavedGame):
            raise TypeError("save_digital_game needs a SavedGame")
        if not is_safe_id(saved.id):
            raise InputError("This saved game has an unusable id.")
        data = saved.to_dict()
        try:
            SavedGame.from_dict(data)
        except ValueError as error:
            raise InputError("This game cannot be saved: {error}.", error=error) from None
        with self._lock.held():
            current = self._load_saved(saved.id)
            stored = current.version if current else 0
            if stored != saved.version:
                raise ConflictError(
                    "This game was saved on another device in the meantime, so this copy was not saved. "
                    "Open it again to continue from there."
                )
            data["version"], data["updated"] = saved.version + 1, change_stamp()
            try:
                self._write(self.layout.saved_game(saved.id), KIND, _tables(data))
            except (TypeError, ValueError) as error:
                raise InputError(
                    "This game holds something that cannot be saved ({error}).", error=error
                ) from None
            saved.version, saved.updated = data["version"], data["updated"]
        self.files.changes.tell("digital", saved.id)
        return saved

    def set_aside_digital_game(self, game_id: str) -> SavedGame | None:
        """Mark a saved game set aside (`saved_data.ASIDE`): a game whose moves today's engine no longer
        replays stops being offered, and nothing is lost: the file stays in `digital/` with its moves, in
        exports and in sync. None when there is no such game."""
        saved = self.get_digital_game(game_id)
        if saved is None:
            return None
        saved.data[ASIDE] = now_iso()
        return self.save_digital_game(saved)

    def bring_back_digital_game(self, game_id: str) -> SavedGame | None:
        """Clear a saved game's set-aside mark, so it is offered to be continued again; whether it may come back
        (today's engine replays it, its match waits for it) is asked before (`digital.checks.bring_back`). None
        when there is no such game."""
        saved = self.get_digital_game(game_id)
        if saved is None:
            return None
        if ASIDE in saved.data:
            del saved.data[ASIDE]
            saved = self.save_digital_game(saved)
        return saved

    def delete_digital_game(self, game_id: str) -> bool:
        """Remove a saved digital game (moved to trash/)."""
        if not is_safe_id(game_id):
            return False
        with self._lock.held():
            path = self.layout.saved_game(game_id)
            if not path.exists():
                return False
            try:
                os.replace(path, self.layout.trash / f"digital-{game_id}-{stamp()}.json")
            except OSError as error:
                raise StoreError(
                    "The saved game could not be removed ({reason}).", reason=error.strerror
                ) from error
            with contextlib.suppress(FileNotFoundError):
                backup_path(path).unlink()
        self.files.changes.tell("digital", game_id)
        return True
