"""Rage (RULES.md 3): editions, notation, scoring, validation, digital play and bots."""

from scorekeeper.games.rage.arranged import arranged_round
from scorekeeper.games.rage.bots import BOTS, BaselineBot, RandomBot
from scorekeeper.games.rage.cards import (
    ACTION_CARDS,
    BONUS,
    COLOURS,
    JOKER,
    MINUS,
    NO_TRUMP,
    TRUMP_CHANGE,
    Card,
    format_card,
    parse_card,
)
from scorekeeper.games.rage.hard import HardBot
from scorekeeper.games.rage.options import (
    EDITIONS,
    PLAYERS,
    Edition,
    Options,
    RageOptions,
    deck,
    hand_size,
    hand_sizes,
)
from scorekeeper.games.rage.play import RageState, new_round, replay
from scorekeeper.games.rage.rules import (
    LOWER_WINS,
    forbidden_dealer_bid,
    round_score,
    score_result,
    seat_score,
    trick_winner,
    validate_result,
    validate_round,
)
from scorekeeper.games.rage.view import RageView

__all__ = [
    "ACTION_CARDS",
    "BONUS",
    "BOTS",
    "COLOURS",
    "EDITIONS",
    "JOKER",
    "LOWER_WINS",
    "MINUS",
    "NO_TRUMP",
    "PLAYERS",
    "TRUMP_CHANGE",
    "BaselineBot",
    "Card",
    "Edition",
    "HardBot",
    "Options",
    "RageOptions",
    "RageState",
    "RageView",
    "RandomBot",
    "arranged_round",
    "deck",
    "forbidden_dealer_bid",
    "format_card",
    "hand_size",
    "hand_sizes",
    "new_round",
    "parse_card",
    "replay",
    "round_score",
    "score_result",
    "seat_score",
    "trick_winner",
    "validate_result",
    "validate_round",
]
