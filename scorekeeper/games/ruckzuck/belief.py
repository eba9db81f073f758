"""What the hard bot believes about the cards it cannot see, from its seat's view alone.

The unseen cards are the 51 less the board and its own hand. The others' hands are drawn from them by the
hand sizes, the rest is the stock in random order. One inference makes a deal far more like the table's:
a player who ended a turn greedily (placing everything that fit, as the baseline does) kept only cards that
fitted nowhere then: numbers whose field was empty and touched no card, and no joker while any field was
free. The view's history replays the board as it stood at the end of each player's last turn; a turn that
was a draw leaves one card (the drawn one) free of that rule. When the inference cannot hold (the player
does not play greedily), the missing cards are filled from the other unseen ones.
"""

from __future__ import annotations

import random

from scorekeeper.games.ruckzuck.play import DRAW, END, PLACE, START_JOKER_FIELD, SWAP, RuckZuckView
from scorekeeper.games.ruckzuck.rollout import JK, NB
from scorekeeper.games.ruckzuck.rules import JOKER


def _code(card: object) -> int:
    return JK if card == JOKER else int(card)  # type: ignore[call-overload]


class Belief:
    """Sample the hidden hands and the stock for one decision (see the module docstring)."""

    def __init__(self, view: RuckZuckView, pos: list[int], cells: list[int], mine: list[int]) -> None:
        self.seat = view.seat
        self.sizes = view.hand_sizes
        seen = {c for c in cells if c and c != JK} | {c for c in mine if c != JK}
        jokers_seen = sum(1 for c in cells if c == JK) + mine.count(JK)
        self.unseen = [n for n in range(1, 50) if n not in seen] + [JK] * (2 - jokers_seen)
        self.rules = self._last_turns(view, pos)

    @staticmethod
    def _last_turns(view: RuckZuckView, pos: list[int]) -> dict[int, tuple[frozenset[int], int]]:
        """Per other seat that has ended a turn: (numbers that fitted nowhere then, free cards: 1 after a
        draw, else 0)."""
        side_cells = [0] * len(view.board)
        start = view.start_card
        side_cells[pos[START_JOKER_FIELD if start == JOKER else int(start)]] = _code(start)
        snapshots: dict[int, tuple[list[int], int]] = {}
        for seat, action in view.history:
            if action in (DRAW, END):
                snapshots[seat] = (list(side_cells), int(action == DRAW))
            elif action[0] == SWAP:
                side_cells[pos[action[1]]] = action[1]
            elif action[0] == PLACE:
                _, card, name = action
                # the view's board tells where a joker went: its label; numbers lie on their own field
                side_cells[_label_position(view, name, pos)] = _code(card)
        rules: dict[int, tuple[frozenset[int], int]] = {}
        for seat, (cells, free) in snapshots.items():
            if seat == view.seat:
                continue
            stuck = frozenset(
                n for n in range(1, 50) if not cells[pos[n]] and not any(cells[q] for q in NB[pos[n]])
            )
            rules[seat] = (stuck, free)
        return rules

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """(every seat's hand, its own left empty; the stock, top card last)."""
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in self.sizes]
        taken: set[int] = set()  # indexes into pool
        # the most constrained seats first: their cards are the scarce ones
        order = sorted(
            (s for s in range(len(self.sizes)) if s != self.seat),
            key=lambda s: len(self.rules[s][0]) if s in self.rules else 99,
        )
        for seat in order:
            need = self.sizes[seat]
            if seat in self.rules:
                stuck, free = self.rules[seat]
                fits = need - free
                for i, card in enumerate(pool):
                    if len(hands[seat]) >= fits:
                        break
                    if i not in taken and card in stuck:
                        hands[seat].append(card)
                        taken.add(i)
            for i, card in enumerate(pool):  # the free card, or what the inference could not supply
                if len(hands[seat]) >= need:
                    break
                if i not in taken:
                    hands[seat].append(card)
                    taken.add(i)
        stock = [card for i, card in enumerate(pool) if i not in taken]
        return hands, stock


def _label_position(view: RuckZuckView, name: object, pos: list[int]) -> int:
    if isinstance(name, int):
        return pos[name]
    import scorekeeper.games.ruckzuck.board as board

    return board.position_of_label(name, view.options.side)
