"""Scoreboard mode for a tablet across the table: standings in large type, readable at 2 m, no controls.

It redraws by itself when a round is saved on another device. Escape or a long press returns to the
scoreboard.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.components.match_io import colours_of, follow, load_match
from scorekeeper.ui.components.score_table import game_title, standings_list
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.scoreboard import status_lines


def build(ctx: AppContext, match_id: str, **_: str) -> ft.View:
    route = f"/match/{match_id}/board"
    match = load_match(ctx, match_id)
    if match is None:
        return ft.View(route=route, controls=[ft.Text(ctx.t("This game was not found."))])
    back = f"/match/{match_id}"
    large = ctx.width >= 600
    lines = status_lines(ctx, match)
    board = ft.Column(
        [
            ft.Text(game_title(ctx, match.game), size=40 if large else 28, weight=ft.FontWeight.BOLD),
            ft.Text(" · ".join(lines), size=28 if large else 18),
            ft.Divider(),
            standings_list(ctx, match, large=large, colours=colours_of(ctx, match)),
        ],
        spacing=16,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )
    ctx.on_enter = ctx.on_escape = lambda: ctx.navigate(back)
    follow(ctx, match_id, ctx.rerender)
    surface = ft.GestureDetector(
        content=ft.Container(board, padding=32 if large else 16, expand=True),
        on_long_press_start=lambda _: ctx.navigate(back),
        expand=True,
    )
    return ft.View(route=route, controls=[surface], padding=0)
