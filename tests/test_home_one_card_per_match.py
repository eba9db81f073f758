"""Home lists a digital match once, as history does: the saved game that continuing the match resumes.

A digital match has one saved game for all its rounds (`PlaySession.next_round` deals the next round into the same
saved game). A second saved game of the same match comes from `PlaySession.continue_match`, which makes a new one
when it finds none it can resume (the match's game was set aside, or its start was cut short): two devices that
each continue such a match before they sync, or two sessions of one server continuing it at the same moment, each
make their own. Synced, both games are on every device. History lists the match once and its "Continue" resumes
the most recently saved one; home listed a card for each ("Racko · round 1" twice, the same players)."""

from __future__ import annotations

from pathlib import Path

from play_support import one_move, play_round
from sync_support import Devices
from test_home_digital_paging import tags
from test_ui_core_harness import App

from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame


def two_devices_continue(tmp_path: Path, options: dict[str, object] | None = None) -> tuple[Path, str]:
    """A digital Racko match (`options`) started on device 0, its game set aside there (it no longer replays),
    synced; each device then continues the match (a new saved game each, the round dealt again) and plays a move
    before the two sync again. Returns device 0's folder and the match's id."""
    devices = Devices(tmp_path, count=2)
    try:
        first, second = devices.stores
        seats = [Seat("person", "anna", "Anna"), computer_seat("normal", 1, "Computer 2")]
        session = PlaySession.create(first, "racko", options or {}, seats, seed=5)
        one_move(session)
        first.set_aside_digital_game(session.saved.id)
        devices.everyone_twice()
        for store in (first, second):
            match = store.get_match(session.match.id)
            assert match is not None
            saved = PlaySession.continue_match(store, match)
            played = PlaySession.load(store, saved.id)
            assert played is not None
            one_move(played)
        devices.everyone_twice()
    finally:
        devices.close()
    return tmp_path / "device0", session.match.id


def live_games(folder: Path, match_id: str) -> list[SavedGame]:
    with Store.open(folder) as store:
        return [
            saved
            for saved in store.list_digital_games()
            if saved.match_id == match_id and "aside" not in saved.data
        ]


def test_two_saved_games_of_one_match_make_one_card(tmp_path: Path) -> None:
    folder, match_id = two_devices_continue(tmp_path)
    games = live_games(folder, match_id)
    assert len(games) == 2  # the situation: two games of the match in progress, neither set aside
    # ... of the same round: not two things to continue; whichever ends it first scores it, the other never does
    assert [saved.data["round"] for saved in games] == [0, 0] and games[0].seed != games[1].seed
    app = App(folder)
    app.go("/history")
    assert tags(app, "history-continue-") == [match_id]  # history: the match once
    app.go("/")
    match = app.store.get_match(match_id)
    assert match is not None
    resumed = PlaySession.continue_match(app.store, match)  # what history's Continue (the scoreboard's) opens
    assert resumed.id == games[0].id  # the most recently saved one
    assert tags(app, "resume-") == [resumed.id]  # home: the match once, the same game
    assert tags(app, "continue-") == []  # not also offered as a match to deal again


def test_a_match_finished_in_its_latest_game_is_not_offered(tmp_path: Path) -> None:
    """The match (one round) is finished in the game that continuing resumes: the other game of the match, left
    in the round the match already scored, is not offered either; history lists the match as finished."""
    folder, match_id = two_devices_continue(tmp_path, {"variant": "chips", "rounds": 1})
    latest = live_games(folder, match_id)[0]
    with Store.open(folder) as store:
        session = PlaySession.load(store, latest.id)
        assert session is not None
        play_round(session)
        assert session.match_over
    app = App(folder)
    app.go("/history")
    assert tags(app, "history-continue-") == [] and app.has(f"history-{match_id}")  # finished
    app.go("/")
    assert tags(app, "resume-") == [] and not app.has(f"continue-{match_id}")
