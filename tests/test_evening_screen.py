"""The evening on the scoreboard, in process (test_ui_core_harness): the start player before and after the first
round, Pause and Resume, a place picked from those used before, notes, undo of a note, the history's lines, and
a game of older data that shows no time played."""

from __future__ import annotations

import asyncio
from pathlib import Path

import flet as ft
from test_ui_core_harness import App, start

from scorekeeper.model import evening, playtime
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso

ROUND = {"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False}


def dismissed(app: App) -> None:
    """The browser reports the dialog closed (the harness has no browser: call what it would)."""
    dialogs = [control for control in app.page._dialogs.controls if isinstance(control, ft.AlertDialog)]
    dialogs[-1].data()


def test_the_evening_on_the_scoreboard_and_in_the_history(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    match = start(app, "racko", ["Anna", "Ben"], 0, target=500)
    app.go(f"/match/{match.id}")
    assert not app.has("time-played")  # no round yet: no time
    assert "Start player: Anna" in app.text()
    app.tap("start-player")
    app.tap("start-player-1")
    dismissed(app)
    assert app.store.get_match(match.id).first_dealer == 1
    assert "Start player: Ben" in app.text()

    app.store.change_match(match.id, lambda m: m.with_round(ROUND), "Round 1 added")
    app.go(f"/match/{match.id}")
    assert "Fixed once the first round is entered." in app.text()
    assert app.has("clock-pause") and "Time played: 0 min" in app.text()
    app.tap("clock-pause")
    assert not playtime.running(app.store.get_match(match.id).clock)
    assert "Clock paused" in app.text()
    app.tap("clock-resume")
    assert playtime.running(app.store.get_match(match.id).clock) and app.has("clock-pause")

    other = app.store.save_match(Match.new("rage", {}, ["x", "y", "z"], names=["X", "Y", "Z"]))
    app.store.change_match(other.id, evening.with_place("Club"))
    app.tap("place")
    app.tap("place-0")  # the place used before
    dismissed(app)
    assert app.store.get_match(match.id).place == "Club" and "Club" in app.text()

    app.tap("notes")
    app.type_text("notes-field", "Ben's birthday")
    app.tap("notes-save")
    dismissed(app)
    assert "Ben's birthday" in app.text()
    app.tap("undo")  # the undo of the scoreboard takes the note back
    assert app.store.get_match(match.id).notes == "" and "Ben's birthday" not in app.text()
    app.tap("redo")

    app.go("/history")
    assert any(line.endswith("Club · 0 min") for text in app.text() for line in text.split("\n"))
    app.go(f"/history/{match.id}")
    assert {"Club", "Ben's birthday", "Time played: 0 min"} <= set(app.text())


def test_older_data_shows_no_time_played(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    old = Match.new("racko", {"players": 2}, ["a", "b"], names=["Anna", "Ben"]).with_round(ROUND)
    old = app.store.save_match(Match.from_dict({k: v for k, v in old.to_dict().items() if k != "clock"}))
    app.go(f"/match/{old.id}")
    assert not app.has("time-played") and app.has("notes") and app.has("place")
    app.go(f"/history/{old.id}")
    assert not any(text.startswith("Time played") for text in app.text())


def timers(app: App) -> list[asyncio.TimerHandle]:
    """The redraws the scoreboard's running clock scheduled on the session's loop (`ui.components.evening._tick`)."""
    return [handle for handle in app.connection.loop._scheduled if "fire" in repr(handle)]  # type: ignore[attr-defined]


def test_a_running_clock_draws_the_scoreboard_again_at_the_next_minute_and_only_there(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    match = start(app, "racko", ["Anna", "Ben"], 0, target=500)
    app.store.change_match(match.id, lambda m: m.with_round(ROUND))
    asked: list[object] = []  # what the timers hand to Flet's handler threads
    object.__setattr__(app.page, "run_thread", lambda handler, *args: asked.append(handler))
    app.go(f"/match/{match.id}")
    (first, *_) = timers(app)
    assert 0 < first.when() - app.connection.loop.time() <= 60.5  # at the next whole minute played
    first._run()  # the minute is reached
    assert asked == [app.ctx.rerender]
    app.go(f"/match/{match.id}")  # drawn again: the earlier drawing's timer does nothing more
    first._run()
    assert len(asked) == 1
    app.go("/")  # elsewhere: the scoreboard's timer draws nothing
    for handle in timers(app):
        handle._run()
    assert len(asked) == 1
    app.store.change_match(match.id, evening.paused(now_iso()))
    count = len(timers(app))
    app.go(f"/match/{match.id}")
    assert len(timers(app)) == count  # paused: nothing to count, no timer
