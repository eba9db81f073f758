"""The heuristic computer players of Ruck Zuck (`random`, `baseline`, `medium` and `HoldBot`, which `hard`
builds on); `bots.py` lists them by strength and says how each plays."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import scorekeeper.games.ruckzuck.board as board
from scorekeeper.games.ruckzuck.play import DRAW, END, PLACE, SWAP, RuckZuckView
from scorekeeper.games.ruckzuck.rules import JOKER, JOKER_PENALTY

Step = tuple[str, Any]
"""A planned step: ("num", n), ("swap", n) or ("joker", position)."""


class RandomBot:
    """Any legal action, uniformly at random."""

    def __init__(self, seed: int | None = None) -> None:
        # Unseeded: drawn from the global generator, so a simulator that seeds it repeats its runs.
        self.rng = random.Random(random.getrandbits(64) if seed is None else seed)

    def choose(self, view: RuckZuckView, legal_actions: list[Any]) -> Any:
        return self.rng.choice(legal_actions)


class BaselineBot:
    """Greedy: place everything placeable right away (swap, numbers ascending, jokers), else draw."""

    def choose(self, view: RuckZuckView, legal_actions: list[Any]) -> Any:
        swaps = [a for a in legal_actions if isinstance(a, list) and a[0] == SWAP]
        numbers = [a for a in legal_actions if isinstance(a, list) and a[0] == PLACE and a[1] != JOKER]
        jokers = [a for a in legal_actions if isinstance(a, list) and a[0] == PLACE and a[1] == JOKER]
        for group in (swaps, numbers):
            if group:
                return min(group, key=lambda a: a[1])
        if jokers:
            side = view.options.side
            return min(jokers, key=lambda a: board.position_of_label(a[2], side))
        return END if END in legal_actions else DRAW


# --- board reasoning for the hard bot ------------------------------------------------------------------


@dataclass
class _Board:
    """The board as the bot reasons about it: which positions hold a card, where each number lies."""

    layout: tuple[board.Field, ...]
    cards: list[Any]
    side: str

    @classmethod
    def of(cls, view: RuckZuckView) -> _Board:
        return cls(view.layout, list(view.board), view.options.side)

    def pos(self, number: int) -> int:
        return board.position_of(number, self.side)

    def touches(self, position: int, occupied: set[int]) -> bool:
        return any(q in occupied for q in board.NEIGHBOURS[position])

    def occupied(self) -> set[int]:
        return {p for p, c in enumerate(self.cards) if c is not None}

    def empty_fields(self) -> Iterable[int]:
        return (p for p, f in enumerate(self.layout) if f != board.STOCK_FIELD and self.cards[p] is None)


def _closure(b: _Board, occupied: set[int], numbers: set[int]) -> list[int]:
    """The numbers placeable one after another (chains), in a placing order; `occupied` is extended."""
    order: list[int] = []
    pending = set(numbers)
    progress = True
    while progress and pending:
        progress = False
        for n in sorted(pending, reverse=True):
            p = b.pos(n)
            if b.touches(p, occupied):
                occupied.add(p)
                order.append(n)
                pending.discard(n)
                progress = True
    return order


def _distance(p: int, q: int) -> int:
    (r1, c1), (r2, c2) = divmod(p, board.COLUMNS), divmod(q, board.COLUMNS)
    return max(abs(r1 - r2), abs(c1 - c2))


_BRIDGE_CANDIDATES = 6
"""How many fields the plan tries for each searched joker (enough: a bridge must touch a stuck card)."""


def _best_dump(
    b: _Board, occupied: set[int], numbers: set[int], jokers: int, depth: int = 2
) -> tuple[int, list[Step], set[int]]:
    """The plan placing the most penalty this turn: number chains, jokers as bridges to more numbers.
    Returns (penalty placed, steps, positions occupied afterwards). The first `depth` jokers are searched
    over every useful field, later ones placed greedily (keeps a decision fast with several jokers)."""
    occupied = set(occupied)
    order = _closure(b, occupied, numbers)
    steps: list[Step] = [("num", n) for n in order]
    rest = numbers - set(order)
    value = sum(order)
    if not jokers:
        return value, steps, occupied
    targets = [b.pos(n) for n in rest]
    reach = min(jokers, depth) if depth else 1
    candidates = [
        f
        for f in b.empty_fields()
        if f not in occupied
        and b.touches(f, occupied)
        and (not targets or min(_distance(f, t) for t in targets) <= reach)
    ]
    if not candidates:  # no bridge that matters: the joker still goes down somewhere
        candidates = [f for f in b.empty_fields() if f not in occupied and b.touches(f, occupied)][:1]
    if not candidates:
        return value, steps, occupied
    # the most promising fields first: those touching most of the cards still to place
    target_set = set(targets)
    candidates.sort(key=lambda f: -sum(1 for q in board.NEIGHBOURS[f] if q in target_set))
    candidates = candidates[: _BRIDGE_CANDIDATES if depth else 1]
    best: tuple[int, list[Step], set[int]] | None = None
    for f in candidates:
        sub = _best_dump(b, occupied | {f}, rest, jokers - 1, max(depth - 1, 0))
        if best is None or sub[0] > best[0]:
            best = (sub[0], [("joker", f), *sub[1]], sub[2])
        if not rest:
            break  # nothing left to bridge to: any field will do
    assert best is not None
    return value + JOKER_PENALTY + best[0], steps + best[1], best[2]


@dataclass(frozen=True)
class Temper:
    """How a bot balances blocking against its own penalty."""

    open_allowance: int
    """A card is placed only if it makes at most this many fields of others' possible cards reachable;
    otherwise the bot draws instead (99: never draw while a card can be placed)."""
    dump_when_opponent_has: int
    """Place all it can once an opponent holds this few cards (the round may end any moment)."""


HARD_TEMPER: dict[int, Temper] = {
    # tuned against three (four, five) greedy baselines: with more opponents somebody goes out sooner,
    # so blocking pays less and a big hand costs more
    2: Temper(0, 1),
    3: Temper(0, 1),
    4: Temper(0, 1),
    5: Temper(0, 2),
    6: Temper(99, 2),
}
MEDIUM_TEMPER: dict[int, Temper] = {n: Temper(99, 1 if n <= 4 else 2) for n in range(2, 7)}


class HoldBot:
    """Goes out when it can; otherwise places one card per turn where that opens nothing for others, else
    draws; dumps penalty when the round may end soon (see the module docstring). `hard` searches on top of it
    (`hard.SearchBot`) and calls `goes_out` and `decide`."""

    def __init__(self, *, temper: dict[int, Temper] | Temper | None = None, danger_stock: int = 3) -> None:
        self.temper = HARD_TEMPER if temper is None else temper
        self.danger_stock = danger_stock

    def _temper(self, players: int) -> Temper:
        return self.temper if isinstance(self.temper, Temper) else self.temper[players]

    def choose(self, view: RuckZuckView, legal_actions: list[Any]) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        action = self.decide(view, legal_actions)
        # a safety net: a plan out of step with the view must never cost the table an illegal move
        return action if action in legal_actions else BaselineBot().choose(view, legal_actions)

    def _plan(self, view: RuckZuckView) -> tuple[list[Step], set[int], int, bool]:
        """The most penalty it could place this turn: (steps, swaps, jokers in hand, whether it goes out)."""
        b = _Board.of(view)
        hand = list(view.hand)
        numbers = {c for c in hand if isinstance(c, int)}  # every card but the jokers
        jokers = hand.count(JOKER)
        occupied = b.occupied()
        swaps = {n for n in numbers if b.cards[b.pos(n)] == JOKER}
        free = numbers - swaps
        # a swap places the number at once and hands back a joker to place: as good as a joker in hand
        _, steps, _ = _best_dump(b, occupied, free, jokers + len(swaps))
        return steps, swaps, jokers, len(steps) == len(free) + jokers + len(swaps)

    def goes_out(self, view: RuckZuckView) -> bool:
        """Whether its whole hand can be placed this turn."""
        return self._plan(view)[3]

    def decide(self, view: RuckZuckView, legal_actions: list[Any], *, dump: bool = False) -> Any:
        """The heuristic's action; `dump` places all it can this turn whatever the temper says."""
        if view.joker_pending:
            return self._joker_field(view, _Board.of(view), legal_actions)
        steps, swaps, jokers, goes_out = self._plan(view)
        temper = self._temper(view.options.players)
        if dump or goes_out or self.dumps(view):
            if steps:
                return self._emit(view, steps[0], swaps, jokers)
            return END if END in legal_actions else DRAW
        if view.placed_this_turn:
            return END
        b = _Board.of(view)
        numbers = {c for c in view.hand if isinstance(c, int)}
        return self._place_or_hold(view, b, b.occupied(), numbers, legal_actions, temper.open_allowance)

    def dumps(self, view: RuckZuckView) -> bool:
        """Whether it places all it can now because the round may end any moment (the last draw, little
        stock left, or an opponent down to a few cards)."""
        temper = self._temper(view.options.players)
        opponent_near_out = any(
            size <= temper.dump_when_opponent_has
            for seat, size in enumerate(view.hand_sizes)
            if seat != view.seat
        )
        return view.last_draw or view.stock_size <= self.danger_stock or opponent_near_out

    def _emit(self, view: RuckZuckView, step: Step, swaps: set[int], jokers: int) -> Any:
        kind, what = step
        if kind == "num":
            return [PLACE, what, what]
        if not jokers and swaps:
            return [SWAP, max(swaps)]  # the joker comes back and is placed next (see _joker_field)
        return [PLACE, JOKER, board.label(what, view.options.side)]

    def _joker_field(self, view: RuckZuckView, b: _Board, legal: list[Any]) -> Any:
        """Where a joker taken back by a swap goes: the field from which most penalty follows this turn."""
        hand = list(view.hand)
        numbers = {c for c in hand if isinstance(c, int)}  # every card but the jokers
        swaps = {n for n in numbers if b.cards[b.pos(n)] == JOKER}
        spare = hand.count(JOKER) - 1 + len(swaps)
        occupied = b.occupied()
        side = view.options.side

        def gain(action: list[Any]) -> tuple[int, bool]:
            p = board.position_of_label(action[2], side)
            value = _best_dump(b, occupied | {p}, numbers - swaps, spare, depth=0)[0]
            return (value, b.layout[p] == board.JOKER_FIELD)  # a joker field is a dead end for others

        return max(legal, key=gain)

    def _place_or_hold(
        self,
        view: RuckZuckView,
        b: _Board,
        occupied: set[int],
        numbers: set[int],
        legal: list[Any],
        allowance: int,
    ) -> Any:
        """One number card that opens no field for others' cards (highest first), else draw. Swaps and
        jokers are kept for going out."""
        placeable = [a for a in legal if isinstance(a, list) and a[0] == PLACE and a[1] != JOKER]
        if not placeable:
            return DRAW
        on_board = {c for c in view.board if c is not None and c != JOKER}
        unknown = set(range(1, 50)) - on_board - numbers

        def opened(action: list[Any]) -> int:
            """How many fields of cards that others may hold this card would make reachable."""
            p = b.pos(action[1])
            return sum(
                1
                for q in board.NEIGHBOURS[p]
                if b.cards[q] is None and b.layout[q] in unknown and not b.touches(q, occupied)
            )

        best = min(placeable, key=lambda a: (opened(a), -a[1]))
        if opened(best) <= allowance:
            return best
        return DRAW


def medium() -> HoldBot:
    """The pacer: never draws while it can place (see the module docstring)."""
    return HoldBot(temper=MEDIUM_TEMPER)
