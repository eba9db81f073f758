"""One BG Stats play read into what a match is made from (docs/BGSTATS.md, "What is imported"): its seats in
order, totals (sums summed; none for a result known by its winners), the winners BG Stats recorded where they are
the record, teams seated as Racko's partners game, the place and notes by the one rule for free text, and what
this app kept in the play's `metaData`. A play that cannot be one raises `Refused` saying why; a value dropped or
not believed is told in `problems`. No Flet here; `bgstats_import.read_plays` reads a whole file with it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from scorekeeper.exchange.bgstats import NAMESPACE
from scorekeeper.exchange.bgstats_values import Refused, meta_of, minutes_of, moment_of, score_of
from scorekeeper.games.base import Message, RuleError
from scorekeeper.games.spec import spec
from scorekeeper.model.free_text import NAME_MAX, clean
from scorekeeper.model.match import Match
from scorekeeper.model.recorded import KEY, Recorded, places_from_winners
from scorekeeper.store.people import name_key, name_problem


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
    """The match's options beyond the number of players: partners, `recorded` (scorekeeper.model.recorded), and
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


def about(raw: Mapping[str, Any], game: str, message: Message) -> Message:
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


def read_play(
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
        person = people.get(ref(score.get("playerRefId")))
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
        problems.append(about(raw, game, Message("its duration was not believed and is left unknown")))
    place = locations.get(ref(raw.get("locationRefId")), {}).get("name", "")
    comments = raw.get("comments")
    place_kept = clean(place if isinstance(place, str) else "", "place")
    notes_kept = clean(comments if isinstance(comments, str) else "", "notes")
    for told in (*place_kept.problems("place"), *notes_kept.problems("notes")):
        problems.append(about(raw, game, told))
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
    """The seats of a team play, seated as the game's partners game seats its teams (`GameSpec.teams`: Racko's
    1+3 against 2+4); `Refused` for teams the game cannot seat (only Racko has partners: two teams of two)."""
    teams: dict[str, list[_Seat]] = {}
    for seat in seats:
        teams.setdefault(str(seat.team), []).append(seat)
    places = spec(game).teams
    if not places:
        raise Refused(Message("it is played in teams: only Racko's partners game has teams here"))
    if sorted(len(team) for team in teams.values()) != sorted(len(team) for team in places):
        raise Refused(Message("its teams are not two teams of two, as Racko's partners game has"))
    seated: dict[int, _Seat] = {}
    for members, where in zip(teams.values(), places, strict=True):
        seated.update(zip(where, members, strict=True))
    return [seated[n] for n in range(len(seats))]


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
            about(
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


def ref(value: Any) -> str:
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
