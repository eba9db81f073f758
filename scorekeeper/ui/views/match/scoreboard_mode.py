"""Scoreboard mode for a tablet across the table: standings in large type, readable at 2 m, over the whole screen.

The type grows with the room there is: fewer players, bigger numbers; below them the totals round by round as a
chart when the screen is tall enough. A visible button (and Escape, or a long press) returns to the scoreboard.
The desktop app goes full screen too; a browser offers its own full screen (F11), which Flet 1.0.5 cannot
request from the server. It redraws by itself when a round is saved on another device.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.components.extras_charts import CHART_HEIGHT, progression_chart
from scorekeeper.ui.components.match_io import colours_of, follow, load_match
from scorekeeper.ui.components.score_table import game_title, standings_list
from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.match.scoreboard import status_lines

HEADER = 110  # title, status line and the exit button
LEGEND = 60  # the chart's legend and spacing


def type_size(players: int, width: float, height: float) -> int:
    """The size of the names and totals: the standings share the height left (a line with its small second
    line of extras and spacing is about 2.3 times the type), and a long name plus its total must fit the width."""
    by_height = height / (max(players, 1) * 2.3)
    by_width = width / 11
    return int(max(22, min(120, by_height, by_width)))


def set_full_screen(ctx: AppContext, on: bool) -> None:
    """Ask the desktop window to go (or leave) full screen; a no-op in the browser, which Flet cannot ask."""
    try:
        if not ctx.page.web:
            ctx.page.window.full_screen = on
            ctx.page.update()
    except Exception:  # a platform without windows: nothing to do
        pass


def build(ctx: AppContext, match_id: str, **_: str) -> ft.View:
    route = f"/match/{match_id}/board"
    match = load_match(ctx, match_id)
    if match is None:
        return ft.View(route=route, controls=[ft.Text(ctx.t("This game was not found."))])
    back = f"/match/{match_id}"
    width = ctx.width
    height = float(getattr(ctx.page, "height", None) or 768)
    large = width >= 600
    padding = 32 if large else 16
    colours = colours_of(ctx, match)
    # The chart below the standings when the screen has room for both, else the standings take it all.
    chart = bool(match.rounds) and height - HEADER - CHART_HEIGHT - LEGEND >= len(match.players) * 90
    room = height - HEADER - 2 * padding - (CHART_HEIGHT + LEGEND if chart else 0)
    size = type_size(len(match.players), width - 2 * padding, room)

    def leave() -> None:
        set_full_screen(ctx, False)
        ctx.navigate(back)

    exit_button = tag(
        "board-exit",
        icon_button(
            ft.Icons.FULLSCREEN_EXIT,
            ctx.t("Leave scoreboard mode"),
            icon_size=40 if large else 28,
            on_click=lambda _: leave(),
        ),
    )
    header = ft.Row(
        [
            ft.Column(
                [
                    ft.Text(game_title(ctx, match.game), size=36 if large else 24, weight=ft.FontWeight.BOLD),
                    ft.Text(" · ".join(status_lines(ctx, match)), size=20 if large else 14),
                ],
                spacing=2,
                expand=True,
                tight=True,
            ),
            exit_button,
        ],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
    parts: list[ft.Control] = [
        header,
        ft.Divider(height=1),
        tag("board-standings", standings_list(ctx, match, large=True, colours=colours, size=size)),
    ]
    if chart:
        parts.append(progression_chart(ctx, match, colours, width - 2 * padding))
    board = ft.Column(parts, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
    ctx.on_enter = ctx.on_escape = leave
    follow(ctx, match_id, ctx.rerender)
    set_full_screen(ctx, True)
    surface = ft.GestureDetector(
        content=ft.Container(board, padding=padding, expand=True),
        on_long_press_start=lambda _: leave(),
        expand=True,
    )
    return ft.View(route=route, controls=[surface], padding=0)
