"""The parts of the statistics-by-player screen: figure tiles, a card per game with its records, the opponents'
table with the nemesis, and games and wins per month as a bar chart (its numbers folded below it).

Every number is a field of `scorekeeper.stats.players.PlayerReport`; nothing here counts or scores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

import flet as ft
from babel.dates import format_date

import scorekeeper.ui.charts.describe as describe
from scorekeeper.games.spec import spec
from scorekeeper.stats.players import NEMESIS_MIN_GAMES, GameLine, Opponent, PlayerReport
from scorekeeper.ui.charts.draw import chart_control, legend, numbers
from scorekeeper.ui.components.extras_charts import screen_width
from scorekeeper.ui.components.extras_common import decimal, language, percent
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

Figure = tuple[str, str]
MONTHS_SHOWN = 12
"""The chart shows the latest twelve months with games."""


def tile(label: str, value: str) -> ft.Control:
    """One figure: the value large, its label small below (three fit beside each other at 390 px)."""
    return ft.Container(
        ft.Column(
            [
                ft.Text(value, size=18, weight=ft.FontWeight.BOLD),
                ft.Text(label, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            spacing=0,
            tight=True,
        ),
        width=104,
        padding=ft.Padding.symmetric(vertical=4),
    )


def tiles(figures: Sequence[Figure]) -> ft.Control:
    return ft.Row([tile(label, value) for label, value in figures], wrap=True, spacing=4)


def card(identifier: str, *controls: ft.Control) -> ft.Control:
    return tag(
        identifier,
        ft.Container(
            ft.Column(list(controls), spacing=6),
            padding=12,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=12,
        ),
    )


def overall(ctx: AppContext, report: PlayerReport) -> ft.Control:
    """The player's figures over every game the filters admit."""
    games = ctx.t.plural("{n} game", "{n} games", report.games)
    played = "–" if not report.timed_games else decimal(ctx, report.seconds / 3600)
    figures: list[Figure] = [
        (ctx.t("Games"), str(report.games)),
        (ctx.t("Wins"), str(report.wins)),
        (ctx.t("Win rate ({games})", games=games), percent(ctx, report.win_rate)),
        (ctx.t("Shared first places"), str(report.shared_wins)),
        (ctx.t("Longest winning streak"), str(report.longest_streak)),
        (ctx.t("Current winning streak"), str(report.current_streak)),
        (ctx.t("Hours played"), played),
    ]
    notes = [
        ft.Text(
            ctx.t("Time played is known for {known} of {games}.", known=report.timed_games, games=games),
            size=12,
        ),
        ft.Text(
            ctx.t("Only finished games count; a shared first place is a win for each player holding it."),
            size=12,
        ),
    ]
    return card("player-stats-overall", tiles(figures), *notes)


def game_card(ctx: AppContext, line: GameLine, open_match: Callable[[str], None]) -> ft.Control:
    """One game's figures and its records; a record opens the match it was set in."""
    lower = spec(line.game).lower_wins
    games = ctx.t.plural("{n} game", "{n} games", line.games)
    figures: list[Figure] = [
        (ctx.t("Wins"), str(line.wins)),
        (ctx.t("Win rate ({games})", games=games), percent(ctx, line.win_rate)),
        (ctx.t("Lowest total") if lower else ctx.t("Best total"), _value(line.best_total)),
        (ctx.t("Average total"), decimal(ctx, line.average_total)),
    ]
    records: list[ft.Control] = []
    if line.best_round is not None and line.best_round_match is not None:
        label = ctx.t("Lowest round") if lower else ctx.t("Best round")
        records.append(
            _record(
                f"player-stats-record-round-{line.game}",
                label,
                str(line.best_round),
                line.best_round_match,
                open_match,
            )
        )
    if line.bid_run is not None and line.bid_run_match is not None:
        label = ctx.t("Most bids made in a row")
        records.append(
            _record(
                f"player-stats-record-bids-{line.game}",
                label,
                str(line.bid_run),
                line.bid_run_match,
                open_match,
            )
        )
    title = ft.Text(game_title(ctx, line.game), weight=ft.FontWeight.BOLD, size=16)
    return card(f"player-stats-card-{line.game}", title, tiles(figures), *records)


def _value(value: int | None) -> str:
    return "–" if value is None else str(value)


def _record(
    identifier: str, label: str, value: str, match_id: str, open_match: Callable[[str], None]
) -> ft.Control:
    return tag(
        identifier,
        ft.TextButton(
            content=ft.Row(
                [ft.Icon(ft.Icons.EMOJI_EVENTS, size=18), ft.Text(f"{label}: {value}", expand=True)],
                spacing=8,
            ),
            on_click=lambda _: open_match(match_id),
        ),
    )


def opponents_table(ctx: AppContext, report: PlayerReport, shown: int = 5) -> ft.Control:
    """The opponents met most (how often this player finished ahead and behind), and the nemesis."""
    header = _table_row([ctx.t("Opponent"), ctx.t("Games"), ctx.t("Ahead"), ctx.t("Behind")], bold=True)
    lines = [
        _table_row([o.name, str(o.games), str(o.ahead), str(o.behind)]) for o in report.opponents[:shown]
    ]
    return ft.Column(
        [
            tag("player-stats-opponents", ft.Column([header, *lines], spacing=4)),
            nemesis_line(ctx, report.nemesis),
        ],
        spacing=8,
    )


def nemesis_line(ctx: AppContext, nemesis: Opponent | None) -> ft.Control:
    if nemesis is None:
        text = ctx.t(
            "No nemesis yet: it takes {n} games or more against the same opponent.", n=NEMESIS_MIN_GAMES
        )
    else:
        text = ctx.t(
            "Nemesis: {name}, finished ahead of in {ahead} of {games} games together (the lowest share among "
            "opponents met {n} times or more).",
            name=nemesis.name,
            ahead=nemesis.ahead,
            games=nemesis.games,
            n=NEMESIS_MIN_GAMES,
        )
    return tag("player-stats-nemesis", ft.Text(text, size=13))


def _table_row(cells: Sequence[str], *, bold: bool = False) -> ft.Control:
    weight = ft.FontWeight.BOLD if bold else None
    first, *rest = cells
    return ft.Row(
        [ft.Text(first, weight=weight, expand=True), *(ft.Text(c, weight=weight, width=64) for c in rest)],
        spacing=4,
    )


def month_label(ctx: AppContext, month: str, pattern: str = "MMMM y") -> str:
    """A month "2026-03" as the app's language writes it, in a CLDR `pattern` ("MMMM y": "März 2026")."""
    moment = date(int(month[:4]), int(month[5:7]), 1)
    return format_date(moment, format=pattern, locale=language(ctx))


def months_chart(ctx: AppContext, report: PlayerReport) -> ft.Control:
    """Games and wins per month (the latest twelve with games) as bars, the same numbers as a folded table."""
    months = report.months[-MONTHS_SHOWN:]
    chart = describe.months(
        months, lambda m: month_label(ctx, m, "MMM y"), lambda m: month_label(ctx, m), ctx.t
    )
    header = _table_row([ctx.t("Month"), ctx.t("Games"), ctx.t("Wins")], bold=True)
    lines = [_table_row([month_label(ctx, m), str(g), str(w)]) for m, g, w in months]
    table = tag("player-stats-months-table", ft.Column([header, *lines], spacing=4))
    return ft.Column(
        [
            chart_control(chart, screen_width(ctx)),
            legend(chart.legend),
            numbers("player-stats-months-numbers", ctx.t("Games and wins, month by month"), table),
        ],
        spacing=8,
    )
