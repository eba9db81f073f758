"""Measure a Rage bot against others: ``python -m scorekeeper.games.rage.strength``.

Plays full games (every hand size of the edition, the dealer passing left each round); the measured bot's
seat rotates from game to game, the other seats are filled with the opponent bot. Prints points per round
(the bot and the opponents' mean), the exact-bid rates and the bot's median decision time.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import Bot, play_out
from scorekeeper.games.rage.bots import BOTS
from scorekeeper.games.rage.options import RageOptions, hand_sizes
from scorekeeper.games.rage.play import new_round
from scorekeeper.games.rage.rules import score_result


def _timer(times: list[float], seat: int) -> Callable[[int, Any, float], None]:
    """`play_out`'s on_move: keeps the thinking time of each move `seat` makes."""

    def moved(mover: int, _action: Any, spent: float) -> None:
        if mover == seat:
            times.append(spent)

    return moved


def measure(
    bot: str | Callable[[], Bot] = "hard",
    opponent: str | Callable[[], Bot] = "baseline",
    *,
    players: int = 4,
    edition: str = "seed",
    games: int = 20,
    seed: int = 1,
) -> dict[str, Any]:
    """Play ``games`` full games; the measured bot sits at seat ``game % players``."""
    options = RageOptions(players, edition)
    make_bot = BOTS[bot] if isinstance(bot, str) else bot
    make_opponent = BOTS[opponent] if isinstance(opponent, str) else opponent
    rounds = 0
    mine: list[int] = []
    theirs: list[float] = []
    exact_mine = exact_theirs = 0
    times: list[float] = []
    for game in range(games):
        hero = game % players
        bots = [make_bot() if s == hero else make_opponent() for s in range(players)]
        for index, _size in enumerate(hand_sizes(options)):
            dealer = (game + index) % players
            state = new_round(
                options, seed * 1_000_003 + game * 1_009 + index, dealer=dealer, round_index=index
            )
            play_out(state, bots, on_move=_timer(times, hero))
            result = state.result()
            scores = score_result(result, options, dealer=dealer, round_index=index)
            rounds += 1
            mine.append(scores[hero])
            others = [s for i, s in enumerate(scores) if i != hero]
            theirs.append(sum(others) / len(others))
            exact = [b == t for b, t in zip(result["bids"], result["tricks"], strict=True)]
            exact_mine += exact[hero]
            exact_theirs += sum(e for i, e in enumerate(exact) if i != hero)
    return {
        "edition": edition,
        "players": players,
        "games": games,
        "rounds": rounds,
        "seed": seed,
        "points_per_round": statistics.fmean(mine),
        "opponents_points_per_round": statistics.fmean(theirs),
        "difference": statistics.fmean(mine) - statistics.fmean(theirs),
        "exact_rate": exact_mine / rounds,
        "opponents_exact_rate": exact_theirs / (rounds * (players - 1)),
        "median_decision_ms": statistics.median(times) * 1000 if times else 0.0,
        "p95_decision_ms": sorted(times)[int(0.95 * len(times))] * 1000 if times else 0.0,
        "max_decision_ms": max(times) * 1000 if times else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--against", default="baseline")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="seed")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--time-budget", type=float, default=None, help="seconds per decision of the hard bot (0: no limit)"
    )
    args = parser.parse_args(argv)
    bot: str | Callable[[], Bot] = args.bot
    if args.time_budget is not None and args.bot == "hard":
        from scorekeeper.games.rage.hard import HardBot

        budget = args.time_budget or None
        bot = lambda: HardBot(time_budget=budget)  # noqa: E731
    report = measure(
        bot, args.against, players=args.players, edition=args.edition, games=args.games, seed=args.seed
    )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
