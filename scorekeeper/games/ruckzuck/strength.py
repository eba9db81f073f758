"""Measure a Ruck Zuck bot against three others: `python -m scorekeeper.games.ruckzuck.strength`.

Plays N 4-player rounds, the measured bot's seat rotating round by round (the dealer moving on every
`players` rounds), and prints its win rate (a win = the lowest penalty of the round; a shared lowest counts
for each), how often it went out, its and the opponents' mean penalty, the game win rate (consecutive
games of as many rounds as players, lowest total penalty wins) and the median time per decision.

`--compare hard,medium,old.py:HardBot --rounds N` plays several bots on the same deals and seats (paired
differences to the first bot with 95% intervals; see `compare`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import play_out
from scorekeeper.games.bot_files import bot_class
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
    make = load_bot(bot) if isinstance(bot, str) else bot
    make_opponent = load_bot(opponent) if isinstance(opponent, str) else opponent
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


def load_bot(spec: str) -> Callable[[], Any]:
    """A bot by name: one of :data:`BOTS` or ``path/to/file.py:Class``, a bot class loaded from a file, e.g. the
    earlier hard bot taken from git (``git show REV:scorekeeper/games/ruckzuck/bots.py > old.py``, then
    ``old.py:HardBot``) to measure a change against what it replaces. `hard` runs without a clock here, so
    that a measurement repeats on a loaded machine."""
    if spec == "hard":
        from scorekeeper.games.ruckzuck.hard import SearchBot

        return lambda: SearchBot(time_budget=None)
    if ":" not in spec:
        return BOTS[spec]
    return bot_class(spec, "_ruckzuck_bot_")


def paired(
    bots: dict[str, Callable[[], Any]], opponent: str, *, rounds: int, seed: int, players: int, side: str
) -> dict[str, list[tuple[int, int]]]:
    """Each bot on the same deals and seats against `players - 1` copies of `opponent`: per round
    (won, penalty)."""
    options = RuckZuckOptions(players, side=side)
    make_opponent = load_bot(opponent)
    records: dict[str, list[tuple[int, int]]] = {name: [] for name in bots}
    for r in range(rounds):
        seat = r % players
        for name, make in bots.items():
            table = [make() if s == seat else make_opponent() for s in range(players)]
            state = new_round(options, seed * 1_000_003 + r, dealer=(r // players) % players)
            play_out(state, table)
            scores = state.penalties()
            records[name].append((int(scores[seat] == min(scores)), scores[seat]))
    return records


def _interval(values: list[float]) -> dict[str, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4)}


def _parser(*, rounds: int) -> argparse.ArgumentParser:
    """The options both ways of measuring take: the opponents, the rounds, the seed and the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opponent", default="baseline")
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--side", default="red")
    return parser


def compare(argv: list[str]) -> None:
    """``--compare A,B,... --rounds N``: the bots on the same deals and seats against the `--opponent`; each
    bot's win rate and mean penalty (95% intervals) and each bot's paired difference to the first."""
    parser = _parser(rounds=1000)
    parser.add_argument("--compare", required=True)
    args = parser.parse_args(argv)
    names = args.compare.split(",")
    records = paired(
        {name: load_bot(name) for name in names},
        args.opponent,
        rounds=args.rounds,
        seed=args.seed,
        players=args.players,
        side=args.side,
    )
    first = names[0]
    report: dict[str, Any] = {"rounds": args.rounds, "seed": args.seed, "opponent": args.opponent}
    report["bots"] = {
        name: {
            "win_rate": _interval([w for w, _ in records[name]]),
            "penalty": _interval([p for _, p in records[name]]),
        }
        for name in names
    }
    report["paired"] = {
        f"{first} - {name}": {
            "win_rate": _interval([a[0] - b[0] for a, b in zip(records[first], records[name], strict=True)]),
            "penalty": _interval([a[1] - b[1] for a, b in zip(records[first], records[name], strict=True)]),
        }
        for name in names[1:]
    }
    print(json.dumps(report, indent=2))


def main(argv: list[str] | None = None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if any(a.startswith("--compare") for a in argv):
        compare(argv)
        return
    parser = _parser(rounds=400)
    parser.add_argument("--bot", default="hard")
    args = parser.parse_args(argv)
    figures = measure(
        args.bot, args.opponent, rounds=args.rounds, seed=args.seed, players=args.players, side=args.side
    )
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
