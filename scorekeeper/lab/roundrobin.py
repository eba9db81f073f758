"""A round-robin of a game's computer-player strengths: `python -m scorekeeper.lab.sim GAME --round-robin ...`.

Every strength plays every other: one seat of the strength against a table filled with the other (heads-up
with 2 players), seats rotating round by round as in `scorekeeper.lab.selfplay.simulate`, every pairing on the same
seeds. A round is won by the best round score (a shared best is a win for each); the table gives each
strength's win rate with its 95% confidence interval (Wilson's) and its points per round beside the other
seats' mean, so that "easy < normal < medium < hard" is measured, not named.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from scorekeeper.games.spec import GameSpec, spec
from scorekeeper.lab.selfplay import simulate

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(wins: int, rounds: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a win rate of `wins` in `rounds` (tight and inside 0..1 near the ends)."""
    if rounds <= 0:
        return 0.0, 1.0
    rate = wins / rounds
    spread = z * z / rounds
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / rounds + spread / (4 * rounds)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def strengths(game: GameSpec) -> list[tuple[str, str]]:
    """The strengths a person can choose for `game`, weakest first: (strength, bot name)."""
    return [(strength, bot) for strength, bot in game.strengths if bot in game.bots]


def round_robin(
    game_name: str, players: int, rounds: int, seed: int, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every strength against every other (see the module docstring); JSON-ready."""
    game = spec(game_name)
    levels = strengths(game)
    pairs: list[dict[str, Any]] = []
    for name, bot in levels:
        for other, other_bot in levels:
            if other == name:
                continue
            summary = simulate(game_name, players, [bot, other_bot], rounds, seed, settings)
            mine, *field = summary["bots"]
            low, high = wilson(mine["wins"], rounds)
            pairs.append(
                {
                    "strength": name,
                    "against": other,
                    "win_rate": mine["win_rate"],
                    "ci95": [round(low, 4), round(high, 4)],
                    "points_per_round": mine["mean_points"],
                    "others_points_per_round": round(statistics.fmean(r["mean_points"] for r in field), 3),
                }
            )
    overall = {
        name: round(statistics.fmean(p["win_rate"] for p in pairs if p["strength"] == name), 4)
        for name, _ in levels
    }
    return {
        "game": game_name,
        "players": players,
        "rounds": rounds,
        "seed": seed,
        "lower_wins": game.lower_wins,
        "strengths": [name for name, _ in levels],
        "pairs": pairs,
        "mean_win_rate": overall,
    }


def table(report: dict[str, Any]) -> str:
    """The round-robin as text: a row per strength, a column per opponent filling the other seats."""
    names = report["strengths"]
    cells = {(p["strength"], p["against"]): p for p in report["pairs"]}
    unit = "penalty" if report["lower_wins"] else "points"
    width = 34
    lines = [
        f"{report['game']}, {report['players']} players, {report['rounds']} rounds per pairing (seed "
        f"{report['seed']}): one seat of the row's strength against the column's; win rate [95% CI], "
        f"{unit} per round / the other seats' mean",
        " " * 8 + "".join(f"{'vs ' + name:>{width}}" for name in names) + f"{'mean win':>10}",
    ]
    for name in names:
        row = f"{name:>8}"
        for other in names:
            pair = cells.get((name, other))
            if pair is None:
                row += f"{'-':>{width}}"
                continue
            low, high = pair["ci95"]
            text = (
                f"{pair['win_rate']:.1%} [{100 * low:.1f}-{100 * high:.1f}] "
                f"{pair['points_per_round']:.1f}/{pair['others_points_per_round']:.1f}"
            )
            row += f"{text:>{width}}"
        row += f"{report['mean_win_rate'][name]:>10.1%}"
        lines.append(row)
    return "\n".join(lines)
