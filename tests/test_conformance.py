"""Every game's digital play keeps one contract (DESIGN.md engine contract): the view fields below mean the
same in every game, so play screens and bots read them without knowing the game."""

from __future__ import annotations

import random

import pytest

from scorekeeper.games import racko, rage, ruckzuck

ENGINES = {"racko": racko, "ruckzuck": ruckzuck, "rage": rage}


@pytest.mark.parametrize("key", list(ENGINES))
def test_views_share_the_common_fields(key: str) -> None:
    """`seat`, `current_player` (seat to act, -1 when over), `turn` (turns taken, a count), `is_over`,
    `options`, `match_scores` (totals before the round), `round_points` (the round as it stands)."""
    engine = ENGINES[key]
    options = engine.Options(3)
    state = engine.new_round(options, 7)
    rng = random.Random(7)
    turns = []
    while True:
        for seat in range(3):
            view = state.view(seat)
            assert view.seat == seat and view.options == options
            assert view.current_player == state.current_player and view.is_over == state.is_over
            assert len(view.match_scores) == 3
            assert view.round_points is None or len(view.round_points) == 3
        turns.append(view.turn)
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert view.current_player == -1 and view.round_points is not None
    assert turns[0] == 0 and turns == sorted(turns) and turns[-1] > 0
