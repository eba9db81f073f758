"""What the board of a live table shows of each game: public information only, in type for a room.

A game's board is the function `board` of the module `scorekeeper.ui.play.<key>_board` (found by name, as the
play panels are): it takes the board's public view (see `scorekeeper.table.public`) and returns controls; no
text is smaller than `SMALL` (24 px), so a 1080p TV is readable from 3 m. A game without such a module shows
the scoreboard and the move log only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

import flet as ft

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


Board = Callable[[AppContext, Any, Sequence[str]], list[ft.Control]]


def board_of(key: str) -> Board | None:
    """The board renderer of game `key` (`scorekeeper.ui.play.<key>_board.board`), or None when it has none."""
    try:
        module = import_module(f"scorekeeper.ui.play.{key}_board")
    except ModuleNotFoundError:
        return None
    return module.board
