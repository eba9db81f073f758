"""The play screen's match result: "You win!" for the one person at the device, "<name> wins!" otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_play_ui import play_app, shown

from scorekeeper.digital import engine
from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat


def finished(store: object, seats: list[Seat], winner: int | None) -> PlaySession:
    """A Ruck Zuck match played to its end (the people's moves by a computer player's choice) that `winner`
    won alone (None: anyone; the computer players choose at random: deals are tried until one ends so)."""
    for seed in range(60):
        session = PlaySession.create(store, "ruckzuck", {}, seats, seed=seed)
        bot = engine.make_bot("ruckzuck", engine.strengths("ruckzuck")[0])
        while not session.match_over:
            if session.round_over:
                session.next_round()
            elif session.computer_to_act:
                session.step_computer()
            else:
                seat = session.to_act
                session.act(seat, bot.choose(session.view_for(seat), session.legal_for(seat)))
        winners = session.match.winners()
        if len(winners) == 1 and winner in (None, winners[0]):
            return session
    raise AssertionError(f"seat {winner} never won alone")


@pytest.mark.parametrize("name", ["You", "Anna"])
def test_the_one_person_at_the_device_is_told_you_win(tmp_path: Path, name: str) -> None:
    app = play_app(tmp_path)
    session = finished(app.store, [Seat(PERSON, "p-1", name), computer_seat("easy", 1, "CPU")], winner=0)
    app.go(f"/play/{session.saved.id}")
    assert app.has("match-result")
    assert "You win!" in shown(app) and f"{name} wins!" not in shown(app)


def test_a_computer_player_that_wins_is_named(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    session = finished(app.store, [Seat(PERSON, "p-1", "You"), computer_seat("easy", 1, "CPU")], winner=1)
    app.go(f"/play/{session.saved.id}")
    assert "CPU wins!" in shown(app) and "You win!" not in shown(app)


def test_pass_and_play_names_the_winner(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    seats = [Seat(PERSON, "p-1", "Anna"), Seat(PERSON, "p-2", "Ben")]
    session = finished(app.store, seats, winner=None)
    app.go(f"/play/{session.saved.id}")
    name = session.match.names[session.match.winners()[0]]
    assert f"{name} wins!" in shown(app) and "You win!" not in shown(app)


def test_you_win_is_said_in_every_language() -> None:
    from scorekeeper.ui.i18n import Translator

    expected = {"de": "Du hast gewonnen!", "nl": "Je hebt gewonnen!", "fr": "Vous avez gagné\u00a0!"}
    for language, text in expected.items():
        assert Translator(language)("You win!") == text


@pytest.mark.parametrize(
    ("winner", "expected", "absent"), [(0, "You win!", "You wins!"), (1, "CPU wins!", "You win!")]
)
def test_the_game_end_screen_of_a_digital_match_says_it_the_same_way(
    tmp_path: Path, winner: int, expected: str, absent: str
) -> None:
    """The history's "Game over" screen of a finished digital match: the one person is told "You win!" there too
    (not "You wins!" for a person called You); a computer that won is named."""
    app = play_app(tmp_path)
    session = finished(
        app.store, [Seat(PERSON, "p-1", "You"), computer_seat("easy", 1, "CPU")], winner=winner
    )
    app.go(f"/match/{session.match.id}/end")
    assert expected in shown(app) and absent not in shown(app)
