"""The engine benchmark's yardstick: the inline Racko loop plays the very rounds the engine plays."""

from __future__ import annotations

from scorekeeper.bench.engine import inline_racko, inline_racko_round, rage_random_rounds_per_second
from scorekeeper.games.base import play_out
from scorekeeper.games.racko import BOTS, RackoOptions, new_round


def test_the_inline_loop_plays_the_engines_rounds_turn_for_turn() -> None:
    options = RackoOptions(2, two_player_rule=False)
    band = [0] + [min(9, (card - 1) * 10 // 40) for card in range(1, 41)]
    for seed in range(20):
        state = play_out(new_round(options, seed), [BOTS["baseline"](), BOTS["baseline"]()])
        assert inline_racko_round(seed, band, 2) == state.turn
    assert 5 < inline_racko(20, 1) < 60


def test_rage_rounds_per_second_is_measured() -> None:
    assert rage_random_rounds_per_second(rounds=3, repeats=1) > 0
