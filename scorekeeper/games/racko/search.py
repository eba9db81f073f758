"""Racko "search": the hard bot's heuristic with determinized play-outs on its close placements and its draws.

An experiment, not a strength of the game's list (`bots.BOTS`): run it with
`python -m scorekeeper.lab.sim racko --players 2 --bots scorekeeper.games.racko.search:SearchBot,baseline ...`.
Measured (seed 1, 40 cards, no 2-player rule, 95% Wilson intervals, load average 3-5 on 2 cores):
- against the baseline bot: 89.0% of 3,000 rounds (87.8-90.1) with up to 160 deals in 80 ms; 87.7% (86.5-88.8)
  with up to 64 deals in 30 ms; placements searched alone 87.1% (85.8-88.2); today's hard 84.1% (82.7-85.3);
- heads-up against today's hard: 50.1% of 3,000 (48.3-51.9) with up to 160 deals; 49.4% of 3,000 (47.6-51.2)
  with up to 64; placements alone 49.0% of 1,000 (45.9-52.1);
- decision time over 150 rounds against the baseline (2,810 decisions, load 1.1): p50 11 ms, p95 16 ms.
Its gain comes from modelling the other racks as the slot-targeting player, and a planning opponent is not one.
With a shorter horizon (`SearchBot(horizon=7.0)`, placements only, 3,000 rounds each): 86.3% against the
baseline (85.0-87.5) and 51.8% heads-up (50.0-53.6); the heuristic alone at horizon 7 wins 52.1% heads-up
(50.3-53.9) and no more against the baseline (83.8% of 1,000).

Placements: when the heuristic (`hard.HardBot`) finds several placements of the drawn card nearly as good
(within `CLOSE` in log chance of completing), it plays each of them out on sampled deals and keeps the one
that wins the race most often, if clearly (`SURE`, `games.paired.clearly_best`).

Draws: the top discard (put where the heuristic would put it) against a card from the stock (the sampled
stock's top card, put where the heuristic would put it or discarded), on the same sampled deals; the
heuristic's own choice stands unless the other is clearly better.

Sampled deals and play-outs are `playout.py`'s: the other racks are a slot-targeting player's and play on as
that player; the seat plays on with the heuristic's plan frozen into bands. A play-out costs some microseconds
and a decision judges every choice on the same deals (paired), within a time budget (anytime, at least
`MIN_DEALS`).

Only rounds the model covers are searched: standard points, no 2-player rule, a full rack; otherwise, and
for calls, the heuristic decides. Each decision seeds its generator from the view, so that with a fixed number
of deals (`time_budget=None`) it is reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import cast

from scorekeeper.games.base import Action
from scorekeeper.games.paired import clearly_best
from scorekeeper.games.racko.hard import NEG, HardBot, Plan, _log_table, _unseen
from scorekeeper.games.racko.play import DISCARD, PILE, STOCK, RackoView
from scorekeeper.games.racko.playout import (
    PACE,
    Racks,
    bands,
    baseline_targets,
    counts_below,
    kept_path,
    race,
    sample,
    seeded,
)
from scorekeeper.games.racko.rules import SLOTS

CLOSE = 0.3
"""Placements within this much (log chance) of the heuristic's best are searched."""
MAX_CHOICES = 4
DEALS = 160
MIN_DEALS = 8
TIME_BUDGET = 0.08
"""Seconds a searched decision may take; on an idle machine the 160 deals take some 15 ms."""
SURE = 2.0
"""How many standard errors a choice's paired gain must stand above the heuristic's choice."""

Start = tuple[list[int], int, list[int]]
"""The seat's rack after a move, the card the move puts on the pile, and the seat's bands for that rack."""
Option = Callable[[list[int]], tuple[Start, list[int], list[int]]]
"""A choice to play out: from a sampled stock, its start, the discard pile after it and the stock after it."""


