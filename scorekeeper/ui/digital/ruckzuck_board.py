"""Ruck Zuck on the board of a live table (its `GameBoard` in `scorekeeper.ui.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.games.ruckzuck import board as layout
from scorekeeper.games.ruckzuck.rules import JOKER
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import SMALL, Scale, big, card_back, scale_of
from scorekeeper.ui.digital.cards import FIELD_INK, RZ_FILL, RZ_INK, RZ_JOKER_INK

SIDE_TINT = {"red": "#FFCDD2", "blue": "#BBDEFB"}
"""The board's colour per side, as printed (as on the play panel)."""
GAP = 4
MAIN_SHARE = 0.6
"""About the share of the window's width the board's table gets (for the fields' type size)."""
SEAT_FIELDS = ("hand_sizes",)
"""The view fields `seat` reads."""


def field(card: Any, label: Any, side: str, cell: float) -> ft.Control:
    """One field: the card lying there (a joker as a star), else the printed field number."""
    if card is None:
        face: ft.Control = ft.Text(str(label), size=max(SMALL, cell * 0.36), color=FIELD_INK, no_wrap=True)
        fill, border = SIDE_TINT.get(side, SIDE_TINT["red"]), ft.Border.all(0.5, "#30000000")
    elif card == JOKER:
        face = ft.Icon(ft.Icons.STAR, size=cell * 0.6, color=RZ_JOKER_INK)
        fill, border = RZ_FILL, ft.Border.all(2, "#99000000")
    else:
        face = ft.Text(
            str(card), size=max(SMALL, cell * 0.5), weight=ft.FontWeight.BOLD, color=RZ_INK, no_wrap=True
        )
        fill, border = RZ_FILL, ft.Border.all(2, "#99000000")
    # 13 equal square fields across the width the board gets, whatever the screen
    return ft.Container(
        face,
        expand=1,
        aspect_ratio=1,
        bgcolor=fill,
        border=border,
        border_radius=6,
        alignment=ft.Alignment.CENTER,
    )


def table(ctx: AppContext, view: Any, names: Sequence[str], scale: Scale) -> ft.Control:
    """The board (13 by 4 fields, the card lying on each) filling the table's width, and the stock."""
    side = view.options.side
    cell = scale.width * MAIN_SHARE / layout.COLUMNS
    rows: list[ft.Control] = []
    for row in range(layout.ROWS):
        cells = [
            field(view.board[position], view.layout[position], side, cell)
            for position in range(row * layout.COLUMNS, (row + 1) * layout.COLUMNS)
        ]
        rows.append(ft.Row(cells, spacing=GAP))
    grid = tag("board-grid", ft.Column(rows, spacing=GAP, tight=True))
    stock = tag(
        "board-stock",
        ft.Row(
            [card_back(str(view.stock_size), scale.px(96), scale), big(ctx.t("Stock"), scale.text(32))],
            spacing=scale.px(16),
        ),
    )
    return ft.Column([grid, stock], spacing=scale.px(16), tight=True)


def seat(ctx: AppContext, view: Any, seat: int, scale: Scale) -> list[ft.Control]:
    """How many cards the player still holds (the fewer, the nearer the end of the round)."""
    held = view.hand_sizes[seat]
    text = ctx.t.plural("{n} card in hand", "{n} cards in hand", held)
    return [tag(f"board-hand-{seat}", big(text, scale.text(32), bold=held <= 1))]


def board(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """The board (13 by 4 fields, the card lying on each), the stock and how many cards each player holds."""
    scale = scale_of(ctx)
    hands = ", ".join(f"{name} {size}" for name, size in zip(names, view.hand_sizes, strict=True))
    return [
        table(ctx, view, names, scale),
        tag("board-hands", big(ctx.t("Cards in hand: {hands}", hands=hands))),
    ]
