"""Draw a chart description with the renderer the client has, named for screen readers; the legend and the
numbers' fold that go with a chart.

The served app's client carries flet-charts (touch shows a value); the static build's prebuilt client has
none of Flet's extensions, so there the chart is painted on Flet's own canvas from the same description.
flet-charts is imported only where it is drawn: the browser's Python never loads it.
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

import scorekeeper.ui.charts.canvas as canvas
from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.ui.charts.spec import Chart

FLET_CHARTS = not IN_BROWSER
"""Whether the client draws flet-charts' controls (not the prebuilt web client of the static build)."""
PAD_RIGHT = 12
"""Room at the right of a line or bar chart: flet-charts writes the last x label centred on the edge."""


def chart_control(chart: Chart, width: float, *, flet_charts: bool | None = None) -> ft.Control:
    """`chart` drawn for a space about `width` wide: by flet-charts where the client has it (`flet_charts`
    overrides the choice), else on a canvas. One semantics node with the chart's summary stands for it, an
    image to a screen reader: its axis labels would only be noise next to the summary."""
    use_flet_charts = FLET_CHARTS if flet_charts is None else flet_charts
    if use_flet_charts:
        import scorekeeper.ui.charts.flet_charts as renderer  # the served app only

        body = renderer.draw(chart)
    else:
        body = canvas.draw(chart, width - PAD_RIGHT)
    if chart.kind == "share":
        box = ft.Container(body, width=chart.height, height=chart.height)
    else:
        box = ft.Container(body, height=chart.height, padding=ft.Padding.only(right=PAD_RIGHT))
    return ft.Semantics(
        content=box, identifier=chart.identifier, label=chart.summary, image=True, exclude_semantics=True
    )


def legend(entries: Sequence[tuple[str, str]]) -> ft.Control:
    """Coloured dots with labels, wrapping on narrow screens."""
    return ft.Row(
        [
            ft.Row(
                [ft.Container(width=12, height=12, border_radius=6, bgcolor=colour), ft.Text(label, size=13)],
                spacing=6,
                tight=True,
            )
            for colour, label in entries
        ],
        wrap=True,
        spacing=16,
        run_spacing=4,
    )


def numbers(identifier: str, title: str, table: ft.Control) -> ft.Control:
    """The chart's numbers as a table, folded under `title` until asked for (for those who read rather than
    look, and for screen readers that would walk a table)."""
    return ft.Semantics(
        identifier=identifier,
        content=ft.ExpansionTile(
            title=ft.Text(title, size=14),
            controls=[table],
            tile_padding=ft.Padding.symmetric(horizontal=4),
            controls_padding=ft.Padding.only(left=4, right=4, bottom=8),
            dense=True,
        ),
    )
