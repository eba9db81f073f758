"""Charts for history and statistics (flet-charts): a match's score progression and the share of wins.

The numbers come from `scorekeeper.stats.overview`; this module only draws them. Where the client has no flet-charts
(the static web build: Flet's prebuilt web client has none of its extensions) the same numbers are a table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import flet as ft
import flet_charts as fch

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.model.match import Match
from scorekeeper.stats.overview import Series, WinShare, progression
from scorekeeper.ui.components.extras_common import colour_for, percent
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

CHART_HEIGHT = 260
CHARTS = not IN_BROWSER
"""Whether the client draws flet-charts' controls (not the prebuilt web client of the static build)."""


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


def series_colour(match: Match, line: Series, colours: dict[str, str]) -> str:
    seat = line.seats[0]
    return colour_for(colours, match.players[seat], seat)


def progression_chart(ctx: AppContext, match: Match, colours: dict[str, str]) -> ft.Control:
    """Totals after each round, one line per seat (per team for partners); round 0 is the start."""
    lines = progression(match)
    if not CHARTS:
        return progression_table(ctx, match, colours, lines)
    values = [v for line in lines for v in line.values]
    low, high = min([0, *values]), max([0, *values])
    step = nice_step(high - low)
    min_y = math.floor(low / step) * step
    max_y = max(math.ceil(high / step) * step, min_y + step)
    rounds = max(len(lines[0].values) - 1, 1) if lines else 1
    label_every = 1 if rounds <= 12 else nice_step(rounds, parts=8)
    data = [
        fch.LineChartData(
            points=[
                fch.LineChartDataPoint(x=i, y=v, tooltip=f"{line.label}: {v}")
                for i, v in enumerate(line.values)
            ],
            color=series_colour(match, line, colours),
            stroke_width=3,
            point=True,
        )
        for line in lines
    ]
    chart = fch.LineChart(
        data_series=data,
        min_x=0,
        max_x=rounds,
        min_y=min_y,
        max_y=max_y,
        left_axis=fch.ChartAxis(label_size=44, label_spacing=step),
        bottom_axis=fch.ChartAxis(
            labels=[
                fch.ChartAxisLabel(value=i, label=ft.Text(str(i), size=12))
                for i in range(label_every, rounds + 1, label_every)
            ],
            label_size=24,
            title=ft.Text(ctx.t("Round"), size=12),
            title_size=20,
        ),
        horizontal_grid_lines=fch.ChartGridLines(interval=step, color=ft.Colors.OUTLINE_VARIANT, width=1),
        vertical_grid_lines=fch.ChartGridLines(
            interval=label_every, color=ft.Colors.OUTLINE_VARIANT, width=1
        ),
        expand=True,
    )
    return ft.Column(
        [
            tag(
                "progression-chart",
                ft.Container(chart, height=CHART_HEIGHT, padding=ft.Padding.only(right=12)),
            ),
            legend([(series_colour(match, line, colours), line.label) for line in lines]),
        ],
        spacing=8,
    )


def win_share_chart(
    ctx: AppContext, shares: Sequence[WinShare], colours: dict[str, str], names: dict[str, str]
) -> ft.Control:
    """A pie of wins per player, with a legend giving wins and share; players without a win are listed too."""
    ordered = list(shares)
    colour_of = {s.player: colour_for(colours, s.player, i) for i, s in enumerate(ordered)}
    if not CHARTS:  # the legend gives every player's wins and share: it is the table
        return tag("win-share-table", win_share_key(ctx, ordered, colour_of, names))
    sections = [
        fch.PieChartSection(
            value=s.wins,
            color=colour_of[s.player],
            title=percent(ctx, s.share),
            radius=80,
            title_style=ft.TextStyle(size=13, weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE),
        )
        for s in ordered
        if s.wins
    ]
    pie = fch.PieChart(
        sections=sections,
        center_space_radius=28,
        sections_space=2,
        start_degree_offset=-90,
        width=220,
        height=220,
    )
    key = win_share_key(ctx, ordered, colour_of, names)
    parts: list[ft.Control] = [tag("win-share-chart", ft.Container(pie, width=220, height=220)), key]
    if ctx.narrow:
        return ft.Container(
            ft.Column(parts, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True),
            alignment=ft.Alignment.TOP_CENTER,
        )
    return ft.Row(parts, spacing=32, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def win_share_key(
    ctx: AppContext, ordered: Sequence[WinShare], colour_of: dict[str, str], names: dict[str, str]
) -> ft.Control:
    """Every player's wins and share, with the player's colour."""
    entries = [
        (
            colour_of[s.player],
            ctx.t(
                "{name} · wins: {wins} ({share})",
                name=names.get(s.player, s.name),
                wins=s.wins,
                share=percent(ctx, s.share),
            ),
        )
        for s in ordered
    ]
    return ft.Column([legend([entry]) for entry in entries], spacing=6, tight=True)


def progression_table(
    ctx: AppContext, match: Match, colours: dict[str, str], lines: Sequence[Series]
) -> ft.Control:
    """The progression chart's numbers as a table: the totals after each round, one column per line."""
    rounds = len(lines[0].values) - 1 if lines else 0
    header: list[ft.Control] = [ft.Text(ctx.t("Round"), weight=ft.FontWeight.BOLD, width=56)]
    # numbers to the right, as in the rounds table below it, so that digits line up
    header += [
        ft.Text(line.label, weight=ft.FontWeight.BOLD, expand=True, text_align=ft.TextAlign.RIGHT)
        for line in lines
    ]
    rows: list[ft.Control] = [ft.Row(header)]
    for number in range(1, rounds + 1):
        cells: list[ft.Control] = [ft.Text(str(number), width=56)]
        cells += [
            ft.Text(str(line.values[number]), expand=True, text_align=ft.TextAlign.RIGHT) for line in lines
        ]
        rows.append(ft.Row(cells))
    return ft.Column(
        [
            tag("progression-table", ft.Column(rows, spacing=4)),
            legend([(series_colour(match, line, colours), line.label) for line in lines]),
        ],
        spacing=8,
    )
