"""Time played (scorekeeper.model.playtime): spans of play with pauses between them, summed; older data has none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.model import playtime
from scorekeeper.model.match import Match

T0 = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)


def at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat(timespec="seconds")


def test_a_pause_is_not_counted_and_the_end_stops_the_clock() -> None:
    clock = playtime.started([], at(0))
    assert playtime.running(clock)
    clock = playtime.stopped(clock, at(30))  # pause
    clock = playtime.started(clock, at(45))  # resume after a quarter of an hour
    assert playtime.played_seconds(clock, now=T0 + timedelta(minutes=50)) == 35 * 60
    clock = playtime.stopped(clock, at(75))  # the end of the game
    assert not playtime.running(clock)
    assert playtime.played_seconds(clock, now=T0 + timedelta(hours=9)) == 60 * 60
    assert playtime.first_start(clock) == T0


def test_starting_a_running_clock_or_stopping_a_stopped_one_changes_nothing() -> None:
    clock = playtime.started([], at(0))
    assert playtime.started(clock, at(5)) == clock
    stopped = playtime.stopped(clock, at(10))
    assert playtime.stopped(stopped, at(20)) == stopped


def test_older_data_has_no_time_played_and_writes_no_clock() -> None:
    match = Match.new("rage", {}, ["a", "b", "c"])
    assert playtime.played_seconds(match.clock) is None
    assert (
        "clock" not in match.to_dict() and "notes" not in match.to_dict() and "place" not in match.to_dict()
    )


def test_an_unreadable_span_counts_for_nothing_and_is_kept() -> None:
    clock = [["yesterday", None], [at(0), at(10)], "?"]
    assert playtime.played_seconds(clock) == 600
    assert playtime.stopped(clock, at(20)) == clock  # its last span cannot be read: it is not running


def test_a_stop_before_the_start_ends_the_span_at_its_start() -> None:
    clock = playtime.stopped(playtime.started([], at(10)), at(5))
    assert playtime.played_seconds(clock) == 0


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 600)), max_size=20))
def test_time_played_is_the_sum_of_the_runs(steps: list[tuple[bool, int]]) -> None:
    clock: playtime.Clock = []
    moment, expected, since = 0, 0, None
    for start, gap in steps:
        moment += gap
        if start and since is None:
            since = moment
        elif not start and since is not None:
            expected += moment - since
            since = None
        clock = playtime.started(clock, at(moment)) if start else playtime.stopped(clock, at(moment))
    now = T0 + timedelta(minutes=moment)
    total = expected + (moment - since if since is not None else 0)
    played = playtime.played_seconds(clock, now=now)
    assert played == (None if not clock else total * 60)
