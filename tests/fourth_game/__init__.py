"""High card: a tiny fourth game that exists for the tests only. It shows what adding a game takes: one package
of rules (`highcard`, as under `scorekeeper/games/`, with its `GameSpec` in `highcard.spec`), one package of
screens (`ui`, its `GameUI`), and one line in each registry (`registered()` adds both lines for a test and takes
them out again)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fourth_game.highcard.spec import SPEC
from fourth_game.ui import UI
from scorekeeper.games import spec as games
from scorekeeper.ui import registry


@contextmanager
def registered() -> Iterator[None]:
    """High card in the games registry and the UI registry while the block runs."""
    games.register(SPEC)
    registry.register(SPEC, UI)
    try:
        yield
    finally:
        registry.unregister(SPEC)
        games.unregister(SPEC)
