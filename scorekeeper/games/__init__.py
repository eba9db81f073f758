"""The rules of Racko, Ruck Zuck and Rage: scoring, validation and digital play. No UI, no files."""

from scorekeeper.games.base import RuleError, places

GAMES = ("racko", "ruckzuck", "rage")

__all__ = ["GAMES", "RuleError", "places"]
