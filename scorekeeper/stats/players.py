"""Statistics by player and period: win rates, scores, time played, opponents, streaks and records.

Read in one pass over the match index's summaries, never over the match files: what a summary lacks of a
match (each seat's place, best round and longest run of bids made) is the match's row
(`scorekeeper.model.player_row.row_of`), computed by the match model when the store writes the summary and kept
in it (`MatchSummary.stats`). A summary without a current row (written by an older version) is read from its
match once (`player_row.rows_of`'s `load`).

What counts (decided here; RULES.md says nothing about statistics):
- Only finished matches count: status "finished" (the rules ended it). Running and abandoned games do not.
- A win is a first place in the standings (`Match.standings`): equal totals share the place (1, 1, 3), so a
  shared first place is a win for each player holding it, as on the statistics screen; `shared_wins` says how
  many of the wins were shared. Partners take their team's place. So over a set of matches the wins of all
  players add up to the finished matches plus, per shared first place, one for each extra player holding it.
- A match belongs to the month and year of its start as stored (`created`, the day the history shows).
- Score: a player's total at the end of a match (Ruck Zuck: penalties, the lower the better; the Racko chips
  game: the balance). Best round: the seat's best round score (the highest; the lowest penalty where lower
  wins), points games only (a chips game's round moves chips, it scores no points).
- Bids made in a row: the longest run of consecutive rounds of one match in which the seat's bid was made
  (the game's `exact_bids`: tricks equal to the bid), for games with bids.
- Opponents: the other players at the table, not one's partner. "Ahead": placed better in the standings (a
  shared place is ahead of nobody). The nemesis: among opponents met in at least `NEMESIS_MIN_GAMES` games, the
  one this player finished ahead of in the smallest share of them (then: met more often, then by name).
- Streaks: the player's matches in the order they were started; the longest run of wins and the run of wins up
  to the latest match. `created` is to the second: matches started in the same second come in the order of
  their last change (`updated`, to the microsecond), never of their random ids, so a streak is the same on
  every run.
- Time played: `playtime.played_seconds` of each match's clock, only where the clock was kept (`timed_games`
  says of how many games).
- A result recorded elsewhere (`scorekeeper.model.recorded`, a BG Stats play): one known by its winners only counts
  in games, wins, places, opponents and streaks, never in scores (total, average, best); one BG Stats ignores
  (`ignored`) does not count at all, as in BG Stats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scorekeeper.games.spec import GAMES, find
from scorekeeper.model.player_row import MatchRow

NEMESIS_MIN_GAMES = 3
"""An opponent is a nemesis candidate after this many finished games together."""


@dataclass(frozen=True)
class Filters:
    """Which matches a figure is over: one game, one year (and month), one place; None is every one."""

    game: str | None = None
    year: int | None = None
    month: int | None = None
    place: str | None = None

    def admits(self, row: MatchRow) -> bool:
        if self.game is not None and row.game != self.game:
            return False
        if self.year is not None and row.created[:4] != f"{self.year:04d}":
            return False
        if self.month is not None and row.created[5:7] != f"{self.month:02d}":
            return False
        return self.place is None or row.place.casefold() == self.place.strip().casefold()


def period_of(period: str | None, today: date) -> tuple[int | None, int | None]:
    """The (year, month) a period names: "month" (this one), "year" (this one), "YYYY", "YYYY-MM"; anything
    else (None, "all", a misspelt address) is every period, (None, None)."""
    if period == "month":
        return today.year, today.month
    if period == "year":
        return today.year, None
    text = period or ""
    year, _, month = text.partition("-")
    if len(year) == 4 and year.isdigit() and (not month or (len(month) == 2 and month.isdigit())):
        number = int(month) if month else None
        return (int(year), number) if number is None or 1 <= number <= 12 else (None, None)
    return None, None


def month_of(row: MatchRow) -> str:
    """The month a match belongs to, "YYYY-MM"."""
    return row.created[:7]


@dataclass
class GameLine:
    """A player's figures in one game (and its records)."""

    game: str
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    points: int = 0
    unscored: int = 0
    """Games known by their winners only: counted in `games`, not in `points` or the average."""
    best_total: int | None = None
    best_round: int | None = None
    best_round_match: str | None = None
    bid_run: int | None = None
    bid_run_match: str | None = None

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game, 0..1; None before the first game."""
        return self.wins / self.games if self.games else None

    @property
    def average_total(self) -> float | None:
        """The mean total at the end of a match (of the games with scores)."""
        scored = self.games - self.unscored
        return self.points / scored if scored else None


@dataclass
class Opponent:
    """Another player met in finished games, and how they compared: `ahead` (this player placed better),
    `behind` (placed worse); the rest were shared places."""

    player: str
    name: str
    games: int = 0
    ahead: int = 0
    behind: int = 0

    @property
    def ahead_rate(self) -> float:
        return self.ahead / self.games if self.games else 0.0


@dataclass
class PlayerReport:
    """One player's statistics over the matches a `Filters` admits."""

    player: str
    name: str
    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    seconds: float = 0.0
    timed_games: int = 0
    longest_streak: int = 0
    current_streak: int = 0
    per_game: list[GameLine] = field(default_factory=list)
    opponents: list[Opponent] = field(default_factory=list)
    """Most games together first (then by name)."""
    nemesis: Opponent | None = None
    months: list[tuple[str, int, int]] = field(default_factory=list)
    """Per month ("YYYY-MM", oldest first): games and wins."""

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


