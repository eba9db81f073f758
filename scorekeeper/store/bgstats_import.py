"""Reading a BG Stats file (docs/BGSTATS.md) into matches known by their final totals, and writing them.

Only the plays of Racko, Ruck Zuck and Rage come in (by the game's name); the others are counted. Each becomes a
finished match with `final_totals` and no rounds (BG Stats knows none); its id is the play's uuid, so a second
import of the same file adds nothing. Players are found by name or added. A file that is not a BG Stats export
is refused whole with a sentence, and nothing changes; the writing is the ordinary import's, all or nothing.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from scorekeeper.games.base import Message, RuleError
from scorekeeper.games.spec import GAMES
from scorekeeper.match import Match
from scorekeeper.stamps import now_iso
from scorekeeper.store.bgstats import NAMESPACE, TIME_FORMAT
from scorekeeper.store.errors import ImportFileError
from scorekeeper.store.import_check import FORMAT, MAX_IMPORT_BYTES, Bundle
from scorekeeper.store.matches import Matches
from scorekeeper.store.people import NAME_MAX, Players, Settings, name_key, name_problem
from scorekeeper.store.records import Player
from scorekeeper.store.saved import SavedGames
from scorekeeper.store.transfer import Progress, apply_import

NOTES_MAX, PLACE_MAX = 2_000, 60
"""The longest notes and place the scoreboard takes (`ui/components/evening.py`): an import keeps to them too."""


@dataclass(frozen=True)
class Play:
    """One play of the file to import: what a match is made from."""

    key: str
    """The match id: the play's uuid (a match exported from here comes back as itself)."""
    game: str
    names: list[str]
    totals: list[int]
    start: int
    """The start player's seat (0 when the play names none)."""
    moment: datetime
    minutes: int
    place: str
    comments: str
    changed: datetime

    def match(self, player_ids: list[str]) -> Match:
        """The finished match of this play (RuleError when the game does not allow it, e.g. its number of
        players): checked as stored data is (`Match.from_dict`)."""
        clock = []
        if self.minutes > 0:
            end = self.moment + timedelta(minutes=self.minutes)
            clock = [[self.moment.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")]]
        record = {
            "game": self.game,
            "options": {"players": len(self.names)},
            "players": player_ids,
            "names": self.names,
            "first_dealer": self.start,
            "id": self.key,
            "status": "finished",
            "created": self.moment.isoformat(timespec="seconds"),
            "updated": max(self.changed, self.moment).isoformat(timespec="seconds"),
            "notes": self.comments,
            "place": self.place,
            "clock": clock,
            "final_totals": self.totals,
        }
        return Match.from_dict(record)


@dataclass
class Plays:
    """What a BG Stats file holds for this app."""

    plays: list[Play]
    other_games: int = 0
    unreadable: int = 0


def _not_bgstats(reason: Message) -> ImportFileError:
    return ImportFileError(
        "This file is not a BG Stats export ({reason}). Nothing was changed.", reason=reason
    )


def load_document(content: str | bytes) -> dict[str, Any]:
    """The file as a BG Stats export: an object with lists of games, players and plays (locations optional);
    ImportFileError otherwise, before anything is changed."""
    if len(content) > MAX_IMPORT_BYTES:
        raise ImportFileError("The file is too large to import. Nothing was changed.")
    try:
        text = content.decode("utf-8-sig") if isinstance(content, bytes) else content.lstrip("\ufeff")
        document = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _not_bgstats(Message("it is not JSON")) from None
    if not isinstance(document, dict):
        raise _not_bgstats(Message("it is not a JSON object"))
    if document.get("format") == FORMAT:
        raise _not_bgstats(Message("it is an export of this app"))
    for section in ("games", "players", "plays"):
        if not isinstance(document.get(section), list):
            raise _not_bgstats(Message("it has no list of “{section}”", section=section))
    if not isinstance(document.get("locations", []), list):
        raise _not_bgstats(Message("its locations are not a list"))
    if not all(isinstance(item, dict) for s in ("games", "players", "plays") for item in document[s]):
        raise _not_bgstats(Message("its games, players and plays must be objects"))
    return document


def looks_like_bgstats(content: str | bytes) -> bool:
    """Whether content is a BG Stats file rather than this app's export (which names its format at the start):
    the import screen takes both through one button."""
    head = content[:400]
    marker: str | bytes = (
        f'"format": "{FORMAT}"' if isinstance(head, str) else f'"format": "{FORMAT}"'.encode()
    )
    if marker in head:  # type: ignore[operator]
        return False
    try:
        load_document(content)
    except ImportFileError:
        return False
    return True


def read_plays(content: str | bytes) -> Plays:
    """The plays of this app's games in a BG Stats file, each checked; ImportFileError for a file that is not
    one. A play's players are named, in seat order; the matches are made once the players are known."""
    document = load_document(content)
    games = {_ref(g.get("id")): g for g in document["games"]}
    people = {_ref(p.get("id")): p for p in document["players"]}
    locations = {_ref(loc.get("id")): loc for loc in document.get("locations", []) if isinstance(loc, dict)}
    found = Plays([])
    for raw in document["plays"]:
        game = game_key(games.get(_ref(raw.get("gameRefId")), {}).get("name"))
        if game is None:
            found.other_games += 1
            continue
        play = _read_play(raw, game, people, locations)
        if play is None:
            found.unreadable += 1
        else:
            found.plays.append(play)
    return found


def game_key(name: Any) -> str | None:
    """This app's key for a BG Stats game name ("Rack-O", "RuckZuck", "Rage"), or None for another game."""
    if not isinstance(name, str):
        return None
    # BG Stats names a game as its user or BoardGameGeek did: "Rack-O", "RuckZuck" and "Ruck Zuck" fold
    # (lower case, letters and digits only) to a game's key or title here
    folded = _folded(name)
    names = {_folded(text): game.key for game in GAMES for text in (game.key, str(game.title))}
    return names.get(folded)


def _folded(name: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", name.casefold()))


def _read_play(
    raw: Mapping[str, Any], game: str, people: Mapping[str, Any], locations: Mapping[str, Any]
) -> Play | None:
    """A play of one of this app's games, or None when it cannot be one (no uuid or date, a score missing or
    not a whole number, a player unknown)."""
    scores = raw.get("playerScores")
    moment = _parse_time(raw.get("playDate"))
    if (
        not isinstance(scores, list)
        or not scores
        or moment is None
        or not all(isinstance(s, dict) for s in scores)
    ):
        return None
    seated = sorted(enumerate(scores), key=lambda pair: (_seat(pair[1]), pair[0]))
    names: list[str] = []
    totals: list[int] = []
    start = 0
    for seat, (_, score) in enumerate(seated):
        person = people.get(_ref(score.get("playerRefId")))
        total = _whole(score.get("score"))
        if not isinstance(person, dict) or name_problem(person.get("name")) is not None or total is None:
            return None  # (a name this app would refuse for a player: empty, too long, control characters)
        names.append(_unique(" ".join(person["name"].split()), names))
        totals.append(total)
        if score.get("startPlayer") in (True, 1):
            start = seat
    place = locations.get(_ref(raw.get("locationRefId")), {}).get("name", "")
    minutes, comments = raw.get("durationMin", 0), raw.get("comments")
    return Play(
        key=_key(raw.get("uuid"), raw),
        game=game,
        names=names,
        totals=totals,
        start=start,
        moment=moment,
        minutes=_minutes(minutes),
        place=" ".join(place.split())[:PLACE_MAX] if isinstance(place, str) else "",
        comments=comments.strip()[:NOTES_MAX] if isinstance(comments, str) else "",
        changed=_parse_time(raw.get("modificationDate")) or moment,
    )


def _unique(name: str, taken: list[str]) -> str:
    """A seat's name, told apart from the play's earlier seats: BG Stats seats one anonymous player as often as
    needed ("Anonymous", "Anonymous (2)"), and a person takes one seat here."""
    unique, number = name, 1
    while name_key(unique) in {name_key(other) for other in taken}:
        number += 1
        unique = f"{name[: NAME_MAX - 4]} ({number})"
    return unique


def _minutes(value: Any) -> int:
    """The minutes played as a whole number (0: not known)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 100_000:
        return 0
    return round(value)


def _ref(value: Any) -> str:
    return str(value)


def _seat(score: Mapping[str, Any]) -> int:
    order = score.get("seatOrder")
    return order if isinstance(order, int) and not isinstance(order, bool) and order > 0 else 1_000_000


def _whole(score: Any) -> int | None:
    """A score as a whole number ("12", 12, "12.0"); None when it is missing or not whole."""
    if isinstance(score, bool) or score is None:
        return None
    try:
        number = float(str(score).strip())
    except ValueError:
        return None
    return int(number) if number.is_integer() and abs(number) < 1e9 else None


def _parse_time(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.strptime(text.strip()[:19], TIME_FORMAT)
    except ValueError:
        try:
            moment = datetime.strptime(text.strip()[:10], "%Y-%m-%d")
        except ValueError:
            return None
    return moment.replace(tzinfo=UTC)


def _key(value: Any, raw: Mapping[str, Any]) -> str:
    """The match id of a play: its uuid as 32 hex digits (a play without one: made from what it holds, so the
    same play gives the same id in a second import)."""
    if isinstance(value, str):
        try:
            return uuid.UUID(value.strip()).hex
        except ValueError:
            return uuid.uuid5(NAMESPACE, value).hex
    return uuid.uuid5(NAMESPACE, json.dumps(raw, sort_keys=True, default=str)).hex


def checked_matches(plays: Plays, player_ids: Callable[[list[str]], list[str]]) -> list[Match]:
    """The matches of the file's plays, each with its players' ids; a play the game does not allow (e.g. its
    number of players, two seats of one person) is counted as unreadable and left out."""
    matches = []
    for play in list(plays.plays):
        try:
            matches.append(play.match(player_ids(play.names)))
        except RuleError:
            plays.unreadable += 1
            plays.plays.remove(play)
    return matches


@dataclass(frozen=True)
class Report:
    """What an import of a BG Stats file did (the screen words it)."""

    imported: int
    updated: int
    already: int
    other_games: int
    unreadable: int
    players_added: int


def apply_plays(
    players: Players,
    settings: Settings,
    matches: Matches,
    saved: SavedGames,
    found: Plays,
    progress: Progress | None = None,
) -> Report:
    """Write the file's plays as matches, all or nothing, through the ordinary import (the caller holds the
    lock): a player is found by name (an active one first, then an archived one) or added. A play imported
    before is the same match (its id is the play's uuid): unchanged, or updated when BG Stats changed it later
    and it was not changed here."""
    known: dict[str, str] = {}
    for person in sorted(players.list_players(include_archived=True), key=lambda p: not p.archived):
        known[name_key(person.name)] = person.id  # an active player overwrites an archived one of the name
    added: list[Player] = []

    def ids(names: list[str]) -> list[str]:
        chosen = []
        for name in names:
            key = name_key(name)
            if key not in known:
                person = Player(uuid.uuid4().hex, name, "", False, now_iso())
                added.append(person)
                known[key] = person.id
            chosen.append(known[key])
        return chosen

    made = checked_matches(found, ids)
    used = {player for match in made for player in match.players}
    bundle = Bundle(players=[p for p in added if p.id in used], settings={}, matches=made, saved_games=[])
    report = apply_import(players, settings, matches, saved, bundle, progress)
    return Report(
        imported=report.matches_added,
        updated=report.matches_updated,
        already=report.matches_unchanged + report.matches_kept,
        other_games=found.other_games,
        unreadable=found.unreadable,
        players_added=report.players_added,
    )
