"""A game left open overnight, reopened in a real browser at phone size (issue 51): the scoreboard says when the
clock stopped and asks whether the game is still on; "Still playing" resumes it. Screenshots:
tests/browser/output/clock-idle-*.png."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from steps import phone_on

from scorekeeper.model import playtime
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store import matches as stored_matches

pytestmark = pytest.mark.browser

ROUND = {"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False}


def seed(data: Path) -> str:
    """A Racko game of Anna and Ben: 80 minutes played from yesterday 20:00 (10 hours ago and more), then left
    open: its last change 80 minutes after it began."""
    began = datetime.now(UTC) - timedelta(hours=11)
    last = began + timedelta(minutes=80)
    stamp = stored_matches.change_stamp
    stored_matches.change_stamp = lambda: last.isoformat(timespec="seconds")
    try:
        with Store.open(data) as store:
            ids = [store.add_player(name).id for name in ("Anna", "Ben")]
            match = Match.new("racko", {"players": 2, "target": 500}, ids, names=["Anna", "Ben"])
            match = dataclasses.replace(
                match.with_round(ROUND), clock=[[began.isoformat(timespec="seconds"), None]]
            )
            return store.save_match(match).id
    finally:
        stored_matches.change_stamp = stamp


def test_a_game_left_open_overnight_asks_whether_it_is_still_on(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", seed, "clock-idle") as (ui, match_id):
        ui.open(f"/match/{match_id}", ready="time-played")
        ui.wait_text("Is the game still on?")
        ui.wait_text("Time played: 1 h 20 min")
        ui.wait("clock-still-on")
        ui.shot("question")
        ui.tap("clock-still-on")
        ui.wait("clock-pause")  # running again: the night between is a pause, not time played
        ui.shot("resumed")
    with Store.open(tmp_path / "data") as store:
        match = store.get_match(match_id)
        assert match is not None and playtime.running(match.clock) and len(match.clock) == 2
        assert 80 * 60 <= (playtime.played_seconds(match.clock) or 0) < 85 * 60
