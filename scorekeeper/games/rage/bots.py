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
from scorekeeper.games.rage.cards import COLOURS, JOKER, colour_of, is_number, value_of
from scorekeeper.games.rage.play import RageView
from scorekeeper.games.rage.rules import trick_winner

Action = list[Any]


class RandomBot:
    """Plays any legal action, uniformly (its own random generator, seedable)."""

    def __init__(self, seed: int | None = None) -> None:
        # Unseeded: drawn from the global generator, so a simulator that seeds it repeats its runs.
        self.rng = random.Random(random.getrandbits(64) if seed is None else seed)

    def choose(self, view: RageView, legal_actions: list[Action]) -> Action:
        return self.rng.choice(legal_actions)


def would_win(view: RageView, card: str) -> bool:
    """Whether ``card`` would win the trick as it lies, with the trump in force now."""
    plays = [c for _, c in view.trick] + [card]
    return trick_winner(plays, view.trump) == len(plays) - 1


def strength(card: str, trump: str | None) -> int:
    """A simple order of cards by power: action cards, off-colour numbers, trumps, jokers."""
    if card.startswith(JOKER):
        return 40
    if not is_number(card):
        return -1
    value = value_of(card) or 0
    return value + (20 if colour_of(card) == trump else 0)


def baseline_bid(hand: tuple[str, ...], trump: str | None) -> int:
    """Cards that are trump or 13+, plus jokers."""
    return sum(
        1
        for c in hand
        if c == JOKER or (is_number(c) and (colour_of(c) == trump or (value_of(c) or 0) >= 13))
    )


class BaselineBot:
    """The reference player of the issue (see the module docstring for every detail)."""

    def choose(self, view: RageView, legal_actions: list[Action]) -> Action:
        if view.phase == "bid":
            bid = min(baseline_bid(view.hand, view.trump), view.hand_size)
            if bid == view.forbidden_bid:
                bid = bid + 1 if bid + 1 <= view.hand_size else bid - 1
            return ["bid", bid]
        bid = view.bids[view.seat] or 0
        want = view.tricks[view.seat] < bid
        cards = self._candidates(view, legal_actions, want)
        trump = view.trump
        if not view.trick:  # leading
            pick = (
                max(cards, key=lambda c: strength(c, trump))
                if want
                else min(cards, key=lambda c: strength(c, trump))
            )
            return ["play", pick]
        winners = [c for c in cards if would_win(view, c)]
        losers = [c for c in cards if c not in winners]
        if want:
            pick = (
                min(winners, key=lambda c: strength(c, trump))
                if winners
                else min(cards, key=lambda c: strength(c, trump))
            )
        else:
            pick = (
                max(losers, key=lambda c: strength(c, trump))
                if losers
                else min(cards, key=lambda c: strength(c, trump))
            )
        return ["play", pick]

    @staticmethod
    def _candidates(view: RageView, legal_actions: list[Action], want: bool) -> list[str]:
        """Legal cards, with each joker given the one colour that serves the aim."""
        cards = [a[1] for a in legal_actions if not a[1].startswith(JOKER)]
        if any(a[1].startswith(JOKER) for a in legal_actions):
            led, trump = view.led, view.trump
            colour = trump or led or COLOURS[0] if want else next(c for c in COLOURS if c not in (led, trump))
            cards.append(f"{JOKER}:{colour}")
        return cards


def _hard() -> Bot:
    from scorekeeper.games.rage.hard import HardBot  # hard builds on this module

    return HardBot()


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "hard": _hard,
}
