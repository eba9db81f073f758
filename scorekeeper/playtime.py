"""Time played: a match's `clock`, the spans during which it was played, a pause between two.

A span is `[start, end]` in ISO 8601 (`stamps.now_iso`), `end` None while the game runs. The clock starts when the
first round is entered or dealt, a button on the scoreboard pauses and resumes it, and the end of the game stops
it. Every function returns a new list (a `Match` is immutable) and takes the moment as an argument, so the same
calls give the same clock on every device. A span that cannot be read (a newer version's, a hand-edited file)
counts for nothing and is kept as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

Clock = list[list[str | None]]


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


def played_seconds(clock: Sequence[Any], now: datetime | None = None) -> float | None:
    """The seconds played: the sum of the readable spans, a running one up to `now` (the current time when not
    given). None when the clock was never started (older data, or a game entered without it): time played is
    shown only where it is known."""
    spans = [span for span in (_span(item) for item in clock) if span is not None]
    if not spans:
        return None
    now = now or datetime.now(UTC)
    return sum(max(0.0, ((end or max(now, start)) - start).total_seconds()) for start, end in spans)


def first_start(clock: Sequence[Any]) -> datetime | None:
    """When play began (the first readable span's start), or None."""
    for item in clock:
        span = _span(item)
        if span is not None:
            return span[0]
    return None
