"""Rage on the board of a live table (found by `scorekeeper.ui.play.boards.board_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.games.rage.cards import COLOUR_NAMES
from scorekeeper.games.rage.cards import describe as rage_card
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import big, tile


def board(ctx: AppContext, view: Any, names: Sequence[str]) -> list[ft.Control]:
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
