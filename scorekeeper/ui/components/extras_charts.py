"""Charts for history and statistics: a match's score progression and the share of wins.

The numbers come from `scorekeeper.stats.overview`; `scorekeeper.ui.charts` describes each chart once and draws
it with the renderer the client has (flet-charts in the served app, Flet's canvas in the static build). The
numbers stay readable as a table under each chart, folded until asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

import scorekeeper.ui.charts.describe as describe
from scorekeeper.model.match import Match
from scorekeeper.stats.overview import Series, WinShare, progression
from scorekeeper.ui.charts.draw import chart_control, legend, numbers
from scorekeeper.ui.components.extras_common import colour_for, percent
from scorekeeper.ui.components.layout import MAX_WIDTH
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

CHART_HEIGHT = describe.PROGRESSION_HEIGHT
SCREEN_PADDING = 12
"""A screen's own padding at each side (`layout.screen`): a chart on a screen is this much narrower."""


def screen_width(ctx: AppContext) -> float:
    """The width a chart gets in a screen's column: the window less the screen's padding, at most the column's."""
    return min(ctx.width - 2 * SCREEN_PADDING, MAX_WIDTH)


def series_colour(match: Match, line: Series, colours: dict[str, str]) -> str:
    seat = line.seats[0]
    return colour_for(colours, match.players[seat], seat)


def progression_chart(
    ctx: AppContext, match: Match, colours: dict[str, str], width: float | None = None
) -> ft.Control:
    """Totals after each round, one line per seat (per team for partners); round 0 is the start. `width`: the
    room the chart has (a screen's column by default). The totals per round follow as a folded table."""
    lines = progression(match)
    line_colours = [series_colour(match, line, colours) for line in lines]
    chart = describe.progression(lines, line_colours, ctx.t)
    return ft.Column(
        [
            chart_control(chart, screen_width(ctx) if width is None else width),
            legend(chart.legend),
            numbers("progression-numbers", ctx.t("Totals after each round"), progression_table(ctx, lines)),
        ],
        spacing=8,
    )


def win_share_chart(
    ctx: AppContext, shares: Sequence[WinShare], colours: dict[str, str], names: dict[str, str]
) -> ft.Control:
    """A ring of wins per player, with a key giving every player's wins and share (those without a win too):
    the key is the chart's table."""
    ordered = list(shares)
    colour_of = {s.player: colour_for(colours, s.player, i) for i, s in enumerate(ordered)}
    chart = describe.win_share(ordered, colour_of, names, lambda share: percent(ctx, share), ctx.t)
    key = tag(
        "win-share-table", ft.Column([legend([entry]) for entry in chart.legend], spacing=6, tight=True)
    )
    parts: list[ft.Control] = [chart_control(chart, chart.height), key]
    if ctx.narrow:
        return ft.Container(
            ft.Column(parts, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True),
            alignment=ft.Alignment.TOP_CENTER,
        )
    return ft.Row(parts, spacing=32, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def progression_table(ctx: AppContext, lines: Sequence[Series]) -> ft.Control:
    """The progression chart's numbers as a table: the totals after each round, one column per line."""
    rounds = len(lines[0].values) - 1 if lines else 0
    header: list[ft.Control] = [ft.Text(ctx.t("Round"), weight=ft.FontWeight.BOLD, width=56)]
    # numbers to the right, as in the rounds table below it, so that digits line up
    header += [
        ft.Text(
            line.label,
            weight=ft.FontWeight.BOLD,
            expand=True,
            text_align=ft.TextAlign.RIGHT,
            max_lines=1,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        for line in lines
    ]
    rows: list[ft.Control] = [ft.Row(header)]
    for number in range(1, rounds + 1):
        cells: list[ft.Control] = [ft.Text(str(number), width=56)]
        cells += [
            ft.Text(str(line.values[number]), expand=True, text_align=ft.TextAlign.RIGHT) for line in lines
        ]
        rows.append(ft.Row(cells))
    return tag("progression-table", ft.Column(rows, spacing=4))
