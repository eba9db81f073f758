"""Players and settings (small files: each change rewrites one of them atomically)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import Message, joined
from scorekeeper.model.free_text import NAME_MAX, refused
from scorekeeper.model.stamps import now_iso
from scorekeeper.store.errors import CorruptFileError, InputError, NewerFileError, NewerVersionError
from scorekeeper.store.files import Files, FilesPart
from scorekeeper.store.records import MatchSummary, Player
from scorekeeper.store.recovery import load
from scorekeeper.store.saved_data import COMPUTER_PREFIX
from scorekeeper.store.schema import Tables
from scorekeeper.store.storage import backup_path, read_envelope

PLAYERS_KIND = PLAYERS_TABLE = "players"
SETTINGS_KIND = SETTINGS_TABLE = "settings"
COLOUR_MAX = 32


def _validate_players(tables: Tables) -> None:
    for doc in tables.get(PLAYERS_TABLE, {}).values():
        Player.from_dict(doc)


def _validate_settings(tables: Tables) -> None:
    doc = tables.get(SETTINGS_TABLE, {}).get("1", {})
    if not isinstance(doc, dict):
        raise ValueError("settings must be an object")


class Players(FilesPart):
    """The player list (`players.json`). `seated()` gives the match summaries, so that a lost player list can
    be rebuilt from the games."""

    def __init__(self, files: Files, seated: Callable[[], list[MatchSummary]]) -> None:
        super().__init__(files)
        self._seated = seated

    # ------------------------------------------------------------------ reading
    def _players_tables(self) -> Tables:
        """The players file, recovered if damaged: backup, snapshot, else rebuilt from the match list."""
        path = self.layout.players
        try:
            tables = read_envelope(path, PLAYERS_KIND)
            _validate_players(tables or {})
            return tables or {}
        except NewerFileError as error:
            raise NewerVersionError(_NEWER_PLAYERS) from error
        except (CorruptFileError, ValueError, KeyError, TypeError):
            with self._lock.held():
                return self._recover_players()

    def _recover_players(self, restore_missing: bool = False) -> Tables:
        loaded = load(
            self.layout.players,
            PLAYERS_KIND,
            restore_missing=restore_missing,
            what=lambda _t: Message("the player list"),
            validate=_validate_players,
            from_snapshot=lambda: self._snapshot_record("players", "*", _rows_of_list),
        )
        if loaded.message:
            self._note(loaded.message)
        rows = dict((loaded.tables or {}).get(PLAYERS_TABLE, {}))
        # Whatever copy was found may be older than the games: bring back anyone a saved game seats.
        known = {doc.get("id") for doc in rows.values()}
        missing = [p for p in self._players_from_matches() if p.id not in known]
        for offset, player in enumerate(missing, start=max((int(k) for k in rows), default=0) + 1):
            rows[str(offset)] = player.to_dict()
        if missing:
            self._note(
                Message("Players were rebuilt from the saved games ({count} found).", count=len(missing))
            )
        tables = {PLAYERS_TABLE: rows}
        if missing or loaded.tables is None:
            self._write(self.layout.players, PLAYERS_KIND, tables)
        return tables

    def _players_from_matches(self) -> list[Player]:
        """Everyone seated in a saved game, oldest game first, with the name they last played under; computer
        players of digital games are seats, not people, and are left out."""
        seen: dict[str, Player] = {}
        for summary in reversed(self._seated()):
            for player_id, name in zip(summary.players, summary.names, strict=True):
                if player_id.startswith(COMPUTER_PREFIX):
                    continue
                first_seen = seen[player_id].created if player_id in seen else summary.created
                seen[player_id] = Player(player_id, name, created=first_seen)
        return list(seen.values())

    def _check_players(self) -> None:
        path = self.layout.players
        if path.exists():
            self._players_tables()
        elif backup_path(path).exists() or self._seated():
            self._recover_players(restore_missing=True)  # the file vanished but data exists
        else:
            self._write(path, PLAYERS_KIND, {PLAYERS_TABLE: {}})

    def rows(self) -> dict[str, dict[str, Any]]:
        """key -> stored player document (a copy: change it and pass it to `write_rows`)."""
        return self._player_rows()

    def write_rows(self, rows: dict[str, dict[str, Any]]) -> None:
        self._write(self.layout.players, PLAYERS_KIND, {PLAYERS_TABLE: rows})

    def _player_rows(self) -> dict[str, dict[str, Any]]:
        return dict(self._players_tables().get(PLAYERS_TABLE, {}))

    def list_players(self, include_archived: bool = False) -> list[Player]:
        """Players sorted by name; archived ones only when asked."""
        players = [Player.from_dict(doc) for doc in self._player_rows().values()]
        return sorted(
            (p for p in players if include_archived or not p.archived),
            key=lambda p: (p.name.casefold(), p.id),
        )

    def get_player(self, player_id: str) -> Player | None:
        return next((p for p in self.list_players(True) if p.id == player_id), None)

    # ------------------------------------------------------------------ changes
    def _change_players(self, change: Any) -> Player:
        """Apply `change(rows) -> Player` to the rows under the lock and write the file once."""
        with self._lock.held():
            rows = self._player_rows()
            player = change(rows)
            self._write(self.layout.players, PLAYERS_KIND, {PLAYERS_TABLE: rows})
        self.files.changes.tell("player", player.id)
        return player

    def add_player(self, name: str, colour: str = "") -> Player:
        """A new player. Names are trimmed, 1 to `NAME_MAX` characters, and unique among active players."""

        def change(rows: dict[str, dict[str, Any]]) -> Player:
            player = Player(
                uuid.uuid4().hex, _clean_name(name, rows), _clean_colour(colour), False, now_iso()
            )
            key = str(max((int(k) for k in rows), default=0) + 1)
            rows[key] = player.to_dict()
            return player

        return self._change_players(change)

    def _edit_player(self, player_id: str, **fields: Any) -> Player:
        def change(rows: dict[str, dict[str, Any]]) -> Player:
            for key, doc in rows.items():
                if doc.get("id") == player_id:
                    if "name" in fields:
                        fields["name"] = _clean_name(fields["name"], rows, exclude=player_id)
                    rows[key] = {**doc, **fields}
                    return Player.from_dict(rows[key])
            raise InputError("This player no longer exists; it may have been removed on another device.")

        return self._change_players(change)

    def rename_player(self, player_id: str, name: str) -> Player:
        """Rename a player; finished and running matches keep the names they were played with."""
        return self._edit_player(player_id, name=name)

    def set_player_colour(self, player_id: str, colour: str) -> Player:
        return self._edit_player(player_id, colour=_clean_colour(colour))

    def archive_player(self, player_id: str, archived: bool = True) -> Player:
        """Hide (or show again) a player in pickers; their history stays."""
        return self._edit_player(player_id, archived=bool(archived))


def _rows_of_list(players: list[dict[str, Any]]) -> Tables:
    return {PLAYERS_TABLE: {str(i + 1): p for i, p in enumerate(players)}}


def name_key(name: str) -> str:
    """What two active players' names may not share: the name with its spaces collapsed and its case folded
    ("Anna  Lena" and "anna lena" are one name)."""
    return " ".join(name.split()).casefold()


def name_problem(name: Any) -> Message | None:
    """Why `name` cannot be a player's name (the rule for the forms and for imports alike), or None.
    Names are 1 to `NAME_MAX` characters (`scorekeeper.model.free_text`) after trimming, with no control,
    direction-changing or broken characters."""
    if not isinstance(name, str) or not name.strip():
        return Message("Enter a name for the player.")
    if len(" ".join(name.split())) > NAME_MAX:
        return Message("A player's name can have at most {most} characters.", most=NAME_MAX)
    if any(refused(char) for char in name):  # tabs and line breaks are turned into single spaces
        return Message("A player's name cannot contain control or text-direction characters.")
    return None


def _clean_name(name: Any, rows: dict[str, dict[str, Any]], exclude: str | None = None) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise InputError(problem)
    clean = " ".join(name.split())
    for doc in rows.values():
        if (
            doc.get("id") != exclude
            and not doc.get("archived")
            and str(doc.get("name")).casefold() == clean.casefold()
        ):
            raise InputError(
                "There is already a player called {name}. Choose another name.", name=doc.get("name")
            )
    return clean


def _clean_colour(colour: Any) -> str:
    if not isinstance(colour, str) or len(colour) > COLOUR_MAX:
        raise InputError("That colour cannot be used; pick one from the list.")
    return colour.strip()


_NEWER_PLAYERS = Message(
    "The player list was saved by a newer version of Scorekeeper. Update the app to use this data; "
    "nothing has been changed."
)
_NEWER_SETTINGS = Message(
    "The settings file was saved by a newer version of Scorekeeper. Update the app to use this data; "
    "nothing has been changed."
)


class Settings(FilesPart):
    """The settings (`settings.json`): one document of name -> plain value."""

    def _settings_doc(self) -> dict[str, Any]:
        path = self.layout.settings
        try:
            tables = read_envelope(path, SETTINGS_KIND) or {}
            _validate_settings(tables)
            return dict(tables.get(SETTINGS_TABLE, {}).get("1", {}))
        except NewerFileError as error:
            raise NewerVersionError(_NEWER_SETTINGS) from error
        except (CorruptFileError, ValueError, KeyError, TypeError):
            with self._lock.held():
                loaded = load(
                    path,
                    SETTINGS_KIND,
                    what=lambda _t: Message("your settings"),
                    validate=_validate_settings,
                    from_snapshot=lambda: self._snapshot_record(
                        "settings", "*", lambda doc: {SETTINGS_TABLE: {"1": doc}}
                    ),
                )
                if loaded.message:
                    defaults = [] if loaded.tables else [Message("The default settings are used.")]
                    self._note(joined([loaded.message, *defaults], " "))
                if loaded.tables is None:
                    self._write(path, SETTINGS_KIND, {SETTINGS_TABLE: {"1": {}}})
                    return {}
                return dict(loaded.tables.get(SETTINGS_TABLE, {}).get("1", {}))

    def _check_settings(self) -> None:
        if not self._settings_doc() and not self.layout.settings.exists():
            self._write(self.layout.settings, SETTINGS_KIND, {SETTINGS_TABLE: {"1": {}}})

    def settings(self) -> dict[str, Any]:
        return self._settings_doc()

    def get_setting(self, key: str, default: Any = None) -> Any:
        return self._settings_doc().get(key, default)

    def set_setting(self, key: str, value: Any) -> None:
        """Store a setting; the value must be plain data (text, number, true/false, lists, objects)."""
        if not isinstance(key, str) or not key:
            raise InputError("A setting needs a name.")
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            raise InputError("The setting {key} cannot be saved with that value.", key=key) from None
        self.update_settings({key: value})

    def update_settings(self, values: dict[str, Any]) -> None:
        """Store several settings in one write (a copy is changed: a failed write changes nothing)."""
        with self._lock.held():
            doc = {**self._settings_doc(), **values}
            self._write(self.layout.settings, SETTINGS_KIND, {SETTINGS_TABLE: {"1": doc}})
