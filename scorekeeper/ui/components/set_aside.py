"""Setting aside a saved digital game that today's engine cannot replay, after a confirmation.

The store keeps it (`Store.set_aside_digital_game`: marked, not moved or deleted), so it stays in the data
folder, in exports and in sync; it is only no longer offered to be continued. The match keeps every round it
finished, and its scoreboard's "Continue playing" deals the round that was in progress again.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.server import permissions
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def ask_set_aside(ctx: AppContext, saved_id: str) -> None:
    """Confirm, then set the game aside and show home without it."""

    def close(_: object = None) -> None:
        ctx.close_dialog(dialog)  # this dialog, not whatever opened last (a snack bar)

    after: list[str] = []  # what to tell once the dialog is gone

    def confirm(_: object) -> None:
        if after:  # a second tap while the dialog closes changes nothing more
            return
        after.append(set_aside(ctx, saved_id))
        close()

    def dismissed(_: object = None) -> None:
        """The browser reports the dialog closed: only now redraw and tell. Replacing the view and opening a
        snack bar while the dialog is still closing leaves it open on screen (as for a round, scoreboard.py)."""
        if not after:
            return
        problem = after.pop()
        if problem:
            ctx.error(problem)
        else:
            ctx.notify(ctx.t("The game was set aside. The rounds it finished are in the history."))
        if ctx.route == "/":
            ctx.rerender()
        else:
            ctx.navigate("/")

    dialog = ft.AlertDialog(
        title=ft.Text(ctx.t("Set this game aside?")),
        content=ft.Text(
            ctx.t(
                "It cannot be continued with this version of the app. It is kept in the data folder and in "
                "exports, and the rounds it finished stay in the history."
            )
        ),
        actions=[
            tag("set-aside-cancel", ft.TextButton(ctx.t("Cancel"), on_click=close)),
            tag("set-aside-confirm", ft.TextButton(ctx.t("Set aside"), on_click=confirm)),
        ],
        on_dismiss=dismissed,
    )
    dialog.data = dismissed  # in-process tests have no browser to report the dismissal: they call this
    ctx.page.show_dialog(dialog)


def set_aside(ctx: AppContext, saved_id: str) -> str:
    """Set the game aside (host only, like deleting a game); what went wrong, or "" when it was set aside (or
    was gone already: either way home no longer lists it)."""
    if not ctx.may(permissions.DELETE_HISTORY):
        return ctx.t("Only the host device can do this.")
    ctx.session.plays.pop(saved_id, None)
    try:
        ctx.store.set_aside_digital_game(saved_id)
    except Exception as error:  # a read-only folder, or a newer save from another device: nothing changed
        return ctx.describe(error)
    return ""
