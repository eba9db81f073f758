"""Measure a Rage bot against others: ``python -m scorekeeper.games.rage.strength``.

Plays full games (every hand size of the edition, the dealer passing left each round); the measured bot's
seat rotates from game to game, the other seats are filled with the opponent bot. Prints points per round
(the bot and the opponents' mean), the exact-bid rates and the bot's median decision time.

``--compare A,B,...`` plays the bots on the same deals and seats and gives each one's paired difference to the
first, e.g. ``--compare hard,old.py:HardBot,ceiling --rounds 2000`` (see :func:`load_bot`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import Bot, Table, meet, play_out
from scorekeeper.games.bot_files import bot_class
from scorekeeper.games.rage.bots import BOTS
from scorekeeper.games.rage.options import RageOptions, hand_sizes
from scorekeeper.games.rage.play import RageState, new_round
from scorekeeper.games.rage.rules import score_result


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
        meet(bots, _table(players, hero, bot, opponent))
        for index, _size in enumerate(hand_sizes(options)):
            dealer = (game + index) % players
            state = new_round(
                options, seed * 1_000_003 + game * 1_009 + index, dealer=dealer, round_index=index
            )
            _show(bots, state)
            play_out(state, bots, seconds=[times if s == hero else [] for s in range(players)])
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


def _show(bots: list[Bot], state: RageState) -> None:
    """Show the round to a bot that measures what seeing it is worth (:mod:`scorekeeper.games.rage.ceiling`)."""
    for bot in bots:
        see = getattr(bot, "see", None)
        if see is not None:
            see(state)


def _round_record(result: dict[str, Any], scores: list[int], hero: int) -> dict[str, float]:
    """What one round gave the measured seat: its points by component and the opponents' mean."""
    bid, tricks = result["bids"][hero], result["tricks"][hero]
    others = [s for i, s in enumerate(scores) if i != hero]
    return {
        "points": scores[hero],
        "opponents": sum(others) / len(others),
        "exact": float(bid == tricks),
        "miss": abs(bid - tricks),
        "bid": bid,
        "tricks": tricks,
        "cards": result["bonus"][hero] - result["minus"][hero],
    }


def paired(
    bots: dict[str, Callable[[], Bot]],
    opponent: str | Callable[[], Bot] = "baseline",
    *,
    players: int = 4,
    edition: str = "seed",
    rounds: int = 2000,
    seed: int = 1,
    on_round: Callable[[int], None] | None = None,
) -> dict[str, list[dict[str, float]]]:
    """Per round and bot, the measured seat's record: every bot plays the same deals in the same seat (round
    ``i`` of game ``g`` as in :func:`measure`, the measured seat ``g % players``) against the same opponents,
    so differences between the bots are paired round by round. An opponent by name is one of :func:`load_bot`
    (hard without a clock); random opponents draw the same numbers for every bot (the global generator is
    seeded for each round's seats, and restored after)."""
    options = RageOptions(players, edition)
    make_opponent = load_bot(opponent) if isinstance(opponent, str) else opponent
    sizes = hand_sizes(options)
    records: dict[str, list[dict[str, float]]] = {name: [] for name in bots}
    saved = random.getstate()
    try:
        for n in range(rounds):
            game, index = divmod(n, len(sizes))
            hero, dealer = game % players, (game + index) % players
            round_seed = seed * 1_000_003 + game * 1_009 + index
            for name, make_bot in bots.items():
                state = new_round(options, round_seed, dealer=dealer, round_index=index)
                random.seed(round_seed)
                seats = [make_bot() if s == hero else make_opponent() for s in range(players)]
                meet(seats, _table(players, hero, name, opponent))
                _show(seats, state)
                play_out(state, seats)
                result = state.result()
                scores = score_result(result, options, dealer=dealer, round_index=index)
                records[name].append(_round_record(result, scores, hero))
            if on_round is not None:
                on_round(n)
    finally:
        random.setstate(saved)
    return records


def _table(players: int, hero: int, bot: str | Callable[[], Bot], opponent: str | Callable[[], Bot]) -> Table:
    """Who sits where, as the bots are told (`meet`): the names given, a bot given as a function as a person
    (for the hard bot: a player whose rules it does not know)."""
    hero_name, other = (x if isinstance(x, str) else None for x in (bot, opponent))
    return tuple(hero_name if s == hero else other for s in range(players))


def summary(records: list[dict[str, float]]) -> dict[str, float]:
    """Means of a bot's round records (points, opponents' points, exact-bid rate, mean |bid - tricks|...)."""
    return {key: statistics.fmean(r[key] for r in records) for key in records[0]}


def paired_difference(
    a: list[dict[str, float]], b: list[dict[str, float]], key: str = "points"
) -> dict[str, float]:
    """Mean of ``a - b`` over the same rounds with its 95% interval (normal approximation)."""
    diffs = [x[key] - y[key] for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    return {"mean": mean, "low": mean - half, "high": mean + half}


def load_bot(spec: str) -> Callable[[], Bot]:
    """A bot by name: one of :data:`BOTS` or ``path/to/file.py:Class``, a bot class loaded from a file, e.g. an
    earlier version of the hard bot taken from git (``git show REV:scorekeeper/games/rage/hard.py > old.py``) to
    measure a change against what it replaces, or ``ceiling``, the hard bot shown the true deal (what knowing the
    hidden cards is worth, :mod:`scorekeeper.games.rage.ceiling`); hard bots run without a clock (deterministic)."""
    if spec == "ceiling":
        from scorekeeper.games.rage.ceiling import SeeingBot

        return SeeingBot
    if spec == "hard":
        from scorekeeper.games.rage.hard import HardBot

        return lambda: HardBot(time_budget=None)
    if ":" in spec:
        loaded = bot_class(spec, "_rage_bot_")
        return lambda: loaded(time_budget=None)
    return BOTS[spec]


def compare(argv: list[str]) -> None:
    """``--compare A,B,... --rounds N``: the bots on the same deals and seats; each bot's means and each bot's
    paired difference to the first (95% interval)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--compare", required=True)
    parser.add_argument("--against", default="baseline")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="seed")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="write every round's records to this JSON file")
    args = parser.parse_args(argv)
    names = args.compare.split(",")
    bots = {name: load_bot(name) for name in names}
    records = paired(
        bots, args.against, players=args.players, edition=args.edition, rounds=args.rounds, seed=args.seed
    )
    first = names[0]
    report: dict[str, Any] = {"rounds": args.rounds, "seed": args.seed, "against": args.against}
    report["bots"] = {name: summary(records[name]) for name in names}
    report["paired"] = {
        f"{first} - {name}": {
            key: paired_difference(records[first], records[name], key) for key in ("points", "exact")
        }
        for name in names[1:]
    }
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(records, out)
    print(json.dumps(report, indent=2))


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
    if argv is None:
        argv = sys.argv[1:]
    if any(a.startswith("--compare") for a in argv):
        compare(argv)
        return
    args = parser.parse_args(argv)
    # a strength by name plays as shipped (hard with its clock); `ceiling` and bots from files as in --compare
    bot: str | Callable[[], Bot] = args.bot if args.bot in BOTS else load_bot(args.bot)
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
