"""Named time spans for the benchmarks: where the time of one user action goes (`bench ui`'s save breakdown,
`bench store`'s write breakdown), measured in the real code paths, not by prints.

Code marks a part of its work with `with span("store.write"):`; while nobody records (always, outside a
benchmark) that costs one global read. A benchmark wraps the action in `with recording() as spans:` and gets
`(name, start_ns, end_ns)` for every span closed meanwhile, in any thread (Flet runs handlers in its pool).
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Iterable, Iterator

Span = tuple[str, int, int]

_record: list[Span] | None = None


@contextlib.contextmanager
def span(name: str) -> Iterator[None]:
    """Time the block under `name` while a benchmark records (see the module docstring)."""
    record = _record
    if record is None:
        yield
        return
    start = time.perf_counter_ns()
    try:
        yield
    finally:
        record.append((name, start, time.perf_counter_ns()))


@contextlib.contextmanager
def recording() -> Iterator[list[Span]]:
    """Collect the spans closed inside the block (list.append is atomic, so threads may add to it)."""
    global _record
    previous, _record = _record, []
    try:
        yield _record
    finally:
        _record = previous


def totals_ms(spans: Iterable[Span]) -> dict[str, float]:
    """Milliseconds per span name, summed over the spans of one action."""
    out: dict[str, float] = {}
    for name, start, end in spans:
        out[name] = out.get(name, 0.0) + (end - start) / 1e6
    return out


def medians_ms(actions: list[dict[str, float]]) -> dict[str, float]:
    """Per name, the median over actions of its milliseconds (an action without the span counts 0)."""
    names = sorted({name for action in actions for name in action})
    return {name: round(statistics.median(a.get(name, 0.0) for a in actions), 3) for name in names}
