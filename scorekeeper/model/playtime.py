"""Time played: a match's `clock`, the spans during which it was played, a pause between two.

A span is `[start, end]` in ISO 8601 (`stamps.now_iso`), `end` None while the game runs. The clock starts when the
first round is entered or dealt, a button on the scoreboard pauses and resumes it, and the end of the game stops
it. Every function returns a new list (a `Match` is immutable) and takes the moment as an argument, so the same
calls give the same clock on every device. A span that cannot be read (a newer version's, a hand-edited file)
counts for nothing and is kept as it is.

A clock left running hears nothing when nobody plays: no round, no move, no tap on the scoreboard (each changes
the match and stamps its `updated`). After `IDLE` of that silence it stops counting at the last thing that
happened (`heard`): the time played is the time up to then (`played_seconds` with `heard`), a game night ends
there, and the next change of the match first stops the clock there (`settled`), so a game finished a week later
counts the evening, not the week. The scoreboard then asks whether the game is still on (resume, or stop at the
last round).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

Clock = list[list[str | None]]
IDLE = timedelta(hours=1)
"""The silence after which a running clock stops counting: longer than any round of these games takes."""


def moment_of(text: Any) -> datetime | None:
    """A stored ISO 8601 time as an aware datetime (UTC where it names no zone); None when it is not one."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _span(span: Any) -> tuple[datetime, datetime | None] | None:
    """A readable span as (start, end or None); None when it cannot be read."""
    if not isinstance(span, list | tuple) or len(span) != 2:
        return None
    start = moment_of(span[0])
    if start is None or (span[1] is not None and moment_of(span[1]) is None):
        return None
    return start, moment_of(span[1])


def running(clock: Sequence[Any]) -> bool:
    """Whether the clock runs: its last span has no end."""
    last = _span(clock[-1]) if clock else None
    return last is not None and last[1] is None


def started(clock: Sequence[Any], at: str) -> Clock:
    """The clock running from `at` (a new span after a pause; unchanged when it already runs)."""
    return list(clock) if running(clock) else [*clock, [at, None]]


def stopped(clock: Sequence[Any], at: str) -> Clock:
    """The clock stopped at `at` (a pause, or the end of the game; unchanged when it does not run). A stop
    before the span's start (another device's clock behind) ends the span at its start."""
    if not running(clock):
        return list(clock)
    start = clock[-1][0]
    start_moment, at_moment = moment_of(start), moment_of(at)
    end = at if start_moment is None or at_moment is None or at_moment >= start_moment else start
    return [*clock[:-1], [start, end]]


def after_rounds(clock: Sequence[Any], before: int, after: int, over: bool, at: str) -> Clock:
    """The clock after the rounds of a match went from `before` to `after` at `at`, the game `over` or not:
    the end of the game stops it; the first round entered starts a clock never started (a digital game starts
    its own when it deals). A match that had rounds before it had a clock (older data) gets none: its time
    played is not known, and a part of it would be wrong."""
    if over:
        return stopped(clock, at)
    if before == 0 and after > 0 and not clock:
        return started(clock, at)
    return list(clock)


def played_seconds(clock: Sequence[Any], now: datetime | None = None, heard: Any = None) -> float | None:
    """The seconds played: the sum of the readable spans, a running one up to `now` (the current time when not
    given), or only up to the last thing that happened when the clock has been idle since (`heard`: the match's
    `updated`; `idle_since`). None when the clock was never started (older data, or a game entered without it):
    time played is shown only where it is known."""
    spans = [span for span in (_span(item) for item in clock) if span is not None]
    if not spans:
        return None
    now = now or datetime.now(UTC)
    quiet = idle_since(clock, heard, now) if heard is not None else None
    until = quiet or now
    return sum(max(0.0, ((end or max(until, start)) - start).total_seconds()) for start, end in spans)


def last_heard(clock: Sequence[Any], heard: Any) -> datetime | None:
    """When a running clock last heard something: the match's last change (`heard`, its `updated`), or the start
    of the running span when that is later. None when the clock does not run."""
    last = _span(clock[-1]) if clock else None
    if last is None or last[1] is not None:
        return None
    changed = moment_of(heard)
    return max(last[0], changed) if changed is not None else last[0]


def idle_since(clock: Sequence[Any], heard: Any, now: datetime) -> datetime | None:
    """The moment a running clock stopped counting (the last thing it heard) when nothing happened for `IDLE`
    since; None while it counts (or does not run)."""
    last = last_heard(clock, heard)
    return last if last is not None and now - last > IDLE else None


def settled(clock: Sequence[Any], heard: Any, now: datetime) -> Clock:
    """The clock before a change made at `now`: stopped at the last thing it heard when it was idle (the silence
    is no time played), else as it was."""
    quiet = idle_since(clock, heard, now)
    return stopped(clock, quiet.isoformat(timespec="seconds")) if quiet is not None else list(clock)


def first_start(clock: Sequence[Any]) -> datetime | None:
    """When play began (the first readable span's start), or None."""
    for item in clock:
        span = _span(item)
        if span is not None:
            return span[0]
    return None
