"""What the board of a live table shows of each game: public information only, in type for a room.

Each function takes the board's public view (see `scorekeeper.table.public`) and returns controls; no text is
smaller than `SMALL` (24 px), so a 1080p TV is readable from 3 m. A game without an entry here shows the
scoreboard and the move log only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from scorekeeper.games.rage.cards import COLOUR_NAMES
from scorekeeper.games.rage.cards import describe as rage_card
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

SMALL = 24
LARGE = 40


def big(text: str, size: int = SMALL, *, bold: bool = False, colour: str | None = None) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD if bold else None, color=colour)


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


def racko(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
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


def rage(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """Trump, the trick on the table, and per player the bid and the tricks taken."""
    # The trump in force for this trick (a no-trump card or a trump change in the trick can set it aside).
    trump = ctx.describe(COLOUR_NAMES[view.trump]) if view.trump in COLOUR_NAMES else ctx.t("no trump")
    trick = ", ".join(f"{names[s]}: {ctx.describe(rage_card(c))}" for s, c in view.trick) or "–"
    rows = []
    for seat, name in enumerate(names):
        bid = view.bids[seat]
        bid_text = "–" if bid is None else str(bid)
        rows.append(
            tag(
                f"board-bid-{seat}",
                big(
                    ctx.t(
                        "{name}: bid {bid}, tricks {tricks}",
                        name=name,
                        bid=bid_text,
                        tricks=view.tricks[seat],
                    )
                ),
            )
        )
    return [
        ft.Row([tile(ctx.t("Trump"), trump, "board-trump")], wrap=True),
        tag("board-trick", big(ctx.t("Trick: {cards}", cards=trick), 32, bold=True)),
        ft.Column(rows, spacing=4),
    ]


def ruckzuck(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """The board (13 by 4 fields, the card lying on each), the stock and how many cards each player holds."""
    cells = []
    for position, field in enumerate(view.layout):
        card = view.board[position]
        text = str(card) if card is not None else ""
        cells.append(
            ft.Container(
                ft.Column(
                    [big(text, 28, bold=True), ft.Text(str(field), size=SMALL, color=ft.Colors.OUTLINE)],
                    spacing=0,
                    tight=True,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                width=70,
                height=86,
                alignment=ft.Alignment.CENTER,
                bgcolor=ft.Colors.PRIMARY_CONTAINER if card is not None else None,
                border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                border_radius=6,
            )
        )
    grid = ft.Column([ft.Row(cells[row * 13 : row * 13 + 13], spacing=4) for row in range(4)], spacing=4)
    hands = ", ".join(f"{name} {size}" for name, size in zip(names, view.hand_sizes, strict=True))
    return [
        tag("board-grid", grid),
        ft.Row([tile(ctx.t("Stock"), str(view.stock_size), "board-stock")]),
        tag("board-hands", big(ctx.t("Cards in hand: {hands}", hands=hands))),
    ]


BOARDS: dict[str, Callable[[AppContext, Any, Sequence[str]], list[ft.Control]]] = {
    "racko": racko,
    "rage": rage,
    "ruckzuck": ruckzuck,
}
