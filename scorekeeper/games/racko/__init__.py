"""Racko: rules, scoring and validation (rules.py, quick.py, results.py), digital play (play.py) and bots (bots.py)."""

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.bots import BOTS
from scorekeeper.games.racko.options import DECK_SIZES, PLAYERS, RackoOptions
from scorekeeper.games.racko.play import TURN_LIMIT, RackoState, RackoView, new_round, replay
from scorekeeper.games.racko.quick import quick_chip_payments, quick_round_points, validate_quick_round
from scorekeeper.games.racko.results import (
    LOWER_WINS,
    caller_breakdown,
    check_entry,
    racko_seats,
    score_result,
    score_stored,
    validate_result,
)
from scorekeeper.games.racko.rules import (
    BLITZ_POINTS,
    BONUS_TABLE,
    CALLER_POINTS,
    CHIP_TABLE,
    ascending_count,
    chip_payments,
    chips_for_run,
    is_racko,
    longest_run,
    may_call,
    round_points,
    run_bonus,
    settle_chips,
    validate_round,
)

Options = RackoOptions

__all__ = [
    "BLITZ_POINTS",
    "BONUS_TABLE",
    "BOTS",
    "CALLER_POINTS",
    "CHIP_TABLE",
    "DECK_SIZES",
    "LOWER_WINS",
    "PLAYERS",
    "TURN_LIMIT",
    "Options",
    "RackoOptions",
    "RackoState",
    "RackoView",
    "RuleError",
    "ascending_count",
    "caller_breakdown",
    "check_entry",
    "chip_payments",
    "chips_for_run",
    "is_racko",
    "longest_run",
    "may_call",
    "new_round",
    "quick_chip_payments",
    "quick_round_points",
    "racko_seats",
    "replay",
    "round_points",
    "run_bonus",
    "score_result",
    "score_stored",
    "settle_chips",
    "validate_quick_round",
    "validate_result",
    "validate_round",
]
