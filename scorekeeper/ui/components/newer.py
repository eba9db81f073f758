"""A match made by a newer version of the app (a game this version does not know, or a file of a newer schema):
the store keeps it as it is, lists it read-only and syncs it on (docs/DATA.md, "Newer data"). The lists show
it with what its record tells (game, people, rounds) and the line "Made by a newer version of the app"; its
scoreboard and history page say so instead of "not found", and offer nothing to change.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.ui.components.extras_common import empty_state
from scorekeeper.ui.components.layout import screen
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def newer_line(ctx: AppContext) -> str:
    """The line a list shows for such a match, in place of its totals."""
    return ctx.t("Made by a newer version of the app")


def newer_of(ctx: AppContext, match_id: str) -> Any:
    """The store's summary of the match if a newer version made it, else None (a store without the call:
    None)."""
    newer = getattr(ctx.store, "newer_match", None)
    try:
        return newer(match_id) if callable(newer) else None
    except Exception:  # an unreadable file is the other screens' business: they say "not found"
        return None


def newer_view(ctx: AppContext, match_id: str, route: str, back: str = "/") -> ft.View | None:
    """The screen for a match a newer version made (read-only: what its record tells, and why no more), or
    None when `match_id` is not such a match."""
    summary = newer_of(ctx, match_id)
    if summary is None:
        return None
    lines = [
        ctx.t("Players: {names}", names=", ".join(summary.names)) if summary.names else "",
        ctx.t("Rounds: {n}", n=summary.rounds),
    ]
    controls: list[ft.Control] = [
        empty_state(ft.Icons.UPDATE, newer_line(ctx)),
        tag(
            "newer-explained",
            ft.Text(
                ctx.t(
                    "This game is kept as it is and synced to your other devices. Update the app on this "
                    "device to see its scores and change it here."
                )
            ),
        ),
        *(ft.Text(line) for line in lines if line),
    ]
    title = game_title(ctx, summary.game) if summary.game else ctx.t("Scoreboard")
    return screen(ctx, route, title, [tag("newer-match", ft.Column(controls, spacing=8))], back=back)
