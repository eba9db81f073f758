"""Settings, "Games set aside": the saved games the host set aside because today's engine could not replay them
(`Store.set_aside_digital_game`), with "Try again" for each.

A newer version of the app may replay a game this one could not: "Try again" brings it back to home's "Continue a
game" when it replays and its match still waits for its round (`digital.checks.bring_back`); otherwise it says why
under the game and the game stays set aside. Nothing is deleted here. Guests see the list, not the action (the
same right as setting a game aside).
"""

from __future__ import annotations

import flet as ft

from scorekeeper.digital.checks import bring_back, set_aside_games
from scorekeeper.server import permissions
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import ASIDE
from scorekeeper.ui.components.extras_common import day
from scorekeeper.ui.components.layout import error_text, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def aside_section(ctx: AppContext) -> ft.Control | None:
    """The games set aside, or None when there are none (most people never see this section)."""
    try:
        games = set_aside_games(ctx.store)
    except Exception:  # the digital folder unreadable: the data section above says what the store found
        return None
    if not games:
        return None
    intro = ctx.t(
        "These games could not be continued with this version of the app. They are kept; a newer version may "
        "continue them."
    )
    rows: list[ft.Control] = [tag("games-set-aside", ft.Text(intro, size=13))]
    rows += [aside_row(ctx, saved) for saved in games]
    return section(ctx.t("Games set aside"), *rows)


def aside_row(ctx: AppContext, saved: SavedGame) -> ft.Control:
    """One game: what it is, who played, when it was set aside; "Try again" for the host, and under it why it
    still cannot come back when it cannot."""
    names = ", ".join(str(seat.get("name", "")) for seat in saved.data.get("seats", []))
    title = ctx.t(
        "{game} · round {n}", game=game_title(ctx, saved.game), n=int(saved.data.get("round", 0)) + 1
    )
    when = ctx.t("Set aside on {date}", date=day(ctx, str(saved.data.get(ASIDE, ""))))
    tile = ft.ListTile(
        leading=ft.Icon(ft.Icons.ARCHIVE_OUTLINED),
        title=ft.Text(title),
        subtitle=ft.Text(f"{names}\n{when}"),
        content_padding=ft.Padding.only(left=16, right=16),
    )
    parts: list[ft.Control] = [tag(f"aside-{saved.id}", tile)]
    if ctx.may(permissions.DELETE_HISTORY):
        reason = error_text()
        button = ft.TextButton(
            ctx.t("Try again"),
            icon=ft.Icons.REFRESH,
            on_click=lambda _, s=saved.id: try_again(ctx, s, reason),
        )
        row = ft.Row([tag(f"try-again-{saved.id}", button)], alignment=ft.MainAxisAlignment.END)
        # the tag on the box that is always shown: a tag over hidden text draws Flutter's red error box
        parts.append(
            tag(f"aside-reason-{saved.id}", ft.Container(reason, padding=ft.Padding.only(left=16, right=16)))
        )
        parts.append(ft.Container(row, padding=ft.Padding.only(right=12, bottom=8)))
    return ft.Card(ft.Column(parts, spacing=0))


def try_again(ctx: AppContext, saved_id: str, reason: ft.Text) -> None:
    """Bring the game back when today's engine replays it (home offers it again); otherwise say why under it,
    where it stays set aside."""
    if not ctx.may(permissions.DELETE_HISTORY):
        ctx.error(ctx.t("Only the host device can do this."))
        return
    try:
        bring_back(ctx.store, saved_id)
    except Exception as error:  # still refused (a RuleError), or a read-only folder: nothing changed
        reason.value, reason.visible = ctx.describe(error), True
        reason.update()
        return
    ctx.notify(ctx.t("The game is back under “Continue a game”."))
    ctx.rerender()
