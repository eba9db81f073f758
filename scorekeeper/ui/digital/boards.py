"""What the board of a live table shows of each game: public information only, in type for a room.

A game's board is a module `scorekeeper.ui.digital.<key>_board`, registered as the game's `GameBoard` in
`scorekeeper.ui.registry`. It takes the board's public view (see `scorekeeper.table.public`) and draws:

- `table(ctx, view, names, scale)`: what lies on the table (the discard pile, the trick, the board), as large
  cards: the middle of the TV board;
- `seat(ctx, view, seat, scale)`: what everyone knows of one player (known cards, bid and tricks, cards held),
  placed in that player's panel;
- `SEAT_FIELDS`: the view fields `seat` reads (a field held per seat counts with that seat's entry only), so
  a player's panel is drawn again only when they change;
- `board(ctx, view, names)`: both in one list (for callers that place them alike).

No text is smaller than `SMALL` (24 px), so a 1080p TV is readable from 3 m; everything else grows with the
screen (`Scale`). A game without such a module shows the scoreboard and the move log only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.cards import PILE_FILL

SMALL = 24
LARGE = 40
TV = (1920, 1080)
"""The screen the board's sizes are drawn for (scale 1)."""


@dataclass(frozen=True)
class Scale:
    """The board's sizes for one screen: `unit` is 1 on a 1080p TV and shrinks with a smaller window, so a
    tablet shows the same table in proportion. Text never goes under `SMALL`."""

    unit: float
    width: float
    """The window's width (logical pixels)."""

    def text(self, size: float) -> int:
        """A font size drawn as `size` on a 1080p TV, never under SMALL."""
        return max(SMALL, round(size * self.unit))

    def px(self, size: float) -> float:
        """A length drawn as `size` on a 1080p TV."""
        return size * self.unit


def scale_of(ctx: AppContext) -> Scale:
    """The scale for this window: the smaller of its width and height against a 1080p TV (at least 0.45, so a
    phone's cards stay large enough to read)."""
    width = ctx.width
    height = getattr(ctx.page, "height", None) or width * TV[1] / TV[0]
    return Scale(max(0.45, min(1.0, width / TV[0], float(height) / TV[1])), width)


def big(text: str, size: int = SMALL, *, bold: bool = False, colour: str | None = None) -> ft.Text:
    return ft.Text(text, size=max(SMALL, size), weight=ft.FontWeight.BOLD if bold else None, color=colour)


def tile(label: str, value: str, identifier: str) -> ft.Control:
    return tag(
        identifier,
        ft.Container(
            ft.Column([big(label), big(value, LARGE, bold=True)], spacing=0, tight=True),
            padding=16,
            border_radius=12,
            border=ft.Border.all(2, ft.Colors.OUTLINE_VARIANT),
        ),
    )


def labelled(label: str, control: ft.Control, scale: Scale, identifier: str) -> ft.Control:
    """A card (or pile) with its name under it, tagged for tests and screen readers."""
    return tag(
        identifier,
        ft.Column(
            [control, big(label, scale.text(32))],
            spacing=scale.px(8),
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    )


def card_back(text: str, width: float, scale: Scale) -> ft.Control:
    """A face-down pile with how many cards it holds."""
    return ft.Container(
        ft.Text(text, size=max(SMALL, width * 0.3), weight=ft.FontWeight.BOLD, color="#FFFFFF", no_wrap=True),
        width=width,
        height=width * 1.4,
        bgcolor=PILE_FILL,
        border_radius=width * 0.1,
        border=ft.Border.all(max(2, scale.px(6)), "#CFD8DC"),
        alignment=ft.Alignment.CENTER,
    )


def table_and_seats(
    ctx: AppContext,
    view: Any,
    names: Sequence[str],
    table: Callable[[AppContext, Any, Sequence[str], Scale], ft.Control],
    seat: Callable[[AppContext, Any, int, Scale], list[ft.Control]],
) -> list[ft.Control]:
    """A board in one column: what lies on the table, then a row per player with the name and what everyone
    knows of that seat (the games' `table` and `seat` parts)."""
    scale = scale_of(ctx)
    rows: list[ft.Control] = [table(ctx, view, names, scale)]
    for index, name in enumerate(names):
        rows.append(ft.Row([big(name, scale.text(32), bold=True), *seat(ctx, view, index, scale)], wrap=True))
    return rows
