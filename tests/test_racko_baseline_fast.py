"""The baseline Racko bot, written for speed (the simulator asks it for every move), decides exactly as the
slot-targeting policy it was written as: a frozen copy of that first version is the reference here."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.games.racko import RackoOptions, new_round
from scorekeeper.games.racko.bots import BaselineBot, run_slot, target_slot
from scorekeeper.games.racko.play import CALL, DISCARD, PILE, STOCK

OPTIONS = [
    RackoOptions(2, two_player_rule=False),
    RackoOptions(2),
    RackoOptions(3, variant="bonus", reshuffle=True),
    RackoOptions(4, blitz=True),
    RackoOptions(2, blitz=True),
    RackoOptions(4, variant="chips"),
]


def reference_choice(view: Any, legal_actions: Sequence[Any]) -> Any:
    """`BaselineBot.choose` as it was first written (slot targeting, see its docstring)."""
    n = view.deck_size
    phase = view.phase
    if phase in ("call", "blitz_call"):
        return CALL
    if phase == "blitz_place":
        slot = target_slot(view.drawn, n)
        return min(legal_actions, key=lambda s: (abs(s - slot), s))
    rack = view.rack
    band = (0, *(target_slot(card, n) for card in range(1, n + 1)))
    building = bool(view.options.two_player_rule) and all(band[card] == s for s, card in enumerate(rack))
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
    if building:
        grow = run_slot(rack, card)
        if grow is not None:
            return grow
    slot = band[card]
    if band[rack[slot]] != slot or DISCARD not in legal_actions:
        return slot
    return DISCARD


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: f"{o.players}p-{o.variant}-{o.two_player_rule}-{o.blitz}"
)
def test_the_fast_baseline_decides_as_the_reference(options: RackoOptions) -> None:
    """Every decision of many rounds (one bot per seat, some moves random so that odd racks come up), and
    the same views with the legal list in another order."""
    for seed in range(40):
        state = new_round(options, seed, dealer=seed % options.players)
        bots = [BaselineBot() for _ in range(options.players)]
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            view, legal = state.view(seat), state.legal_actions()
            choice = bots[seat].choose(view, legal)
            assert type(choice) is type(reference_choice(view, legal))
            assert choice == reference_choice(view, legal)
            shuffled = rng.sample(legal, len(legal))
            assert bots[seat].choose(view, shuffled) == reference_choice(view, shuffled)
            state.apply(choice if rng.random() < 0.8 else rng.choice(legal))
