"""Rage on the board of a live table (its `GameBoard` in `scorekeeper.ui.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.games.rage.cards import COLOUR_NAMES, colour_of
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import Scale, big, labelled, table_and_seats
from scorekeeper.ui.digital.cards import colour_chip, rage_card

SEAT_FIELDS = ("bids", "tricks", "bonus", "minus")
"""The view fields `seat` reads."""


def trump(ctx: AppContext, view: Any, scale: Scale) -> ft.Control:
    """The trump in force for this trick (a no-trump card or a trump change in the trick can set it aside):
    the trump pile's top card, or a chip when no card shows it."""
    named = ctx.describe(COLOUR_NAMES[view.trump]) if view.trump in COLOUR_NAMES else ctx.t("no trump")
    width = scale.px(180)
    if view.trump_top is not None and view.trump in COLOUR_NAMES and colour_of(view.trump_top) == view.trump:
        face: ft.Control = rage_card(ctx, view.trump_top, width=width)
    else:
        face = ft.Container(
            colour_chip(ctx, view.trump if view.trump in COLOUR_NAMES else None, size=width * 0.8),
            width=width,
            height=width * 1.4,
            alignment=ft.Alignment.CENTER,
        )
    return labelled(ctx.t("Trump: {colour}", colour=named), face, scale, "board-trump")


def trick(ctx: AppContext, view: Any, names: Sequence[str], scale: Scale) -> ft.Control:
    """The cards of the trick on the table, each with who played it; before the first card, the last trick
    with who won it (or, while bidding, nothing yet)."""
    width = scale.px(180)
    plays, title = view.trick, ctx.t("The trick")
    winner = None
    if not plays and view.last_trick:
        plays, winner = view.last_trick, view.last_winner
        title = ctx.t("{name} won the last trick", name=names[winner]) if winner is not None else title
    cards: list[ft.Control] = [
        ft.Column(
            [
                ft.Container(
                    rage_card(ctx, card, width=width),
                    border=ft.Border.all(scale.px(6), "#FFB300") if seat == winner else None,
                    border_radius=width * 0.15,
                ),
                big(names[seat], scale.text(30), bold=seat == winner),
            ],
            spacing=scale.px(8),
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
        for seat, card in plays
    ]
    if not cards:
        cards = [
            ft.Container(width=width, height=width * 1.4, border=ft.Border.all(2, ft.Colors.OUTLINE_VARIANT))
        ]
    return tag(
        "board-trick",
        ft.Column(
            [big(title, scale.text(32), bold=True), ft.Row(cards, spacing=scale.px(20), wrap=True)],
            spacing=scale.px(10),
            tight=True,
        ),
    )


def table(ctx: AppContext, view: Any, names: Sequence[str], scale: Scale) -> ft.Control:
    """Trump and the trick, as large cards."""
    return ft.Row(
        [trump(ctx, view, scale), trick(ctx, view, names, scale)],
        spacing=scale.px(64),
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.START,
        wrap=True,
    )


def seat(ctx: AppContext, view: Any, seat: int, scale: Scale) -> list[ft.Control]:
    """The player's bid, the tricks taken so far, and the +5/-5 cards won."""
    bid = view.bids[seat]
    figures = [
        (ctx.t("Bid"), "–" if bid is None else str(bid)),
        (ctx.t("Tricks"), str(view.tricks[seat])),
    ]
    extra = []
    if view.bonus[seat]:
        extra.append(f"+5 ×{view.bonus[seat]}")
    if view.minus[seat]:
        extra.append(f"-5 ×{view.minus[seat]}")
    cells: list[ft.Control] = [
        ft.Column([big(label, scale.text(26)), big(value, scale.text(56), bold=True)], spacing=0, tight=True)
        for label, value in figures
    ]
    rows: list[ft.Control] = [ft.Row(cells, spacing=scale.px(32))]
    if extra:
        rows.append(big("  ".join(extra), scale.text(28)))
    return [tag(f"board-bid-{seat}", ft.Column(rows, spacing=scale.px(4), tight=True))]


def board(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
    """Trump, the trick on the table, and per player the bid and the tricks taken."""
    return table_and_seats(ctx, view, names, table, seat)
