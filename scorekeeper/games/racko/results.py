"""Racko round results as the match model stores them (the forms below): validation and scoring.

Detailed form: {"racks": [[10 ints] | None per seat], "callers": [seat, ...], "blitz": false}
Quick form:    {"counts": [int | None per seat], "runs": [int | None per seat] | None, "callers": [...],
                "blitz": false}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import N_, RuleError
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.racko.quick import quick_chip_payments, quick_round_points, validate_quick_round
from scorekeeper.games.racko.rules import (
    BLITZ_POINTS,
    CALLER_POINTS,
    callers_of,
    check_options,
    chip_payments,
    longest_run,
    may_call,
    round_points,
    run_bonus,
    validate_round,
)

LOWER_WINS = False
"""Racko: the highest total wins."""

_DETAILED_KEYS = {"racks", "callers", "blitz"}
_QUICK_KEYS = {"counts", "runs", "callers", "blitz"}


def _unpack(result: Any, options: RackoOptions, dealer: Any, round_index: Any) -> tuple[list[int], bool]:
    check_options(options)
    for message, value in (
        (N_("The dealer of a round must be a whole number."), dealer),
        (N_("The round number of a round must be a whole number."), round_index),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RuleError(message)
    if dealer >= options.players:
        raise RuleError("The dealer must be one of the players 1 to {players}.", players=options.players)
    if not isinstance(result, dict):
        raise RuleError("A Racko round must list the racks (or counts) and who called.")
    if ("racks" in result) == ("counts" in result):
        raise RuleError("Enter a round either as racks or as ascending counts, not both and not neither.")
    allowed = _DETAILED_KEYS if "racks" in result else _QUICK_KEYS
    unknown = sorted(str(key) for key in result if key not in allowed)
    if unknown:
        raise RuleError("A Racko round has no entry called {names}.", names=", ".join(unknown))
    if "callers" not in result:
        raise RuleError("Say who called Racko (nobody, one player, or several in Blitz-Racko).")
    callers = result["callers"]
    if not isinstance(callers, list | tuple):
        raise RuleError("Say who called Racko as a list of players.")
    blitz = result.get("blitz", False)
    callers_of(callers, options, blitz=blitz)
    return list(callers), blitz


def validate_result(result: Any, options: RackoOptions, *, dealer: int = 0, round_index: int = 0) -> None:
    """Check a round result dict (either form); RuleError with a message for the players if anything is off."""
    callers, blitz = _unpack(result, options, dealer, round_index)
    if "racks" in result:
        validate_round(result["racks"], callers, options, blitz=blitz)
    else:
        validate_quick_round(result["counts"], result.get("runs"), callers, options, blitz)


def score_result(result: Any, options: RackoOptions, *, dealer: int = 0, round_index: int = 0) -> list[int]:
    """The round's effect per seat: points in the points games; in the chips game the chip change before
    capping at a player's balance (the caller positive, payers negative)."""
    callers, blitz = _unpack(result, options, dealer, round_index)
    if options.is_chips:
        if "racks" in result:
            payments = chip_payments(result["racks"], callers, options)
        else:
            validate_quick_round(result["counts"], result.get("runs"), callers, options, blitz)
            payments = quick_chip_payments(result.get("runs"), callers, options)
        return [-pay for pay in payments]
    if "racks" in result:
        return round_points(result["racks"], callers, options, blitz=blitz)
    return quick_round_points(result["counts"], result.get("runs"), callers, options, blitz)


def score_stored(result: Any, options: RackoOptions, *, dealer: int = 0, round_index: int = 0) -> list[int]:
    """A stored round's scores ("can be read and scored", docs/DATA.md): `score_result`, except that a
    quick-form round of the 2-player rule may lack the caller's longest run. Versions before the rule asked for
    it checked the run only when it was given; it decides no points (the caller's 75 stand), so such a round
    is scored as it was saved. A round entered now gives the run (`validate_result`)."""
    if (
        isinstance(result, dict)
        and "counts" in result
        and isinstance(options, RackoOptions)
        and options.two_player_rule
        and not _caller_runs_given(result)
    ):
        options = dataclasses.replace(options, two_player_rule=False)
    return score_result(result, options, dealer=dealer, round_index=round_index)


def _caller_runs_given(result: dict[str, Any]) -> bool:
    """Whether a quick-form round names every caller's longest run (a shape the scoring then checks itself)."""
    runs, callers = result.get("runs"), result.get("callers")
    if not isinstance(callers, list | tuple):
        return True  # not a round at all: `score_result` says what is wrong
    for seat in callers:
        if not (isinstance(runs, list | tuple) and isinstance(seat, int) and 0 <= seat < len(runs)):
            return False
        if runs[seat] is None:
            return False
    return True


def check_entry(result: Any, options: RackoOptions) -> None:
    """What a score keeper enters is a round that ended, and a Racko round ends when someone calls (RULES
    1.8: exactly one caller; Blitz-Racko: the callers). Only digital play ends a round without a call (the
    turn limit of 1.3), so this is checked for entered rounds, not for every stored one."""
    check_options(options)
    if isinstance(result, dict) and isinstance(result.get("callers"), list | tuple) and not result["callers"]:
        raise RuleError("Say who called Racko: a round ends when someone calls Racko.")


def racko_seats(racks: Any, options: RackoOptions) -> list[int]:
    """The seats whose complete rack may call Racko (a Racko, with the 2-player rule's run where it applies):
    when a round is entered without a caller and exactly one rack qualifies, that player is the one to offer."""
    check_options(options)
    seats = []
    for seat, rack in enumerate(racks or []):
        whole = isinstance(rack, list | tuple) and len(rack) == 10 and all(isinstance(c, int) for c in rack)
        if whole and may_call(rack, options):
            seats.append(seat)
    return seats


def caller_breakdown(result: Any, options: RackoOptions) -> dict[int, tuple[int, int, int | None]]:
    """Per calling seat of a stored round: (points for the call, run bonus, longest run or None), so a round
    list can say "75 + 200 run" (RULES 1.5). Blitz callers score 100 and no bonus; the chips game has none."""
    callers, blitz = _unpack(result, options, 0, 0)
    if options.is_chips:
        return {}
    found: dict[int, tuple[int, int, int | None]] = {}
    for seat in callers:
        run: int | None
        if "racks" in result:
            run = longest_run(result["racks"][seat])
        else:
            runs = result.get("runs") or []
            run = runs[seat] if seat < len(runs) else None
        if blitz:
            found[seat] = (BLITZ_POINTS, 0, run)
        elif options.variant == "bonus":
            found[seat] = (CALLER_POINTS, run_bonus(run or 1), run)
        else:
            found[seat] = (CALLER_POINTS, 0, run)
    return found


def check_out_seats(result: Any, out: Sequence[int], names: Sequence[str]) -> None:
    """In the chips game a player who is out sits out: their entry must be empty, everyone else's filled."""
    callers = result.get("callers") if isinstance(result.get("callers"), list) else []
    for key in ("racks", "counts", "runs"):
        entries = result.get(key)
        if not isinstance(entries, list) or len(entries) != len(names):
            continue  # absent, or the wrong shape: validate_result reports that in its own words
        for seat, entry in enumerate(entries):
            if seat in out and entry is not None:
                raise RuleError("{name} is out of chips and does not play this round.", name=names[seat])
            if key == "racks" and seat not in out and entry is None:
                raise RuleError("{name} is still in the game; their rack is missing.", name=names[seat])
    if any(seat in out for seat in callers):
        raise RuleError("A player who is out of chips cannot call Racko.")
