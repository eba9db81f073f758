"""Ruck Zuck: place cards next to cards on the board; cards left in hand are penalty points (RULES.md 2)."""

from scorekeeper.games.ruckzuck.bots import BOTS
from scorekeeper.games.ruckzuck.play import RuckZuckState, RuckZuckView, new_round, replay
from scorekeeper.games.ruckzuck.rules import (
    JOKER,
    LOWER_WINS,
    PLAYERS,
    Options,
    RuckZuckOptions,
    adjacent_numbers,
    penalty,
    read_options,
    score_result,
    validate_hands,
    validate_result,
)

__all__ = [
    "BOTS",
    "JOKER",
    "LOWER_WINS",
    "PLAYERS",
    "Options",
    "RuckZuckOptions",
    "RuckZuckState",
    "RuckZuckView",
    "adjacent_numbers",
    "new_round",
    "penalty",
    "read_options",
    "replay",
    "score_result",
    "validate_hands",
    "validate_result",
]
