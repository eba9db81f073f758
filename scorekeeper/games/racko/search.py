"""Racko "search": the hard bot's heuristic with a determinized look-ahead on its close placements.

An experiment, not a strength of the game's list (`bots.BOTS`): run it with
`python -m scorekeeper.sim racko --players 2 --bots scorekeeper.games.racko.search:SearchBot,baseline ...`.
Measured (seed 1, 40 cards, no 2-player rule; load average 4-7 on 2 cores): against the baseline bot it wins
87.1% of 3,000 rounds (95% Wilson 85.8-88.2; today's hard 84.1%), but heads-up against today's hard it wins
49.0% of 1,000 rounds (45.9-52.1; 46.8% of 500), no more than the heuristic alone: its gain comes from
modelling the other racks as the slot-targeting player, and a planning opponent is not one.
With a shorter horizon (`SearchBot(horizon=7.0)`, 3,000 rounds each): 86.3% against the baseline
(85.0-87.5) and 51.8% heads-up against today's hard (50.0-53.6); the heuristic alone at horizon 7 wins 52.1%
heads-up (50.3-53.9) and no more against the baseline (83.8% of 1,000).

When the heuristic (`hard.HardBot`) finds several placements of the drawn card nearly as good (within
`CLOSE` in log chance of completing), it plays each of them out on sampled deals and keeps the one that wins
the race most often, if clearly (`SURE`). A sampled deal fills in what the seat cannot see, consistently with
its view: every other rack holds the cards it was seen to take from the discard pile plus unseen cards, the
rest of the unseen cards are the stock in a random order. The other racks are modelled as a slot-targeting
player's (cards in their own tenth of the deck; each hidden slot already "settled" with a chance that grows
with the turns played), and they play on as that player.

The seat itself plays on with the heuristic's plan frozen into bands: the dynamic program picks the cards to
keep, and each gap between kept cards is cut into equal bands of numbers, one per empty slot; a card goes
into its band's slot unless that slot is settled. So a play-out costs some microseconds and a decision judges
every close choice on the same deals (paired), within a time budget (anytime, at least `MIN_DEALS`).

Only rounds the model covers are searched: standard points, no 2-player rule, a full rack; otherwise, and
for draws and calls, the heuristic decides. Each decision seeds its generator from the view, so that with a
fixed number of deals (`time_budget=None`) it is reproducible.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import cast

from scorekeeper.games.base import Action
from scorekeeper.games.paired import clearly_best
from scorekeeper.games.racko.hard import NEG, HardBot, Plan, _log_table, _unseen
from scorekeeper.games.racko.play import DISCARD, RackoView
from scorekeeper.games.racko.rules import SLOTS

CLOSE = 0.3
"""Placements within this much (log chance) of the heuristic's best are searched."""
MAX_CHOICES = 4
DEALS = 64
MIN_DEALS = 8
TIME_BUDGET = 0.03
SURE = 2.0
"""How many standard errors a choice's paired gain must stand above the heuristic's choice."""
PACE = 0.85
"""A hidden slot of another rack is settled with chance 1 - 0.9 * PACE ** (its turns played)."""
TURN_CAP = 60
"""A play-out still open after this many turns counts as half a win."""


def _seeded(view: RackoView) -> random.Random:
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


class _Racks:
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
                return _done(rack)
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
            return _done(rack)
        pile.append(card)
        return False


def _done(rack: list[int]) -> bool:
    a, b, c, d, e, f, g, h, i, j = rack
    return a < b < c < d < e < f < g < h < i < j


