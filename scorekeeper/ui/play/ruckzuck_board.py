"""Ruck Zuck on the board of a live table (found by `scorekeeper.ui.play.boards.board_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import SMALL, big, tile
from scorekeeper.ui.play.kit import box


def board(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """The board (13 by 4 fields, the card lying on each), the stock and how many cards each player holds."""
    cells = []
    for position, field in enumerate(view.layout):
        card = view.board[position]
        text = str(card) if card is not None else ""
        cells.append(
            box(
                [big(text, 28, bold=True), ft.Text(str(field), size=SMALL, color=ft.Colors.OUTLINE)],
                width=70,
                height=86,
                radius=6,
                bgcolor=ft.Colors.PRIMARY_CONTAINER if card is not None else None,
                border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            )
        )
    grid = ft.Column([ft.Row(cells[row * 13 : row * 13 + 13], spacing=4) for row in range(4)], spacing=4)
    hands = ", ".join(f"{name} {size}" for name, size in zip(names, view.hand_sizes, strict=True))
    return [
        tag("board-grid", grid),
        ft.Row([tile(ctx.t("Stock"), str(view.stock_size), "board-stock")]),
        tag("board-hands", big(ctx.t("Cards in hand: {hands}", hands=hands))),
    ]
