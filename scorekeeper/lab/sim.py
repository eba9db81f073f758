"""Bot-versus-bot simulation: `python -m scorekeeper.lab.sim GAME --players N --bots A,B --rounds R --seed S --json`;
with `--round-robin` instead of `--bots`, every strength of the game against every other (`roundrobin.py`).

The simulation itself is `scorekeeper.lab.selfplay`; this module reads the command line and prints the summary.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import KEYS
from scorekeeper.lab.roundrobin import round_robin, table
from scorekeeper.lab.selfplay import parse_value, simulate

__all__ = ["main", "parse_args", "simulate"]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m scorekeeper.lab.sim", description=__doc__.splitlines()[0]
    )
    parser.add_argument("game", choices=KEYS)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--bots", help="comma-separated bot names or module:attr")
    parser.add_argument(
        "--round-robin",
        action="store_true",
        help="every strength of the game against every other (a table of win rates and points per round)",
    )
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="set a game option")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings: dict[str, Any] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            print(f"--set takes KEY=VALUE, not '{item}'.", file=sys.stderr)
            return 2
        settings[key.strip()] = parse_value(value.strip())
    if args.round_robin:
        return _round_robin(args, settings)
    if not args.bots:
        print("Name the bots (--bots) or ask for --round-robin.", file=sys.stderr)
        return 2
    try:
        summary = simulate(
            args.game,
            args.players,
            [name.strip() for name in args.bots.split(",") if name.strip()],
            args.rounds,
            args.seed,
            settings,
            progress=sys.stderr.isatty() and args.rounds >= 50,
        )
    except RuleError as error:
        print(f"Cannot simulate: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['rounds']} rounds of {args.game}, {summary['rounds_per_second']} rounds/s")
        for row in summary["bots"]:
            extra = f", exact bids {row['exact_bid_rate']:.1%}" if "exact_bid_rate" in row else ""
            print(
                f"  {row['name']:>12}: wins {row['wins']} ({row['win_rate']:.1%}), "
                f"mean points {row['mean_points']}, mean turns {row['mean_turns']}, "
                f"decision {row['decision_ms_median']} ms{extra}"
            )
    return 0


def _round_robin(args: argparse.Namespace, settings: dict[str, Any]) -> int:
    try:
        report = round_robin(args.game, args.players, args.rounds, args.seed, settings)
    except RuleError as error:
        print(f"Cannot simulate: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
