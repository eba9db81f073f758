"""What the Racko race bot (`race.py`) reads off a seat's view, as numbers for its learned models.

- `RackFeatures`: a rack after a choice (a card put into a slot, or the rack kept), described by the hard
  bot's plan values at four horizons (`hard.Plan`: log chance to complete within that many draws), the longest
  ascending run, the turns played and the unseen cards left.
- `TakeFeatures`: whether the other player (heads-up) takes a given card from the discard pile next turn,
  from what everyone saw: the cards it took and still holds, the cards it let pass, the cards it discarded;
  for a player who plans (`of`) and for one who fills each slot with a card of its band (`of_slots`).
  `offered_so_far` replays them for each card the seat offered before, to tell which kind the other is.
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


Offers = list[tuple[int, int]]
"""(k, card): a card and the turn k it was offered at, or discarded at."""


def the_others_turns(view: RackoView) -> tuple[Offers, Offers, Offers]:
    """The other player's (heads-up) turns k as the discard pile shows them: (k, card) of each card offered it
    at its turn k (`discards[k]`: the card turned up to start, or the one this seat discarded at turn k - 1)
    that it let pass, of each it took, and of each it discarded at its turn k.

    Each card put on the pile is offered once, to the next player: the one after puts a card on top of it, and
    a card under the top never comes back. So a card of `discards` that is no longer on the pile was taken by
    the player after the one who discarded it (every card is one of a kind, so a card discarded twice was
    taken after the first time). (Once the stock ran out and the pile became the new stock, which
    rounds between planning players never reach, the older turns read as taken.)"""
    discards, turn = view.discards, view.turn
    on_pile = set(view.pile)
    last = {card: k for k, card in enumerate(discards)}  # a card on the pile lies there from its last discard
    passed: Offers = []
    took: Offers = []
    discarded: Offers = []
    for k in range(min(turn, len(discards))):
        if (turn - k) % 2 == 1:  # offered to the other (the seat to act has turn `turn`)
            card = discards[k]
            (passed if card in on_pile and last[card] == k else took).append((k, card))
            if k + 1 < len(discards):
                discarded.append((k, discards[k + 1]))
    return passed, took, discarded


def passes_and_takes(view: RackoView) -> tuple[Offers, Offers, list[int]]:
    """`the_others_turns`, the discarded cards without their turns."""
    passed, took, discarded = the_others_turns(view)
    return passed, took, [card for _, card in discarded]


def target_slot(card: int, deck_size: int) -> int:
    """The slot a card "belongs" to when the deck 1..N is cut into 10 equal bands: min(9, (c-1)*10//N)."""
    return min(9, (card - 1) * 10 // deck_size)


class TakeFeatures:
    """The features of "the other takes card d next turn" at the seat's turn `turn`, from what everyone saw:
    `known`, the cards the other took and still holds; the cards it let pass, took and discarded before."""

    def __init__(
        self,
        deck: int,
        turn: int,
        known: Sequence[int],
        passed: Offers,
        took: Offers,
        discarded: Sequence[int],
    ) -> None:
        self.deck = deck
        self.known = sorted(known)
        self.passed, self.took, self.discarded = passed, took, discarded
        self.turn = turn
        self.turns = len(passed) + len(took)
        last_took = bool(took) and (not passed or took[-1][0] > passed[-1][0])
        self.took_last = 1.0 if last_took else 0.0
        self.take_rate = len(took) / self.turns if self.turns else 0.5
        self.recent = [card for k, card in passed if k >= turn - 6]

    @classmethod
    def of_view(cls, view: RackoView) -> TakeFeatures:
        """The features as the seat to act sees them now."""
        passed, took, discarded = passes_and_takes(view)
        return cls(view.deck_size, view.turn, view.known[1 - view.seat], passed, took, discarded)

    def of(self, d: int) -> list[float]:
        """The features of a player who plans (`take_features` of the model)."""
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

    def of_slots(self, d: int) -> list[float]:
        """The features of a player who fills each slot with a card of its band (`slot_take_features`): those of
        `of`, then `bands`."""
        return [*self.of(d), *self.bands(d)]

    def bands(self, d: int) -> list[float]:
        """Whether a card of d's band is known in the other's rack (it would keep that one), was let pass or
        taken, how many known cards are of the bands beside, and whether d's band is an end slot."""
        band, n = target_slot(d, self.deck), self.deck

        def of_band(cards: Sequence[int], within: int = 0) -> int:
            return sum(1 for c in cards if abs(target_slot(c, n) - band) == within)

        return [
            min(of_band(self.known), 1),
            min(of_band([c for _, c in self.passed]), 2) / 2,
            min(of_band([c for _, c in self.took]), 1),
            min(of_band(self.known, 1), 2) / 2,
            1.0 if band in (0, 9) else 0.0,
        ]


def offered_so_far(view: RackoView) -> list[tuple[TakeFeatures, int, bool]]:
    """Each card the seat offered the other (heads-up) so far and the other answered: the features as they
    stood when the seat discarded it, the card, and whether the other took it. What the other held then is
    replayed from the pile: at each of its turns it took the card offered or not, then discarded one."""
    passed, took, discarded = the_others_turns(view)
    taken = {k for k, _ in took}
    events = sorted([(k, 0, card) for k, card in took] + [(k, 1, card) for k, card in discarded])
    found: list[tuple[TakeFeatures, int, bool]] = []
    held: list[int] = []
    e = 0
    for k, card in sorted(passed + took):
        while e < len(events) and events[e][0] < k:
            _, discard, c = events[e]
            if not discard:
                held.append(c)
            elif c in held:
                held.remove(c)
            e += 1
        if k == 0:
            continue  # the card turned up to start: not the seat's
        before = [(j, c) for j, c in passed if j < k], [(j, c) for j, c in took if j < k]
        gone = [c for j, c in discarded if j < k]
        found.append((TakeFeatures(view.deck_size, k - 1, held, *before, gone), card, k in taken))
    return found