def _better(game: str, value: int, best: int | None) -> bool:
    found = find(game)
    lower = found is not None and found.lower_wins
    return best is None or (value < best if lower else value > best)


def _count_game(line: GameLine, row: MatchRow, seat: int) -> None:
    won = seat in row.winners
    line.games += 1
    line.wins += won
    line.shared_wins += won and len(row.winners) > 1
    if not row.scored:
        line.unscored += 1
        return
    total = row.totals[seat] if seat < len(row.totals) else 0
    line.points += total
    if _better(row.game, total, line.best_total):
        line.best_total = total
    if row.best is not None and _better(row.game, row.best[seat], line.best_round):
        line.best_round, line.best_round_match = row.best[seat], row.id
    if row.bids is not None and (line.bid_run is None or row.bids[seat] > line.bid_run):
        line.bid_run, line.bid_run_match = row.bids[seat], row.id


def _meet(opponents: dict[str, Opponent], row: MatchRow, seat: int, names: Mapping[str, str]) -> None:
    mine = row.side(seat)
    for other, player in enumerate(row.players):
        if other == seat or row.side(other) == mine:
            continue
        met = opponents.get(player)
        if met is None:
            met = opponents[player] = Opponent(player, names.get(player) or row.names[other])
        met.games += 1
        met.ahead += row.places[seat] < row.places[other]
        met.behind += row.places[seat] > row.places[other]


def nemesis(opponents: Sequence[Opponent], minimum: int = NEMESIS_MIN_GAMES) -> Opponent | None:
    """The opponent finished ahead of least often (share of games together), among those met `minimum` times
    or more; then the one met more often, then by name. None when nobody was met that often."""
    candidates = [o for o in opponents if o.games >= minimum]
    if not candidates:
        return None
    return min(candidates, key=lambda o: (o.ahead / o.games, -o.games, o.name.casefold(), o.player))


def player_report(
    rows: Iterable[MatchRow],
    player: str,
    filters: Filters = Filters(),
    names: Mapping[str, str] | None = None,
) -> PlayerReport:
    """`player`'s statistics over the rows `filters` admits (rows oldest first, as `rows_of` gives them).
    `names`: the players registry's names by id (a player missing there is named as in their latest match)."""
    names = names or {}
    report = PlayerReport(player, names.get(player, ""))
    lines: dict[str, GameLine] = {}
    opponents: dict[str, Opponent] = {}
    months: dict[str, list[int]] = {}
    run = 0
    for row in rows:
        if player not in row.players or not filters.admits(row):
            continue
        seat = row.players.index(player)
        report.name = names.get(player) or row.names[seat]
        won = seat in row.winners
        report.games += 1
        report.wins += won
        report.shared_wins += won and len(row.winners) > 1
        run = run + 1 if won else 0
        report.longest_streak = max(report.longest_streak, run)
        if row.seconds is not None:
            report.seconds += row.seconds
            report.timed_games += 1
        _count_game(lines.setdefault(row.game, GameLine(row.game)), row, seat)
        _meet(opponents, row, seat, names)
        month = months.setdefault(month_of(row), [0, 0])
        month[0] += 1
        month[1] += won
    report.current_streak = run
    order = {game.key: i for i, game in enumerate(GAMES)}
    report.per_game = sorted(lines.values(), key=lambda line: order.get(line.game, len(order)))
    report.opponents = sorted(opponents.values(), key=lambda o: (-o.games, o.name.casefold(), o.player))
    report.nemesis = nemesis(report.opponents)
    report.months = [(month, games, wins) for month, (games, wins) in sorted(months.items())]
    return report


@dataclass(frozen=True)
class PlayerLine:
    """A player in the picker: their finished games and wins under the filters."""

    player: str
    name: str
    games: int
    wins: int


def players_of(
    rows: Iterable[MatchRow], filters: Filters = Filters(), names: Mapping[str, str] | None = None
) -> list[PlayerLine]:
    """Everyone who played a match `filters` admits, most games first (then by name)."""
    names = names or {}
    found: dict[str, list[Any]] = {}
    for row in rows:
        if not filters.admits(row):
            continue
        for seat, player in enumerate(row.players):
            line = found.setdefault(player, [row.names[seat], 0, 0])
            line[0] = row.names[seat]
            line[1] += 1
            line[2] += seat in row.winners
    lines = [PlayerLine(p, names.get(p) or name, games, wins) for p, (name, games, wins) in found.items()]
    return sorted(lines, key=lambda line: (-line.games, line.name.casefold(), line.player))


def periods(rows: Iterable[MatchRow]) -> list[str]:
    """The months ("YYYY-MM") with finished matches, latest first: what a period is chosen from."""
    return sorted({month_of(row) for row in rows}, reverse=True)


def places_of(rows: Iterable[MatchRow]) -> list[str]:
    """The places of finished matches (one spelling per place, ignoring case), most matches first."""
    counts: dict[str, list[Any]] = {}
    for row in rows:
        if row.place:
            entry = counts.setdefault(row.place.casefold(), [0, row.place])
            entry[0] += 1
    return [name for _count, name in sorted(counts.values(), key=lambda e: (-e[0], e[1].casefold()))]