def _baseline_targets(deck: int) -> list[int]:
    return [-1] + [min(9, (c - 1) * 10 // deck) for c in range(1, deck + 1)] + [-1]


class SearchBot(HardBot):
    """The heuristic, with its close placements judged by play-outs (see the module docstring).

    `opponent`: how the other racks play on in the play-outs: "baseline" (the slot-targeting player's bands)
    or "plan" (bands from the heuristic's own plan for the sampled rack, a stand-in for a planning player)."""

    def __init__(
        self,
        time_budget: float | None = TIME_BUDGET,
        deals: int = DEALS,
        clock: Callable[[], float] = time.perf_counter,
        *,
        close: float = CLOSE,
        sure: float = SURE,
        pace: float = PACE,
        opponent: str = "baseline",
        horizon: float = 14.0,
    ) -> None:
        super().__init__(horizon=horizon)
        self.time_budget = time_budget
        self.deals = deals
        self.clock = clock
        self.close, self.sure, self.pace, self.opponent = close, sure, pace, opponent

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        default = super().choose(view, legal_actions)
        if view.phase != "place" or not _covered(view):
            return default
        choices = self._close(view, legal_actions)
        if len(choices) < 2 or default not in choices:
            return default
        return self._search(view, choices, choices.index(default))

    def _close(self, view: RackoView, legal: Sequence[Action]) -> list[Action]:
        """The placements (slots, or discarding) within `close` of the heuristic's best, best first."""
        plan = Plan(view.rack, _unseen(view), view.deck_size, self.horizon)
        card = view.drawn
        assert card is not None
        scored: list[tuple[float, Action]] = [
            (plan.with_card(card, a), a) for a in legal if isinstance(a, int)
        ]
        if DISCARD in legal:
            scored.append((plan.value, DISCARD))
        scored.sort(key=lambda item: -item[0])
        top = scored[0][0]
        if top <= NEG:
            return []
        return [a for v, a in scored[:MAX_CHOICES] if v >= top - self.close]

    def _search(self, view: RackoView, choices: list[Action], default: int) -> Action:
        rng = _seeded(view)
        deck, seat, players = view.deck_size, view.seat, view.options.players
        unseen = _unseen(view)
        below, table = counts_below(unseen, deck), _log_table(len(unseen), self.horizon, deck)
        card = view.drawn
        assert card is not None
        starts = []  # per choice: my rack after it, the card it puts on the pile, my bands
        for choice in choices:
            rack = cast(list[int], list(view.rack))  # past the deal: every slot holds a card (`_covered`)
            if choice == DISCARD:
                out = card
            else:
                out, rack[cast(int, choice)] = rack[cast(int, choice)], card
            starts.append((rack, out, bands(rack, kept_path(rack, below, table, deck), deck)))
        base = _baseline_targets(deck)
        order = [(seat + k) % players for k in range(1, players)]
        order = [s for s in order if s not in view.players_out]
        values: list[list[float]] = [[] for _ in choices]
        deadline = None if self.time_budget is None else self.clock() + self.time_budget
        for deal in range(self.deals):
            if deal >= MIN_DEALS and deadline is not None and self.clock() > deadline:
                break
            others, stock = _sample(view, unseen, order, base, rng, self.pace)
            if self.opponent == "plan":
                theirs = [bands(r, kept_path(r, below, table, deck), deck) for r in others]
            else:
                theirs = [base] * len(others)
            for i, (rack, out, target) in enumerate(starts):
                racks = [list(rack)] + [list(r) for r in others]
                game = _Racks(
                    racks, [target, *theirs], [*view.pile, out], list(stock), rng, view.options.reshuffle
                )
                values[i].append(_race(game, len(racks)))
        return choices[clearly_best(values, default, self.sure)]


def _covered(view: RackoView) -> bool:
    options = view.options
    return (
        options.variant == "standard"
        and not options.two_player_rule
        and all(c is not None for c in view.rack)
        and len(view.rack) == SLOTS
    )


def _sample(
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


def _race(game: _Racks, seats: int) -> float:
    """1 if seat 0 (the searcher, who has just placed) finishes first, 0 if another does; others move first."""
    if _done(game.racks[0]):
        return 1.0
    for _ in range(TURN_CAP):
        for s in range(1, seats):
            if game.turn(s):
                return 0.0
        if game.turn(0):
            return 1.0
    return 0.5
