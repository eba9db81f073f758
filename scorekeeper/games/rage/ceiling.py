"""How much is left to gain: the hard bot handed the true deal, for measurement only.

A computer player sees only its seat's view. The bot here is the shipped hard bot with one difference: where
it samples the cards it cannot see, it is given them (every other hand and the talon, from the state). Against
baseline players, whose rules its look-ahead plays exactly, it then foresees the whole round but for its own
later cards (played out by the baseline's rules). What it scores more than the hard bot on the same deals is
about what knowing the hidden cards is worth: a ceiling no bot that plays fair comes near. It is no strength a
person can choose; ``python -m scorekeeper.games.rage.strength --compare hard,ceiling`` measures it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields

from scorekeeper.games.rage.fastround import CODE
from scorekeeper.games.rage.hard import HardBot, Tuning
from scorekeeper.games.rage.play import RageState
from scorekeeper.games.rage.search import Belief
from scorekeeper.games.rage.view import RageView


@dataclass
class TrueDeal(Belief):
    """A belief that is the truth: every sample is the deal itself."""

    hands: list[list[int]] = field(default_factory=list)
    talon: list[int] = field(default_factory=list)

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        return [list(hand) for hand in self.hands], list(self.talon)


class SeeingBot(HardBot):
    """The hard bot, untimed, that is shown the state it plays in (`see`) and judges its moves on that deal."""

    def __init__(self) -> None:
        # one deal is all there is to look at (a decision still plays out its fewest deals, all the same)
        super().__init__(time_budget=None, tuning=Tuning(max_deals=1))
        self.state: RageState | None = None

    def see(self, state: RageState) -> None:
        """The round it plays in: read at each decision, so it stays right as the round goes on."""
        self.state = state

    def belief(self, view: RageView) -> Belief:
        if self.state is None:
            raise RuntimeError("the seeing bot plays only where it is shown the state (strength.paired)")
        if sorted(self.state.hands[view.seat]) != sorted(view.hand):
            # a bot kept from an earlier round and not shown this one would look ahead on the wrong deal
            raise RuntimeError("the seeing bot was shown another round than the one it plays")
        known = super().belief(view)
        others = [
            [] if seat == view.seat else sorted(CODE[card] for card in hand)
            for seat, hand in enumerate(self.state.hands)
        ]
        talon = [CODE[card] for card in self.state.talon]
        return TrueDeal(**{f.name: getattr(known, f.name) for f in fields(known)}, hands=others, talon=talon)
