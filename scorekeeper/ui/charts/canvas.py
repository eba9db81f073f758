"""A chart description drawn with Flet's own canvas (`flet.canvas`), which every Flet client has: the static
build's prebuilt web client draws it as well as the served app's.

A canvas paints in pixels, so the shapes are laid out for a width: first the width the screen expects, then the
width the client reports (`on_resize`, sent once the canvas is laid out), redrawn only when the two differ.
Text is measured by estimate (`spec.text_width`): x labels are thinned until neighbours keep a gap.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import flet as ft
import flet.canvas as cv

from scorekeeper.ui.charts.spec import AXIS_TEXT, GRID, Axis, Chart, label_room, text_width
from scorekeeper.ui.palette import ink_on

LABEL_SIZE = 12
BAR_LABEL_SIZE = 10
RING = 80
HOLE = 28
"""A share's ring: 80 px thick around an empty centre of radius 28 (flet-charts' pie as the app draws it)."""
ROD = 8
"""A bar's width; bars of one group stand 2 px apart."""
DOT = 7
"""A point's diameter on a line."""
TOP = 8
RIGHT = 8
X_LABELS = 20
X_TITLE = 18
LABEL_GAP = 6


def draw(chart: Chart, width: float) -> cv.Canvas:
    """A canvas for `chart`, laid out for `width` until the client says how wide it is (a share has its own
    square size and needs no width)."""
    if chart.kind == "share":
        size = chart.height
        return cv.Canvas(shapes=share(chart), width=size, height=size)
    drawn = [width]
    layout = bars if chart.kind == "bar" else lines
    canvas = cv.Canvas(shapes=layout(chart, width), width=math.inf, height=chart.height, resize_interval=50)

    def resized(event: cv.CanvasResizeEvent) -> None:
        # Within a pixel the shapes already fit: no second drawing (the usual case on a screen's first build).
        if abs(event.width - drawn[0]) < 1 or event.width <= 0:
            return
        drawn[0] = event.width
        canvas.shapes = layout(chart, event.width)
        canvas.update()

    canvas.on_resize = resized
    return canvas


def _text(x: float, y: float, value: str, alignment: ft.Alignment, size: float = LABEL_SIZE) -> cv.Text:
    return cv.Text(x, y, value, style=ft.TextStyle(size=size, color=AXIS_TEXT), alignment=alignment)


def _stroke(colour: str, width: float = 1) -> ft.Paint:
    return ft.Paint(
        color=colour,
        stroke_width=width,
        style=ft.PaintingStyle.STROKE,
        stroke_cap=ft.StrokeCap.ROUND,
        stroke_join=ft.StrokeJoin.ROUND,
    )


def _segments(pairs: list[tuple[float, float, float, float]], paint: ft.Paint) -> cv.Points:
    """Many straight lines as one shape (x1, y1, x2, y2 each): a grid or a series of bars in one message."""
    ends = [end for x1, y1, x2, y2 in pairs for end in ((x1, y1), (x2, y2))]
    return cv.Points(points=list(ends), point_mode=cv.PointMode.LINES, paint=paint)


def fitting_every(axis: Axis, spacing: float, size: float) -> int:
    """The smallest gap (from the axis's own `every`) at which neighbouring x labels, `spacing` px apart per
    label, leave room between them."""
    widest = max((text_width(text, size) for _v, text in axis.labels), default=0.0)
    every = max(axis.every, 1)
    while every < max(len(axis.labels), 1) and spacing * every < widest + LABEL_GAP:
        every += 1
    return every


def _frame(
    chart: Chart,
    width: float,
    x_place: Callable[[float], float],
    size: float,
    plot: tuple[float, float, float],
    verticals: list[float],
) -> list[cv.Shape]:
    """The grid (horizontal lines with their values at the left, and `verticals`), x labels (thinned to fit)
    and the x title."""
    assert chart.x is not None and chart.y is not None
    left, right, bottom = plot
    y_place = _y_place(chart, bottom)
    grid = [(left, y_place(value), right, y_place(value)) for value, _t in chart.y.labels]
    grid += [(x, TOP, x, bottom) for x in verticals]
    shapes: list[cv.Shape] = [_segments(grid, _stroke(GRID))]
    shapes += [
        _text(left - LABEL_GAP, y_place(value), text, ft.Alignment.CENTER_RIGHT)
        for value, text in chart.y.labels
    ]
    labels = chart.x.labels
    spacing = abs(x_place(labels[1][0]) - x_place(labels[0][0])) if len(labels) > 1 else width
    for value, text in chart.x.shown(fitting_every(chart.x, spacing, size)):
        shapes.append(_text(x_place(value), bottom + 4, text, ft.Alignment.TOP_CENTER, size))
    if chart.x.title:
        shapes.append(_text((left + right) / 2, chart.height, chart.x.title, ft.Alignment.BOTTOM_CENTER))
    return shapes


