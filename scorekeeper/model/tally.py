"""The tally of a match: its list of round results checked as a whole and the figures derived from it in one
pass (scores per round, totals, dealers, seats out of the chips game).

A list of rounds is valid only as a whole: a round is checked with the dealer, totals and seats out that the
rounds before it leave, and no round may follow the end of the match. A refusal names the round, and the
players by name (the rules only know "Player 2").

Each round is held to one of two checks (docs/DATA.md): the round being entered now *follows today's rules*
(`follows_rules`); every stored round, however old, only *can be read and scored* (`readable_scores`), so a
rule tightened since it was saved does not refuse it.

Below `match`: a match is known here only as `Tallied` (what the tally reads of one), which `Match` is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from scorekeeper.games.base import SEAT_TEMPLATE, Message, RuleError
from scorekeeper.games.spec import GameSpec
from scorekeeper.model.standings import team_values


class Tallied(Protocol):
    """What the tally reads of a match (`match.Match`): its seats, its game and options, how it was kept."""

    @property
    def players(self) -> list[str]: ...

    @property
    def names(self) -> list[str]: ...

    @property
    def first_dealer(self) -> int: ...

    @property
    def mode(self) -> str: ...

    @property
    def final_totals(self) -> list[int]: ...

    @property
    def spec(self) -> GameSpec: ...

    @property
    def opts(self) -> Any: ...

    @property
    def chips(self) -> bool: ...

    @property
    def partners(self) -> bool: ...

    @property
    def target(self) -> int | None: ...

    def rounds_planned(self) -> int | None: ...


@dataclass(frozen=True)
class Tally:
    """Everything derived from a list of rounds in one pass (kept out of the stored data on purpose)."""

    scores: list[list[int]]
    totals: list[int]
    dealers: list[int]
    out: list[list[int]]
    """Seats out of the chips game before each round (and, last, after the final round)."""


def tally_rounds(match: Tallied, rounds: list[dict[str, Any]], entered: int | None = None) -> Tally:
    """Validate `rounds` as a whole for `match` and derive scores, totals and dealers; RuleError names the bad
    round. Round `entered` (0-based; None: none) is being entered now and follows today's rules; the others are
    stored rounds, checked for what reading and scoring them needs."""
    if match.final_totals:
        return totals_only(match, rounds)
    opts, game, seats = match.opts, match.spec, len(match.players)
    totals = [game.chips_start(opts)] * seats if match.chips else [0] * seats
    scores: list[list[int]] = []
    dealers: list[int] = []
    out_before: list[list[int]] = []
    dealer = match.first_dealer
    for index, result in enumerate(rounds):
        number = index + 1
        if ended_after(match, index, totals):
            raise RuleError(
                "The game was already over before round {number}; that round cannot be added.",
                number=number,
            )
        out = [s for s in range(seats) if match.chips and totals[s] <= 0]
        if index:
            dealer = next_dealer(match, dealer, out)
        if not isinstance(result, dict):
            raise RuleError("Round {number} is not a round result.", number=number)
        try:
            if match.chips:
                game.check_out_seats(result, out, match.names)
            score = follows_rules if index == entered else readable_scores
            points = score(match, result, opts, dealer, index)
        except RuleError as error:
            raise RuleError(
                "Round {number}: {reason}", number=number, reason=with_names(error, match.names)
            ) from None
        if match.chips:
            points = game.settle_chips([-delta for delta in points], totals)
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        scores.append(points)
        dealers.append(dealer)
        out_before.append(out)
    out_before.append([s for s in range(seats) if match.chips and totals[s] <= 0])
    return Tally(scores, totals, dealers, out_before)


def totals_only(match: Tallied, rounds: list[dict[str, Any]]) -> Tally:
    """The tally of a match whose rounds are not known, only its final totals (`Match.final_totals`, a play
    imported from BG Stats): no round scores, no dealers, the totals as recorded, over. It takes no round (its
    rounds were never known), and its totals are one whole number per seat; RuleError otherwise."""
    final, seats = match.final_totals, len(match.players)
    if rounds:
        raise RuleError("This game was imported with its final totals only: no rounds can be added to it.")
    if len(final) != seats or not all(isinstance(t, int) and not isinstance(t, bool) for t in final):
        raise RuleError("A saved game's final totals must be one whole number per seat.")
    return Tally([], list(final), [], [[s for s in range(seats) if match.chips and final[s] <= 0]])


def readable_scores(match: Tallied, result: dict[str, Any], opts: Any, dealer: int, index: int) -> list[int]:
    """CAN BE READ AND SCORED: a stored round's scores. The round has the shape its game stores and figures
    that can be scored (cards of the deck, tricks adding up to the hand size, ...); a rule tightened since a
    version of the app saved it does not refuse it (the game's `score_stored`). RuleError otherwise."""
    return [int(p) for p in match.spec.stored_scores(result, opts, dealer=dealer, round_index=index)]


def follows_rules(match: Tallied, result: dict[str, Any], opts: Any, dealer: int, index: int) -> list[int]:
    """FOLLOWS TODAY'S RULES: the scores of a round entered now, held to every rule of RULES.md as this version
    states it, including what only a score keeper's entry must satisfy (`check_entry`: Racko: someone called;
    digital rounds may end at the turn limit without a call). RuleError otherwise."""
    game = match.spec
    if match.mode == "tracked":
        game.check_entry(result, opts)
    game.validate_result(result, opts, dealer=dealer, round_index=index)
    return [int(p) for p in game.score_result(result, opts, dealer=dealer, round_index=index)]


def with_names(error: RuleError, names: list[str]) -> RuleError:
    """The rules say "Player 2" (they don't know names); a match does. The seat names are fields of the
    message (also inside nested messages), so the names go in there and the sentence stays translatable."""
    return RuleError.retold(error, **_named_fields(error.fields, names))


def _named_fields(fields: dict[str, object], names: list[str]) -> dict[str, object]:
    named: dict[str, object] = {}
    for key, value in fields.items():
        if isinstance(value, Message) and value.template == SEAT_TEMPLATE:
            seat = int(str(value.fields["number"])) - 1
            named[key] = names[seat] if 0 <= seat < len(names) else value
        elif isinstance(value, Message):
            named[key] = value.with_fields(**_named_fields(value.fields, names))
        elif isinstance(value, RuleError):
            named[key] = with_names(value, names)
        else:
            named[key] = value
    return named


def next_dealer(match: Tallied, dealer: int, out: list[int]) -> int:
    """The deal passes one seat to the left, skipping players who are out of the chips game."""
    seats = len(match.players)
    for step in range(1, seats + 1):
        candidate = (dealer + step) % seats
        if candidate not in out:
            return candidate
    return dealer


def ended_after(match: Tallied, played: int, totals: list[int]) -> bool:
    """Whether `match` ended after `played` rounds with these totals (a match known by its final totals only
    is over: it was recorded when it ended)."""
    if match.final_totals:
        return True
    planned = match.rounds_planned()
    if match.chips:  # a chips game's options always plan its rounds
        return (planned is not None and played >= planned) or sum(1 for t in totals if t > 0) <= 1
    if planned is not None:
        return played >= planned
    target = match.target or 0
    board = team_values(totals, match.spec.teams) if match.partners else totals
    if max(board, default=0) < target:
        return False
    # The top is tied: another round is played until one player (team) leads alone.
    return board.count(max(board)) == 1
