"""The engine benchmark's yardstick: the inline Racko loop plays the very rounds the engine plays."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from scorekeeper.bench import engine
from scorekeeper.bench.engine import inline_racko, inline_racko_round, rage_random_rounds_per_second
from scorekeeper.games.base import play_out
from scorekeeper.games.racko import BOTS, RackoOptions, new_round


def test_the_inline_loop_plays_the_engines_rounds_turn_for_turn() -> None:
    options = RackoOptions(2, two_player_rule=False)
    band = [0] + [min(9, (card - 1) * 10 // 40) for card in range(1, 41)]
    for seed in range(20):
        state = play_out(new_round(options, seed), [BOTS["baseline"](), BOTS["baseline"]()])
        assert inline_racko_round(seed, band, 2) == state.turn
    assert 5 < inline_racko(20, 1) < 60


def test_rage_rounds_per_second_is_measured() -> None:
    assert rage_random_rounds_per_second(rounds=3, repeats=1) > 0


def test_without_an_interpreter_with_pyspiel_the_yardstick_is_not_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # OpenSpiel is no dependency: the bench names no figure rather than failing or guessing one
    monkeypatch.delenv(engine.PYSPIEL_PYTHON, raising=False)
    if importlib.util.find_spec("pyspiel") is not None:
        pytest.skip("this interpreter has pyspiel")
    assert engine.pyspiel_python() is None
    assert engine.pyspiel_oh_hell_rounds_per_second() is None


def test_the_yardstick_runs_in_the_named_interpreter(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # a stand-in `pyspiel` module (a game whose rounds end at once) shows the child is run and read
    (tmp_path / "pyspiel.py").write_text(
        "class _State:\n"
        "    def is_terminal(self):\n        return True\n"
        "class _Game:\n"
        "    def new_initial_state(self):\n        return _State()\n"
        "def load_game(name, params):\n"
        "    assert name == 'oh_hell' and params['players'] == 4\n"
        "    return _Game()\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv(engine.PYSPIEL_PYTHON, sys.executable)
    rate = engine.pyspiel_oh_hell_rounds_per_second(rounds=3, repeats=1)
    assert rate is not None and rate > 0
