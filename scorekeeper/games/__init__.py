"""The rules of the games: scoring, validation and digital play (each game's states and bots), the option
table (`options`) and the registry of games (`spec`). No UI, no files, no clock.

May import: nothing of the app outside this package (the lowest room but the platform modules at the package
root). Inside it, a module imports the defining module, not a package's `__init__` that re-exports it.

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
