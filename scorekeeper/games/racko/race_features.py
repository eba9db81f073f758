"""What the Racko race bot (`race.py`) reads off a seat's view, as numbers for its learned models.

- `RackFeatures`: a rack after a choice (a card put into a slot, or the rack kept), described by the hard
  bot's plan values at four horizons (`hard.Plan`: log chance to complete within that many draws), the longest
  ascending run, the turns played and the unseen cards left.
- `TakeFeatures`: whether the other player (heads-up) takes a given card from the discard pile next turn,
  from what everyone saw: the cards it took and still holds, the cards it let pass, the cards it discarded.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence

from scorekeeper.games.racko.hard import Plan, _unseen
from scorekeeper.games.racko.play import RackoView

HORIZONS = (3.0, 5.0, 8.0, 14.0)
"""The plan horizons (draws) a rack is judged at: short ones say "close", long ones "on its way"."""
CLIP = -30.0
"""Plan values below this (no plan within reach) count as this: e**-30 is nothing already."""


def longest_ascending(rack: Sequence[int]) -> int:
    """The most cards of the rack that already stand in ascending order (not necessarily adjacent)."""
    tails: list[int] = []
    for card in rack:
        i = bisect_left(tails, card)
        if i == len(tails):
            tails.append(card)
        else:
            tails[i] = card
    return len(tails)


class RackFeatures:
    """The rack features of one decision: the seat's rack now, judged as it is or with one card put in."""

    def __init__(self, view: RackoView) -> None:
        self.unseen = _unseen(view)
        self.rack: list[int] = list(view.rack)  # type: ignore[arg-type]  # covered rounds deal full racks
        self.plans = [Plan(self.rack, self.unseen, view.deck_size, h) for h in HORIZONS]
        self.turns = view.turn // 2 + 1
        self.pool = len(self.unseen)

    def of(self, card: int | None, slot: int | None) -> list[float]:
        """The features of the rack with `card` in `slot` (None, None: the rack as it is), in the order of the
        model's `finish_features`."""
        if card is None or slot is None:
            values = [plan.value for plan in self.plans]
            rack = self.rack
        else:
            values = [plan.with_card(card, slot) for plan in self.plans]
            rack = self.rack.copy()
            rack[slot] = card
        logs = [max(CLIP, v) for v in values]
        chances = [math.exp(v) for v in logs]
        t = self.turns / 10.0
        run = longest_ascending(rack) / 10.0
        return [
            1.0,
            *[v / 10.0 for v in logs],
            *chances,
            run,
            t,
            self.pool / 30.0,
            *[t * p for p in chances],
            t * run,
            t * t,
        ]


def passes_and_takes(view: RackoView) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """The other player's (heads-up) turns as the discard pile shows them: (turn, card) of each card it let
    pass and of each it took, and the cards it discarded.

    Each card put on the pile is offered once, to the next player: the one after puts a card on top of it, and
    a card under the top never comes back. So a card of `discards` that is no longer on the pile was taken by
    the player after the one who discarded it (every card is one of a kind, so a card discarded twice was
    taken after the first time). (Once the stock ran out and the pile became the new stock, which
    rounds between planning players never reach, the older turns read as taken.)"""
    discards, turn = view.discards, view.turn
    on_pile = set(view.pile)
    last = {card: k for k, card in enumerate(discards)}  # a card on the pile lies there from its last discard
    still = [card in on_pile and last[card] == k for k, card in enumerate(discards)]
    passed: list[tuple[int, int]] = []
    took: list[tuple[int, int]] = []
    discarded: list[int] = []
    for k in range(min(turn, len(discards))):
        if (turn - k) % 2 == 1:  # the other's turn (the seat to act has turn `turn`)
            (passed if still[k] else took).append((k, discards[k]))
            if k + 1 < len(discards):
                discarded.append(discards[k + 1])
    return passed, took, discarded


class TakeFeatures:
    """The features of "the other takes card d next turn", in the order of the model's `take_features`."""

    def __init__(self, view: RackoView) -> None:
        self.deck = view.deck_size
        self.known = sorted(view.known[1 - view.seat])
        self.passed, took, self.discarded = passes_and_takes(view)
        self.turns = len(self.passed) + len(took)
        last_took = bool(took) and (not self.passed or took[-1][0] > self.passed[-1][0])
        self.took_last = 1.0 if last_took else 0.0
        self.take_rate = len(took) / self.turns if self.turns else 0.5
        self.recent = [card for k, card in self.passed if k >= view.turn - 6]

    def of(self, d: int) -> list[float]:
        n, known = self.deck, self.known

        def near(cards: Sequence[int], within: int) -> int:
            return sum(1 for c in cards if abs(c - d) <= within)

        passed = [card for _, card in self.passed]
        x = (d - 0.5) / n
        extreme = 1.0 if min(d - 1, n - d) < 3 else 0.0
        below = max((c for c in known if c < d), default=0)
        above = min((c for c in known if c > d), default=n + 1)
        t = self.turns / 10.0
        known3 = near(known, 3) / 2
        return [
            1.0,
            t,
            x,
            x * x,
            extreme,
            near(known, 1),
            known3,
            near(known, 6) / 3,
            near(passed, 1),
            near(passed, 3) / 2,
            near(self.recent, 3),
            near(self.discarded, 2) / 2,
            self.took_last,
            self.take_rate,
            min(d - below, 12) / 12,
            min(above - d, 12) / 12,
            sum(1 for c in known if c < d) / 5,
            t * known3,
            t * extreme,
            t * x,
        ]