def _bottom(chart: Chart) -> float:
    """Where the plot ends: above the x labels and the x title."""
    title = X_TITLE if chart.x is not None and chart.x.title else 0
    return chart.height - X_LABELS - title


def _y_place(chart: Chart, bottom: float) -> Callable[[float], float]:
    assert chart.y is not None
    low, high = chart.y.low, chart.y.high
    span = (high - low) or 1
    return lambda value: bottom - (value - low) / span * (bottom - TOP)


def lines(chart: Chart, width: float) -> list[cv.Shape]:
    """Grid, labels, then each series as a line through its points with a dot on each (two shapes a series,
    whatever the number of rounds: the message a save sends stays small)."""
    assert chart.x is not None and chart.y is not None
    left = label_room(chart.y, LABEL_SIZE)
    right = max(width - RIGHT, left + 10)
    bottom = _bottom(chart)
    low, span = chart.x.low, (chart.x.high - chart.x.low) or 1

    def x_place(value: float) -> float:
        return left + (value - low) / span * (right - left)

    y_place = _y_place(chart, bottom)
    steps = int(span / chart.x.step) if chart.x.step > 0 else 0
    verticals = [x_place(low + k * chart.x.step) for k in range(steps + 1)]  # one per labelled round step
    shapes = _frame(chart, width, x_place, LABEL_SIZE, (left, right, bottom), verticals)
    for series in chart.series:
        points: list[ft.OffsetValue] = [(x_place(p.x), y_place(p.y)) for p in series.points]
        if len(points) > 1:
            line = cv.Points(points=points, point_mode=cv.PointMode.POLYGON, paint=_stroke(series.colour, 3))
            shapes.append(line)
        dots = ft.Paint(color=series.colour, stroke_width=DOT, stroke_cap=ft.StrokeCap.ROUND)
        shapes.append(cv.Points(points=points, point_mode=cv.PointMode.POINTS, paint=dots))
    return shapes


def bars(chart: Chart, width: float) -> list[cv.Shape]:
    """Grid, labels, then per x a group of bars, one per series side by side, from 0 up to the value (a
    series' bars are one shape: thick lines)."""
    assert chart.x is not None and chart.y is not None
    left = label_room(chart.y, LABEL_SIZE)
    right = max(width - RIGHT, left + 10)
    bottom = _bottom(chart)
    groups = max(len(chart.x.labels), 1)
    slot = (right - left) / groups

    def x_place(value: float) -> float:
        return left + (value - chart.x.low + 0.5) * slot if chart.x is not None else left

    y_place = _y_place(chart, bottom)
    shapes = _frame(chart, width, x_place, BAR_LABEL_SIZE, (left, right, bottom), [])
    count = len(chart.series)
    group_width = count * ROD + (count - 1) * 2
    base = y_place(0)
    for index, series in enumerate(chart.series):
        rods = []
        for p in series.points:
            middle = x_place(p.x) - group_width / 2 + index * (ROD + 2) + ROD / 2
            if base - y_place(p.y) > 0:
                rods.append((middle, base, middle, y_place(p.y)))
        if rods:
            paint = ft.Paint(color=series.colour, stroke_width=ROD, stroke_cap=ft.StrokeCap.BUTT)
            shapes.append(_segments(rods, paint))
    return shapes


def share(chart: Chart) -> list[cv.Shape]:
    """A ring of slices, the first from twelve o'clock clockwise, each with its label (the share) inside; a
    grey ring while nobody has a value."""
    size = chart.height
    middle = HOLE + RING / 2  # the ring's middle line, where the stroke is centred and the labels sit
    centre = size / 2
    box = (centre - middle, centre - middle, 2 * middle, 2 * middle)
    slices = chart.slices()
    total = sum(value for _c, value, _l in slices)
    if not total:
        return [cv.Arc(*box, start_angle=0, sweep_angle=2 * math.pi, paint=_stroke(GRID, RING))]
    gap = 2 / middle if len(slices) > 1 else 0.0  # 2 px between slices, as flet-charts leaves
    shapes: list[cv.Shape] = []
    labels: list[cv.Shape] = []
    start = -math.pi / 2
    for colour, value, label in slices:
        sweep = 2 * math.pi * value / total
        paint = ft.Paint(color=colour, stroke_width=RING, style=ft.PaintingStyle.STROKE)
        shapes.append(
            cv.Arc(*box, start_angle=start + gap / 2, sweep_angle=max(sweep - gap, 0.001), paint=paint)
        )
        angle = start + sweep / 2
        style = ft.TextStyle(size=13, weight=ft.FontWeight.BOLD, color=ink_on(colour))
        x, y = centre + middle * math.cos(angle), centre + middle * math.sin(angle)
        if label:
            labels.append(cv.Text(x, y, label, style=style, alignment=ft.Alignment.CENTER))
        start += sweep
    return shapes + labels
