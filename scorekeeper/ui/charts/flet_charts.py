"""A chart description drawn with flet-charts' controls (the served app's client has the extension; the static
build's prebuilt client has not, see `draw`). Touch shows a point's tooltip, the point's `label`."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from scorekeeper.ui.charts.spec import GRID, Axis, Chart, label_room
from scorekeeper.ui.palette import ink_on

LABEL_SIZE = 12
"""Axis labels' font size (the canvas renderer uses the same)."""
RING = 80
"""A share's ring: its thickness and the empty centre's radius, as the canvas renderer draws it."""
HOLE = 28


def draw(chart: Chart) -> ft.Control:
    """The flet-charts control for `chart` (it fills the width it is given and `chart.height`)."""
    if chart.kind == "share":
        return share(chart)
    if chart.kind == "bar":
        return bars(chart)
    return lines(chart)


def _labels(axis: Axis, size: int = LABEL_SIZE) -> list[fch.ChartAxisLabel]:
    return [fch.ChartAxisLabel(value=value, label=ft.Text(text, size=size)) for value, text in axis.shown()]


def _value_axis(axis: Axis) -> fch.ChartAxis:
    return fch.ChartAxis(labels=_labels(axis), label_size=label_room(axis, LABEL_SIZE))


def lines(chart: Chart) -> ft.Control:
    assert chart.x is not None and chart.y is not None
    x, y = chart.x, chart.y
    data = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(x=p.x, y=p.y, tooltip=p.label) for p in series.points],
            color=series.colour,
            stroke_width=3,
            point=True,
        )
        for series in chart.series
    ]
    return fch.LineChart(
        data_series=data,
        min_x=x.low,
        max_x=x.high,
        min_y=y.low,
        max_y=y.high,
        left_axis=_value_axis(y),
        bottom_axis=fch.ChartAxis(
            labels=_labels(x),
            label_size=24,
            title=ft.Text(x.title, size=LABEL_SIZE) if x.title else None,
            title_size=20 if x.title else 0,
        ),
        horizontal_grid_lines=fch.ChartGridLines(interval=y.step, color=GRID, width=1),
        vertical_grid_lines=fch.ChartGridLines(interval=x.step, color=GRID, width=1),
        expand=True,
    )


def bars(chart: Chart) -> ft.Control:
    assert chart.x is not None and chart.y is not None
    x, y = chart.x, chart.y
    positions = sorted({p.x for series in chart.series for p in series.points})
    groups = [
        fch.BarChartGroup(
            x=int(position),
            rods=[
                fch.BarChartRod(to_y=p.y, width=8, color=series.colour, tooltip=p.label)
                for series in chart.series
                for p in series.points
                if p.x == position
            ],
        )
        for position in positions
    ]
    return fch.BarChart(
        groups=groups,
        left_axis=_value_axis(y),
        bottom_axis=fch.ChartAxis(labels=_labels(x, 10), label_size=24),
        horizontal_grid_lines=fch.ChartGridLines(interval=y.step, color=GRID, width=1),
        min_y=y.low,
        max_y=y.high,
        expand=True,
    )


def share(chart: Chart) -> ft.Control:
    sections = [
        fch.PieChartSection(
            value=value,
            color=colour,
            title=label,
            radius=RING,
            title_style=ft.TextStyle(size=13, weight=ft.FontWeight.BOLD, color=ink_on(colour)),
        )
        for colour, value, label in chart.slices()
    ]
    return fch.PieChart(
        sections=sections,
        center_space_radius=HOLE,
        sections_space=2,
        start_degree_offset=-90,
        width=chart.height,
        height=chart.height,
    )
