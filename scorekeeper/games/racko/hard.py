"""Strong Racko bots: a rack is judged by the chance to complete a Racko within a horizon of turns.

The model. Cards not in my rack, not on the pile and not seen going into another rack are "unseen"; each
turn brings (about) one of them, uniformly. A finished rack keeps some of my cards: an increasing sequence
of slots (the "kept" cards). Between two kept neighbours with values lo < hi lies a block of k empty slots
that needs k cards from the m unseen numbers between lo and hi. Treating each of its slots as needing one
card from its own share m/k of those numbers, a block is filled within H turns with probability

    F(k, m) = (1 - (1 - (m/k)/P) ** H) ** k        (P = unseen cards, H = horizon)

and the rack with probability prod F over its blocks. The bot keeps the best such plan (a dynamic program
over kept slots, maximising the sum of log F), so gaps stay flexible: nothing is bound to a fixed band.

Decisions (all from the view only):
- place: the slot (or discard) whose resulting rack has the best plan; on a tie it discards the drawn
  card (keeping the rack unchanged), else takes the lowest slot.
- draw: the top discard if its best placement beats the expected value of a stock card (averaged over the
  unseen cards, each placed at its best or discarded), otherwise the stock.
- call: always (a 2-player-rule rack is only offered when it may call). In Bonus Racko it waits while the
  run is short, the chance of lengthening it is fair and nobody is close to finishing.
- 2-player rule: the plan's value is multiplied by the chance of a direct run of 3: 1 with one, otherwise
  the best 3 adjacent slots around a card already held, each missing (unseen) card needed within H turns.
- Blitz deal: each card into the empty slot giving the best plan (empty slots are gaps).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import cast

from scorekeeper.games.base import Action
from scorekeeper.games.racko.play import CALL, DISCARD, PILE, STOCK, WAIT, RackoView
from scorekeeper.games.racko.rules import CALLER_POINTS, POINTS_PER_CARD, SLOTS, longest_run, run_bonus

NEG = -1e9


@lru_cache(maxsize=512)
def _log_table(pool: int, horizon: float, deck: int) -> tuple[tuple[float, ...], ...]:
    """log F(k, m) for k = 0..10 empty slots and m = 0..deck unseen candidates (NEG when impossible)."""
    pool = max(pool, 1)
    rows = []
    for k in range(SLOTS + 1):
        row = []
        for m in range(deck + 1):
            if k == 0:
                row.append(0.0)
            elif m < k:
                row.append(NEG)
            else:
                share = min(1.0, (m / k) / pool)
                hit = 1.0 - (1.0 - share) ** horizon
                row.append(k * math.log(hit) if hit > 0 else NEG)
        rows.append(tuple(row))
    return tuple(rows)


class Plan:
    """The best-plan dynamic program for one rack and one set of unseen cards.

    Positions 0..11: 0 is a sentinel below every card (value 0), 11 above every card (value N + 1),
    position p holds slot p - 1. `fwd[p]` is the best log value of positions 0..p with p kept, `bwd[p]`
    of p..11 with p kept; `skip[p]` the best plan in which slot p - 1 is a gap.
    """

    def __init__(self, rack: Sequence[int | None], unseen: Sequence[int], deck: int, horizon: float) -> None:
        self.deck = deck
        below = [0] * (deck + 2)  # below[v] = unseen cards < v
        marks = [0] * (deck + 2)
        for card in unseen:
            marks[card] = 1
        running = 0
        for v in range(deck + 2):
            below[v] = running
            running += marks[v]
        self.below = below
        self.table = _log_table(len(unseen), horizon, deck)
        values: list[int | None] = [0, *rack, deck + 1]
        self.values = values
        table = self.table
        fwd = self.fwd = [NEG] * 12
        fwd[0] = 0.0
        for p in range(1, 12):
            vp = values[p]
            if vp is not None:
                fwd[p] = self._side(p, vp, below_p=True)
        bwd = self.bwd = [NEG] * 12
        bwd[11] = 0.0
        for p in range(10, -1, -1):
            vp = values[p]
            if vp is not None:
                bwd[p] = self._side(p, vp, below_p=False)
        skip = [NEG] * 12
        for a in range(0, 10):
            if fwd[a] <= NEG:
                continue
            va = values[a]
            assert va is not None
            for b in range(a + 2, 12):
                vb = values[b]
                if vb is None or vb <= va or bwd[b] <= NEG:
                    continue
                score = fwd[a] + table[b - a - 1][below[vb] - below[va + 1]] + bwd[b]
                for p in range(a + 1, b):
                    if score > skip[p]:
                        skip[p] = score
        self.skip = skip
        self.value = fwd[11]

    def _side(self, p: int, card: int, *, below_p: bool) -> float:
        """Best log value of the kept positions on one side of position p when it holds `card` (those below
        p when `below_p`, else those above), the block of gaps between p and its kept neighbour included.
        The neighbour must be kept in order with `card` and have a possible plan on its side."""
        values, table, below = self.values, self.table, self.below
        side = self.fwd if below_p else self.bwd
        best = NEG
        for other in range(p) if below_p else range(p + 1, 12):
            value = values[other]
            if value is None or side[other] <= NEG:
                continue
            lo, hi = (value, card) if below_p else (card, value)
            if lo >= hi:
                continue
            score = side[other] + table[abs(p - other) - 1][below[hi] - below[lo + 1]]
            if score > best:
                best = score
        return best

    def with_card(self, card: int, slot: int) -> float:
        """Value of the rack after putting `card` into `slot` (the old card leaves)."""
        p = slot + 1
        left = self._side(p, card, below_p=True)
        if left <= NEG:
            return self.skip[p]
        return max(self.skip[p], left + self._side(p, card, below_p=False))


def _unseen(view: RackoView) -> list[int]:
    """Cards this seat cannot see: not in its rack or hand, not on the pile, not seen going into a rack."""
    seen = {c for c in view.rack if c is not None}
    seen.update(view.pile)
    for seat, cards in enumerate(view.known):
        if seat != view.seat:
            seen.update(cards)
    if view.drawn is not None:
        seen.add(view.drawn)
    return [c for c in range(1, view.deck_size + 1) if c not in seen]


def run_term(rack: Sequence[int | None], unseen: frozenset[int], deck: int, miss_cost: float) -> float:
    """2-player rule: log chance of owning a direct run of 3. 0 with one; otherwise the best 3 adjacent
    slots around a card already held, each missing card (it must be unseen) costing `miss_cost`."""
    best = NEG
    run = 1
    for i in range(1, SLOTS):
        a, b = rack[i - 1], rack[i]
        run = run + 1 if a is not None and b is not None and b == a + 1 else 1
        if run >= 3:
            return 0.0
    for start in range(SLOTS - 2):
        for i in range(start, start + 3):
            card = rack[i]
            if card is None:
                continue
            low = card - (i - start)
            if low < 1 or low + 2 > deck:
                continue
            missing = 0
            for t in range(3):
                have = rack[start + t]
                if have != low + t:
                    if low + t not in unseen:
                        missing = -1
                        break
                    missing += 1
            if missing >= 0 and missing * miss_cost > best:
                best = missing * miss_cost
    return best


class HardBot:
    """Plans by completion probability; compares the top discard with the expected stock card."""

    def __init__(self, horizon: float = 14.0, lookahead: bool = True, risk: float = 0.08) -> None:
        self.horizon = horizon
        self.lookahead = lookahead
        self.risk = risk

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        phase = view.phase
        if phase in ("call", "blitz_call"):
            return self._call(view)
        unseen = _unseen(view)
        plan = Plan(view.rack, unseen, view.deck_size, self.horizon)
        judge = self._judge(view, plan, unseen)
        if phase == "draw":
            return self._draw(view, legal_actions, judge, unseen)
        card = view.drawn
        assert card is not None
        choices: list[tuple[float, int | str]] = [
            (judge(card, a), a) for a in legal_actions if isinstance(a, int)
        ]
        if DISCARD in legal_actions:
            choices.append((judge(None, None), DISCARD))

        def rank(choice: tuple[float, int | str]) -> tuple[float, bool, int]:
            # Ties (common early: several gaps are as good) go to the lowest slot, then to discarding.
            value, action = choice
            return round(value, 9), action == DISCARD, -action if isinstance(action, int) else 0

        return max(choices, key=rank)[1]

    def _judge(
        self, view: RackoView, plan: Plan, unseen: list[int]
    ) -> Callable[[int | None, int | None], float]:
        """value(card, slot): log chance to finish after putting `card` into `slot` (None: keep the rack)."""
        if not view.options.two_player_rule:
            # judge(None, None) keeps the rack; a card always comes with its slot
            return lambda card, slot: (
                plan.value if card is None or slot is None else plan.with_card(card, slot)
            )
        pool = frozenset(unseen)
        deck = view.deck_size
        miss = math.log(1.0 - (1.0 - 1.0 / max(len(unseen), 1)) ** self.horizon)
        rack = list(view.rack)
        here = plan.value + run_term(rack, pool, deck, miss)

        def judge(card: int | None, slot: int | None) -> float:
            if card is None or slot is None:
                return here
            trial = rack.copy()
            trial[slot] = card
            return plan.with_card(card, slot) + run_term(trial, pool, deck, miss)

        return judge

    def _draw(self, view: RackoView, legal: Sequence[Action], judge: Callable, unseen: list[int]) -> Action:
        top = view.discard_top
        if PILE not in legal or top is None:
            return STOCK
        pile_value = max(judge(top, s) for s in range(SLOTS))
        stay = judge(None, None)
        if not self.lookahead:
            return PILE if pile_value > stay + 1e-9 else STOCK
        total = 0.0
        for card in unseen:
            best = stay
            for s in range(SLOTS):
                v = judge(card, s)
                if v > best:
                    best = v
            total += math.exp(best)
        stock_value = total / max(len(unseen), 1)
        return PILE if math.exp(pile_value) > stock_value else STOCK

    def _call(self, view: RackoView) -> Action:
        """Call, except in Bonus Racko when waiting one more turn for a longer run is worth the risk."""
        rack = cast(Sequence[int], view.rack)  # the seat's own rack: every slot holds a known card
        if view.phase != "call" or view.options.variant != "bonus":
            return CALL
        run = longest_run(rack)
        now = CALLER_POINTS + run_bonus(run)
        if run >= 6 or view.match_scores[view.seat] + now >= view.options.target:
            return CALL
        unseen = _unseen(view)
        growing = sum(1 for card in unseen for s in range(SLOTS) if _extends(rack, s, card, run))
        chance = growing / max(len(unseen), 1)
        gain = run_bonus(run + 1) - run_bonus(run)
        others = view.options.players - 1 - len(view.players_out)
        loss = now - POINTS_PER_CARD * SLOTS  # if someone else calls, the Racko still counts 50
        return WAIT if chance * gain > self.risk * others * loss else CALL


def _extends(rack: Sequence[int], slot: int, card: int, run: int) -> bool:
    """Whether `card` in `slot` keeps the Racko and makes the longest run longer than `run`."""
    below = rack[slot - 1] if slot else 0
    above = rack[slot + 1] if slot + 1 < SLOTS else card + 1
    if not below < card < above:
        return False
    trial = [*rack[:slot], card, *rack[slot + 1 :]]
    return longest_run(trial) > run


class MediumBot(HardBot):
    """The hard bot's placement, but it takes the top discard whenever that improves its plan at all."""

    def __init__(self) -> None:
        super().__init__(lookahead=False)
