"""Round entry: picks the game's form and gives them all the same frame (title, messages, Save).

The forms only collect what the players say happened (racks, hands, bids, tricks); the match model and the
game's rules check and score it. A RuleError is shown under the form and nothing is saved.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.spans import span
from scorekeeper.ui.announcements import announcer, round_saved, speak
from scorekeeper.ui.components.layout import error_text, screen
from scorekeeper.ui.components.match_io import change_match, load_match
from scorekeeper.ui.components.round_base import RoundForm as RoundForm
from scorekeeper.ui.components.round_base import dealer_for as dealer_for
from scorekeeper.ui.components.round_base import personalise as personalise
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import primary_button
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.registry import ui_of


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
    draft_key = f"round:{match.id}:{edit if edit is not None else 'new'}:{match.round_index}"
    form: RoundForm = ui_of(match.spec).round_form(
        ctx, match, edit, ctx.session.rounds.get(draft_key), message
    )
    ctx.session.rounds[draft_key] = form.draft
    announcer(ctx)  # made with the screen, so that the client knows it when the round is saved

    def save() -> None:
        with span("save.form"):
            result = form.result()
        if isinstance(result, str):
            if result:  # empty: the form has shown the message at its field itself
                show(result)
            return
        if edit is None:
            saved = change_match(
                ctx, match, lambda m: m.with_round(result), ctx.t("Round {n}", n=number), index=number - 1
            )
        else:
            saved = change_match(
                ctx,
                match,
                lambda m: m.with_round_edited(edit, result),
                ctx.t("Edit round {n}", n=number),
                index=edit,
            )
        if isinstance(saved, str):
            show(personalise(saved, match.names))
            return
        ctx.session.rounds.pop(draft_key, None)
        # At once, without the page transition: the new total is the answer to the tap on Save.
        ctx.navigate(f"/match/{match.id}/end" if saved.is_over else f"/match/{match.id}", instant=True)
        speak(ctx, round_saved(ctx.t, number, saved.names, saved.totals(), edited=edit is not None))

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
