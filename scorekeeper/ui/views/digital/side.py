"""The play screen's side column (beside the table on a tablet or desktop, below it on a phone): the round's
move log and the computer players' pace.

- The log shows the round's last `LOG_LINES` moves, as the device may tell them (`PlaySession.moves`); a button
  under it opens the whole round's log and closes it again.
- The pace buttons set how fast the computer players move (`play_setup.PACES`); the chosen one is filled.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorekeeper.games.base import Message
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.digital.setup import PACES

LOG_LINES = 6


def move_log(ctx: AppContext, moves: list[Message], whole: bool, toggle: Callable[[], None]) -> ft.Control:
    """The round's last moves (all of them when `whole`); a button calls `toggle` to open the whole round's log
    (and close it again)."""
    shown = moves if whole else moves[-LOG_LINES:]
    lines: list[ft.Control] = [ft.Text(ctx.describe(move), size=13) for move in shown]
    if not lines:
        lines = [ft.Text(ctx.t("No moves yet."), size=13, italic=True)]
    log = tag("move-log", section(ctx.t("Moves"), ft.Column(lines, spacing=2)))
    if len(moves) <= LOG_LINES:
        return log
    label = (
        ctx.t("Show the last moves only")
        if whole
        else ctx.t.plural("Show all {n} move", "Show all {n} moves", len(moves))
    )
    # beside the tagged log, not in it: a button inside would take the log's text into its own node
    button = tag("whole-log", ft.TextButton(label, on_click=lambda _: toggle()))
    return ft.Column([log, button], spacing=2)


def pace_row(ctx: AppContext, set_pace: Callable[[str], None]) -> ft.Control:
    """One button per pace of the computer players, the one in force filled; a tap calls `set_pace`."""
    pace = str(ctx.settings.get("play_pace", "normal"))
    buttons = [
        tag(
            f"pace-{key}",
            (ft.FilledButton if key == pace else ft.TextButton)(
                ctx.t(label), on_click=lambda _, k=key: set_pace(k)
            ),
        )
        for key, label in PACES.items()
    ]
    # The label above the buttons: beside them it left no room for the last button on a tablet.
    return ft.Column(
        [ft.Text(ctx.t("Computer players' pace"), size=12), ft.Row(buttons, spacing=4)], spacing=2
    )
