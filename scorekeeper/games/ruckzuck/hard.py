"""The ``hard`` Ruck Zuck bot: the holding heuristic (`bots.HoldBot`) with a determinized look-ahead on top.

At the start of each turn in which it cannot go out, it lists its choices: draw, place one card (each card
that fits) and end, or place everything that fits. For each sampled deal (the cards it cannot see, i.e. the
51 less the board and its hand, dealt to the others by their hand sizes, the rest shuffled as the stock) it
plays every choice and then the round out on :mod:`scorekeeper.games.ruckzuck.rollout` (the others play
like the greedy baseline, it plays its heuristic in short) and scores a won round 1 (the lowest penalty,
shared or not) plus a small share of its lead over the best other hand. The choice with the best mean
wins; the same deals judge every choice, so the comparison is paired. Going out, the rest of a turn and
the last draw stay with the heuristic, which plans the order of its cards and bridges with jokers.

Each decision seeds its generator from what the seat sees, so it is reproducible. A fixed number of deals
bounds its work; a time budget makes it anytime: when the clock runs out it decides on the deals judged so
far (at least `MIN_DEALS`), which on a machine that is not overloaded are all of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from scorekeeper.games.paired import clearly_best
from scorekeeper.games.ruckzuck.belief import Belief
from scorekeeper.games.ruckzuck.heuristics import BaselineBot, HoldBot
from scorekeeper.games.ruckzuck.play import DRAW, END, PLACE, RuckZuckView
from scorekeeper.games.ruckzuck.rollout import JK, Round, adjacency, field_numbers
from scorekeeper.games.ruckzuck.rules import JOKER

DEALS = 48
"""Sampled deals per decision when the clock does not stop it earlier."""
MIN_DEALS = 4
TIME_BUDGET = 0.1
"""Seconds per decision: about 48 deals take 30 ms on an idle machine, so the clock stops the search only
on a loaded one, keeping p95 within 250 ms there too."""
SURE = 2.0
"""How many standard errors a choice's paired gain must stand above zero to overrule the heuristic."""
MARGIN_WEIGHT = 0.002
"""What a point of lead over the best other hand is worth beside a won round (1): it breaks ties."""

Choice = tuple[str, int]
"""("draw", 0), ("one", n) or ("all", 0)."""


def _seeded(view: RuckZuckView) -> random.Random:
    """A generator seeded from what the seat sees, so that a decision is reproducible."""
    return random.Random(
        repr((view.seat, view.turn, view.hand, view.board, view.hand_sizes, view.stock_size))
    )


class SearchBot:
    """Draw, place one card or place all: judged by playing sampled deals out (see the module docstring)."""

    def __init__(
        self,
        time_budget: float | None = TIME_BUDGET,
        deals: int = DEALS,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.time_budget = time_budget
        self.deals = deals
        self.clock = clock
        self.hold = HoldBot()
        self._turn: tuple[int, int, str] | None = None
        """(seat, turn, "one" or "all") once this turn's choice is made."""

    def choose(self, view: RuckZuckView, legal_actions: list[Any]) -> Any:
        action = self._choose(view, legal_actions)
        # a safety net: a plan out of step with the view must never cost the table an illegal move
        return action if action in legal_actions else BaselineBot().choose(view, legal_actions)

    def _choose(self, view: RuckZuckView, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        key = (view.seat, view.turn)
        if view.placed_this_turn or view.joker_pending or view.last_draw:
            mode = self._turn[2] if self._turn and self._turn[:2] == key else "hold"
            if mode == "one" and view.placed_this_turn and not view.joker_pending:
                return END
            return self.hold.decide(view, legal, dump=mode == "all")
        if self.hold.goes_out(view):
            return self.hold.decide(view, legal)
        choices = self._choices(view, legal)
        default = self._default(view, legal, choices)
        kind, n = default if len(choices) == 1 else self._search(view, choices, default)
        self._turn = (view.seat, view.turn, kind)
        if kind == "draw":
            return DRAW
        if kind == "one":
            return [PLACE, n, n]
        return self.hold.decide(view, legal, dump=True)

    def _choices(self, view: RuckZuckView, legal: list[Any]) -> list[Choice]:
        numbers = [a[1] for a in legal if isinstance(a, list) and a[0] == PLACE and a[1] != JOKER]
        choices: list[Choice] = [("draw", 0)] if DRAW in legal else []
        choices += [("one", n) for n in numbers]
        if len(legal) - (DRAW in legal) > len(numbers) or len(numbers) > 1:
            choices.append(("all", 0))  # more than one card fits, or a joker or swap could go too
        return choices

    def _default(self, view: RuckZuckView, legal: list[Any], choices: list[Choice]) -> Choice:
        """The heuristic's choice, kept unless the search finds a clearly better one."""
        if self.hold.dumps(view) and ("all", 0) in choices:
            return ("all", 0)
        action = self.hold.decide(view, legal)
        if isinstance(action, list) and action[0] == PLACE and ("one", action[1]) in choices:
            return ("one", action[1])
        return ("draw", 0) if ("draw", 0) in choices else choices[0]

    def _search(self, view: RuckZuckView, choices: list[Choice], default: Choice) -> Choice:
        rng = _seeded(view)
        pos, printed = field_numbers(view.options.side)
        cells = [0 if c is None else (JK if c == JOKER else int(c)) for c in view.board]
        mine = [JK if c == JOKER else int(c) for c in view.hand]
        belief = Belief(view, pos, cells, mine)
        adj = adjacency(cells)
        values: list[list[float]] = [[] for _ in choices]
        deadline = None if self.time_budget is None else self.clock() + self.time_budget
        players = view.options.players
        policies = [Round.greedy_turn] * players
        policies[view.seat] = Round.hold_turn
        for deal in range(self.deals):
            if deal >= MIN_DEALS and deadline is not None and self.clock() > deadline:
                break
            hands, stock = belief.sample(rng)
            hands[view.seat] = mine
            for i, choice in enumerate(choices):
                game = Round(list(cells), [list(h) for h in hands], list(stock), pos, printed, list(adj))
                self._first(game, view.seat, choice)
                game.play_out(view.seat, (view.seat + 1) % players, policies)
                values[i].append(_value(game, view.seat))
        return choices[clearly_best(values, choices.index(default), SURE)]

    @staticmethod
    def _first(game: Round, seat: int, choice: Choice) -> None:
        kind, n = choice
        if kind == "draw":
            game.draw(seat)
            if game.last_draw:
                game.follow(seat, game.plan(seat)[0])
                game.over = True
        elif kind == "one":
            game.place(seat, n, game.pos[n])
        else:
            game.follow(seat, game.plan(seat)[0])


def _value(game: Round, seat: int) -> float:
    scores = [sum(100 if c == JK else c for c in h) for h in game.hands]
    mine = scores[seat]
    best_other = min(s for i, s in enumerate(scores) if i != seat)
    return (mine <= best_other) + MARGIN_WEIGHT * max(-300, min(300, best_other - mine))
