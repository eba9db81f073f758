"""Statistics over stored matches, for the statistics screen and the history charts.

Every number here is read from what the match model already computed: a round's points are
`Match.round_scores()`, the standings and winners are `Match.totals()` / `Match.winners()`. Nothing here knows
how a game is scored; where a figure needs a rule (the Bonus Racko run bonus) it asks the game's own scoring
function. That keeps statistics and scoreboard in agreement by construction.

Conventions (decided here, as RULES.md says nothing about statistics):
- Games and wins count finished matches only (`Match.is_over`); a shared first place is a win for every
  player holding it (as for the simulator's win counts). A play BG Stats ignores (`Match.recorded.ignored`)
  is not counted; one known by its winners only counts its game and wins (it has no rounds to count).
- Round figures (average, best round, calls, runs, exact bids, times out) count the rounds of the same
  finished matches, and only the rounds a seat took part in (a seat out of the Racko chips game does not play).
- "Best round" is the highest round score, for Ruck Zuck (lowest penalty wins) the lowest.
- Longest run: from the racks entered in detail, and from the quick form's run where one was entered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from scorekeeper.games.spec import GAMES, find, spec

if TYPE_CHECKING:  # the match model is only needed for type hints; stats never builds one but in progression
    from scorekeeper.model.match import Match


Figure = int | None
"""A game's own statistics figure: a count, or the best value (None while unknown)."""


@dataclass
class PlayerGameStats:
    """One player's record in one game, over a set of finished matches. The game's own figures (its
    `GameSpec.round_figures`: Racko calls, Rage exact bids, ...) are in `figures`, read by `figure(name)` or as
    attributes (`record.calls`)."""

    player: str
    name: str
    game: str
    games: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    best_round: int | None = None
    figures: dict[str, Figure] = field(default_factory=dict)
    match_ids: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Every figure the game shows starts at 0 (a best value: unknown) before the first round."""
        found = find(self.game)
        if found is None:  # a game this version does not know: no figures of its own
            return
        for figure in found.stat_figures:
            name = figure.of or figure.attribute
            self.figures.setdefault(name, None if name in found.best_figures else 0)

    def figure(self, name: str) -> float | None:
        """A figure of the game's: a round figure added up (or its best), or a "percent" stat figure's share of
        the rounds (None before the first round). KeyError for a figure the game does not have."""
        if name in self.figures:
            return self.figures[name]
        found = find(self.game)
        shares = {f.attribute: f.of for f in found.stat_figures if f.of} if found is not None else {}
        if name not in shares:
            raise KeyError(name)
        count = self.figures.get(shares[name]) or 0
        return count / self.rounds if self.rounds else None

    def __getattr__(self, name: str) -> float | None:
        if name.startswith("_") or name == "figures":  # copying and pickling look for these before __init__
            raise AttributeError(name)
        try:
            return self.figure(name)
        except KeyError:
            raise AttributeError(name) from None

    def add(self, name: str, value: Figure, *, best: bool) -> None:
        """Count a round's figure in: added up, or for a best figure the highest known value."""
        now = self.figures.get(name, None if best else 0)
        if not best:
            self.figures[name] = (now or 0) + (value or 0)
        elif value is not None and (now is None or value > now):
            self.figures[name] = value
        else:
            self.figures[name] = now

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game, 0..1; None before the first game."""
        return self.wins / self.games if self.games else None

    @property
    def average_round(self) -> float | None:
        """Mean points per round played (where lower wins: the mean penalty)."""
        return self.points / self.rounds if self.rounds else None

    @property
    def average_penalty(self) -> float | None:
        """Where lower wins: the mean penalty per round (the round score of such a game)."""
        return self.average_round


@dataclass(frozen=True)
class Series:
    """One line of a score-progression chart: the total after each round, starting before round 1."""

    label: str
    seats: tuple[int, ...]
    values: tuple[int, ...]


@dataclass(frozen=True)
class WinShare:
    """A player's part of all wins in a set of matches (a shared win counts for every winner)."""

    player: str
    name: str
    wins: int
    share: float


def finished(matches: Iterable[Match]) -> list[Match]:
    """The matches that have ended, in the given order."""
    return [m for m in matches if m.is_over]


def filter_matches(
    matches: Iterable[Match],
    *,
    game: str | None = None,
    player: str | None = None,
    only_finished: bool = True,
) -> list[Match]:
    """Matches of one game and/or with one player (by player id); by default finished ones only."""
    chosen = []
    for m in matches:
        if only_finished and not m.is_over:
            continue
        if game is not None and m.game != game:
            continue
        if player is not None and player not in m.players:
            continue
        chosen.append(m)
    return chosen


def _name(m: Match, seat: int) -> str:
    names = getattr(m, "names", None)
    if names and seat < len(names) and names[seat]:
        return str(names[seat])
    return str(m.players[seat])


