"""A chart as plain data: what to draw, in which colours, on which grid, and what a screen reader says of it.

Nothing here imports Flet, so the same description feeds every renderer (flet-charts' controls or Flet's
canvas) and tests can check the numbers without a page. Colours are strings a Flet client reads: a player's
hex colour ("#E53935") or a theme colour's name ("primary", "outline"), which follow the light or dark theme.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["line", "bar", "share"]
"""line: totals after each round; bar: counts side by side per x; share: one slice per series (a ring)."""

GRID = "outlinevariant"
"""The grid's colour: the theme's faint outline."""
AXIS_TEXT = "onsurfacevariant"
"""The colour of axis labels and titles: the theme's secondary text colour."""
SMALL_SLICE = 0.08
"""A share's slice smaller than this part of the whole is drawn without its label."""


@dataclass(frozen=True)
class Point:
    """One value: at `x` (a round, a month's index, a slice's order) the value `y`; `label` is how the value is
    written (a tooltip, a slice's share)."""

    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Series:
    """One line, one set of bars, or one slice of a share."""

    label: str
    colour: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Axis:
    """An axis from `low` to `high` with grid lines every `step`. `labels` are the ticks to write, (value,
    text); `every` > 1 keeps only every n-th of them (counted from the last, which is always written), the
    rule a renderer may tighten further when its width is too small for the texts."""

    low: float
    high: float
    step: float
    labels: tuple[tuple[float, str], ...] = ()
    title: str = ""
    every: int = 1

    def shown(self, every: int | None = None) -> tuple[tuple[float, str], ...]:
        """The labels written with one label every `every` (this axis's own rule by default), the last kept."""
        gap = max(every or self.every, 1)
        last = len(self.labels) - 1
        return tuple(label for index, label in enumerate(self.labels) if (last - index) % gap == 0)


@dataclass(frozen=True)
class Chart:
    """A whole chart: `identifier` names it for tests and assistive tools, `summary` is what a screen reader
    says of it (translated), `legend` the (colour, text) entries written below it."""

    kind: Kind
    identifier: str
    summary: str
    series: tuple[Series, ...]
    height: int
    x: Axis | None = None
    y: Axis | None = None
    legend: tuple[tuple[str, str], ...] = field(default=())

    def values(self) -> list[float]:
        """Every value drawn, series after series."""
        return [point.y for line in self.series for point in line.points]

    def slices(self) -> list[tuple[str, float, str]]:
        """A share's slices in order, (colour, value, label): the values above 0, each labelled unless it is
        under `SMALL_SLICE` of the whole (its label would not fit inside it; the legend says it)."""
        drawn = [(line.colour, p.y, p.label) for line in self.series for p in line.points if p.y > 0]
        total = sum(value for _c, value, _l in drawn)
        return [(c, v, label if v >= SMALL_SLICE * total else "") for c, v, label in drawn]


def nice_step(span: float, *, parts: int = 5) -> int:
    """A round grid step (1, 2, 5, 10, 20, 50, ...) that cuts `span` into at most about `parts` pieces."""
    if span <= 0:
        return 1
    raw = span / parts
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def value_axis(values: list[float], *, parts: int = 5, title: str = "") -> Axis:
    """An axis that holds every value and 0, from one grid line to another, `step` apart: a chart never
    starts at an arbitrary value, so lengths compare. Each grid line is labelled."""
    low, high = min([0.0, *values]), max([0.0, *values])
    step = nice_step(high - low, parts=parts)
    bottom = math.floor(low / step) * step
    top = max(math.ceil(high / step) * step, bottom + step)
    ticks = tuple((float(v), str(v)) for v in range(bottom, top + 1, step))
    return Axis(low=bottom, high=top, step=step, labels=ticks, title=title)


def text_width(text: str, size: float) -> float:
    """About how wide `text` is drawn at font `size` (digits and most letters of the app's font take about 0.6
    of the size): room to keep for axis labels, and the test of whether neighbouring labels would touch."""
    return len(text) * size * 0.62


def label_room(axis: Axis, size: float) -> float:
    """The width the widest of the axis's labels takes, plus a small gap to the plot."""
    return max((text_width(text, size) for _v, text in axis.labels), default=0.0) + 6
