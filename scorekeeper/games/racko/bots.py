"""Racko computer players. Each sees only its seat's view (play.RackoView) and the legal actions.

- "random": any legal action, but always calls Racko when it may (a random waiter would never end a round).
- "baseline": slot targeting, see `BaselineBot`.
- "medium": rack evaluation by expected completion, see `hard.py`.
- "hard": heads-up (2 players, 40 cards, no 2-player rule) the learned race of `race.py`; in every other round
  the planning bot of `hard.py` (`HardBot`), which was "hard" before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from scorekeeper.games.base import Action, Bot
from scorekeeper.games.racko.hard import MediumBot
from scorekeeper.games.racko.play import CALL, DISCARD, PILE, STOCK, RackoView
from scorekeeper.games.racko.race import RaceBot
from scorekeeper.games.racko.race_features import target_slot
from scorekeeper.games.racko.rules import longest_run


class RandomBot:
    """Uniformly random legal actions (seeded, so simulations repeat), except that it always calls."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        if CALL in legal_actions:
            return CALL
        return self._rng.choice(list(legal_actions))


class BaselineBot:
    """Slot targeting: card c of a deck 1..N belongs to slot t(c) = min(9, (c-1)*10//N).

    A slot is "settled" when its card belongs there. Every slot settled means a Racko (the bands rise).
    - draw: the top discard if its own slot is not settled, otherwise the stock.
    - place: the drawn card goes into its own slot if that slot is not settled. Otherwise a stock card is
      discarded. (A discard is only taken for an unsettled slot, so it always has a place.)
    - call: always calls Racko (and Blitz-Racko) when it may.
    - 2-player rule, every slot settled but no run of 3: it takes (from the pile, or keeps from the stock)
      a card that goes into the lowest slot where the rack stays ascending and its longest run grows;
      otherwise it draws from the stock and discards.
    - Blitz deal: the card goes into its own slot if empty, else into the nearest empty slot (lower first).
    """

    reusable = True
    """It keeps nothing of a round (the deck's bands depend on the deck alone) and draws no random numbers:
    the simulator makes one for all rounds."""
    _size = 0
    _band: tuple[int, ...] = ()

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        # Read once per call, the deck's bands kept by the bot, the turn's two moves asked about first: it is
        # asked for every move of a simulation.
        phase = view.phase
        if phase != "draw" and phase != "place":
            return self._calls_and_blitz(view, legal_actions)
        rack: Sequence[int] = view.rack  # type: ignore[assignment]  # past the Blitz deal: every slot holds a card
        n = view.deck_size
        if n != self._size:
            self._size, self._band = n, _bands(n)
        band = self._band
        building = view.options.two_player_rule and all(band[card] == s for s, card in enumerate(rack))
        if phase == "draw":
            top = view.discard_top
            if top is not None and PILE in legal_actions:
                if building:
                    return PILE if run_slot(rack, top) is not None else STOCK
                slot = band[top]
                if band[rack[slot]] != slot:
                    return PILE
            return STOCK
        card = view.drawn
        assert card is not None
        if building:
            grow = run_slot(rack, card)
            if grow is not None:
                return grow
        slot = band[card]
        if band[rack[slot]] != slot:
            return slot
        # the engine lists "discard" last: looked at first, the same answer as `in` alone
        if (legal_actions and legal_actions[-1] == DISCARD) or DISCARD in legal_actions:
            return DISCARD
        return slot

    @staticmethod
    def _calls_and_blitz(view: RackoView, legal_actions: Sequence[Action]) -> Action:
        """A call whenever the bot may call; a Blitz deal's card into its band's slot or the nearest empty one."""
        if view.phase == "blitz_place":
            assert view.drawn is not None
            slot = target_slot(view.drawn, view.deck_size)
            return min(legal_actions, key=lambda s: (abs(s - slot), s))
        return CALL


@lru_cache(maxsize=8)
def _bands(deck_size: int) -> tuple[int, ...]:
    """`target_slot` of every card 0..deck_size (0 is no card), looked up instead of computed per card."""
    return (0, *(target_slot(card, deck_size) for card in range(1, deck_size + 1)))


def run_slot(rack: Sequence[int], card: int) -> int | None:
    """The lowest slot where `card` keeps an ascending rack ascending and makes its longest run longer."""
    now = longest_run(rack)
    for s in range(len(rack)):
        below = rack[s - 1] if s else 0
        above = rack[s + 1] if s + 1 < len(rack) else card + 1
        if below < card < above:
            trial = [*rack[:s], card, *rack[s + 1 :]]
            if longest_run(trial) > now:
                return s
    return None


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "medium": MediumBot,
    "hard": RaceBot,
}
"""Bot registry: name -> zero-argument factory."""
