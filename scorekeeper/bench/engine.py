"""Engine speed: random-play actions per second per game, and baseline-vs-baseline rounds per second."""

from __future__ import annotations

import random
import time
from typing import Any

from scorekeeper.games.base import play_out
from scorekeeper.games.spec import GAMES, GameSpec
from scorekeeper.sim import schedule_length, simulate

SECONDS_PER_GAME = 2.0


def random_actions_per_second(game: GameSpec, players: int, settings: dict[str, Any]) -> float:
    """Uniformly random legal actions applied through the full engine (legal_actions + apply), per second."""
    options = game.Options(**{**settings, "players": players})
    rng = random.Random(1)
    actions = 0
    started = time.perf_counter()
    number = 0
    length = schedule_length(game, options)
    while time.perf_counter() - started < SECONDS_PER_GAME:
        state = game.new_round(
            options, rng.randrange(2**32), dealer=number % players, round_index=number % length
        )
        actions += len(play_out(state, [None] * players, rng).log)
        number += 1
    return actions / (time.perf_counter() - started)


def run(as_json: bool = False) -> dict[str, Any]:
    """Each game measured the same way, with the players and options its spec names (`bench_setup`)."""
    figures: dict[str, Any] = {}
    for game in GAMES:
        players, settings = game.bench_setup
        rate = random_actions_per_second(game, players, settings)
        sim = simulate(game.key, players, ["baseline"], 200, 7, settings)
        figures[f"{game.key}_random_actions_per_second"] = round(rate, 1)
        figures[f"{game.key}_baseline_rounds_per_second"] = sim["rounds_per_second"]
    return {"engine": figures}
