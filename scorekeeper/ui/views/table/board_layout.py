"""Where the board of a live table puts its parts: a table view that fills a TV, a column on a narrow screen.

A board is drawn as parts by role (`KeyedParts`: each part's `key` is its role). The layout places a part by its
role, so a new kind of part (the score-keeping board's facts, bids or last round) needs no change here:

- `turn`, `heading`: the line at the top (whose turn, the round);
- `table`: what lies on the table (large cards), in the middle of the main area, taking the room there is;
- `seats`: a panel per player (name, who is gone, their public cards), along the bottom of the main area;
- `scores`, `last`, `moves`, `join`: the column at the right;
- any other role: the main area, under the heading, in the order given.

From `WIDE` px on (a TV, a tablet held landscape) the board does not scroll and fills the screen: the main area
left, the column right. Narrower, everything is one scrolling column in the order above.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import Scale, big

WIDE = 924
"""From this width on (the app's widest layout class, see `shell.width_class`) the board fills the screen."""
HEADING = ("turn", "heading")
SIDE = ("scores", "last", "moves", "join")
MAIN_FLEX, SIDE_FLEX = 7, 4
"""How the width is shared between the main area (the table) and the column at the right."""


def role(control: ft.Control) -> str:
    """A part's role: its key, less the build count of a part that changes itself (`role-3`)."""
    key = str(control.key or "")
    head, _, tail = key.rpartition("-")
    return head if head and tail.isdigit() else key


def wide(ctx: AppContext) -> bool:
    return ctx.width >= WIDE


def arrange(ctx: AppContext, parts: list[ft.Control], title: str, scale: Scale) -> list[ft.Control]:
    """The controls of the board's body for `parts` (see the module's docstring for where each goes)."""
    by_role: dict[str, list[ft.Control]] = {}
    for part in parts:
        by_role.setdefault(role(part), []).append(part)
    heading = [part for name in HEADING for part in by_role.pop(name, [])]
    table = by_role.pop("table", [])
    seats = by_role.pop("seats", [])
    side = [part for name in SIDE for part in by_role.pop(name, [])]
    others = [part for group in by_role.values() for part in group]
    caption = big(title, scale.text(28), colour=ft.Colors.ON_SURFACE_VARIANT)
    if not wide(ctx):
        return [caption, *heading, *table, *others, *seats, *side]
    top = ft.Row(
        [ft.Container(ft.Column(heading, tight=True), expand=True), caption],
        vertical_alignment=ft.CrossAxisAlignment.START,
        spacing=scale.px(24),
        key="top",
    )
    middle = (
        [ft.Container(ft.Column(table, tight=True), expand=True, alignment=ft.Alignment.CENTER)]
        if table
        else []
    )
    main = ft.Column(
        [*others, *middle, *seats],
        spacing=scale.px(24),
        expand=MAIN_FLEX,
        alignment=ft.MainAxisAlignment.START,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        key="main",
    )
    right = ft.Column(side, spacing=scale.px(24), expand=SIDE_FLEX, scroll=ft.ScrollMode.AUTO, key="side")
    body = ft.Row(
        [main, right],
        expand=True,
        spacing=scale.px(40),
        vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        key="wide",
    )
    return [top, body]
