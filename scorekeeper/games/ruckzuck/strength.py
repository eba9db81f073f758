"""Measure a Ruck Zuck bot against three others: `python -m scorekeeper.games.ruckzuck.strength`.

Plays N 4-player rounds, the measured bot's seat rotating round by round (the dealer moving on every
`players` rounds), and prints its win rate (a win = the lowest penalty of the round; a shared lowest counts
for each), how often it went out, its and the opponents' mean penalty, the game win rate (consecutive
games of as many rounds as players, lowest total penalty wins) and the median time per decision.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import play_out
from scorekeeper.games.ruckzuck.bots import BOTS
from scorekeeper.games.ruckzuck.play import new_round
from scorekeeper.games.ruckzuck.rules import RuckZuckOptions


def measure(
    bot: Callable[[], Any] | str = "hard",
    opponent: Callable[[], Any] | str = "baseline",
    *,
    rounds: int = 400,
    seed: int = 0,
    players: int = 4,
    side: str = "red",
) -> dict[str, Any]:
    """Win rate and decision times of `bot` (one seat) against `players - 1` copies of `opponent`."""
    make = BOTS[bot] if isinstance(bot, str) else bot
    make_opponent = BOTS[opponent] if isinstance(opponent, str) else opponent
    options = RuckZuckOptions(players, side=side)
    wins = 0
    penalties: list[int] = []
    others: list[int] = []
    # match totals: the measured bot is player 0, the opponents players 1.. (filling the other seats in order)
    match_totals = [0] * players
    match_wins = 0.0
    matches = 0
    times: list[float] = []
    outs = 0
    for r in range(rounds):
        seat = r % players
        bots = [make() if s == seat else make_opponent() for s in range(players)]
        state = new_round(options, seed * 1_000_003 + r, dealer=(r // players) % players)
        play_out(state, bots, seconds=[times if s == seat else [] for s in range(players)])
        scores = state.penalties()
        wins += scores[seat] == min(scores)
        outs += state.result()["out"] == seat
        penalties.append(scores[seat])
        others.extend(p for s, p in enumerate(scores) if s != seat)
        seat_order = [seat] + [s for s in range(players) if s != seat]
        for player, s in enumerate(seat_order):
            match_totals[player] += scores[s]
        if r % players == players - 1:  # a game is as many rounds as players (RULES.md 2.3)
            matches += 1
            match_wins += match_totals[0] == min(match_totals)
            match_totals = [0] * players
    return {
        "rounds": rounds,
        "seed": seed,
        "win_rate": wins / rounds,
        "went_out": outs / rounds,
        "mean_penalty": statistics.fmean(penalties),
        "opponents_mean_penalty": statistics.fmean(others),
        "game_win_rate": match_wins / matches if matches else 0.0,
        "median_decision_ms": 1000 * statistics.median(times) if times else 0.0,
        "max_decision_ms": 1000 * max(times) if times else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--opponent", default="baseline")
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--side", default="red")
    args = parser.parse_args(argv)
    figures = measure(
        args.bot, args.opponent, rounds=args.rounds, seed=args.seed, players=args.players, side=args.side
    )
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
