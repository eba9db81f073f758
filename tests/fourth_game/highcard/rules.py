"""High card: each player is dealt one card of 1 to 20 face down; in turn from the dealer's left everyone
shows it; the highest card scores 1 point. The match lasts `rounds` rounds (default 3)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from scorekeeper.games.base import Action, Deal, RuleError, State, is_int, left_of

PLAYERS = (2, 6)
LOWER_WINS = False
DECK = 20
SHOW = "show"


@dataclass(frozen=True)
class HighCardOptions:
    players: int
    rounds: int = 3

    def __post_init__(self) -> None:
        if not is_int(self.players) or not PLAYERS[0] <= self.players <= PLAYERS[1]:
            raise RuleError("High card is for 2 to 6 players.")
        if not is_int(self.rounds) or self.rounds < 1:
            raise RuleError("High card is played at least one round.")


@dataclass(frozen=True)
class HighCardView:
    seat: int
    current_player: int
    turn: int
    is_over: bool
    options: HighCardOptions
    match_scores: tuple[int, ...]
    round_points: tuple[int, ...] | None
    card: int
    """This seat's own card."""
    shown: tuple[int | None, ...]
    """Every seat's card once shown (None while face down)."""


def score_result(
    result: Any, options: HighCardOptions, *, dealer: int = 0, round_index: int = 0
) -> list[int]:
    """1 point for each highest card (a card is dealt once, so one seat scores)."""
    validate_result(result, options, dealer=dealer, round_index=round_index)
    cards = result["cards"]
    return [int(card == max(cards)) for card in cards]


def validate_result(result: Any, options: HighCardOptions, *, dealer: int = 0, round_index: int = 0) -> None:
    """A round is {"cards": [one card of 1..20 per seat, all different]}."""
    cards = result.get("cards") if isinstance(result, dict) else None
    if not isinstance(cards, list) or len(cards) != options.players:
        raise RuleError("Enter one card per player.")
    if not all(is_int(card) and 1 <= card <= DECK for card in cards):
        raise RuleError("A card is a number from 1 to 20.")
    if len(set(cards)) != len(cards):
        raise RuleError("Every card is in the deck once.")


class HighCardState(State):
    options_type = HighCardOptions
    wrong_options = "These are not options of high card."

    def __init__(self, options: HighCardOptions, deal: Deal, **_extra: Any) -> None:
        self.options, self.log, self.match_scores = options, [], deal.scores
        cards = list(range(1, DECK + 1))
        random.Random(deal.seed).shuffle(cards)
        self._hands = [[cards.pop()] for _ in range(options.players)]
        self._stock = cards
        self._shown = [False] * options.players
        self._dealer = deal.dealer

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else left_of(self._dealer, self.options.players, len(self.log) + 1)

    @property
    def is_over(self) -> bool:
        return all(self._shown)

    def round_points(self) -> tuple[int, ...] | None:
        return tuple(score_result(self._result(), self.options)) if self.is_over else None

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else [SHOW]

    def _illegal(self, action: Any) -> RuleError:
        return RuleError("The only move is to show your card.")

    def _do(self, action: Action) -> None:
        self._shown[self.current_player] = True

    def _view(self, seat: int) -> HighCardView:
        shown = tuple(hand[0] if up else None for hand, up in zip(self._hands, self._shown, strict=True))
        return HighCardView(
            seat, self.current_player, len(self.log), self.is_over, self.options, self.match_scores,
            self.round_points(), self._hands[seat][0], shown,
        )  # fmt: skip

    def _result(self) -> dict[str, Any]:
        return {"cards": [hand[0] for hand in self._hands]}


class ShowBot:
    """Every strength plays the one move there is."""

    def choose(self, view: Any, legal_actions: list[Action]) -> Action:
        return legal_actions[0]


BOTS = {"random": ShowBot, "baseline": ShowBot, "hard": ShowBot}
