"""The evening around a game in a real browser at phone size: a round entered starts the clock, a note is written,
a place picked from those used before, the clock paused and resumed; the scoreboard and the history show them.
Screenshots: tests/browser/output/evening-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from steps import phone_on

from scorekeeper.model import evening, playtime
from scorekeeper.model.match import Match
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


def seed(data: Path) -> str:
    """A Racko game of Anna and Ben without rounds, and an earlier game played at the club."""
    with Store.open(data) as store:
        ids = [store.add_player(name).id for name in ("Anna", "Ben")]
        earlier = store.save_match(Match.new("rage", {}, ["x", "y", "z"], names=["Xia", "Yan", "Zoe"]))
        store.change_match(earlier.id, evening.with_place("Club"))
        match = Match.new("racko", {"target": 500, "two_player_rule": False}, ids, names=["Anna", "Ben"])
        return store.save_match(match).id


def test_notes_place_and_a_pause_on_the_scoreboard_and_in_the_history(chromium: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with phone_on(chromium, data, seed, "evening") as (ui, match_id):
        ui.open(f"/match/{match_id}", ready="enter-round")
        ui.tap("enter-round")
        for step in ("mode-quick", "caller-0", "count-1-3", "save-round"):
            ui.tap(step)
        ui.wait("clock-pause")  # the first round started the clock
        ui.tap("notes")
        ui.tap("notes-field", count=False, settle=False)  # a text field needs the focus before typing
        ui.page.locator("textarea").last.wait_for(state="attached", timeout=10_000)
        ui.page.keyboard.type("Ben's birthday")
        ui.page.wait_for_timeout(300)
        ui.shot("evening-notes")
        ui.tap("notes-save")
        ui.wait_text("Ben's birthday")
        ui.tap("place")
        ui.wait("place-0")
        ui.shot("evening-place")
        ui.tap("place-0")  # the club, used before
        ui.wait_text("Club")
        ui.tap("clock-pause")
        ui.wait("clock-resume")
        shown = ui.node("time-played").locator("[aria-label]").first.get_attribute("aria-label") or ""
        assert shown.split("\n") == ["Time played: 0 min", "Clock paused"]
        ui.shot("evening-paused")
        with Store.open(data) as store:
            paused = store.get_match(match_id)
            assert paused is not None and not playtime.running(paused.clock)
        ui.tap("clock-resume")
        ui.wait("clock-pause")
        ui.node("evening").scroll_into_view_if_needed()
        ui.shot("evening-scoreboard")
        ui.open("/history", ready="history-game-all")
        ui.wait_text("Club · 0 min")
        ui.shot("evening-history")
    with Store.open(data) as store:
        match = store.get_match(match_id)
        assert match is not None
        assert (match.notes, match.place, len(match.clock)) == ("Ben's birthday", "Club", 2)
        assert playtime.running(match.clock)
