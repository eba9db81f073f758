"""A saved digital game that today's engine cannot replay is told on home, where it is listed, and the host sets it
aside there (or on its play screen) after a confirmation. Nothing is lost: the store keeps it in `digital/` with a
set-aside mark, in exports too; the match keeps its rounds and "Continue playing" deals the round again."""

from __future__ import annotations

import json
from pathlib import Path

import flet as ft
import pytest
from test_saved_games_robust import edit_saved, two_games
from test_ui_core_harness import App

from scorekeeper.exchange.transfer import export_json_text
from scorekeeper.games.base import RuleError
from scorekeeper.store import Store
from scorekeeper.store.saved_data import ASIDE, check_saved_game

CANNOT = "This game cannot be continued with this version"


def broken_game(folder: Path) -> tuple[str, str]:
    """Two games (see `two_games`) whose digital one repeats its first move: today's engine refuses move 2."""
    match_id, saved_id = two_games(folder)
    edit_saved(folder, saved_id, lambda game: game["log"].insert(0, game["log"][0]), keep_backup=False)
    return match_id, saved_id


def kept(folder: Path, saved_id: str) -> dict[str, object]:
    """The saved game as the data folder holds it."""
    envelope = json.loads((folder / "digital" / f"{saved_id}.json").read_text(encoding="utf-8"))
    return envelope["tables"]["game"]["1"]


def confirm(app: App, button: str) -> None:
    """Tap `button`, confirm, and run what the browser's report of the closed dialog runs."""
    dialogs = app.page._dialogs.controls
    # The browser reported a cancelled dialog dismissed: Flet drops it.
    dialogs[:] = [d for d in dialogs if d.open]
    app.tap(button)
    (dialog,) = [d for d in app.page._dialogs.controls if d.open and isinstance(d, ft.AlertDialog)]
    app.tap("set-aside-confirm")
    assert not dialog.open
    dialog.data()


def test_home_says_a_game_cannot_be_continued_and_sets_it_aside(tmp_path: Path) -> None:
    """Before: home listed it like any other game; only opening it told, and setting it aside there moved its
    file to trash/, out of every export, without asking."""
    folder = tmp_path / "data"
    match_id, saved_id = broken_game(folder)
    app = App(folder)
    assert CANNOT in app.screen_text() and app.has(f"set-aside-{saved_id}")
    app.tap(f"set-aside-{saved_id}")
    assert "Set this game aside?" in app.screen_text()
    app.tap("set-aside-cancel")
    assert app.store.get_digital_game(saved_id) is not None and app.has(f"set-aside-{saved_id}")
    confirm(app, f"set-aside-{saved_id}")
    assert app.ctx.route == "/" and not app.has(f"resume-{saved_id}") and CANNOT not in app.screen_text()
    assert app.has(f"continue-{match_id}")  # the tracked game is untouched
    assert isinstance(kept(folder, saved_id)["data"][ASIDE], str)  # type: ignore[index]
    assert not (folder / "trash").exists() or not any((folder / "trash").iterdir())
    exported = json.loads(export_json_text(app.store))
    assert [game["id"] for game in exported["digital_games"]] == [saved_id]
    assert "set aside" in app.screen_text()  # the notice says where the rounds are


def test_a_game_that_replays_has_no_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = two_games(folder)
    app = App(folder)
    assert app.has(f"resume-{saved_id}") and not app.has(f"set-aside-{saved_id}")
    assert CANNOT not in app.screen_text()


def test_a_guest_sees_the_problem_but_no_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = broken_game(folder)
    app = App(folder)
    app.ctx.guest = True
    app.ctx.member_device = "a member device"  # a member: sees the games, not the owner's rights
    app.go("/")
    assert CANNOT in app.screen_text() and not app.has(f"set-aside-{saved_id}")
    app.go(f"/play/{saved_id}")
    assert "cannot be continued" in app.screen_text() and not app.has("set-aside")


def test_the_play_screen_sets_it_aside_after_a_confirmation(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = broken_game(folder)
    app = App(folder)
    app.tap(f"resume-{saved_id}")
    assert "Move 2 of the saved round cannot be replayed" in app.screen_text()
    app.tap("set-aside")
    app.tap("set-aside-cancel")
    assert app.ctx.route == f"/play/{saved_id}" and ASIDE not in kept(folder, saved_id)["data"]  # type: ignore[operator]
    confirm(app, "set-aside")
    assert app.ctx.route == "/" and not app.has(f"resume-{saved_id}")
    assert ASIDE in kept(folder, saved_id)["data"]  # type: ignore[operator]


def test_the_match_continues_with_its_round_dealt_again(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = broken_game(folder)
    app = App(folder)
    match_id = app.store.get_digital_game(saved_id).match_id  # type: ignore[union-attr]
    confirm(app, f"set-aside-{saved_id}")
    app.go(f"/match/{match_id}")
    app.tap("continue-play")
    new_id = app.ctx.route.removeprefix("/play/")
    assert new_id != saved_id and app.has("turn-status") and not app.has("set-aside")
    games = {game.id for game in app.store.list_digital_games()}
    assert games == {saved_id, new_id}  # the set-aside game is still kept
    app.go("/")
    assert app.has(f"resume-{new_id}") and not app.has(f"resume-{saved_id}")


def test_the_mark_survives_a_reopen_and_has_a_checked_shape(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = broken_game(folder)
    store = Store.open(folder)
    assert store.set_aside_digital_game(saved_id) is not None
    assert store.set_aside_digital_game("missing") is None
    store.close()
    again = Store.open(folder)
    assert ASIDE in again.get_digital_game(saved_id).data  # type: ignore[union-attr]
    assert again.recovery_messages == []
    with pytest.raises(RuleError, match="set-aside mark"):
        check_saved_game("racko", {"players": 2}, {ASIDE: 5})
