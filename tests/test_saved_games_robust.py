"""Saved digital games that would break screens: a bad field (by hand or imported) is caught on load and on
import and set aside with a message, home draws the rest; a game restored from its .bak says so on the first
home view; a match whose saved game is missing (its start was cut short) can still be continued."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from play_support import racko_moves_in
from test_ui_core_harness import App

from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.exchange.transfer import export_json_text, import_json_text
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.errors import ImportFileError
from scorekeeper.store.saved_data import check_saved_game

BAD_DATA = {
    "round": "x",
    "seats": [1, 2],
    "over": "yes",
    "table": {"code": 5},
}
"""One bad field each, as a hand edit or an import could hold them."""


def two_games(folder: Path) -> tuple[str, str]:
    """A tracked Rage match and a digital Racko game a few moves in; returns (match id, saved game id)."""
    store = Store.open(folder)
    anna = store.add_player("Anna")
    tracked = Match.new("rage", {}, [anna.id, "ben"], names=["Anna", "Ben"])
    tracked = store.save_match(tracked)
    session = racko_moves_in(store, anna.id)
    store.close()
    return tracked.id, session.saved.id


def edit_saved(folder: Path, saved_id: str, change: Any, *, keep_backup: bool) -> Path:
    path = folder / "digital" / f"{saved_id}.json"
    envelope = json.loads(path.read_text(encoding="utf-8"))
    change(envelope["tables"]["game"]["1"])
    path.write_text(json.dumps(envelope), encoding="utf-8")
    if not keep_backup:
        (folder / "digital" / f"{saved_id}.json.bak").unlink()
    return path


def set_aside(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".corrupt-" in p.name]


@pytest.mark.parametrize("field", sorted(BAD_DATA))
def test_a_bad_field_in_a_saved_game_is_set_aside_on_load(tmp_path: Path, field: str) -> None:
    folder = tmp_path / "data"
    _, saved_id = two_games(folder)
    edit_saved(
        folder, saved_id, lambda game: game["data"].update({field: BAD_DATA[field]}), keep_backup=False
    )
    store = Store.open(folder)
    assert store.list_digital_games() == []
    assert len(set_aside(folder)) == 1
    (message,) = store.recovery_messages
    assert "could not be read" in str(message)


def test_a_hand_edit_with_a_good_backup_is_replaced_by_the_backup(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = two_games(folder)
    edit_saved(folder, saved_id, lambda game: game["data"].update(round="x"), keep_backup=True)
    store = Store.open(folder)
    (saved,) = store.list_digital_games()
    assert saved.data["round"] == 0 and len(set_aside(folder)) == 1 and store.recovery_messages


@pytest.mark.parametrize("field", sorted(BAD_DATA))
def test_an_import_with_a_bad_saved_game_is_refused_with_a_message(tmp_path: Path, field: str) -> None:
    folder = tmp_path / "data"
    two_games(folder)
    store = Store.open(folder)
    document = json.loads(export_json_text(store))
    document["digital_games"][0]["data"][field] = BAD_DATA[field]
    other = Store.open(tmp_path / "other")
    with pytest.raises(ImportFileError, match="Saved digital game 1"):
        import_json_text(other, json.dumps(document))
    assert other.list_digital_games() == [] and other.list_matches() == []


def test_what_the_play_session_writes_passes_and_older_data_too() -> None:
    seats = [{"kind": "person", "player": "a", "name": "Anna", "strength": None}]
    check_saved_game("racko", {"players": 2}, {"seats": [*seats, {**seats[0], "player": "b"}], "round": 3})
    check_saved_game("racko", {"players": 2}, {"bots": ["hard"]})  # the data folder of 2026-11-23
    check_saved_game("rage", {"players": 3}, {"table": {"code": "ABCD", "seats": [{"kind": "open"}]}})
    with pytest.raises(ValueError, match="seats do not match"):
        check_saved_game("racko", {"players": 3}, {"seats": seats})


def test_home_draws_everything_else_when_a_saved_game_is_bad(tmp_path: Path) -> None:
    """Before: `/` showed "Something went wrong" on every visit and the file was never set aside."""
    folder = tmp_path / "data"
    match_id, saved_id = two_games(folder)
    edit_saved(folder, saved_id, lambda game: game["data"].update(round="x"), keep_backup=False)
    app = App(folder)
    text = app.screen_text()
    assert "Something went wrong" not in text
    assert app.has(f"continue-{match_id}") and app.has("new-game")
    assert "could not be read" in text  # the notice, on this first view
    app.go("/history")
    app.go("/")
    assert "Something went wrong" not in app.screen_text() and app.has(f"continue-{match_id}")


def test_home_leaves_out_one_item_it_cannot_draw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A saved game no check foresaw (here: its seats replaced after loading) costs its card, not the screen."""
    folder = tmp_path / "data"
    match_id, saved_id = two_games(folder)
    real = Store.list_digital_games

    def broken(store: Store, *, read_only: bool = False) -> list[Any]:
        games = real(store)  # copies, also for a read-only caller: the kept games stay as they are
        for game in games:
            game.data["seats"] = [1, 2]
        return games

    monkeypatch.setattr(Store, "list_digital_games", broken)
    app = App(folder)
    assert "Something went wrong" not in app.screen_text()
    assert app.has(f"continue-{match_id}") and not app.has(f"resume-{saved_id}")


