"""The rules of the games: scoring, validation and digital play. No UI, no files.

`GAMES` (the registry, `scorekeeper.games.spec`) is loaded on first use, so that importing one game's rules
does not load every game.
"""

from typing import Any

from scorekeeper.games.base import RuleError, places


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        from scorekeeper.games.spec import GAMES

        return GAMES
    raise AttributeError(name)


__all__ = ["GAMES", "RuleError", "places"]
