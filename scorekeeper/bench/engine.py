"""Engine speed: random-play actions per second per game, and baseline-vs-baseline rounds per second."""

from __future__ import annotations

import random
import time
from typing import Any

from scorekeeper.match import rules_of
from scorekeeper.sim import round_kwargs, schedule_length, simulate

# One table of what is measured, so each game is measured the same way.
SETUPS: dict[str, dict[str, Any]] = {
    "racko": {"players": 2, "settings": {"two_player_rule": False}},
    "ruckzuck": {"players": 4, "settings": {}},
    "rage": {"players": 4, "settings": {}},
}
SECONDS_PER_GAME = 2.0


def random_actions_per_second(game_name: str, players: int, settings: dict[str, Any]) -> float:
    """Uniformly random legal actions applied through the full engine (legal_actions + apply), per second."""
    game = rules_of(game_name)
    options = game.Options(**{**settings, "players": players})
    rng = random.Random(1)
    actions = 0
    started = time.perf_counter()
    number = 0
    length = schedule_length(game, options)
    while time.perf_counter() - started < SECONDS_PER_GAME:
        state = game.new_round(
            options, rng.randrange(2**32), **round_kwargs(game, number % players, number % length)
        )
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        number += 1
    return actions / (time.perf_counter() - started)


def run(as_json: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for name, setup in SETUPS.items():
        rate = random_actions_per_second(name, setup["players"], setup["settings"])
        sim = simulate(name, setup["players"], ["baseline"], 200, 7, setup["settings"])
        figures[f"{name}_random_actions_per_second"] = round(rate, 1)
        figures[f"{name}_baseline_rounds_per_second"] = sim["rounds_per_second"]
    return {"engine": figures}