def test_a_game_restored_from_its_backup_says_so_on_the_first_home_view(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = two_games(folder)
    path = folder / "digital" / f"{saved_id}.json"
    path.write_bytes(path.read_bytes()[:40])  # cut off mid-write
    app = App(folder)
    assert app.has(f"resume-{saved_id}")
    assert "restored" in app.screen_text()  # before: nothing here, the notice came on the second visit


def test_a_match_whose_start_was_cut_short_can_be_continued(tmp_path: Path) -> None:
    """The start writes the match, then the first save of the game; a kill in between left a match whose
    "Continue playing" went home, in progress for ever. It now deals the match's next round."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    anna = store.add_player("Anna")
    seats = [Seat("person", anna.id, "Anna"), computer_seat("hard", 1, "Computer 2")]
    match = Match.new("racko", {}, [s.player for s in seats], names=[s.name for s in seats], mode="digital")
    match = store.save_match(match)  # and no saved game: the start stopped here
    store.close()
    app = App(folder)
    app.ctx.settings.update({"play_pace": "instant"})
    app.go(f"/match/{match.id}")
    app.tap("continue-play")
    assert app.ctx.route.startswith("/play/")
    (saved,) = app.store.list_digital_games()
    assert saved.match_id == match.id and app.ctx.route == f"/play/{saved.id}"
    assert [s["kind"] for s in saved.data["seats"]] == ["person", "computer"]
    assert saved.data["seats"][1]["strength"] == "hard"
    session = PlaySession.load(app.store, saved.id)
    assert session is not None and session.round_index == 0 and not session.round_over
    app.go(f"/match/{match.id}")
    app.tap("continue-play")  # and once repaired, the same game again
    assert app.ctx.route == f"/play/{saved.id}" and len(app.store.list_digital_games()) == 1


def test_a_saved_game_that_no_longer_replays_says_why(tmp_path: Path) -> None:
    """Before: its screen said "This game was not found." with an error bar. Setting it aside (home or this
    screen, after a confirmation): tests/test_saved_games_aside.py."""
    folder = tmp_path / "data"
    _, saved_id = two_games(folder)
    edit_saved(folder, saved_id, lambda game: game["log"].insert(0, game["log"][0]), keep_backup=False)
    app = App(folder)
    app.tap(f"resume-{saved_id}")
    text = app.screen_text()
    assert "cannot be continued" in text and "Move 2 of the saved round cannot be replayed" in text
    assert app.has("set-aside")


def test_the_repair_notice_stays_on_home_until_dismissed(tmp_path: Path) -> None:
    """Before: home cleared it on its first build, so a redraw right then (a resize, another device's save)
    dropped it unread."""
    folder = tmp_path / "data"
    _, saved_id = two_games(folder)
    path = folder / "digital" / f"{saved_id}.json"
    path.write_bytes(path.read_bytes()[:40])
    app = App(folder)
    assert "restored" in app.screen_text()
    app.ctx.rerender()
    assert "restored" in app.screen_text()
    app.tap("repairs-dismiss")
    assert "restored" not in app.screen_text()
    app.go("/history")
    app.go("/")
    assert "restored" not in app.screen_text()
