"""Of two live games of a digital match's round, the one that scored the round is resumed, not the later saved.

Two devices each continue a match before they sync (`test_home_one_card_per_match.two_devices_continue`): the
match has two live games of the same round, and whichever ends it first scores it. When device 0 has ended the
round (the match has recorded it) and device 1, not synced yet, makes one more move in its game of that round,
that game is the more recently saved after the sync, but its round will never count. Home, continuing the match
and opening either game resumed it; the rule (`digital.duplicates.resumed`) now keeps the game furthest along in
the match, then the most recently saved, and sets the other aside (kept, never deleted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from play_support import one_move, play_round
from sync_support import Devices
from test_home_digital_paging import tags
from test_home_one_card_per_match import live_games
from test_ui_core_harness import App

from scorekeeper.digital import duplicates
from scorekeeper.digital.checks import is_set_aside, resumed_games
from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store


def one_device_scores_the_round(tmp_path: Path, *, next_round: bool) -> tuple[Path, str, str, str]:
    """Device 0 and device 1 each continue a Racko match whose game was set aside; device 0 plays its game's
    round to the end (the match records it; `next_round`: it also deals the next one), then device 1, not
    synced meanwhile, makes a move in its game of that round; the two sync. Device 0's folder, the match's id,
    the id of the game that scored the round and of the stale one."""
    devices = Devices(tmp_path, count=2)
    try:
        first, second = devices.stores
        seats = [Seat("person", "anna", "Anna"), computer_seat("normal", 1, "Computer 2")]
        session = PlaySession.create(first, "racko", {}, seats, seed=5)
        one_move(session)
        first.set_aside_digital_game(session.saved.id)
        devices.everyone_twice()
        played = []
        for store in (first, second):
            match = store.get_match(session.match.id)
            assert match is not None
            saved = PlaySession.continue_match(store, match)
            game = PlaySession.load(store, saved.id)
            assert game is not None
            one_move(game)
            played.append(game)
        scored, stale = played
        play_round(scored)
        if next_round:
            scored.next_round()
        one_move(stale)  # on device 1, after device 0's last save
        devices.everyone_twice()
    finally:
        devices.close()
    return tmp_path / "device0", session.match.id, scored.saved.id, stale.saved.id


@pytest.mark.parametrize("next_round", [False, True], ids=["at-the-round-result", "next-round-dealt"])
def test_the_game_that_scored_the_round_is_resumed(tmp_path: Path, next_round: bool) -> None:
    folder, match_id, scored, stale = one_device_scores_the_round(tmp_path, next_round=next_round)
    games = live_games(folder, match_id)
    assert [saved.id for saved in games] == [stale, scored]  # the situation: the stale game saved last
    with Store.open(folder) as store:
        match = store.get_match(match_id)
        assert match is not None and match.round_index == 1  # the round device 0 ended counts
        assert [saved.data["round"] for saved in games] == [0, 1 if next_round else 0]
        assert [saved.id for saved in resumed_games(store, store.list_digital_games())] == [scored]  # home
        assert duplicates.to_open(store, stale) == scored  # its address opens the game that scored the round
        assert PlaySession.continue_match(store, match).id == scored
        kept = store.get_digital_game(stale)
        assert kept is not None and is_set_aside(kept)  # set aside, not deleted
    assert [saved.id for saved in live_games(folder, match_id)] == [scored]


def test_home_offers_the_game_that_scored_the_round(tmp_path: Path) -> None:
    folder, _, scored, stale = one_device_scores_the_round(tmp_path, next_round=True)
    app = App(folder)
    assert tags(app, "resume-") == [scored]
    app.go(f"/play/{stale}")
    assert app.page.route == f"/play/{scored}"
    assert app.ctx.session.play_tables[scored].session.round_index == 1  # the match's round in progress
