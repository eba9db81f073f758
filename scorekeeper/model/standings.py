"""Standings: seats and partner teams (a game's `GameSpec.teams`) placed by their totals. Equal totals share the
place (1, 1, 3); partners rank with their team's total, so two teams are places 1 and 2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.games.base import places

Teams = Sequence[Sequence[int]]
"""The seats of each team (`GameSpec.teams`)."""


@dataclass(frozen=True)
class Standing:
    """One line of the standings: a seat, its total and its place (equal totals share the place)."""

    seat: int
    name: str
    total: int
    place: int
    exact_bids: int | None = None


@dataclass(frozen=True)
class TeamStanding:
    """Partners: one team's line of the standings (its seats, their names, the team total, its place)."""

    team: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    total: int
    place: int


def team_values(totals: Sequence[int], teams: Teams) -> list[int]:
    """The total of each team."""
    return [sum(totals[s] for s in team) for team in teams]


def with_team_totals(totals: Sequence[int], teams: Teams) -> list[int]:
    """Per seat, the total of the seat's team (what a partner ranks with)."""
    values = team_values(totals, teams)
    return [next(values[i] for i, team in enumerate(teams) if seat in team) for seat in range(len(totals))]


def rank_teams(
    values: list[int], names: Sequence[str], *, lower_wins: bool, teams: Teams
) -> list[TeamStanding]:
    """The teams best first, each with its members (equal totals share the place)."""
    team_places = places(values, higher_wins=not lower_wins)
    rows = [
        TeamStanding(i, tuple(seats), tuple(names[s] for s in seats), values[i], team_places[i])
        for i, seats in enumerate(teams)
    ]
    return sorted(rows, key=lambda row: (row.place, row.team))


def rank_seats(
    ranking: list[int],
    names: Sequence[str],
    *,
    lower_wins: bool,
    teams: list[TeamStanding] | None,
    exact: list[int] | None,
) -> list[Standing]:
    """The seats best first by `ranking`; equal totals share the place. With `teams` (partners) each seat
    takes its team's place; `exact` (Rage) is each seat's count of exact bids, shown beside equal totals."""
    seat_places = places(ranking, higher_wins=not lower_wins)
    if teams is not None:
        seat_places = [next(t.place for t in teams if seat in t.seats) for seat in range(len(ranking))]
    rows = [
        Standing(seat, names[seat], ranking[seat], seat_places[seat], exact[seat] if exact else None)
        for seat in range(len(ranking))
    ]
    return sorted(rows, key=lambda row: (row.place, row.seat))
