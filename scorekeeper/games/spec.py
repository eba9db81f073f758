"""The registry of games: `GAMES` is the only list of games, in the order the app shows them.

Adding a game means one new package under `scorekeeper/games/` with a `spec.SPEC` (see `contract.GameSpec`)
and one line here.
"""

from __future__ import annotations

from scorekeeper.games.base import Message, RuleError, joined
from scorekeeper.games.contract import GameSpec, OptionField, StatFigure
from scorekeeper.games.racko.spec import SPEC as RACKO
from scorekeeper.games.rage.spec import SPEC as RAGE
from scorekeeper.games.ruckzuck.spec import SPEC as RUCKZUCK

GAMES: tuple[GameSpec, ...] = (RACKO, RUCKZUCK, RAGE)
KEYS: tuple[str, ...] = tuple(game.key for game in GAMES)
_BY_KEY = {game.key: game for game in GAMES}


def find(key: object) -> GameSpec | None:
    """The spec of the game called `key`, or None."""
    return _BY_KEY.get(key) if isinstance(key, str) else None


def spec(key: object) -> GameSpec:
    """The spec of the game called `key`; RuleError for a game this version does not know."""
    found = find(key)
    if found is None:
        titles: list[str] = [game.title for game in GAMES]
        raise RuleError("Unknown game '{game}'. Choose one of: {games}.", game=key, games=joined(titles))
    return found


__all__ = ["GAMES", "KEYS", "GameSpec", "Message", "OptionField", "StatFigure", "find", "spec"]
