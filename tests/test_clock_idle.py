"""A clock left running (issue 51; `scorekeeper.model.playtime`, "A clock left running hears nothing ..."): after an
hour without a change it stops counting at the last thing that happened; the time played, the game night and the
export count the evening, not the night or the week; the next change stops it there first (a round added resumes
it after a pause); the scoreboard asks whether the game is still on."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_ui_core_harness import App, start

from scorekeeper.exchange.bgstats import export_bgstats_text
from scorekeeper.model import evening, playtime
from scorekeeper.model.match import Match
from scorekeeper.stats import game_nights
from scorekeeper.store import Store
from scorekeeper.store import matches as stored_matches
from scorekeeper.ui.components import evening as evening_screen
from scorekeeper.ui.i18n import Translator

ROUND = {"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False}
"""A Racko round of two: seat 1 calls (75 points)."""


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def left_open(start: datetime, last: datetime, target: int = 500) -> Match:
    """A Racko match of two whose clock started at `start`, one round entered, last changed at `last`, still
    running."""
    match = Match.new("racko", {"players": 2, "target": target}, ["a", "b"], names=["Anna", "Ben"])
    match = match.with_round(ROUND)
    return dataclasses.replace(match, clock=[[iso(start), None]], updated=iso(last), created=iso(start))


# ------------------------------------------------------------------ the rule
def test_a_game_left_open_overnight_counts_the_evening() -> None:
    """20:00 to 21:30 played, left open; the next morning at 08:00 it shows 1 h 30 min, not 12 h."""
    evening_start = datetime(2026, 3, 14, 20, 0, tzinfo=UTC)
    last = evening_start + timedelta(minutes=90)
    morning = datetime(2026, 3, 15, 8, 0, tzinfo=UTC)
    match = left_open(evening_start, last)
    assert playtime.played_seconds(match.clock, morning) == 12 * 3600  # the clock alone: the night through
    assert playtime.played_seconds(match.clock, morning, match.updated) == 90 * 60
    assert playtime.idle_since(match.clock, match.updated, morning) == last
    # Within the hour it still counts up to now.
    soon = last + timedelta(minutes=30)
    assert playtime.idle_since(match.clock, match.updated, soon) is None
    assert playtime.played_seconds(match.clock, soon, match.updated) == 120 * 60
    # Its game night ends at the last thing that happened, not in the morning.
    night = game_nights.span_of(match)
    assert (night.start, night.end, night.seconds) == (evening_start, last, 90 * 60)
    assert evening_screen.played_text(Translator(), match.clock, morning, match.updated) == (
        "Time played: 1 h 30 min"
    )


def test_a_game_finished_a_week_later_counts_its_evening() -> None:
    """Played two hours a week ago, left open, the last round entered today: the clock stops where the play
    stopped, the week is no time played (nor a BG Stats duration of 10,000 minutes)."""
    now = datetime.now(UTC)
    began = now - timedelta(days=7, hours=2)
    match = left_open(began, began + timedelta(hours=2), target=150)
    finished = match.with_round(ROUND)
    assert finished.is_over and not playtime.running(finished.clock)
    assert finished.clock == [[iso(began), iso(began + timedelta(hours=2))]]
    assert playtime.played_seconds(finished.clock) == 2 * 3600


def test_a_round_added_after_the_silence_resumes_the_clock_after_a_pause() -> None:
    now = datetime.now(UTC)
    began = now - timedelta(hours=14)
    last = began + timedelta(hours=1)
    match = left_open(began, last).with_round(ROUND)  # not over (500): play goes on this morning
    assert not match.is_over and playtime.running(match.clock)
    assert match.clock[0] == [iso(began), iso(last)] and len(match.clock) == 2
    assert 3600 <= (playtime.played_seconds(match.clock) or 0) < 3600 + 120


def test_a_note_the_next_morning_does_not_make_the_night_time_played() -> None:
    now = datetime.now(UTC)
    began = now - timedelta(hours=13)
    match = left_open(began, began + timedelta(minutes=45))
    noted = evening.with_notes("What a night")(match)
    assert noted.clock == [[iso(began), iso(began + timedelta(minutes=45))]]
    stopped = evening.paused(iso(now))(match)  # "stop at the last round"
    assert stopped.clock == noted.clock
    again = evening.resumed(iso(now))(match)  # "still playing": from now, the silence a pause
    assert again.clock == [[iso(began), iso(began + timedelta(minutes=45))], [iso(now), None]]


# ------------------------------------------------------------------ the question on the scoreboard
@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def open_since(app: App, monkeypatch: pytest.MonkeyPatch, hours: float) -> Match:
    """A Racko game whose first round was entered `hours` ago, left open since."""
    match = start(app, "racko", ["Anna", "Ben"], 0, target=500)
    then = datetime.now(UTC) - timedelta(hours=hours)
    monkeypatch.setattr(stored_matches, "change_stamp", lambda: iso(then))
    saved = app.store.change_match(
        match.id, lambda m: dataclasses.replace(m.with_round(ROUND), clock=[[iso(then), None]]), "Round 1"
    )
    monkeypatch.undo()
    assert saved.updated == iso(then)
    return saved


@pytest.mark.parametrize(("hours", "still_on"), [(10, True), (24 * 7, False)])
def test_the_scoreboard_asks_whether_the_game_is_still_on(
    app: App, monkeypatch: pytest.MonkeyPatch, hours: float, still_on: bool
) -> None:
    """Left open overnight (10 h) and answered "still playing"; reopened after a week and stopped at the last
    round. Either way the night or the week is no time played."""
    match = open_since(app, monkeypatch, hours)
    app.go(f"/match/{match.id}")
    shown = " ".join(app.text())
    assert "the clock stopped there. Is the game still on?" in shown and "Time played: 0 min" in shown
    assert app.has("clock-still-on") and app.has("clock-stop-at-last") and not app.has("clock-pause")
    app.tap("clock-still-on" if still_on else "clock-stop-at-last")
    after = app.store.get_match(match.id)
    assert after is not None and after.clock[0][1] == match.clock[0][0]  # stopped where the play stopped
    assert playtime.running(after.clock) is still_on
    assert (playtime.played_seconds(after.clock, heard=after.updated) or 0) < 120
    assert "Is the game still on?" not in " ".join(app.text())
    exported = json.loads(export_bgstats_text(app.store))  # a running game is no play; none exported
    assert exported["plays"] == []


def test_an_old_clock_left_running_for_months_is_no_bg_stats_duration(tmp_path: Path) -> None:
    """A match an older version finished months after it began (its clock ran 6,619 hours): the export writes
    the duration as unknown (BG Stats refuses such a play) and keeps the clock in metaData."""
    store = Store.open(tmp_path / "data")
    match = Match.new("racko", {"players": 2, "target": 50}, ["a", "b"], names=["Anna", "Ben"]).with_round(
        ROUND
    )
    began = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
    clock: list[list[str | None]] = [[iso(began), iso(began + timedelta(hours=6619))]]
    store.save_match(dataclasses.replace(match, clock=clock))
    play = json.loads(export_bgstats_text(store))["plays"][0]
    assert play["durationMin"] == 0
    assert json.loads(play["metaData"])["scorekeeper"]["clock"] == clock


def test_every_figure_of_a_game_left_open_counts_the_evening() -> None:
    """The game night's total, the CSV export's minutes and the statistics' time played: a clock left running
    since the last change counts the 90 minutes played, not the days since (BG Stats exports finished games
    only, whose clock the end stopped)."""
    from scorekeeper.exchange.transfer import csv_rows
    from scorekeeper.model import player_row
    from scorekeeper.ui.views import game_night

    evening_start = datetime(2026, 3, 14, 20, 0, tzinfo=UTC)
    match = left_open(evening_start, evening_start + timedelta(minutes=90))
    assert match.seconds_played() == 90 * 60  # today, months after that evening
    assert game_night.played([match]) == 90 * 60
    assert {row[-1] for row in csv_rows([match])} == {90}
    row = player_row.row_of(match)
    assert row is not None and row["seconds"] == 90 * 60
