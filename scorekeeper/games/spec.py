"""The registry of games: `GAMES` is the only list of games, in the order the app shows them.

Adding a game means one new package under `scorekeeper/games/` with a `spec.SPEC` (see `contract.GameSpec`)
and one line here, and its screens with one line in the UI registry (`scorekeeper/ui/registry.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

from scorekeeper.games.base import Message, RuleError, joined
from scorekeeper.games.contract import GameSpec, OptionField, StatFigure
from scorekeeper.games.racko.spec import SPEC as RACKO
from scorekeeper.games.rage.spec import SPEC as RAGE
from scorekeeper.games.ruckzuck.spec import SPEC as RUCKZUCK

GAMES: list[GameSpec] = [RACKO, RUCKZUCK, RAGE]
"""Changed only by `register` and `unregister` (a test's own game), never replaced: modules hold this list."""
KEYS: tuple[str, ...] = tuple(game.key for game in GAMES)
"""The keys of the games this version ships (a game registered later is not among them)."""
_BY_KEY = {game.key: game for game in GAMES}


def register(game: GameSpec) -> None:
    """Add `game` to the registry, after the others (a test's own game; the app's games are listed above)."""
    if game.key in _BY_KEY:
        raise ValueError(f"A game called '{game.key}' is registered already.")
    GAMES.append(game)
    _BY_KEY[game.key] = game


def unregister(game: GameSpec) -> None:
    """Take `game`, added by `register`, out of the registry again."""
    GAMES.remove(game)
    del _BY_KEY[game.key]


T = TypeVar("T")


class ByKey(Mapping[str, T]):
    """One thing of every registered game by its key (its options, its player range, ...), read from the
    registry when asked: a game registered later is in it too, and no second list of games is kept."""

    def __init__(self, read: Callable[[GameSpec], T]) -> None:
        self._read = read

    def __getitem__(self, key: str) -> T:
        return self._read(_BY_KEY[key])

    def __iter__(self) -> Iterator[str]:
        return iter([game.key for game in GAMES])

    def __len__(self) -> int:
        return len(GAMES)


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


__all__ = [
    "GAMES",
    "KEYS",
    "ByKey",
    "GameSpec",
    "Message",
    "OptionField",
    "StatFigure",
    "find",
    "register",
    "spec",
    "unregister",
]
