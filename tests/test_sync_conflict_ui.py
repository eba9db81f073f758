"""A match in conflict on screen (in process): the history and the scoreboard say so and show both versions;
keeping one or both resolves it (synccore's Store API), and the next sync agrees everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sync_support import change, rounds_of
from test_store_support import new_match
from test_ui_core_harness import App

from scorekeeper.server import sync_runtime as rt
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget


def R(a: int, b: int, c: int, out: int) -> dict:
    hands = [a, b, c]
    hands[out] = 0
    return {"hands": hands, "out": out}


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[App, Store, FolderTarget, str]]:
    """This device (an app session) and another, with one match changed differently on both."""
    (tmp_path / "target").mkdir()
    target = FolderTarget(tmp_path / "target")
    app = App(tmp_path / "this", width=1024)
    other = Store.open(tmp_path / "other")
    match = app.store.save_match(new_match(app.store, rounds=1))
    for _ in range(2):
        sync_once(app.store, target)
        sync_once(other, target)
    change(app.store, match.id, lambda m: m.with_round(R(1, 1, 1, 0)))
    change(other, match.id, lambda m: m.with_round(R(2, 2, 2, 1)))
    for _ in range(2):
        sync_once(other, target)
        sync_once(app.store, target)
    yield app, other, target, match.id
    rt.forget(app.store)
    other.close()


def test_the_history_and_the_scoreboard_show_the_conflict(two) -> None:
    app, _other, _target, match_id = two
    app.go("/history")
    assert "Changed differently on another device: open it to choose." in app.screen_text()
    app.go(f"/match/{match_id}")
    assert app.has("conflict-panel")
    assert app.has("conflict-keep-this") and app.has("conflict-keep-other") and app.has("conflict-keep-both")
    assert "changed this game differently. Which version do you keep?" in app.screen_text()
    app.go(f"/history/{match_id}")
    assert app.has("conflict-panel")


def test_keeping_the_other_version_takes_its_round_everywhere(two) -> None:
    app, other, target, match_id = two
    app.go(f"/match/{match_id}")
    app.tap("conflict-keep-other")
    assert not app.has("conflict-panel")
    assert rounds_of(app.store, match_id)[-1] == R(2, 2, 2, 1)
    app.go("/history")
    assert "Changed differently" not in app.screen_text()
    for _ in range(2):
        sync_once(app.store, target)
        sync_once(other, target)
    assert other.conflicts() == []
    assert rounds_of(other, match_id)[-1] == R(2, 2, 2, 1)


def test_keeping_both_makes_two_games(two) -> None:
    app, _other, _target, match_id = two
    app.go(f"/match/{match_id}")
    app.tap("conflict-keep-both")
    assert app.store.conflicts() == []
    assert len(app.store.list_matches()) == 2
    assert "Both versions are kept: the other one is a separate game now." in app.screen_text()


def test_a_delete_against_an_edit_deletes_only_with_the_hosts_right(tmp_path: Path) -> None:
    """Deleted here, edited there: the edit is shown; keeping this device's version deletes the game, which
    a guest may not do (like deleting from the history)."""
    (tmp_path / "target").mkdir()
    target = FolderTarget(tmp_path / "target")
    app = App(tmp_path / "this", width=1024)
    other = Store.open(tmp_path / "other")
    try:
        match = app.store.save_match(new_match(app.store, rounds=1))
        for _ in range(2):
            sync_once(app.store, target), sync_once(other, target)
        app.store.delete_match(match.id)
        change(other, match.id, lambda m: m.with_round(R(3, 3, 3, 2)))
        for _ in range(2):
            sync_once(other, target), sync_once(app.store, target)
        app.go(f"/match/{match.id}")
        assert app.has("conflict-keep-this") and app.has("conflict-keep-other")
        assert not app.has("conflict-keep-both")
        assert "Deleted" in app.screen_text()
        app.ctx.guest = True
        app.ctx.member_device = "a member device"  # a member: sees the games, not the owner's rights
        app.go(f"/match/{match.id}")
        assert not app.has("conflict-keep-this") and app.has("conflict-keep-other")
        app.ctx.guest = False
        app.go(f"/match/{match.id}")
        app.tap("conflict-keep-this")
        assert app.store.list_matches() == []
    finally:
        rt.forget(app.store)
        other.close()
