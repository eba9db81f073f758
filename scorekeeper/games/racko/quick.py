"""Racko's quick form (RULES.md 1.8): a round entered as ascending counts and longest runs instead of racks.

Scored the same way as racks (`rules`): only what a rule looks at is asked for, and every figure must fit a rack
that could exist.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import N_, RuleError, seat_name
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.racko.rules import (
    SLOTS,
    TWO_PLAYER_MIN_RUN,
    Caller,
    callers_of,
    check_options,
    payments_from,
    points_from,
)

_QUICK_MESSAGES = {
    "ascending count": N_("The ascending count of {who} must be a whole number from 1 to 10."),
    "longest run": N_("The longest run of {who} must be a whole number from 1 to 10."),
}


def _quick_number(value: Any, what: str, seat: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= SLOTS:
        raise RuleError(_QUICK_MESSAGES[what], who=seat_name(seat))
    return value


def quick_run_needed(options: RackoOptions, *, calling: bool) -> bool:
    """Whether the quick form needs a seat's longest run: the caller's when a rule looks at it (Bonus Racko's
    bonus, the 2-player rule, chips paid by the caller's run), every other player's in the chips game (paid by
    their own run, and an empty run there marks a player who is out). Nowhere else does a run change anything.
    """
    options = check_options(options)
    if calling:
        return (
            options.variant == "bonus"
            or bool(options.two_player_rule)
            or (options.is_chips and options.chip_basis == "caller")
        )
    return options.is_chips


def validate_quick_round(
    counts: Any, runs: Any, caller: Caller, options: RackoOptions, blitz: bool = False
) -> None:
    """Check a round entered in the quick form (1.8): ascending counts and, where they matter, longest runs.

    - Points games: every non-caller's count is needed (1..10; 10 is possible for a Racko not called).
      The caller's count may be left empty (it is 10). The caller's longest run is needed where a rule
      looks at it (`quick_run_needed`: Bonus Racko, the 2-player rule).
    - Chips game: every other playing seat's longest run is needed; a seat whose run is empty is out of the
      game and must have no count either. Counts are optional there (they don't pay). The caller's run is
      needed only when everyone pays by it (chip_basis "caller").
    - A run fits the rack: at most 10, and with an ascending count c < 10 at most max(c, 10 - c), because
      a run cannot cross the first descent. Under the 2-player rule the caller's run, if given, is 3+.
    """
    options = check_options(options)
    players = options.players
    if not isinstance(counts, list | tuple) or len(counts) != players:
        raise RuleError("Enter an ascending count for each of the {players} players.", players=players)
    if runs is None:
        if options.variant != "standard":
            raise RuleError("Enter the longest direct run of each player.")
        runs = [None] * players
    if not isinstance(runs, list | tuple) or len(runs) != players:
        raise RuleError("Enter a longest run for each of the {players} players.", players=players)
    seats = callers_of(caller, options, blitz=blitz)
    active = 0
    for seat in range(players):
        who = seat_name(seat)
        count = _quick_number(counts[seat], "ascending count", seat)
        run = _quick_number(runs[seat], "longest run", seat)
        calling = seat in seats
        if options.is_chips and run is None and not calling:
            if count is not None:
                raise RuleError(
                    "Enter the longest run of {who} (leave both empty for a player who is out).", who=who
                )
            continue
        active += 1
        if calling:
            if count is not None and count != SLOTS:
                raise RuleError("{who} called Racko, so the ascending count of {who} is 10.", who=who)
            count = SLOTS
            if run is None and options.variant == "bonus":
                raise RuleError(
                    "Enter the longest run of {who}, who called Racko: it sets the bonus.", who=who
                )
            if run is None and options.two_player_rule:
                raise RuleError(
                    "Enter the longest run of {who}, who called Racko: the 2-player rule needs a direct "
                    "run of at least 3 cards.",
                    who=who,
                )
            if run is None and quick_run_needed(options, calling=True):
                raise RuleError("Enter the longest run of {who}, who called Racko.", who=who)
            if run is not None and options.two_player_rule and run < TWO_PLAYER_MIN_RUN:
                raise RuleError(
                    "{who} called Racko with a longest run of {run}, but the 2-player rule requires a "
                    "direct run of at least 3 cards.",
                    who=who,
                    run=run,
                )
        elif count is None and not options.is_chips:
            raise RuleError("Enter the ascending count of {who}.", who=who)
        if count is not None and run is not None and count < SLOTS and run > max(count, SLOTS - count):
            raise RuleError(  # count < 10, so the longest possible run is at least 5 cards: one form
                "{who} has an ascending count of {count}, so no direct run can be longer than "
                "{longest} cards (a run cannot cross the first card that drops).",
                who=who,
                count=count,
                longest=max(count, SLOTS - count),
            )
    if active < 2:
        raise RuleError("A round needs at least 2 players who are still in the game.")


def quick_round_points(
    counts: Any, runs: Any, caller: Caller, options: RackoOptions, blitz: bool = False
) -> list[int]:
    """Points per seat from the quick form; same scoring as `round_points`."""
    validate_quick_round(counts, runs, caller, options, blitz)
    seats = callers_of(caller, options, blitz=blitz)
    runs = runs if runs is not None else [None] * options.players
    return points_from(counts, runs, seats, options, blitz)


def quick_chip_payments(runs: Any, caller: Caller, options: RackoOptions) -> list[int]:
    """Chips each seat pays from the quick form (a run of None = a seat out of the game)."""
    options = check_options(options)
    validate_quick_round([None] * options.players, runs, caller, options)
    return payments_from(runs, callers_of(caller, options), options)
