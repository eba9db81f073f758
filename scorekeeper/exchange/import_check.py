"""Checking an import file completely before anything is written: strict JSON in UTF-8 (no NaN or
Infinity, no broken characters, no numbers or nesting beyond what every reader handles), the export marker and
schema, every player by the rules of the players form, the settings, every match through the rules engine
(`Match.from_dict`) and every saved game. ImportFileError names each problem and the record it is in.

What a newer version added is no problem (docs/DATA.md, "Newer data"): a field or option it does not know is
kept in the match, a match of a game it does not know is imported as it is (`NewerRecord`), and a part of the
file it does not know is left out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.base import N_, Clause, Message, Plural, RuleError, joined
from scorekeeper.model.match import GAME_TITLES, Match
from scorekeeper.model.match_data import made_by_newer
from scorekeeper.store import plain
from scorekeeper.store.document import FORMAT
from scorekeeper.store.errors import ImportFileError
from scorekeeper.store.paths import is_safe_id
from scorekeeper.store.people import COLOUR_MAX, name_key, name_problem
from scorekeeper.store.records import Player, SavedGame
from scorekeeper.store.schema import CURRENT_SCHEMA

SECTIONS = ("players", "settings", "matches", "digital_games")
MAX_IMPORT_BYTES = 300_000_000
"""The largest import file (300 MB). A browser sends it over HTTP to disk (no transport limit); what limits it is
the host's memory while the file is checked whole before anything is written: about 10 bytes per byte of file
(2.5 GB peak measured for a 250 MB export of 277,000 games, imported through a browser in about 3 minutes)."""
MAX_VERSION = 10**9
SETTING_TYPES: dict[str, type] = {"language": str, "theme": str}
"""Settings this app knows, with their type; others must be short plain values."""
MAX_SETTINGS = 50
MAX_SETTING_TEXT = 200


@dataclass
class NewerRecord:
    """A match of the file that a newer version of the app made (a game this version does not know,
    `match_data.made_by_newer`): imported as it is, listed read-only (docs/DATA.md, "Newer data")."""

    data: dict[str, Any]

    @property
    def id(self) -> Any:
        return self.data.get("id")

    @property
    def version(self) -> int:
        return int(self.data.get("version", 0))

    def to_dict(self) -> dict[str, Any]:
        return self.data


@dataclass
class Bundle:
    """A checked import file."""

    players: list[Player]
    settings: dict[str, Any]
    matches: list[Match]
    saved_games: list[SavedGame]
    newer_matches: list[NewerRecord] = field(default_factory=list)


def _match_or_newer(data: Any) -> Match | NewerRecord:
    """A match of the file: rebuilt and checked by the rules, or kept as it is when a newer version made it."""
    return NewerRecord(data) if made_by_newer(data) else Match.from_dict(data)


def parse_export(content: str | bytes) -> Bundle:
    """Check an export file completely; ImportFileError says what is wrong. Nothing is written here."""
    if len(content) > MAX_IMPORT_BYTES:
        raise ImportFileError("The file is too large to be a Scorekeeper export. Nothing was changed.")
    try:
        text = content.decode("utf-8-sig") if isinstance(content, bytes) else content.lstrip("\ufeff")
        document = json.loads(text, parse_constant=_refuse_constant)
    except _NotStrict:
        raise ImportFileError(
            "The file cannot be imported: it holds a value that is not a number (NaN or Infinity). "
            "Nothing was changed."
        ) from None
    except RecursionError:
        raise ImportFileError(
            "The file cannot be imported: it is nested too deeply. Nothing was changed."
        ) from None
    except UnicodeDecodeError:
        raise ImportFileError(
            "The file is not a Scorekeeper export: it is not text. Nothing was changed."
        ) from None
    except json.JSONDecodeError as error:
        raise ImportFileError(
            "The file is not a Scorekeeper export: it is not valid JSON (line {line}, column {column}); it may "
            "be cut off or damaged. Nothing was changed.",
            line=error.lineno,
            column=error.colno,
        ) from None
    except ValueError:  # e.g. an integer of thousands of digits
        raise ImportFileError(
            "The file cannot be imported: it holds a number that is too large. Nothing was changed."
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportFileError(
            "The file is not a Scorekeeper export (it lacks the export marker). Nothing was changed."
        )
    schema = document.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise ImportFileError("The export file has no valid data version. Nothing was changed.")
    if schema > CURRENT_SCHEMA:
        raise ImportFileError(
            "The file was exported by a newer version of Scorekeeper (data version {version}; this app reads up "
            "to {current}). Update the app to import it. Nothing was changed.",
            version=schema,
            current=CURRENT_SCHEMA,
        )
    # A part this version does not know (a newer version's) is left out: there is nowhere to keep it.
    found = plain.problem(document)
    if found is not None:
        raise ImportFileError("The file cannot be imported: {problem}. Nothing was changed.", problem=found)
    errors: list[Message] = []
    matches = _records(document, "matches", _match_or_newer, errors)
    bundle = Bundle(
        players=_records(document, "players", Player.from_dict, errors),
        settings=_settings(document, errors),
        matches=[m for m in matches if isinstance(m, Match)],
        saved_games=_records(document, "digital_games", SavedGame.from_dict, errors),
        newer_matches=[m for m in matches if isinstance(m, NewerRecord)],
    )
    _check_players(document.get("players"), errors)
    _check_versions(bundle, errors)
    if errors:
        raise ImportFileError(
            "The file cannot be imported: {problems} ({more}). Nothing was changed."
            if len(errors) > 5
            else "The file cannot be imported: {problems}. Nothing was changed.",
            problems=joined(errors[:5], "; "),
            more=Plural("and {n} more problem", "and {n} more problems", len(errors) - 5),
        )
    return bundle


class _NotStrict(Exception):
    pass


def _refuse_constant(_name: str) -> Any:
    raise _NotStrict


def _settings(document: dict[str, Any], errors: list[Message]) -> dict[str, Any]:
    """Settings of known names must have their type; others must be short plain values (a newer app may
    have settings this one does not know, but never big blobs)."""
    settings = document.get("settings", {})
    if not isinstance(settings, dict):
        errors.append(Message("the settings are not a list of names and values"))
        return {}
    if len(settings) > MAX_SETTINGS:
        errors.append(Message("the settings hold more than {most} values", most=MAX_SETTINGS))
        return {}
    for key, value in settings.items():
        kind = SETTING_TYPES.get(key)
        scalar = value is None or isinstance(value, (bool, int, float, str))
        if (
            len(key) > MAX_SETTING_TEXT
            or (kind is not None and not isinstance(value, kind))
            or not scalar
            or (isinstance(value, str) and len(value) > MAX_SETTING_TEXT)
        ):
            errors.append(Message("the setting {key} has a value this app cannot use", key=key[:40]))
    return settings


def _check_players(raw: Any, errors: list[Message]) -> None:
    """The rules of the players form (`people.name_problem`): names 1 to `NAME_MAX` characters without control
    or direction characters, a usable colour, and no two active players with the same name."""
    if not isinstance(raw, list):
        return
    active: dict[str, int] = {}
    for number, record in enumerate(raw, start=1):
        if not isinstance(record, dict):
            continue
        name = record.get("name")
        label = Message(_SECTIONS["players"][1], number=number)
        problem = name_problem(name)
        if problem is not None:
            errors.append(Clause("{record}: {problem}", record=label, problem=problem))
            continue
        if len(str(record.get("colour", ""))) > COLOUR_MAX:
            errors.append(Message("{record} ({name}): its colour cannot be used", record=label, name=name))
        if not record.get("archived"):
            key = name_key(str(name))
            if key in active:
                errors.append(
                    Message(
                        "{record} ({name}): player {other} has the same name; two active players cannot share "
                        "a name",
                        record=label,
                        name=name,
                        other=active[key],
                    )
                )
            active.setdefault(key, number)


def _check_versions(bundle: Bundle, errors: list[Message]) -> None:
    groups: tuple[tuple[str, Sequence[Match | SavedGame | NewerRecord]], ...] = (
        ("matches", [*bundle.matches, *bundle.newer_matches]),
        ("digital_games", bundle.saved_games),
    )
    for section, records in groups:
        for number, record in enumerate(records, start=1):
            if not 0 <= record.version <= MAX_VERSION:
                name = _record_name(section, number, record.to_dict())
                errors.append(Message("{record}: its edit version is not a sane number", record=name))


_SECTIONS: dict[str, tuple[str, str]] = {
    "players": (N_("the players are not a list"), N_("Player {number}")),
    "matches": (N_("the matches are not a list"), N_("Game {number}")),
    "digital_games": (N_("the digital games are not a list"), N_("Saved digital game {number}")),
}
"""Per section of an export: the message when it is not a list, and how one of its records is named."""


def _record_name(section: str, number: int, record: Any) -> Message:
    """How an import problem names a record: "Game 3 (Rage: Anna, Ben)", "Player 2 (Cleo)"."""
    name = Message(_SECTIONS[section][1], number=number)
    if isinstance(record, dict):
        if isinstance(record.get("name"), str):
            return Message("{record} ({name})", record=name, name=record["name"])
        if isinstance(record.get("game"), str) and isinstance(record.get("names"), list):
            people = ", ".join(str(n) for n in record["names"])
            game = GAME_TITLES.get(record["game"], record["game"])
            return Message("{record} ({game}: {players})", record=name, game=game, players=people)
    return name


def _records(document: dict[str, Any], section: str, build: Any, errors: list[Message]) -> list[Any]:
    raw = document.get(section, [])
    if not isinstance(raw, list):
        errors.append(Message(_SECTIONS[section][0]))
        return []
    built, seen = [], set()
    for number, record in enumerate(raw, start=1):
        name = _record_name(section, number, record)
        try:
            item = build(record)
        except (RuleError, ValueError, TypeError, KeyError) as error:
            errors.append(Clause("{record}: {problem}", record=name, problem=error))
            continue
        if not is_safe_id(item.id):
            errors.append(Message("{record}: its id is not usable", record=name))
        elif item.id in seen:
            errors.append(Message("{record}: it appears twice in the file", record=name))
        else:
            seen.add(item.id)
            built.append(item)
    return built
