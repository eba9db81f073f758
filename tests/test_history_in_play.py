"""The history says of a game in progress whether its round is being played or is next: a digital match's round
is dealt when the game starts and after each round (`PlaySession.next_round`), and is played until it ends; a
tracked match (played with real cards) has no round under way, only the next one to enter."""

from __future__ import annotations

from pathlib import Path

from play_support import one_move, play_round, racko_moves_in
from test_ui_core_harness import App

from scorekeeper.digital.session import PlaySession
from scorekeeper.model.match import Match
from scorekeeper.store import Store


def history_text(folder: Path) -> str:
    app = App(folder)
    app.go("/history")
    return app.screen_text()


def test_a_digital_round_dealt_is_being_played_and_once_over_the_next_one_is_next(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with Store.open(folder) as store:
        session = racko_moves_in(store, "anna", "Anna", seed=5, moves=0)
    assert "In progress: round 1 being played" in history_text(folder)
    assert "is next" not in history_text(folder)
    with Store.open(folder) as store:
        session = PlaySession.load(store, session.saved.id)
        assert session is not None
        one_move(session)
        play_round(session)
        assert session.round_over and not session.match.is_over
    text = history_text(folder)  # the round is in the match; the next one is not dealt yet
    assert "In progress: round 2 is next" in text and "being played" not in text
    with Store.open(folder) as store:
        session = PlaySession.load(store, session.saved.id)
        assert session is not None and session.next_round() is not None
    assert "In progress: round 2 being played" in history_text(folder)


def test_a_tracked_game_and_a_digital_game_set_aside_have_their_next_round_next(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with Store.open(folder) as store:
        store.save_match(Match.new("ruckzuck", {}, ["ben", "cleo"], names=["Ben", "Cleo"]))
        session = racko_moves_in(store, "anna", "Anna", seed=5, moves=1)
        store.set_aside_digital_game(session.saved.id)  # its round is dealt again when it is continued
    text = history_text(folder)
    assert text.count("In progress: round 1 is next") == 2 and "being played" not in text


def test_a_german_history_says_so_in_german(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with Store.open(folder) as store:
        racko_moves_in(store, "anna", "Anna", seed=5, moves=0)
        store.set_setting("language", "de")
    assert "Läuft: Runde 1 wird gespielt" in history_text(folder)
