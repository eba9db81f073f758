"""High card's rules under the names the engine contract exports (`games/contract.CONTRACT_NAMES`)."""

from fourth_game.highcard.rules import (
    BOTS,
    LOWER_WINS,
    PLAYERS,
    HighCardOptions,
    HighCardState,
    HighCardView,
    score_result,
    validate_result,
)

Options = HighCardOptions
new_round = HighCardState.new_round
replay = HighCardState.replay

__all__ = [
    "BOTS",
    "LOWER_WINS",
    "PLAYERS",
    "HighCardState",
    "HighCardView",
    "Options",
    "new_round",
    "replay",
    "score_result",
    "validate_result",
]