def _took_part(out_before: Sequence[Sequence[int]], index: int, seat: int) -> bool:
    """A seat plays a round unless the match says it was out before it (Racko chips game: no chips left).
    Whether it sat out is the match's fact, not read from an empty entry: a quick-form caller's count is
    empty too (it is 10)."""
    return index >= len(out_before) or seat not in out_before[index]


def _add_round_figures(
    record: PlayerGameStats,
    m: Match,
    seat: int,
    round_scores: Sequence[Sequence[int]],
    dealers: Sequence[int],
    lower_wins: bool,
    out_before: Sequence[Sequence[int]] = (),
) -> None:
    for index, result in enumerate(m.rounds):
        if not _took_part(out_before, index, seat):
            continue
        score = round_scores[index][seat]
        record.rounds += 1
        record.points += score
        if record.best_round is None or (
            score < record.best_round if lower_wins else score > record.best_round
        ):
            record.best_round = score
        game = m.spec
        for name, value in game.round_figures(result, seat, m.opts, dealers[index], index).items():
            record.add(name, value, best=name in game.best_figures)


@dataclass(frozen=True)
class Facts:
    """What statistics need of one finished match, asked of the model once (each question re-checks the rounds)."""

    match: Match
    scores: list[list[int]]
    dealers: list[int]
    winners: frozenset[int]
    out: list[list[int]] = field(default_factory=list)
    """Seats out of the chips game before each round (the match's Tally.out)."""


def facts(matches: Iterable[Match]) -> list[Facts]:
    """The finished matches among `matches`, oldest first, with their round scores, dealers and winners."""
    found = []
    for m in sorted(matches, key=lambda m: (m.updated or "", m.id)):
        winners = m.winners()  # [] while the match is not over
        if (not winners and not m.is_over) or m.recorded.ignored:
            continue
        tally = m.tally()
        found.append(Facts(m, tally.scores, tally.dealers, frozenset(winners), tally.out))
    return found


def _as_facts(matches: Iterable[Match] | Sequence[Facts]) -> list[Facts]:
    items = list(matches)
    given = [item for item in items if isinstance(item, Facts)]
    if len(given) == len(items):
        return given
    return facts(cast("list[Match]", items))  # not facts already: the matches themselves


def player_game_stats(matches: Iterable[Match] | Sequence[Facts]) -> list[PlayerGameStats]:
    """Per player and game, over the finished matches among `matches` (or their `facts`). Ordered by game (as
    listed in `scorekeeper.games.GAMES`), then most wins, then name. A player's name is the one of their latest
    match."""
    records: dict[tuple[str, str], PlayerGameStats] = {}
    for fact in _as_facts(matches):
        m = fact.match
        lower_wins = spec(m.game).lower_wins
        for seat, player in enumerate(m.players):
            key = (player, m.game)
            record = records.get(key)
            if record is None:
                record = records[key] = PlayerGameStats(player=player, name=_name(m, seat), game=m.game)
            record.name = _name(m, seat)
            if m.id in record.match_ids:  # one player in two seats is not a thing; guard the count anyway
                continue
            record.match_ids.append(m.id)
            record.games += 1
            record.wins += seat in fact.winners
            _add_round_figures(record, m, seat, fact.scores, fact.dealers, lower_wins, fact.out)
    order = {game.key: i for i, game in enumerate(GAMES)}
    return sorted(records.values(), key=lambda r: (order.get(r.game, 99), -r.wins, r.name.casefold()))


def win_shares(matches: Iterable[Match] | Sequence[Facts]) -> list[WinShare]:
    """Each player's wins among the finished matches and their share of all wins, most wins first."""
    wins: dict[str, int] = {}
    names: dict[str, str] = {}
    for fact in _as_facts(matches):
        m = fact.match
        for seat, player in enumerate(m.players):
            names[player] = _name(m, seat)
            wins.setdefault(player, 0)
        for seat in fact.winners:
            wins[m.players[seat]] += 1
    total = sum(wins.values())
    shares = [
        WinShare(player=p, name=names[p], wins=w, share=(w / total if total else 0.0))
        for p, w in wins.items()
    ]
    return sorted(shares, key=lambda s: (-s.wins, s.name.casefold()))


def progression(match: Match) -> list[Series]:
    """The score progression of one match: for each seat (for partners: each team) the total standing after
    every round, the first value being the total before round 1 (0, or the starting chips).

    The steps are the match model's own round scores (chip payments already capped), added up from the
    model's starting totals, so the last value of each line is exactly the scoreboard's total."""
    from scorekeeper.model.match import Match as MatchModel

    start = MatchModel.from_dict({**match.to_dict(), "rounds": []}).totals()
    history = [list(start)]
    for scores in match.round_scores():
        history.append([total + score for total, score in zip(history[-1], scores, strict=True)])
    groups: list[tuple[int, ...]]
    if match.team_totals() is not None:
        groups = [tuple(team) for team in match.spec.teams]
    else:
        groups = [(seat,) for seat in range(len(match.players))]
    return [
        Series(
            label=" & ".join(_name(match, s) for s in group),
            seats=group,
            values=tuple(sum(row[s] for s in group) for row in history),
        )
        for group in groups
    ]
