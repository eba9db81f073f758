"""A fast model of a Ruck Zuck round for the hard bot's look-ahead (RULES.md 2.2 and 2.3).

Plain lists instead of the engine: `cells[p]` is 0 for an empty field, the number lying there, or `JK` for a
joker; a hand is a list of numbers with `JK` for a joker. It plays the rules the engine plays (chains, joker
fields take only jokers, joker swaps hand the joker back to be placed at once, the player who draws the last
card may still place and then the round ends, placing the last card ends it at once), with two policies:

- `greedy_turn`: the baseline bot's play, step for step (swap first, numbers ascending, jokers on the first
  legal field in board order; draw when nothing fits);
- `hold_turn`: the hard bot's own heuristic in short: go out when the whole hand fits, place everything when
  the round may end soon, else one card that makes no field reachable for others' cards, else draw.

It never sees more than a sampled deal it is given: the bot fills the hidden hands and the stock itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import scorekeeper.games.ruckzuck.board as board

JK = 50
"""A joker in the model (its penalty is 100)."""
NB = board.NEIGHBOURS
TARGETS = tuple(p for p, f in enumerate(board.layout("red")) if f != board.STOCK_FIELD)
"""Fields a joker may lie on (both sides put J and S on the same positions)."""


def field_numbers(side: str) -> tuple[list[int], list[int]]:
    """(position of each number 0..49 (index 0 unused), number printed on each position or 0)."""
    fields = board.layout(side)
    pos = [0] * 50
    printed = [0] * board.FIELDS
    for p, f in enumerate(fields):
        if isinstance(f, int):
            pos[f] = p
            printed[p] = f
    return pos, printed


def adjacency(cells: list[int]) -> list[int]:
    """Per field, how many touching fields hold a card."""
    return [sum(1 for q in NB[p] if cells[q]) for p in range(len(cells))]


def hand_penalty(hand: list[int]) -> int:
    return sum(100 if c == JK else c for c in hand)


class Round:
    """One sampled round from the seat's turn on (see the module docstring)."""

    __slots__ = ("adj", "cells", "hands", "last_draw", "over", "pos", "printed", "stock")

    def __init__(
        self,
        cells: list[int],
        hands: list[list[int]],
        stock: list[int],
        pos: list[int],
        printed: list[int],
        adj: list[int] | None = None,
    ) -> None:
        self.cells = cells
        self.adj = adjacency(cells) if adj is None else adj
        """Per field, how many touching fields hold a card (kept up to date: a field fits iff > 0)."""
        self.hands = hands
        self.stock = stock  # the top card is the last one
        self.pos = pos
        self.printed = printed
        self.last_draw = False
        self.over = False

    def touches(self, p: int) -> bool:
        return self.adj[p] > 0

    def first_target(self) -> int:
        """The first empty field in board order a joker may go on, or -1."""
        cells = self.cells
        for p in TARGETS:
            if not cells[p] and self.touches(p):
                return p
        return -1

    def place(self, seat: int, card: int, p: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.cells[p] = card
        adj = self.adj
        for q in NB[p]:
            adj[q] += 1
        if not hand:
            self.over = True

    def swap(self, seat: int, n: int) -> None:
        """Card n replaces the joker on its field; the joker goes down again at once where a greedy player
        puts it (the first legal field), or stays in hand when no field is free."""
        hand = self.hands[seat]
        hand.remove(n)
        self.cells[self.pos[n]] = n
        hand.append(JK)
        t = self.first_target()
        if t >= 0:
            self.place(seat, JK, t)

    def draw(self, seat: int) -> None:
        self.hands[seat].append(self.stock.pop())
        if not self.stock:
            self.last_draw = True

    def greedy_step(self, seat: int) -> bool:
        """One placement as the baseline bot makes it; False when nothing fits."""
        hand, cells, pos = self.hands[seat], self.cells, self.pos
        best = 0
        for n in hand:
            if n != JK and cells[pos[n]] == JK and (not best or n < best):
                best = n
        if best:
            self.swap(seat, best)
            return True
        for n in sorted(hand):
            if n != JK and not cells[pos[n]] and self.touches(pos[n]):
                self.place(seat, n, pos[n])
                return True
        if JK in hand:
            t = self.first_target()
            if t >= 0:
                self.place(seat, JK, t)
                return True
        return False

    def dump(self, seat: int) -> int:
        """Place all that fits, greedily; how many placements."""
        placed = 0
        while not self.over and self.greedy_step(seat):
            placed += 1
        return placed

    def greedy_turn(self, seat: int) -> None:
        if self.dump(seat) == 0 and not self.last_draw:
            self.draw(seat)
            if self.last_draw:
                self.dump(seat)
        if self.last_draw:
            self.over = True

    def plan(self, seat: int) -> tuple[list[tuple[int, int]], bool]:
        """The most it can place this turn, as (card, position) steps (a swap is (n, -1): the joker comes
        back to hand), and whether that is the whole hand: number chains first, then each joker as a bridge
        next to a number still waiting (the first such field), else anywhere it fits."""
        cells, pos, adj = list(self.cells), self.pos, list(self.adj)
        numbers = sorted((n for n in self.hands[seat] if n != JK), reverse=True)
        jokers = len(self.hands[seat]) - len(numbers)
        steps: list[tuple[int, int]] = []

        def touches(p: int) -> bool:
            return adj[p] > 0

        def occupy(p: int, card: int) -> None:
            cells[p] = card
            for q in NB[p]:
                adj[q] += 1

        while True:
            progress = True
            while progress and numbers:
                progress = False
                for n in list(numbers):
                    p = pos[n]
                    if cells[p] == JK:
                        steps.append((n, -1))
                        jokers += 1
                        cells[p] = n
                    elif touches(p):
                        steps.append((n, p))
                        occupy(p, n)
                    else:
                        continue
                    numbers.remove(n)
                    progress = True
            if not jokers:
                return steps, not numbers
            bridge = next(
                (q for n in numbers for q in NB[pos[n]] if not cells[q] and q in _TARGET_SET and touches(q)),
                -1,
            )
            if bridge < 0:
                bridge = next((q for q in TARGETS if not cells[q] and touches(q)), -1)
                if bridge < 0:
                    return steps, False
            occupy(bridge, JK)
            steps.append((JK, bridge))
            jokers -= 1

    def follow(self, seat: int, steps: list[tuple[int, int]]) -> None:
        """Carry out a plan's steps (the round ends when the hand is empty)."""
        hand = self.hands[seat]
        for card, p in steps:
            if p < 0:
                hand.remove(card)
                self.cells[self.pos[card]] = card
                hand.append(JK)
            else:
                self.place(seat, card, p)

    def opened(self, seat: int, n: int) -> int:
        """How many empty fields of numbers the seat does not hold placing n would make reachable."""
        hand, cells, printed = self.hands[seat], self.cells, self.printed
        count = 0
        for q in NB[self.pos[n]]:
            m = printed[q]
            if m and not cells[q] and m not in hand and not self.touches(q):
                count += 1
        return count

    def hold_turn(self, seat: int) -> None:
        steps, out = self.plan(seat)
        if out or self.danger(seat):
            if steps:
                self.follow(seat, steps)
            else:
                self.draw(seat)
                if self.last_draw:
                    self.follow(seat, self.plan(seat)[0])
            if self.last_draw:
                self.over = True
            return
        self.hold_or_draw(seat)

    def hold_or_draw(self, seat: int) -> None:
        """One number card that opens nothing for others (highest first), else draw."""
        cells, pos = self.cells, self.pos
        for n in sorted(self.hands[seat], reverse=True):
            if n != JK and not cells[pos[n]] and self.touches(pos[n]) and not self.opened(seat, n):
                self.place(seat, n, pos[n])
                return
        self.draw(seat)
        if self.last_draw:
            self.follow(seat, self.plan(seat)[0])
            self.over = True

    def danger(self, seat: int) -> bool:
        """The round may end any moment: little stock left, or an opponent down to one card."""
        return len(self.stock) <= 3 or any(len(h) <= 1 for s, h in enumerate(self.hands) if s != seat)

    def play_out(self, seat: int, first: int, policies: Sequence[Callable[[Round, int], None]]) -> None:
        """Play turns from seat `first` on until the round is over."""
        players = len(self.hands)
        s = first
        while not self.over:
            policies[s](self, s)
            s = (s + 1) % players


_TARGET_SET = frozenset(TARGETS)
