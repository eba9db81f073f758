"""High card's screens and its line for the UI registry (`UI`): a round-entry form built from the game's
`PartShape` (a one-tap count per seat and field, tagged `<field>-<seat>-<value>` as the app's round forms tag
their counts), a play panel and a board for a live table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.match import Match
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import ChoiceRow, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import Scale, big
from scorekeeper.ui.play.kit import PanelContext, act
from scorekeeper.ui.registry import GameBoard, GameUI


def round_form(
    ctx: AppContext, match: Match, edit: int | None, draft: dict[str, Any] | None, message: ft.Text
) -> RoundForm:
    """Every seat's part of the round, field by field as the game's part shape lists them."""
    shape = match.spec.table_part
    assert shape is not None
    index = edit if edit is not None else match.round_index
    draft = draft if draft is not None else {"parts": [{} for _ in match.players]}
    parts: list[dict[str, Any]] = draft["parts"]
    names = [name for stage in shape.stages for name in stage]
    rows: list[ft.Control] = []
    for seat, player in enumerate(match.names):
        rows.append(ft.Text(player, weight=ft.FontWeight.BOLD))
        for name in names:
            rows.append(
                _count(parts[seat], name, shape.most(name, match.opts, index) or 10, f"{name}-{seat}")
            )

    def result() -> dict[str, Any] | str:
        try:
            checked = [
                shape.check(seat, 0, part, None, match.opts, dealer_for(match, edit), index)
                for seat, part in enumerate(parts)
            ]
            return shape.build(checked, match.opts)
        except RuleError as error:
            return ctx.describe(error)

    return RoundForm(controls=rows, result=result, draft=draft)


def _count(part: dict[str, Any], name: str, most: int, prefix: str) -> ft.Control:
    """A one-tap count 0..most for field `name` of a seat's part, the chosen value marked."""

    def pick(value: Any) -> None:
        part[name] = value
        row.refresh(value)
        row.control.update()

    row = ChoiceRow(range(most + 1), pick, prefix=prefix)
    row.refresh(part.get(name))
    return row.control


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


UI = GameUI(round_form, panel, None, GameBoard(table, seat, ("shown",)))
