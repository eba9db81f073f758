"""The exchange with BG Stats (the play-logging app by Eerko Vissering): its plays file, written and read.

The format and where it was learned are in docs/BGSTATS.md. In short: one JSON object with `games`,
`players`, `locations` and `plays`, the plays pointing at the others by their `id` (`gameRefId`,
`locationRefId`, `playerScores[].playerRefId`); times as "YYYY-MM-DD HH:MM:SS" (written and read here as UTC).

Export (`export_document`): one play per *finished* match in the period, of every game (an active match has no
result yet, an abandoned one none that counts: both are left out). The scores are the engine's totals
(`Match.totals`), winners and ranks its standings (`Match.standings`), the start player the first dealer, the
duration the time played (`playtime.played_seconds` over `clock`), the location the match's `place`, the
comments its `notes`. The play's uuid is the match id, so a play that comes back is the same match.

Import (`bgstats_import.py`): the plays of Racko, Ruck Zuck and Rage (by the game's name), each a match that is
over with its final totals only (`Match.final_totals`: BG Stats knows no rounds). Plays of other games are
counted and skipped; a play whose scores are missing or not whole numbers, or whose number of players the game
does not allow, is counted as unreadable and skipped. A file that is not a BG Stats export is refused whole. No
Flet here; the screens call `export_bgstats_text(store)` and `bgstats_import.import_bgstats_text(store, ...)`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from scorekeeper.model.match import Match
from scorekeeper.model.playtime import first_start, moment_of
from scorekeeper.model.recorded import KEY
from scorekeeper.store.repo import Store

ABOUT = "Plays exported by Scorekeeper (Racko, Ruck Zuck, Rage) for Board Game Stats."
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
META_KEY = "scorekeeper"
"""The key of this app's part of a play's `metaData` (`bgstats_values.META_KEY` reads it)."""
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/scorekeeper/bgstats")
"""Where the uuids of the export's games, players and locations come from (the same name, the same uuid)."""


@dataclass(frozen=True)
class Period:
    """The days whose plays an export holds, both ends included (None: open)."""

    first: date | None = None
    last: date | None = None

    def holds(self, moment: datetime) -> bool:
        day = moment.astimezone(UTC).date()
        return (self.first is None or day >= self.first) and (self.last is None or day <= self.last)


# ---------------------------------------------------------------------- export
def play_moment(match: Match) -> datetime:
    """When a match was played: the start of its clock, else when it was made."""
    return first_start(match.clock) or moment_of(match.created) or datetime.now(UTC)


def exported(match: Match, period: Period | None) -> bool:
    """Whether a match is a play of the export: finished, and played in the period."""
    return match.status == "finished" and (period is None or period.holds(play_moment(match)))


def export_document(matches: Iterable[Match], period: Period | None = None) -> dict[str, Any]:
    """The BG Stats plays file of the finished matches in `period` (all when None), oldest first."""
    chosen = sorted((m for m in matches if exported(m, period)), key=lambda m: (play_moment(m), m.id))
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    places: dict[str, dict[str, Any]] = {}
    plays = [_play(match, games, players, places) for match in chosen]
    return {
        "about": ABOUT,
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": list(places.values()),
        "plays": plays,
        "userInfo": {"meRefId": 0},  # no player is "me": the export is the table's, not one person's
    }


def export_text(matches: Iterable[Match], period: Period | None = None) -> str:
    return json.dumps(export_document(matches, period), ensure_ascii=False, indent=1)


def export_bgstats_text(store: Store, period: Period | None = None) -> str:
    """The store's finished matches played in `period` (all when None) as a BG Stats plays file."""
    return export_text(store.matches.iterate(), period)


