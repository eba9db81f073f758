"""Reading a BG Stats file (docs/BGSTATS.md) into matches known by their final totals, and writing them.

Only the plays of Racko, Ruck Zuck and Rage come in (by BoardGameGeek id, `bggName` or name:
`bgstats_values.game_of`); the others are counted. Each becomes a finished match with `final_totals` and no
rounds (BG Stats knows none); its id is the play's uuid, so a second import of the same file adds nothing. What
BG Stats recorded beyond the totals is kept in the match's options (`scorekeeper.recorded`): its winners where
they are the record (no scores, `manualWinner`, or flags the scores disagree with: told in the report),
`ignored`, the number of rounds; a team play is Racko's partners game; what this app kept in `metaData` (its
options, the clock's spans) comes back. Players are found by name or added. A file that is not a BG Stats export
is refused whole with a sentence, and nothing changes; the writing is the ordinary import's, all or nothing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from scorekeeper.free_text import LIMITS, clean
from scorekeeper.games.base import Message, RuleError
from scorekeeper.games.spec import spec
from scorekeeper.match import Match
from scorekeeper.recorded import KEY, Recorded, places_from_winners
from scorekeeper.stamps import now_iso
from scorekeeper.store.bgstats import NAMESPACE
from scorekeeper.store.bgstats_values import (
    Refused,
    game_key,  # noqa: F401 (kept importable from here)
    game_of,
    meta_of,
    minutes_of,
    moment_of,
    score_of,
)
from scorekeeper.store.errors import ImportFileError
from scorekeeper.store.import_check import FORMAT, MAX_IMPORT_BYTES, Bundle
from scorekeeper.store.matches import Matches
from scorekeeper.store.people import NAME_MAX, Players, Settings, name_key, name_problem
from scorekeeper.store.records import Player
from scorekeeper.store.saved import SavedGames
from scorekeeper.store.transfer import Progress, apply_import

NOTES_MAX, PLACE_MAX = LIMITS["notes"], LIMITS["place"]
"""The longest notes and place (`scorekeeper.free_text`, the one rule for free text): an import keeps to them."""
RACKO_TEAMS = ((0, 2), (1, 3))
"""Racko's partners game seats its teams 1+3 and 2+4 (`GameSpec.teams`): a team play is seated so."""


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
    options: dict[str, Any] = field(default_factory=dict)
    """The match's options beyond the number of players: partners, `recorded` (scorekeeper.recorded), and
    what this app kept in the play's `metaData` (Racko's target, Rage's edition)."""
    clock: list[list[str | None]] | None = None
    """The spans of play kept in `metaData` (None: one span from the date and the duration)."""

    def match(self, player_ids: list[str]) -> Match:
        """The finished match of this play (RuleError when the game does not allow it, e.g. its number of
        players): checked as stored data is (`Match.from_dict`). Options kept in `metaData` that this version
        refuses are left out rather than the play."""
        clock = self.clock
        if clock is None:
            clock = []
            if self.minutes > 0:
                end = self.moment + timedelta(minutes=self.minutes)
                clock = [[self.moment.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")]]
        record = {
            "game": self.game,
            "options": {**self.options, "players": len(self.names)},
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
    problems: list[Message] = field(default_factory=list)
    """Per play skipped, or read with a value not believed, a sentence saying which play and why."""


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


def read_plays(
    content: str | bytes, recognise: Callable[[Mapping[str, Any]], str | None] | None = None
) -> Plays:
    """The plays of this app's games in a BG Stats file, each checked; ImportFileError for a file that is not
    one. A play's players are named, in seat order; the matches are made once the players are known.
    `recognise` tells a game entry's key (by BoardGameGeek id, `bggName`, then name: `game_of`)."""
    document = load_document(content)
    recognise = recognise or game_of
    games = {_ref(g.get("id")): g for g in document["games"]}
    people = {_ref(p.get("id")): p for p in document["players"]}
    locations = {_ref(loc.get("id")): loc for loc in document.get("locations", []) if isinstance(loc, dict)}
    found = Plays([])
    for raw in document["plays"]:
        game = recognise(games.get(_ref(raw.get("gameRefId")), {}))
        if game is None:
            found.other_games += 1
            continue
        try:
            found.plays.append(_read_play(raw, game, people, locations, found.problems))
        except Refused as refusal:
            found.unreadable += 1
            found.problems.append(_about(raw, game, refusal.message))
    return found


def _about(raw: Mapping[str, Any], game: str, message: Message) -> Message:
    """A problem with one play, naming the play by its game and date."""
    day = raw.get("playDate")
    return Message(
        "{game} of {day}: {problem}",
        game=spec(game).title,
        day=day.strip()[:10] if isinstance(day, str) else "?",
        problem=message,
    )


@dataclass
class _Seat:
    name: str
    total: int | None
    won: bool
    start: bool
    team: Any


def _read_play(
    raw: Mapping[str, Any],
    game: str,
    people: Mapping[str, Any],
    locations: Mapping[str, Any],
    problems: list[Message],
) -> Play:
    """A play of one of this app's games; `Refused` names what keeps it from being one (no date or players, a
    player unknown or named as this app refuses, a score that is no number or sum, teams Racko cannot seat).
    A value that is not believed but not needed (a duration of days) is dropped and told in `problems`."""
    scores = raw.get("playerScores")
    moment = moment_of(raw.get("playDate"))
    if not isinstance(scores, list) or not scores or not all(isinstance(s, dict) for s in scores):
        raise Refused(Message("it has no players"))
    if moment is None:
        raise Refused(Message("it has no date"))
    seated = [score for _, score in sorted(enumerate(scores), key=lambda pair: (_seat(pair[1]), pair[0]))]
    seats: list[_Seat] = []
    for score in seated:
        person = people.get(_ref(score.get("playerRefId")))
        if not isinstance(person, dict) or name_problem(person.get("name")) is not None:
            raise Refused(Message("a player is not in the file, or has a name this app refuses"))
        name = _unique(" ".join(person["name"].split()), [seat.name for seat in seats])
        total = score_of(score.get("score"))
        seats.append(
            _Seat(
                name,
                total,
                score.get("winner") is True,
                score.get("startPlayer") in (True, 1),
                score.get("team"),
            )
        )
    options: dict[str, Any] = {}
    if raw.get("usesTeams") is True:
        seats = _partners(game, seats)
        options["partners"] = True
    meta = meta_of(raw.get("metaData"))
    options.update(_kept_options(meta, game, len(seats), options))
    known = [seat.total is not None for seat in seats]
    if any(known) and not all(known):
        raise Refused(Message("some players have a score and others none"))
    totals = [seat.total or 0 for seat in seats]
    recorded = _recorded(raw, game, seats, totals, options, problems, meta)
    if recorded.to_option():
        options[KEY] = recorded.to_option()
    minutes, doubtful = minutes_of(raw.get("durationMin"))
    if doubtful:
        problems.append(_about(raw, game, Message("its duration was not believed and is left unknown")))
    place = locations.get(_ref(raw.get("locationRefId")), {}).get("name", "")
    comments = raw.get("comments")
    place_kept = clean(place if isinstance(place, str) else "", "place")
    notes_kept = clean(comments if isinstance(comments, str) else "", "notes")
    for told in (*place_kept.problems("place"), *notes_kept.problems("notes")):
        problems.append(_about(raw, game, told))
    try:
        changed = moment_of(raw.get("modificationDate")) or moment
    except Refused:
        changed = moment
    return Play(
        key=_key(raw.get("uuid"), raw),
        game=game,
        names=[seat.name for seat in seats],
        totals=totals,
        start=next((number for number, seat in enumerate(seats) if seat.start), 0),
        moment=moment,
        minutes=minutes,
        place=place_kept.text,
        comments=notes_kept.text,
        changed=changed,
        options=options,
        clock=_kept_clock(meta),
    )


def _partners(game: str, seats: list[_Seat]) -> list[_Seat]:
    """The seats of a team play, seated as Racko's partners game seats its teams (1+3 against 2+4); `Refused`
    for teams that game cannot seat (only Racko has partners: two teams of two)."""
    teams: dict[str, list[_Seat]] = {}
    for seat in seats:
        teams.setdefault(str(seat.team), []).append(seat)
    if game != "racko":
        raise Refused(Message("it is played in teams: only Racko's partners game has teams here"))
    if len(seats) != 4 or sorted(len(team) for team in teams.values()) != [2, 2]:
        raise Refused(Message("its teams are not two teams of two, as Racko's partners game has"))
    first, second = teams.values()
    return [first[0], second[0], first[1], second[1]]


def _recorded(
    raw: Mapping[str, Any],
    game: str,
    seats: list[_Seat],
    totals: list[int],
    options: Mapping[str, Any],
    problems: list[Message],
    meta: Mapping[str, Any],
) -> Recorded:
    """What BG Stats recorded beyond the totals: the winners it flags where they are the record (no scores,
    `manualWinner`, or flags other than the scores make), `ignored`, the number of rounds."""
    flagged = [seat.won for seat in seats]
    scored = any(seat.total is not None for seat in seats)
    rounds = meta.get("rounds", raw.get("rounds"))
    count = (
        rounds if isinstance(rounds, int) and not isinstance(rounds, bool) and 0 < rounds < 10_000 else None
    )
    base = Recorded(scored=scored, ignored=raw.get("ignored") is True, rounds=count)
    if not any(flagged):
        if not scored:
            raise Refused(Message("it has neither scores nor a winner"))
        return base
    places = places_from_winners(flagged)
    if not scored:
        return Recorded(places=tuple(places), scored=False, ignored=base.ignored, rounds=count)
    by_scores = _score_winners(game, totals, options, [seat.name for seat in seats])
    if set(by_scores) == {n for n, won in enumerate(flagged) if won} and raw.get("manualWinner") is not True:
        return base
    if set(by_scores) != {n for n, won in enumerate(flagged) if won}:
        problems.append(
            _about(
                raw,
                game,
                Message(
                    "BG Stats names {flagged} as winner, the scores {scored}: BG Stats' winner is kept",
                    flagged=", ".join(seat.name for seat in seats if seat.won),
                    scored=", ".join(seats[n].name for n in by_scores),
                ),
            )
        )
    return Recorded(places=tuple(places), scored=True, ignored=base.ignored, rounds=count)


def _score_winners(game: str, totals: list[int], options: Mapping[str, Any], names: list[str]) -> list[int]:
    """The seats the scores make winners (ties share), as the match model places them."""
    plain = {key: value for key, value in options.items() if key != KEY}
    try:
        match = Match.from_dict(
            {
                "game": game,
                "options": {**plain, "players": len(totals)},
                "players": [f"p{n}" for n in range(len(totals))],
                "names": names,
                "status": "finished",
                "final_totals": totals,
            }
        )
    except RuleError:
        raise Refused(Message("its number of players or its options are not ones the game allows")) from None
    return match.winners()


def _kept_options(
    meta: Mapping[str, Any], game: str, players: int, given: Mapping[str, Any]
) -> dict[str, Any]:
    """The options this app kept in the play's `metaData` (Racko's target, Rage's edition), when they are of
    this game and the play's number of players; checked later with the match."""
    kept = meta.get("options")
    if not isinstance(kept, dict) or meta.get("game") not in (None, game) or kept.get("players") != players:
        return {}
    return {key: value for key, value in kept.items() if key not in ("players", KEY) and key not in given}


def _kept_clock(meta: Mapping[str, Any]) -> list[list[str | None]] | None:
    """The spans of play kept in `metaData`, when every one is two times in order (else None)."""
    spans = meta.get("clock")
    if not isinstance(spans, list) or not spans:
        return None
    kept: list[list[str | None]] = []
    for span in spans:
        if not (isinstance(span, list) and len(span) == 2 and all(isinstance(t, str) for t in span)):
            return None
        try:
            start, end = (datetime.fromisoformat(t) for t in span)
        except ValueError:
            return None
        if start.tzinfo is None or end.tzinfo is None or end < start:
            return None
        kept.append([span[0], span[1]])
    return kept


def _unique(name: str, taken: list[str]) -> str:
    """A seat's name, told apart from the play's earlier seats: BG Stats seats one anonymous player as often as
    needed ("Anonymous", "Anonymous (2)"), and a person takes one seat here."""
    unique, number = name, 1
    while name_key(unique) in {name_key(other) for other in taken}:
        number += 1
        unique = f"{name[: NAME_MAX - 4]} ({number})"
    return unique


def _ref(value: Any) -> str:
    return str(value)


def _seat(score: Mapping[str, Any]) -> int:
    order = score.get("seatOrder")
    return order if isinstance(order, int) and not isinstance(order, bool) and order > 0 else 1_000_000


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
        except RuleError as error:
            plays.unreadable += 1
            plays.plays.remove(play)
            plays.problems.append(
                Message(
                    "{game} of {day}: {problem}",
                    game=spec(play.game).title,
                    day=play.moment.date().isoformat(),
                    problem=Message(str(error.template), **error.fields),
                )
            )
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
    problems: tuple[Message, ...] = ()
    """Per play skipped, or read with something dropped or not believed: which play, and why."""


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
        problems=tuple(found.problems),
    )
