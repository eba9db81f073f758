"""Code outside `scorekeeper/games/` never names a game: it asks the registry `GAMES` and the game's
`GameSpec`, and for a game's screens the UI registry (`scorekeeper.ui.registry`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.bench.table import PHONES, _game
from scorekeeper.games.contract import GameSpec, PartShape
from scorekeeper.games.spec import GAMES
from scorekeeper.table.parts import shape_of
from scorekeeper.ui.views.table.board import board_of

ROOT = Path(__file__).resolve().parents[1] / "scorekeeper"
NAMED = re.compile("[\"'](" + "|".join(game.key for game in GAMES) + ")[\"']")


def test_no_module_outside_the_games_names_a_game() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted(ROOT.rglob("*.py"))
        if "games" not in path.relative_to(ROOT).parts[:1]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if NAMED.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_each_game_says_what_a_seat_enters_at_a_table_and_shows_a_board(game: GameSpec) -> None:
    assert isinstance(game.table_part, PartShape)
    assert shape_of(game.key) is game.table_part
    board = board_of(game.key)
    assert board is not None and callable(board.table) and callable(board.seat)


def test_a_game_without_a_board_module_has_no_board() -> None:
    assert board_of("no-such-game") is None


def test_the_table_bench_measures_the_game_with_the_most_seats() -> None:
    key, phones = _game()
    most = max(GAMES, key=lambda game: game.players[1])
    assert (key, phones) == (most.key, min(most.players[1], PHONES))
