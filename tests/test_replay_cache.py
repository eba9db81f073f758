"""Home asks `replay_problem` for every saved digital game in progress on every redraw; its answers are kept
per game, so a redraw replays nothing that did not change, however many games are in progress (before, a cache
of 64 answers thrashed with more than 64 games and every redraw replayed them all)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.digital import checks
from scorekeeper.games.base import RuleError
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame

MANY = 150
"""More saved games in progress than the old cache held (64)."""


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the saved games replayed, in order (the replay itself is not run: the games are fakes)."""
    seen: list[str] = []

    def spy(store: Store, saved: SavedGame) -> RuleError | None:
        seen.append(saved.id)
        return RuleError("refused") if saved.id.endswith("7") else None

    monkeypatch.setattr(checks, "_replay", spy)
    return seen


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "data")
    yield opened
    opened.close()


def games(count: int) -> list[SavedGame]:
    return [SavedGame.new("racko", {}, seed, match_id=f"m{seed}") for seed in range(count)]


def test_a_second_pass_over_many_games_replays_none(store: Store, replays: list[str]) -> None:
    listed = games(MANY)
    first = [checks.replay_problem(store, saved) for saved in listed]
    assert len(replays) == MANY
    second = [checks.replay_problem(store, saved) for saved in listed]
    assert len(replays) == MANY  # nothing replayed again
    assert [str(answer) for answer in second] == [str(answer) for answer in first]
    assert sum(answer is not None for answer in second) == sum(s.id.endswith("7") for s in listed)


def test_a_game_saved_again_is_replayed_again_once(store: Store, replays: list[str]) -> None:
    listed = games(MANY)
    for saved in listed:
        checks.replay_problem(store, saved)
    moved = dataclasses.replace(
        listed[3], version=listed[3].version + 1, updated="2026-11-27T21:00:00.000001"
    )
    listed[3] = moved
    replays.clear()
    for _ in range(2):
        for saved in listed:
            checks.replay_problem(store, saved)
    assert replays == [moved.id]


def test_each_store_has_its_own_answers(tmp_path: Path, replays: list[str]) -> None:
    saved = games(1)[0]
    one, other = Store.open(tmp_path / "one"), Store.open(tmp_path / "other")
    checks.replay_problem(one, saved)
    checks.replay_problem(other, saved)
    checks.replay_problem(one, saved)
    one.close()
    other.close()
    assert replays == [saved.id, saved.id]
