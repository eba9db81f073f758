"""Round entry: picks the game's form and gives them all the same frame (title, messages, Save).

The forms only collect what the players say happened (racks, hands, bids, tricks); the match model and the
game's rules check and score it. A RuleError is shown under the form and nothing is saved.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import flet as ft

from scorekeeper.match import Match
from scorekeeper.ui.components.layout import error_text, screen
from scorekeeper.ui.components.match_io import change_match, load_match
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import primary_button
from scorekeeper.ui.context import AppContext


@dataclass
class RoundForm:
    """What a game's form hands back to the frame."""

    controls: list[ft.Control]
    result: Callable[[], dict[str, Any] | str]  # the round result, or a message when something is missing
    save_label: str | None = None
    extra_bottom: list[ft.Control] = field(default_factory=list)
    primary: Callable[[], None] | None = None  # the main button does this instead of saving (Rage: bids done)
    # The form shows the message itself (Racko: above the number pad, so that no key is hidden under it).
    places_message: bool = False


def personalise(message: str, names: list[str]) -> str:
    """Engine messages name seats "Player 2"; at the table people want the name they entered."""

    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else found.group(0)

    return re.sub(r"\bPlayer (\d+)\b", name, message)


def build(ctx: AppContext, match_id: str, index: str | None = None, **_: str) -> ft.View:
    route = f"/match/{match_id}/round" + (f"/{index}" if index is not None else "")
    match = load_match(ctx, match_id)
    if match is None:
        return screen(ctx, route, ctx.t("Round"), [ft.Text(ctx.t("This game was not found."))])
    edit = int(index) if index is not None else None
    if edit is not None and not 0 <= edit < len(match.rounds):
        edit = None
    if edit is None and match.is_over:
        return screen(
            ctx,
            route,
            game_title(ctx, match.game),
            [ft.Text(ctx.t("The game is over."))],
            back=f"/match/{match_id}",
            bottom=ft.Row(
                [primary_button(ctx.t("Final results"), lambda: ctx.navigate(f"/match/{match_id}/end"))]
            ),
        )
    number = (edit if edit is not None else match.round_index) + 1
    message = error_text()
    form_module = import_module(f"scorekeeper.ui.views.round_{match.spec.key}")  # one entry form per game
    draft_key = f"round:{match.id}:{edit if edit is not None else 'new'}:{match.round_index}"
    form: RoundForm = form_module.build_form(
        ctx, match, edit, ctx.session.rounds.setdefault(draft_key, {}), message
    )

    def save() -> None:
        result = form.result()
        if isinstance(result, str):
            if result:  # empty: the form has shown the message at its field itself
                show(result)
            return
        if edit is None:
            saved = change_match(ctx, match, lambda m: m.with_round(result), ctx.t("Round {n}", n=number))
        else:
            saved = change_match(
                ctx, match, lambda m: m.with_round_edited(edit, result), ctx.t("Edit round {n}", n=number)
            )
        if isinstance(saved, str):
            show(personalise(saved, match.names))
            return
        ctx.session.rounds.pop(draft_key, None)
        ctx.navigate(f"/match/{match.id}/end" if saved.is_over else f"/match/{match.id}")

    def show(text: str) -> None:
        message.value, message.visible = text, True
        message.update()

    action = form.primary or save
    ctx.on_enter = action
    title = (
        ctx.t("Edit round {n}", n=number)
        if edit is not None
        else ctx.t("{game}: round {n}", game=game_title(ctx, match.game), n=number)
    )
    save_label = form.save_label or ctx.t("Save round")
    bottom = ft.Column(
        [
            *([] if form.places_message else [message]),
            ft.Row([*form.extra_bottom, primary_button(save_label, action, identifier="save-round")]),
        ],
        spacing=4,
        tight=True,
    )
    return screen(ctx, route, title, form.controls, back=f"/match/{match.id}", bottom=bottom)


def seat_names(match: Match) -> list[str]:
    return list(match.names)


def dealer_for(match: Match, edit: int | None) -> int:
    """The dealer of the round being entered (or edited)."""
    return match.dealer_of(edit if edit is not None else match.round_index)
