"""Engine speed: random-play actions per second per game, baseline-vs-baseline rounds per second, and two
figures against yardsticks measured in the same run:

- `racko_sim_vs_inline`: the simulator's rounds per second (2 players, 40 cards, no 2-player rule, the
  baseline bot on both seats) over those of `inline_racko`, the same slot-targeting policy written as one
  plain loop with no engine, no views and no checks (what the game itself costs in Python). The two take
  turns on the same rounds and each one's best CPU time counts, so that a busy machine slows both alike.
- `rage_random_rounds_per_second`: Rage, 4 players, 10 cards each, uniformly random legal play through
  `new_round` and `play_out` (the engine's whole cost of a round), the best of a few repeats.
- `oh_hell_pyspiel_rounds_per_second` (and `rage_vs_pyspiel_oh_hell`): the same count for OpenSpiel's Oh Hell
  (C++ through pyspiel: 4 players, 4 x 13 cards, 10 tricks; deal and play by uniformly random outcomes and
  legal actions), when an interpreter with `pyspiel` is at hand: the one in `SCOREKEEPER_PYSPIEL_PYTHON`, or
  this one. OpenSpiel is no dependency of the project (a 16 MB wheel for one yardstick); without it the figure
  is null.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

from scorekeeper.games.base import play_out
from scorekeeper.games.racko.spec import SPEC as RACKO
from scorekeeper.games.rage.spec import SPEC as RAGE
from scorekeeper.games.spec import GAMES, GameSpec
from scorekeeper.lab.selfplay import schedule_length, simulate

SECONDS_PER_GAME = 2.0
cpu = time.process_time
"""The yardstick figures count this process's CPU time: on a shared machine the wall clock measures the
other load as well (and the best of a few repeats still counts, for what CPU time does not hide)."""
RACKO_ROUNDS = 300
"""Rounds per turn of the simulator-against-inline comparison."""
RACKO_REPEATS = 10
RAGE_ROUNDS = 500
RAGE_REPEATS = 6


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


def inline_racko(rounds: int, seed: int, deck_size: int = 40, players: int = 2) -> float:
    """The baseline bot's policy (`racko.bots.BaselineBot`, no 2-player rule) on every seat as one plain loop,
    `rounds` rounds dealt from seeds drawn from `seed`; returns the mean turns per round."""
    band = [0] + [min(9, (card - 1) * 10 // deck_size) for card in range(1, deck_size + 1)]
    rng = random.Random(seed)
    turns = 0
    for _ in range(rounds):
        turns += inline_racko_round(rng.randrange(2**32), band, players)
    return turns / rounds


def inline_racko_round(seed: int, band: list[int], players: int) -> int:
    """One round as the engine deals it (seat k of the deal order is the k-th left of the dealer): take the
    top discard when its band's slot is unsettled, put a card into its band's slot unless that slot is
    settled (a stock card is then discarded), call at the first Racko, turn the pile over when the stock is
    empty. Returns the turns taken."""
    deck = list(range(1, len(band)))
    random.Random(seed).shuffle(deck)
    racks = [[0] * 10 for _ in range(players)]
    for k in range(10 * players):
        racks[k % players][9 - k // players] = deck.pop()
    stock, pile = deck, [deck.pop()]
    seat = turns = 0
    while turns < 1000:
        rack = racks[seat]
        if pile and band[rack[band[pile[-1]]]] != band[pile[-1]]:
            card, from_stock = pile.pop(), False
        else:
            card, from_stock = stock.pop(), True
        slot = band[card]
        if band[rack[slot]] != slot or not from_stock:
            pile.append(rack[slot])
            rack[slot] = card
        else:
            pile.append(card)
        turns += 1
        if all(rack[i] < rack[i + 1] for i in range(9)):
            break
        if not stock:
            stock, pile = pile[::-1], []
        seat = (seat + 1) % players
    return turns


def racko_sim_vs_inline() -> dict[str, float]:
    """Simulator and inline loop take turns on the same rounds; each one's best time counts (as `timeit`
    does: on a shared machine the slower repeats measure the other load, not the code)."""
    sim_best = inline_best = float("inf")
    for _ in range(RACKO_REPEATS):
        started = cpu()
        simulate(RACKO.key, 2, ["baseline"], RACKO_ROUNDS, 1, {"two_player_rule": False})
        sim_best = min(sim_best, cpu() - started)
        started = cpu()
        inline_racko(RACKO_ROUNDS, 1)
        inline_best = min(inline_best, cpu() - started)
    sim_rate, inline_rate = RACKO_ROUNDS / sim_best, RACKO_ROUNDS / inline_best
    return {
        "racko_sim_rounds_per_second": round(sim_rate, 1),
        "racko_inline_rounds_per_second": round(inline_rate, 1),
        "racko_sim_vs_inline": round(sim_rate / inline_rate, 3),
    }


def rage_random_rounds_per_second(rounds: int = RAGE_ROUNDS, repeats: int = RAGE_REPEATS) -> float:
    """Rage, 4 players, 10 cards: rounds dealt and played out with uniformly random legal actions, the same
    rounds in each repeat; the best repeat counts."""
    game = RAGE  # the yardstick is this game (OpenSpiel's Oh Hell is its cousin)
    options = game.Options(players=4)
    bots = [None] * 4
    best = float("inf")
    for _ in range(repeats):
        rng = random.Random(1)
        started = cpu()
        for number in range(rounds):
            state = game.new_round(options, rng.randrange(2**32), dealer=number % 4, round_index=0)
            play_out(state, bots, rng)
        best = min(best, cpu() - started)
    return rounds / best


PYSPIEL_PYTHON = "SCOREKEEPER_PYSPIEL_PYTHON"
"""An interpreter with OpenSpiel installed (`pip install open_spiel` in a venv of its own)."""
OH_HELL = """
import json, random, sys, time
import pyspiel
rounds, repeats = int(sys.argv[1]), int(sys.argv[2])
game = pyspiel.load_game("oh_hell", {"players": 4, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 10})
best = float("inf")
for _ in range(repeats):
    rng = random.Random(1)
    started = time.process_time()
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    best = min(best, time.process_time() - started)
print(json.dumps(rounds / best))
"""


def pyspiel_python() -> str | None:
    """The interpreter that can import pyspiel: `SCOREKEEPER_PYSPIEL_PYTHON`, else this one if it can."""
    named = os.environ.get(PYSPIEL_PYTHON)
    if named:
        return named
    return sys.executable if importlib.util.find_spec("pyspiel") is not None else None


def pyspiel_oh_hell_rounds_per_second(rounds: int = RAGE_ROUNDS, repeats: int = RAGE_REPEATS) -> float | None:
    """OpenSpiel's Oh Hell played as `rage_random_rounds_per_second` plays Rage (CPU time, best repeat), in
    the interpreter `pyspiel_python` names; None without one."""
    python = pyspiel_python()
    if python is None:
        return None
    done = subprocess.run(
        [python, "-c", OH_HELL, str(rounds), str(repeats)], capture_output=True, text=True, check=True
    )
    return float(json.loads(done.stdout))


def run(as_json: bool = False) -> dict[str, Any]:
    """Each game measured the same way, with the players and options its spec names (`bench_setup`)."""
    figures: dict[str, Any] = {}
    for game in GAMES:
        players, settings = game.bench_setup
        rate = random_actions_per_second(game, players, settings)
        sim = simulate(game.key, players, ["baseline"], 200, 7, settings)
        figures[f"{game.key}_random_actions_per_second"] = round(rate, 1)
        figures[f"{game.key}_baseline_rounds_per_second"] = sim["rounds_per_second"]
    figures.update(racko_sim_vs_inline())
    rage = figures["rage_random_rounds_per_second"] = round(rage_random_rounds_per_second(), 1)
    oh_hell = pyspiel_oh_hell_rounds_per_second()
    figures["oh_hell_pyspiel_rounds_per_second"] = None if oh_hell is None else round(oh_hell, 1)
    figures["rage_vs_pyspiel_oh_hell"] = None if oh_hell is None else round(rage / oh_hell, 3)
    return {"engine": figures}
