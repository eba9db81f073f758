"""A set-aside game can be found again: Settings lists the games set aside and the host tries them again there
(back under "Continue a game" when today's engine replays it and its match still waits for its round, otherwise
it says why and stays set aside; nothing is deleted), and home offers the match of a game set aside, whose round
is dealt again. Before, a set-aside game came back only by editing files, and its match was only in History."""

from __future__ import annotations

from pathlib import Path

from test_saved_games_aside import broken_game, confirm, kept
from test_saved_games_robust import two_games
from test_ui_core_harness import App

from scorekeeper.digital.checks import matches_to_deal_again
from scorekeeper.digital.session import PlaySession
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import ASIDE

STILL = "It still cannot be continued with this version of the app"


def aside_in_store(folder: Path, broken: bool) -> tuple[str, str]:
    """(match id, saved game id) of a digital game set aside; `broken`: its moves no longer replay (else it
    replays, as after an update of the app that fixed what an older version refused)."""
    _, saved_id = broken_game(folder) if broken else two_games(folder)
    store = Store.open(folder)
    saved = store.set_aside_digital_game(saved_id)
    store.close()
    assert saved is not None and saved.match_id is not None
    return saved.match_id, saved_id


def test_settings_lists_a_game_set_aside_and_keeps_it_aside_while_it_still_fails(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = aside_in_store(folder, broken=True)
    app = App(folder)
    app.go("/settings")
    assert app.has("games-set-aside") and app.has(f"aside-{saved_id}")
    text = app.screen_text()
    assert "Games set aside" in text and "Racko · round 1" in text and "Anna, Computer 2" in text
    assert "Set aside on " in text and STILL not in text
    app.tap(f"try-again-{saved_id}")
    text = app.screen_text()
    assert STILL in text and "Move 2 of the saved round cannot be replayed" in text
    assert ASIDE in kept(folder, saved_id)["data"]  # type: ignore[operator]
    assert app.has(f"aside-{saved_id}")  # still listed, and nothing deleted
    assert (folder / "digital" / f"{saved_id}.json").exists()


def test_try_again_brings_back_a_game_that_replays_now(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    match_id, saved_id = aside_in_store(folder, broken=False)
    app = App(folder)
    assert not app.has(f"resume-{saved_id}")
    app.go("/settings")
    app.tap(f"try-again-{saved_id}")
    assert ASIDE not in kept(folder, saved_id)["data"]  # type: ignore[operator]
    assert "The game is back" in app.screen_text()
    assert not app.has("games-set-aside")  # the list is empty: no section
    app.go("/")
    assert app.has(f"resume-{saved_id}") and not app.has(f"continue-{match_id}")
    app.tap(f"resume-{saved_id}")
    assert app.ctx.route == f"/play/{saved_id}" and app.has("turn-status")


def test_try_again_keeps_it_aside_when_its_match_went_on(tmp_path: Path) -> None:
    """The round was dealt again since: bringing the old deal back would play one round twice."""
    folder = tmp_path / "data"
    match_id, saved_id = aside_in_store(folder, broken=False)
    app = App(folder)
    match = app.store.get_match(match_id)
    assert match is not None
    dealt_again = PlaySession.continue_match(app.store, match)
    app.go("/settings")
    app.tap(f"try-again-{saved_id}")
    assert "went on without it" in app.screen_text()
    assert ASIDE in kept(folder, saved_id)["data"]  # type: ignore[operator]
    assert {g.id for g in app.store.list_digital_games()} == {saved_id, dealt_again.id}


def test_a_guest_sees_the_games_set_aside_but_cannot_try_them_again(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = aside_in_store(folder, broken=False)
    app = App(folder)
    app.ctx.guest = True
    app.ctx.member_device = "a member device"  # a member: sees the games, not the owner's rights
    app.go("/settings")
    assert app.has(f"aside-{saved_id}") and not app.has(f"try-again-{saved_id}")


def test_no_section_without_games_set_aside(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    two_games(folder)
    app = App(folder)
    app.go("/settings")
    assert not app.has("games-set-aside") and "Games set aside" not in app.screen_text()


def test_home_offers_the_match_of_a_game_set_aside_and_deals_its_round_again(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _, saved_id = broken_game(folder)
    app = App(folder)
    match_id = app.store.get_digital_game(saved_id).match_id  # type: ignore[union-attr]
    assert not app.has(f"continue-{match_id}")  # its saved game is listed instead
    confirm(app, f"set-aside-{saved_id}")
    assert app.ctx.route == "/" and app.has(f"continue-{match_id}")
    assert "The round in progress was set aside and is dealt again" in app.screen_text()
    app.tap(f"continue-{match_id}")
    new_id = app.ctx.route.removeprefix("/play/")
    assert new_id != saved_id and app.has("turn-status")
    app.go("/")
    assert app.has(f"resume-{new_id}") and not app.has(f"continue-{match_id}")


def test_a_match_that_is_over_is_not_offered_again(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    games = []
    for over in (True, False):
        match = Match.new(
            "racko", {"players": 2, "target": 50}, ["a", "b"], names=["Anna", "Ben"], mode="digital"
        )
        if over:
            match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
        match = store.save_match(match)
        seats = [
            {"kind": "person", "player": p, "name": n}
            for p, n in zip(match.players, match.names, strict=True)
        ]
        saved = SavedGame.new("racko", match.options, 1, match_id=match.id, data={"seats": seats, "round": 0})
        saved.data[ASIDE] = "2026-11-27T17:00:00+00:00"
        games.append(store.save_digital_game(saved))
    waiting = matches_to_deal_again(store, store.list_digital_games())
    assert [match.id for match in waiting] == [games[1].match_id]