class SearchBot(HardBot):
    """The heuristic, with its close placements and its draws judged by play-outs (see the module docstring).

    `opponent`: how the other racks play on in the play-outs: "baseline" (the slot-targeting player's bands)
    or "plan" (bands from the heuristic's own plan for the sampled rack, a stand-in for a planning player).
    `draws`: whether draws are searched too (False: placements only, as the first version)."""

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
        draws: bool = True,
    ) -> None:
        super().__init__(horizon=horizon)
        self.time_budget = time_budget
        self.deals = deals
        self.clock = clock
        self.close, self.sure, self.pace, self.opponent = close, sure, pace, opponent
        self.draws = draws

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        default = super().choose(view, legal_actions)
        if not _covered(view):
            return default
        if view.phase == "draw":
            if self.draws and PILE in legal_actions and view.discard_top is not None:
                return self._search_draw(view, default)
            return default
        if view.phase != "place":
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

    def _starts(self, view: RackoView, unseen: list[int]) -> Callable[[int, int | None], Start]:
        """start(card, slot): the seat's start after putting `card` into `slot` (None: discarding it)."""
        deck = view.deck_size
        below, table = counts_below(unseen, deck), _log_table(len(unseen), self.horizon, deck)
        known: dict[tuple[int, int | None], Start] = {}

        def start(card: int, slot: int | None) -> Start:
            if (card, slot) not in known:
                rack = cast(list[int], list(view.rack))  # past the deal: every slot holds a card (`_covered`)
                if slot is None:
                    out = card
                else:
                    out, rack[slot] = rack[slot], card
                known[card, slot] = (rack, out, bands(rack, kept_path(rack, below, table, deck), deck))
            return known[card, slot]

        return start

    def _search(self, view: RackoView, choices: list[Action], default: int) -> Action:
        unseen = _unseen(view)
        start = self._starts(view, unseen)
        card = view.drawn
        assert card is not None
        pile = list(view.pile)

        def placed(slot: int | None) -> Option:
            begin = start(card, slot)
            return lambda stock: (begin, [*pile, begin[1]], stock)

        options = [placed(None if c == DISCARD else cast(int, c)) for c in choices]
        return choices[self._play(view, unseen, options, default)]

    def _search_draw(self, view: RackoView, default: Action) -> Action:
        """The top discard at its best slot against a stock card at its best place, on the same deals."""
        unseen = _unseen(view)
        plan = Plan(view.rack, unseen, view.deck_size, self.horizon)
        top = view.discard_top
        assert top is not None
        # the heuristic's placements: ties to the lowest slot, and to discarding a stock card
        slot = max(range(SLOTS), key=lambda s: (round(plan.with_card(top, s), 9), -s))
        home: dict[int, int | None] = {}
        for card in unseen:
            best, home[card] = plan.value, None
            for s in range(SLOTS):
                value = plan.with_card(card, s)
                if value > best + 1e-9:
                    best, home[card] = value, s
        start = self._starts(view, unseen)
        pile, under = list(view.pile), list(view.pile[:-1])
        taken = start(top, slot)

        def from_pile(stock: list[int]) -> tuple[Start, list[int], list[int]]:
            return taken, [*under, taken[1]], stock

        def from_stock(stock: list[int]) -> tuple[Start, list[int], list[int]]:
            begin = start(stock[-1], home[stock[-1]])
            return begin, [*pile, begin[1]], stock[:-1]

        choices: list[Action] = [PILE, STOCK]
        return choices[self._play(view, unseen, [from_pile, from_stock], choices.index(default))]

    def _play(self, view: RackoView, unseen: list[int], options: list[Option], default: int) -> int:
        """The index of the option that clearly wins the race most often over sampled deals, else `default`."""
        rng = seeded(view)
        deck, seat, players = view.deck_size, view.seat, view.options.players
        below, table = counts_below(unseen, deck), _log_table(len(unseen), self.horizon, deck)
        base = baseline_targets(deck)
        order = [(seat + k) % players for k in range(1, players)]
        order = [s for s in order if s not in view.players_out]
        values: list[list[float]] = [[] for _ in options]
        deadline = None if self.time_budget is None else self.clock() + self.time_budget
        for deal in range(self.deals):
            if deal >= MIN_DEALS and deadline is not None and self.clock() > deadline:
                break
            others, stock = sample(view, unseen, order, base, rng, self.pace)
            if self.opponent == "plan":
                theirs = [bands(r, kept_path(r, below, table, deck), deck) for r in others]
            else:
                theirs = [base] * len(others)
            for i, option in enumerate(options):
                (rack, _, target), pile, rest = option(stock)
                racks = [list(rack)] + [list(r) for r in others]
                game = Racks(racks, [target, *theirs], pile, list(rest), rng, view.options.reshuffle)
                values[i].append(race(game, len(racks)))
        return clearly_best(values, default, self.sure)


def _covered(view: RackoView) -> bool:
    options = view.options
    return (
        options.variant == "standard"
        and not options.two_player_rule
        and all(c is not None for c in view.rack)
        and len(view.rack) == SLOTS
    )
