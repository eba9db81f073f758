"""The Racko play panel's automation surface over random positions: exactly one `act-` control per legal
action of the seat at the device (none while it is not that seat's turn), each with an accessible name, and
only that seat's own cards in its rack."""

from __future__ import annotations

import random
from typing import Any

import flet as ft
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ui_core_harness import walk

from scorekeeper.games.racko import BOTS, RackoOptions, new_round
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital import racko_panel
from scorekeeper.ui.digital.kit import PanelContext, action_key
from scorekeeper.ui.i18n import Translator


def panel(view: Any, legal: list[Any], names: list[str]) -> ft.Control:
    ctx = AppContext(page=None, store=None, t=Translator("en"), resized_width=390)  # type: ignore[arg-type]
    return racko_panel.build(PanelContext(ctx=ctx, view=view, legal=legal, act=lambda _: None, names=names))


def surface(control: ft.Control) -> list[ft.Semantics]:
    return [
        node
        for node in walk(control)
        if isinstance(node, ft.Semantics) and (node.identifier or "").startswith(("act-", "choose-"))
    ]


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    blitz=st.booleans(),
    moves=st.integers(0, 120),
    watcher=st.integers(0, 3),
)
def test_act_controls_are_exactly_the_legal_actions(
    seed: int, players: int, blitz: bool, moves: int, watcher: int
) -> None:
    state = new_round(RackoOptions(players, blitz=blitz), seed)
    rng = random.Random(seed)
    bots = [BOTS["baseline"]() for _ in range(players)]
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.current_player
        legal = state.legal_actions()
        action = bots[seat].choose(state.view(seat), legal) if rng.random() < 0.7 else rng.choice(legal)
        state.apply(action)
    seat = watcher % players
    view = state.view(seat)
    legal = state.legal_actions() if state.current_player == seat else []
    names = [f"P{n}" for n in range(players)]
    nodes = surface(panel(view, legal, names))
    assert sorted(node.identifier for node in nodes) == sorted(f"act-{action_key(a)}" for a in legal)
    assert all(node.label for node in nodes)
    assert len({node.identifier for node in nodes}) == len(nodes)
    # The rack's accessible names list this seat's own cards, nobody else's.
    labels = [
        node.label
        for node in walk(panel(view, legal, names))
        if isinstance(node, ft.Semantics) and node.label
    ]
    shown = {
        int(label.split(": ")[1]) for label in labels if label.startswith("Slot ") and "empty" not in label
    }
    assert shown == {card for card in view.rack if card is not None}
