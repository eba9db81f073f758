"""Computer players for Rage. They see a seat's view and the legal actions, never the state.

- ``random``: any legal action.
- ``baseline``: bids the number of its cards that are trump or 13+, plus its jokers; when the hook rule
  forbids that bid it bids one more (one less if that is over the hand size). In play it tries to win tricks
  while it has fewer than its bid and to lose them once it has its bid:
  * "would win" means: winning the trick as it lies after this card, with the trump in force now (the bot
    ignores what its own no-trump/trump-change cards would do);
  * to win it plays the cheapest card that would win (leading: its strongest card); if none would win, its
    cheapest card;
  * to lose it plays the strongest card that would not win; if every card would win, the cheapest;
  * a joker is named trump (or the led colour when there is no trump) to win, and a colour that is neither
    led nor trump to lose.
  "Cheapest"/"strongest" order: action cards, then off-colour cards by value, then trumps by value, jokers top.
- ``hard``: see :mod:`scorekeeper.games.rage.hard`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import Bot
from scorekeeper.games.rage.fastround import CODE, COLOUR_INDEX, baseline_card
from scorekeeper.games.rage.fastround import baseline_bid as fast_baseline_bid
from scorekeeper.games.rage.search import build_round, move_action
from scorekeeper.games.rage.view import RageView

Action = list[Any]


class RandomBot:
    """Plays any legal action, uniformly (its own random generator, seedable)."""

    def __init__(self, seed: int | None = None) -> None:
        # Unseeded: drawn from the global generator, so a simulator that seeds it repeats its runs.
        self.rng = random.Random(random.getrandbits(64) if seed is None else seed)

    def choose(self, view: RageView, legal_actions: list[Action]) -> Action:
        return self.rng.choice(legal_actions)


def baseline_bid(hand: tuple[str, ...], trump: str | None) -> int:
    """Cards that are trump or 13+, plus jokers."""
    trump_code = -1 if trump is None else COLOUR_INDEX[trump]
    return fast_baseline_bid([CODE[c] for c in hand], trump_code, len(hand), None)


class BaselineBot:
    """The reference player (see the module docstring for every detail). Its rules are written once, in the
    fast model (:func:`~scorekeeper.games.rage.fastround.baseline_card`), which the hard bot's look-ahead
    also plays the other seats with; here the view is put into that model."""

    def choose(self, view: RageView, legal_actions: list[Action]) -> Action:
        if view.phase == "bid":
            trump = -1 if view.trump is None else COLOUR_INDEX[view.trump]
            hand = [CODE[c] for c in view.hand]
            return ["bid", fast_baseline_bid(hand, trump, view.hand_size, view.forbidden_bid)]
        fast = build_round(view, [[] for _ in view.hand_counts], [])
        return move_action(baseline_card(fast, view.seat))


def _hard() -> Bot:
    from scorekeeper.games.rage.hard import HardBot  # hard builds on this module

    return HardBot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "hard": _hard,
}
