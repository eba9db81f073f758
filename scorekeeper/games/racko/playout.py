"""Racko play-outs on plain lists, for the search bot (`search.py`): sampled deals and a fast race to a Racko.

A sampled deal fills in what a seat cannot see, consistently with its view: every other rack holds the cards it
was seen to take from the discard pile plus unseen cards, the rest of the unseen cards are the stock in a random
order. The other racks are modelled as a slot-targeting player's (cards in their own tenth of the deck; each
hidden slot already "settled" with a chance that grows with the turns played), and they play on as that player.
The searching seat plays on with its heuristic's plan frozen into bands (`bands`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

from scorekeeper.games.racko.hard import NEG, _log_table
from scorekeeper.games.racko.play import RackoView
from scorekeeper.games.racko.race_features import target_slot
from scorekeeper.games.racko.rules import SLOTS

PACE = 0.85
"""A hidden slot of another rack is settled with chance 1 - 0.9 * PACE ** (its turns played)."""
TURN_CAP = 60
"""A play-out still open after this many turns counts as half a win."""


def seeded(view: RackoView) -> random.Random:
    """A generator seeded from what the seat sees, so that a decision is reproducible."""
    return random.Random(repr((view.seat, view.turn, view.rack, view.drawn, view.pile, view.known)))


def counts_below(unseen: Sequence[int], deck: int) -> list[int]:
    """below[v]: how many unseen cards are lower than v (v = 0..deck + 1)."""
    marks = [0] * (deck + 2)
    for card in unseen:
        marks[card] = 1
    below, running = [0] * (deck + 2), 0
    for v in range(deck + 2):
        below[v] = running
        running += marks[v]
    return below


def kept_slots(rack: Sequence[int], unseen: Sequence[int], deck: int, horizon: float) -> list[int]:
    """The slots of the heuristic's best plan: an increasing run of kept cards maximising the sum of log F
    over the gaps between them (the same program as `hard.Plan`, with the path kept)."""
    return kept_path(rack, counts_below(unseen, deck), _log_table(len(unseen), horizon, deck), deck)


def kept_path(
    rack: Sequence[int], below: Sequence[int], table: tuple[tuple[float, ...], ...], deck: int
) -> list[int]:
    values: list[int] = [0, *rack, deck + 1]
    back = [-1] * 12
    best = [NEG] * 12
    best[0] = 0.0
    for p in range(1, 12):
        vp = values[p]
        for q in range(p):
            if best[q] <= NEG or values[q] >= vp:
                continue
            score = best[q] + table[p - q - 1][below[vp] - below[values[q] + 1]]
            if score > best[p]:
                best[p], back[p] = score, q
    path = []
    p = back[11]
    while p > 0:
        path.append(p - 1)
        p = back[p]
    return path[::-1]


def bands(rack: Sequence[int], kept: Sequence[int], deck: int) -> list[int]:
    """target[c]: the slot card c is meant for (-1: none); kept slots are their own cards' targets."""
    target = [-1] * (deck + 2)
    anchors = [(-1, 0), *((s, rack[s]) for s in kept), (SLOTS, deck + 1)]
    for (s0, lo), (s1, hi) in pairwise(anchors):
        gap = s1 - s0 - 1
        if gap <= 0:
            continue
        width = hi - lo - 1
        for c in range(lo + 1, hi):
            target[c] = s0 + 1 + min(gap - 1, (c - lo - 1) * gap // max(width, 1))
    for s in kept:
        target[rack[s]] = s
    return target


class Racks:
    """One sampled deal played on with plain lists: every seat a slot-targeting player with its own bands
    (`targets[seat][card]`: the slot the card is meant for, -1 for none); a slot is settled once it holds a
    card meant for it. Seat 0 is the searching seat."""

    __slots__ = ("pile", "racks", "reshuffle", "rng", "settled", "stock", "targets")

    def __init__(
        self,
        racks: list[list[int]],
        targets: list[list[int]],
        pile: list[int],
        stock: list[int],
        rng: random.Random,
        reshuffle: bool,
    ) -> None:
        self.racks = racks
        self.targets = targets
        self.settled = [[t[c] == s for s, c in enumerate(r)] for r, t in zip(racks, targets, strict=True)]
        self.pile = pile  # top card = last element, as in the engine
        self.stock = stock
        self.rng = rng
        self.reshuffle = reshuffle

    def turn(self, seat: int) -> bool:
        """One turn of `seat` (the baseline bot's rules with the seat's bands); True when it is a Racko."""
        rack, target, settled, pile = self.racks[seat], self.targets[seat], self.settled[seat], self.pile
        if pile:
            top = pile[-1]
            slot = target[top]
            if slot >= 0 and not settled[slot]:
                pile[-1] = rack[slot]
                rack[slot] = top
                settled[slot] = True
                return done(rack)
        if not self.stock:
            # 1.3: the pile turned over becomes the stock (shuffled under the reshuffle option)
            self.stock = pile[::-1]
            if self.reshuffle:
                self.rng.shuffle(self.stock)
            pile.clear()
            if not self.stock:
                return False
        card = self.stock.pop()
        slot = target[card]
        if slot >= 0 and not settled[slot]:
            pile.append(rack[slot])
            rack[slot] = card
            settled[slot] = True
            return done(rack)
        pile.append(card)
        return False


def done(rack: list[int]) -> bool:
    a, b, c, d, e, f, g, h, i, j = rack
    return a < b < c < d < e < f < g < h < i < j


def baseline_targets(deck: int) -> list[int]:
    """`target_slot` of every card 1..deck, indexed by the card; -1 for "no card" (0) and past the deck."""
    return [-1] + [target_slot(c, deck) for c in range(1, deck + 1)] + [-1]


def sample(
    view: RackoView, unseen: list[int], order: list[int], base: list[int], rng: random.Random, pace: float
) -> tuple[list[list[int]], list[int]]:
    """Other racks (in playing order after the seat) and the stock, drawn from the unseen cards."""
    pool = list(unseen)
    rng.shuffle(pool)
    settle = 1.0 - 0.9 * pace ** (view.turn / max(1, len(order) + 1))
    by_band: dict[int, list[int]] = {}
    for c in pool:
        by_band.setdefault(base[c], []).append(c)
    taken: set[int] = set()
    racks = []
    for seat in order:
        rack = [0] * SLOTS
        free = list(range(SLOTS))
        for c in view.known[seat]:
            slot = base[c]
            if rack[slot] == 0:
                rack[slot] = c
                free.remove(slot)
            else:
                s = free.pop(0)
                rack[s] = c
        for slot in free:
            card = 0
            if rng.random() < settle:
                band = by_band.get(slot, [])
                while band and band[-1] in taken:
                    band.pop()
                if band:
                    card = band.pop()
            if card == 0:
                while pool and pool[-1] in taken:
                    pool.pop()
                if not pool:
                    break
                card = pool.pop()
            taken.add(card)
            rack[slot] = card
        racks.append(rack)
    stock = [c for c in pool if c not in taken]
    rng.shuffle(stock)
    return racks, stock


def race(game: Racks, seats: int) -> float:
    """1 if seat 0 (the searcher, who has just placed) finishes first, 0 if another does; others move first."""
    if done(game.racks[0]):
        return 1.0
    for _ in range(TURN_CAP):
        for s in range(1, seats):
            if game.turn(s):
                return 0.0
        if game.turn(0):
            return 1.0
    return 0.5
