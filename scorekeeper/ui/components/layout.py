"""The frame every screen shares: an app bar with a way back, and a centred column that suits phone and desktop."""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext

SCREEN_BODY = "screen-body"
"""The mark of a screen's scrolling column (see `lead_in`)."""
MAX_WIDTH = 900  # wider than this, content stays centred so lines remain readable on a desktop


def app_bar(
    ctx: AppContext, title: str, *, back: str | None = "/", actions: Sequence[ft.Control] = ()
) -> ft.AppBar:
    """An app bar titled `title`; `back` is the route the back arrow opens (None: no back arrow)."""
    leading = (
        tag(
            "app-back", icon_button(ft.Icons.ARROW_BACK, ctx.t("Back"), on_click=lambda _: ctx.navigate(back))
        )
        if back is not None
        else None
    )
    return ft.AppBar(
        title=ft.Text(title),
        leading=leading,
        automatically_imply_leading=False,
        actions=list(actions),
    )


def screen(
    ctx: AppContext,
    route: str,
    title: str,
    controls: Sequence[ft.Control],
    *,
    back: str | None = "/",
    actions: Sequence[ft.Control] = (),
    bottom: ft.Control | None = None,
    max_width: int = MAX_WIDTH,
    key: str | None = None,
) -> ft.View:
    """A scrolling screen with an app bar; `bottom` (e.g. a Save button row) stays visible below the scroll.
    A `key` makes the screen, built again, be reconciled with the one on the page (only changes are sent)."""
    body = ft.Column(list(controls), spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
    body.data = SCREEN_BODY  # `data` stays on the server: a mark for `lead_in`, nothing sent to the browser
    column: list[ft.Control] = [body]
    if bottom is not None:
        column.append(bottom)
    wide = ctx.width > max_width + 24
    frame = ft.Container(
        ft.Column(column, spacing=8, expand=True),
        width=max_width if wide else None,
        expand=not wide,
    )
    return ft.View(
        route=route,
        key=key,
        appbar=app_bar(ctx, title, back=back, actions=actions),
        controls=[
            ft.Row(
                [frame],
                alignment=ft.MainAxisAlignment.CENTER,
                vertical_alignment=ft.CrossAxisAlignment.START,
                expand=True,
            )
        ],
        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
    )


def screen_body(control: ft.Control, depth: int = 5) -> ft.Column | None:
    """The scrolling column of a `screen` inside `control` (marked by `SCREEN_BODY`), None in any other view:
    a board's own scrolling side panel is no place for a notice."""
    if isinstance(control, ft.Column) and control.data == SCREEN_BODY:
        return control
    if depth == 0:
        return None
    inner = getattr(control, "controls", None) or []
    content = getattr(control, "content", None)
    for child in [*inner, *([content] if isinstance(content, ft.Control) else [])]:
        found = screen_body(child, depth - 1)
        if found is not None:
            return found
    return None


def lead_in(view: ft.View, control: ft.Control) -> None:
    """Put `control` first in the screen's scrolling content, so that it scrolls away with the rest (pinned
    above it, a notice took an eighth of a phone's screen until dismissed); a view that does not scroll gets it
    on top."""
    body = screen_body(view)
    (body.controls if body is not None else view.controls).insert(0, control)


def section(title: str, *controls: ft.Control) -> ft.Control:
    """A titled group of controls."""
    return ft.Column(
        [ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_MEDIUM), *controls],
        spacing=6,
    )


def error_text(text: str = "") -> ft.Text:
    """A red line for a validation message; empty and invisible until a message is set."""
    return ft.Text(text, color=ft.Colors.ERROR, visible=bool(text), weight=ft.FontWeight.BOLD)
