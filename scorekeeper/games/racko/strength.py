"""Measure a Racko bot against another heads-up: `python -m scorekeeper.games.racko.strength`.

Plays N rounds of 2 players (40 cards, 2-player rule off unless --rule), the bots swapping seats every
round so each starts half the rounds, and prints the win rate of the first bot and its median decision
time. A round is won by the caller; with no caller (turn limit) by the higher count, a tie by nobody.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from scorekeeper.games.base import Bot
from scorekeeper.games.racko.bots import BOTS
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.racko.play import new_round
from scorekeeper.games.racko.rules import round_points


def duel(
    first: Callable[[], Bot],
    second: Callable[[], Bot],
    rounds: int,
    seed: int,
    options: RackoOptions | None = None,
) -> dict[str, float]:
    """Play `rounds` rounds; returns wins of the first bot, its win rate, median decision ms, mean turns."""
    options = options or RackoOptions(2, two_player_rule=False)
    bots = [first(), second()]
    wins = 0
    times: list[float] = []
    turns = 0
    for k in range(rounds):
        hero = k % 2  # the first bot's seat: it starts (seat 1 is left of dealer 0) every other round
        seats = [bots[0], bots[1]] if hero == 0 else [bots[1], bots[0]]
        state = new_round(options, seed + k, dealer=0)
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            legal = state.legal_actions()
            if seat == hero:
                start = time.perf_counter()
                action = seats[seat].choose(view, legal)
                times.append(time.perf_counter() - start)
            else:
                action = seats[seat].choose(view, legal)
            state.apply(action)
        result = state.result()
        turns += state.turn
        if result["callers"]:
            wins += hero in result["callers"]
        else:
            points = round_points(result["racks"], None, options)
            wins += points[hero] > points[1 - hero]
    return {
        "rounds": rounds,
        "seed": seed,
        "wins": wins,
        "win_rate": wins / rounds,
        "median_ms": 1000 * statistics.median(times),
        "mean_turns": turns / rounds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--against", default="baseline")
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="store_true", help="play with the 2-player rule")
    args = parser.parse_args()
    options = RackoOptions(2, two_player_rule=args.rule)
    print(json.dumps(duel(BOTS[args.bot], BOTS[args.against], args.rounds, args.seed, options)))


if __name__ == "__main__":
    main()
