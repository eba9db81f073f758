"""Racko on the board of a live table (its `GameBoard` in `scorekeeper.ui.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import SMALL, Scale, big, card_back, labelled, table_and_seats

FILL = "#E3F2FD"
INK = "#0D47A1"
SEAT_FIELDS = ("known", "deck_size")
"""The view fields `seat` reads."""


def racko_card(value: int | None, deck: int, width: float) -> ft.Control:
    """A Racko card: its number large, and a bar whose length shows how high it is in the deck."""
    if value is None:  # an empty discard pile: its place on the table
        return ft.Container(
            width=width,
            height=width * 1.4,
            border_radius=width * 0.1,
            border=ft.Border.all(max(2, width * 0.02), ft.Colors.OUTLINE_VARIANT),
        )
    bar = ft.Container(
        height=max(4, width * 0.06),
        width=max(4, width * 0.8 * value / deck),
        bgcolor=INK,
        border_radius=width * 0.03,
    )
    number = ft.Text(str(value), size=max(SMALL, width * 0.45), weight=ft.FontWeight.BOLD, color=INK)
    return ft.Container(
        ft.Column(
            [number, bar],
            spacing=width * 0.04,
            tight=True,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.START,
        ),
        width=width,
        height=width * 1.4,
        padding=ft.Padding.symmetric(horizontal=width * 0.1),
        bgcolor=FILL,
        border_radius=width * 0.1,
        border=ft.Border.all(max(1, width * 0.015), "#66000000"),
        alignment=ft.Alignment.CENTER_LEFT,
    )


def table(ctx: AppContext, view: Any, names: Sequence[str], scale: Scale) -> ft.Control:
    """The discard pile (its top card large), the stock face down, and a card just taken from the pile."""
    width = scale.px(250)
    deck = view.deck_size
    piles = [
        labelled(ctx.t("Discard pile"), racko_card(view.discard_top, deck, width), scale, "board-discard"),
        labelled(ctx.t("Stock"), card_back(str(view.stock_count), width, scale), scale, "board-stock"),
    ]
    if view.drawn:  # taken from the discard pile: everyone saw it
        piles.append(
            labelled(ctx.t("Drawn from the pile"), racko_card(view.drawn, deck, width), scale, "board-drawn")
        )
    return ft.Row(piles, spacing=scale.px(48), alignment=ft.MainAxisAlignment.CENTER, wrap=True)


def seat(ctx: AppContext, view: Any, seat: int, scale: Scale) -> list[ft.Control]:
    """The cards everyone saw this player take from the pile (and not discard since), as cards."""
    known = view.known[seat] if seat < len(view.known) else ()
    cards: list[ft.Control] = [racko_card(card, view.deck_size, scale.px(64)) for card in known]
    shown = ft.Row(cards, spacing=scale.px(6), wrap=True) if cards else big("–", scale.text(32))
    label = big(ctx.t("Known cards"), scale.text(26))
    return [tag(f"board-known-{seat}", ft.Column([label, shown], spacing=scale.px(6), tight=True))]


def board(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """The discard pile, the stock, and each player's known cards (taken from the pile in view of all)."""
    return table_and_seats(ctx, view, names, table, seat)
