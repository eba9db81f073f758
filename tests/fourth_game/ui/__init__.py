"""High card's screens and its line for the UI registry (`UI`): a play panel and a board for a live table. Its
round entry is the form the app builds from the game's `PartShape` (`ui/views/rounds/parts.py`): a one-tap count
per seat and field, tagged `<field>-<seat>-<value>`; the game writes none of its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import Scale, big
from scorekeeper.ui.digital.kit import PanelContext, act
from scorekeeper.ui.registry import GameBoard, GameUI


def panel(pc: PanelContext) -> ft.Control:
    """This seat's card, the cards shown so far, and the one move."""
    view = pc.view
    lines: list[ft.Control] = [tag("highcard-own", ft.Text(f"{view.card}"))]
    lines.append(ft.Text(" ".join("?" if card is None else str(card) for card in view.shown)))
    for action in pc.legal:
        lines.append(act(ft.Button("Show", on_click=lambda _, a=action: pc.act(a)), action, "Show"))
    return ft.Column(lines)


def table(_ctx: AppContext, view: Any, _names: Sequence[str], scale: Scale) -> ft.Control:
    return big(" ".join("?" if card is None else str(card) for card in view.shown), scale.text(40))


def seat(_ctx: AppContext, view: Any, index: int, _scale: Scale) -> list[ft.Control]:
    card = view.shown[index]
    return [big("?" if card is None else str(card))]


UI = GameUI(panel=panel, board=GameBoard(table, seat, ("shown",)))