def _play(
    match: Match,
    games: dict[str, dict[str, Any]],
    players: dict[str, dict[str, Any]],
    places: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    moment = play_moment(match)
    stamp = _when(moment_of(match.updated) or moment)
    game = _entry(games, "game", match.game, name=match.title, highestWins=not match.lower_wins, stamp=stamp)
    game.setdefault("usesTeams", False)
    game.update(noPoints=False, cooperative=False)
    game["usesTeams"] = game["usesTeams"] or match.partners  # the game is played in teams in some plays
    totals, places_of = match.totals(), {row.seat: row.place for row in match.standings()}
    winners = set(match.winners())
    recorded = match.recorded
    teams = match.spec.teams if match.partners else ()
    scores = []
    for seat, player_id in enumerate(match.players):
        person = _entry(players, "player", player_id, name=match.names[seat], stamp=stamp)
        # The plays go oldest first: a player renamed since is named as in the latest play.
        person["name"] = match.names[seat]
        person.setdefault("isAnonymous", False)
        person.setdefault("bggUsername", "")
        score: dict[str, Any] = {
            "playerRefId": person["id"],
            "score": str(totals[seat]) if recorded.scored else "",  # known by its winners: no score
            "winner": seat in winners,
            "rank": places_of[seat],
            "newPlayer": False,
            "startPlayer": seat == match.first_dealer,
            "seatOrder": seat + 1,
        }
        if teams:  # BG Stats' team of the seat: "1" or "2", as Racko seats partners 1+3 and 2+4
            score["team"] = str(next(n + 1 for n, team in enumerate(teams) if seat in team))
        scores.append(score)
    seconds = match.seconds_played()
    play: dict[str, Any] = {
        "uuid": str(_as_uuid(match.id)),
        "gameRefId": game["id"],
        "playDate": _when(moment),
        "playDateYmd": int(moment.astimezone(UTC).strftime("%Y%m%d")),
        "entryDate": _when(moment_of(match.created) or moment),
        "modificationDate": stamp,
        "durationMin": _minutes(seconds),
        "comments": match.notes,
        "rounds": len(match.rounds) if match.rounds else recorded.rounds or 0,
        "ignored": recorded.ignored,
        "manualWinner": recorded.places is not None,  # the winners are the record, not the scores
        "usesTeams": bool(teams),
        "playerScores": scores,
        "metaData": json.dumps({META_KEY: _kept(match)}, ensure_ascii=False, sort_keys=True),
    }
    if match.place.strip():
        play["locationRefId"] = _entry(
            places, "location", match.place.strip(), name=match.place.strip(), stamp=stamp
        )["id"]
    return play


def _minutes(seconds: float | None) -> int:
    """The minutes played as BG Stats takes them: 0 when unknown, and when longer than a day (a clock left
    running by an older version: BG Stats refuses such a play; the clock itself goes in `metaData`)."""
    if seconds is None or seconds > 24 * 3600:
        return 0
    return round(seconds / 60)


def _kept(match: Match) -> dict[str, Any]:
    """What BG Stats has no field for, kept in the play's `metaData` so an import gives the same match back:
    the game and its options (Racko's target, Rage's edition; not the recorded result, which the play's own
    fields carry), the clock's spans (pauses and all), the number of rounds."""
    return {
        "game": match.game,
        "options": {key: value for key, value in match.options.items() if key != KEY},
        "clock": match.clock,
        "rounds": len(match.rounds) if match.rounds else match.recorded.rounds or 0,
    }


def _entry(
    table: dict[str, dict[str, Any]], kind: str, key: str, *, name: str, stamp: str, **more: Any
) -> dict[str, Any]:
    """The entry of `key` in one of the file's lists (`kind`: games, players, locations), made at its first use
    with the next id (BG Stats' references are whole numbers, counted from 1) and a uuid made from the key, so
    the same game, player or place has the same uuid in every export."""
    if key not in table:
        table[key] = {
            "id": len(table) + 1,
            "uuid": str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")),
            "name": name,
            "modificationDate": stamp,
            **more,
        }
    return table[key]


def _as_uuid(text: str) -> uuid.UUID:
    """A match id as a uuid (ids are uuid4 hex); another text as a uuid made from it."""
    try:
        return uuid.UUID(hex=text)
    except ValueError:
        return uuid.uuid5(NAMESPACE, text)


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(TIME_FORMAT)
