"""Live feedback for a rack that is still being entered (RULES.md 1.4), for the score keeper's number pad.

A partial rack is a list of 10 slots, index 0 = slot 5 (front) ... index 9 = slot 50 (back), where `None` is a
slot not entered yet. Once every slot is filled, the figures equal the final ones of rules.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.rules import SLOT_LABELS, SLOTS

Slot = int | None


@dataclass(frozen=True)
class RackProgress:
    """What a partly entered rack shows so far.

    - `ascending_from_front`: cards counted from slot 5 upward while each is higher than the one before. The count
      only grows over filled slots: it stops at the first drop or at the first empty slot (an empty slot 5 gives
      0), because a card not entered yet can neither extend nor break the order.
    - `runs`: the direct runs found so far, as ranges of slot indexes (0 = slot 5), front to back: two or more
      filled, adjacent slots whose numbers rise by exactly 1. An empty slot ends a run.
    - `filled`: how many slots hold a card.
    """

    ascending_from_front: int
    runs: tuple[range, ...]
    filled: int

    @property
    def complete(self) -> bool:
        """All 10 cards are in: the figures are final."""
        return self.filled == SLOTS

    @property
    def longest_run(self) -> int:
        """The longest direct run so far (1 when there is none of 2 or more, as rules.longest_run says)."""
        return max((len(run) for run in self.runs), default=1)

    @property
    def ascending_slots(self) -> range:
        """The slot indexes counted as ascending (from the front)."""
        return range(self.ascending_from_front)

    @property
    def run_slots(self) -> frozenset[int]:
        """Every slot index that belongs to a direct run (for highlighting)."""
        return frozenset(i for run in self.runs for i in run)


def _check_slots(slots: Sequence[Slot]) -> None:
    if not isinstance(slots, list | tuple) or len(slots) != SLOTS:
        raise RuleError("A rack has exactly 10 slots, slot 5 to slot 50.")
    for index, card in enumerate(slots):
        if card is not None and (not isinstance(card, int) or isinstance(card, bool) or card < 1):
            raise RuleError(f"Slot {SLOT_LABELS[index]} holds no card number.")


def rack_progress(slots: Sequence[Slot]) -> RackProgress:
    """The ascending count from the front and the direct runs of a partly entered rack (None = empty slot).

    Rule (RULES.md 1.4, applied to what is entered so far): the ascending count starts at slot 5 and grows over
    filled slots only, while each card is higher than the one before; the first drop or the first empty slot
    stops it. A direct run is two or more filled adjacent slots rising by exactly 1; gaps split runs.
    """
    _check_slots(slots)
    ascending, previous = 0, None
    while ascending < SLOTS and (card := slots[ascending]) is not None:
        if previous is not None and card <= previous:
            break
        ascending, previous = ascending + 1, card
    runs: list[range] = []
    start = 0
    for index in range(1, SLOTS + 1):
        previous, card = slots[index - 1], slots[index] if index < SLOTS else None
        joined = previous is not None and card is not None and card == previous + 1
        if not joined:
            if index - start >= 2:
                runs.append(range(start, index))
            start = index
    filled = sum(card is not None for card in slots)
    return RackProgress(ascending_from_front=ascending, runs=tuple(runs), filled=filled)
