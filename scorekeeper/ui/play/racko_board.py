"""Racko on the board of a live table (found by `scorekeeper.ui.play.boards.board_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import big, tile


def board(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """The discard pile, the stock, and each player's known cards (taken from the pile in view of all)."""
    top = "–" if view.discard_top is None else str(view.discard_top)
    parts: list[ft.Control] = [
        ft.Row(
            [
                tile(ctx.t("Discard pile"), top, "board-discard"),
                tile(ctx.t("Stock"), str(view.stock_count), "board-stock"),
            ]
            + ([tile(ctx.t("Drawn from the pile"), str(view.drawn), "board-drawn")] if view.drawn else []),
            wrap=True,
            spacing=16,
        )
    ]
    rows = []
    for seat, name in enumerate(names):
        known = view.known[seat] if seat < len(view.known) else ()
        text = ", ".join(map(str, known)) if known else "–"
        rows.append(tag(f"board-known-{seat}", big(ctx.t("{name} knows: {cards}", name=name, cards=text))))
    parts.append(ft.Column(rows, spacing=4))
    return parts
