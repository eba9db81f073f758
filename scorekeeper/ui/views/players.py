"""Players: the saved players with name and colour; add, rename, change colour, archive and restore.

Matches keep the names they were played with, so renaming or archiving never changes a finished game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.server import permissions
from scorekeeper.store import Player, StoreError
from scorekeeper.ui import emoji_font
from scorekeeper.ui.components.layout import error_text, screen, section
from scorekeeper.ui.components.widgets import icon_button, name_entry, tag
from scorekeeper.ui.context import PLAYER_COLOURS, AppContext
from scorekeeper.ui.palette import legible
from scorekeeper.ui.session_state import PlayersDraft


def _colour_picker(ctx: AppContext, current: str, on_pick: Callable[[str], None], prefix: str) -> ft.Control:
    return ft.Row(
        [
            tag(
                f"{prefix}-{index}",
                ft.Container(
                    width=32,
                    height=32,
                    border_radius=16,
                    bgcolor=value,
                    border=ft.Border.all(
                        3 if value.lower() == (current or "").lower() else 0, ft.Colors.ON_SURFACE
                    ),
                    tooltip=ctx.t(name),
                    on_click=lambda _, v=value: on_pick(v),
                ),
            )
            for index, (name, value) in enumerate(PLAYER_COLOURS)
        ],
        wrap=True,
        spacing=6,
        run_spacing=6,
    )


def rename_dialog(ctx: AppContext, player_id: str, old: str) -> None:
    """Rename a player in a dialog; a refused name keeps the dialog open with the reason under its field."""
    field = emoji_font.watch(ctx, ft.TextField(label=ctx.t("Name"), value=old, autofocus=True))

    def done(_: object = None) -> None:
        try:
            ctx.store.rename_player(player_id, (field.value or "").strip())
        except (RuleError, StoreError, ValueError) as error:
            # The dialog stays open with the reason under its field, so the name can be corrected there.
            field.error = ctx.describe(error)
            field.update()
            return
        ctx.close_dialog(dialog)  # this dialog, not a snack bar opened meanwhile
        ctx.rerender()

    field.on_submit = done
    dialog: ft.AlertDialog = ft.AlertDialog(
        title=ft.Text(ctx.t("Rename {name}", name=old)),
        content=tag("rename-name", field),
        actions=[
            ft.TextButton(ctx.t("Cancel"), on_click=lambda _: ctx.close_dialog(dialog)),
            tag("rename-ok", ft.TextButton(ctx.t("Rename"), on_click=done)),
        ],
    )
    ctx.page.show_dialog(dialog)


def player_rows(
    ctx: AppContext, player: Player, draft: PlayersDraft, attempt: Callable[[Callable[[], object]], None]
) -> list[ft.Control]:
    """A saved player's row (colour, name, rename, colour, archive), and under it the colours while one is
    being picked for them."""
    editing = draft.colour_for == player.id

    def choose_colour_for(player_id: str | None) -> None:
        draft.colour_for = player_id
        ctx.rerender()

    def set_colour(player_id: str, colour: str) -> None:
        draft.colour_for = None
        attempt(lambda: ctx.store.set_player_colour(player_id, colour))

    actions = [
        tag(
            f"rename-{player.name}",
            icon_button(
                ft.Icons.EDIT,
                ctx.t("Rename"),
                on_click=lambda _, p=player: rename_dialog(ctx, p.id, p.name),
            ),
        ),
        icon_button(
            ft.Icons.PALETTE,
            ctx.t("Colour"),
            on_click=lambda _: choose_colour_for(None if editing else player.id),
        ),
    ]
    if ctx.may(permissions.ARCHIVE_PLAYERS):  # archiving hides a player from everyone: the host's call
        actions.append(
            icon_button(
                ft.Icons.UNARCHIVE if player.archived else ft.Icons.ARCHIVE,
                ctx.t("Restore") if player.archived else ctx.t("Archive"),
                on_click=lambda _, p=player: attempt(lambda: ctx.store.archive_player(p.id, not p.archived)),
            )
        )
    title = player.name + (f" ({ctx.t('archived')})" if player.archived else "")
    rows: list[ft.Control] = [
        tag(
            f"player-{player.name}",
            ft.Row(
                [
                    ft.Container(
                        width=20,
                        height=20,
                        border_radius=10,
                        bgcolor=legible(player.colour) if player.colour else ft.Colors.OUTLINE,
                    ),
                    ft.Text(title, expand=True, size=16),
                    *actions,
                ],
                spacing=4,
            ),
        )
    ]
    if editing:
        rows.append(
            _colour_picker(
                ctx,
                player.colour,
                partial(set_colour, player.id),
                f"colour-{player.name}",
            )
        )
    return rows


def build(ctx: AppContext, archived: str | None = None, **_: str) -> ft.View:
    show_archived = archived == "1"
    message = error_text()
    everyone = ctx.store.list_players(include_archived=True)
    draft = ctx.session.players

    def fail(error: Exception) -> None:
        message.value, message.visible = ctx.describe(error), True
        message.update()

    def attempt(action: Callable[[], object]) -> None:
        try:
            action()
        except (RuleError, StoreError, ValueError) as error:
            fail(error)
            return
        ctx.rerender()

    name_field = emoji_font.watch(ctx, name_entry(ctx.t("Name"), draft, lambda: add()))

    def add() -> None:
        name = (name_field.value or "").strip()
        colour, draft.picked = draft.picked, None
        colour = colour or PLAYER_COLOURS[len(everyone) % len(PLAYER_COLOURS)][1]
        try:
            ctx.store.add_player(name, colour)
        except (RuleError, StoreError, ValueError) as error:
            name_field.error = ctx.describe(error)  # at the field being typed in
            name_field.update()
            return
        draft.typing = True
        ctx.rerender()

    def pick_new(colour: str) -> None:
        draft.picked = colour
        ctx.rerender()

    rows: list[ft.Control] = [
        row
        for player in everyone
        if show_archived or not player.archived
        for row in player_rows(ctx, player, draft, attempt)
    ]
    if not rows:
        rows.append(ft.Text(ctx.t("No players yet. Add the people you play with.")))
    toggle = ft.Switch(
        label=ctx.t("Show archived players"),
        value=show_archived,
        on_change=lambda e: ctx.navigate("/players?archived=1" if e.control.value else "/players"),
    )
    colour = draft.picked or PLAYER_COLOURS[len(everyone) % len(PLAYER_COLOURS)][1]
    adder = section(
        ctx.t("Add a player"),
        ft.Row(
            [
                tag("player-name", name_field),
                tag("add-player", ft.FilledButton(ctx.t("Add"), on_click=lambda _: add())),
            ]
        ),
        _colour_picker(ctx, colour, pick_new, "new-colour"),
        message,
    )
    ctx.on_enter = None  # Enter in the name field adds (on_submit); a page-wide Enter would add twice
    return screen(ctx, "/players", ctx.t("Players"), [adder, section(ctx.t("Saved players"), *rows), toggle])
