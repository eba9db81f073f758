"""Photos of a match on its scoreboard: a row of thumbnails, "Add photo" with the location switch beside it, and
a tapped photo full size with Delete.

How a picked photo reaches the store (`Store.photos.add`, which scales it once on the host):
- in a browser served by `main.py --web`: the file goes over HTTP through the app's upload route and its limits
  (`scorekeeper.server.uploads`: one signed URL for the announced size, once), as the import does; on a phone the
  browser's picker for images offers the camera;
- on a desktop window: the picked file's path is read;
- elsewhere (a phone app, `flet run`): the picked file comes with its bytes;
- in the static build (Python in the browser, no Pillow) the bytes are scaled by the browser's own canvas
  (`scorekeeper.store.canvas_photos`) and stored as they are (`Store.photos.add_scaled`); the location switch
  is not offered there (a canvas writes no EXIF).
Scaling runs on a worker thread; the photo's id is then added to the match through `Store.change_match`, so
undo takes it back. Delete only drops the id from the match (the file stays, so undo brings it back).

A photo a match names that this device does not have yet (sync brings it) shows as a placeholder.

Rights are asked when a handler runs, not when its screen was drawn (`may_change`): every step that changes
something (the picker's result, the upload's end, storing, changing the match's list) refuses a session that
may not see the scoreboard any more (unpaired, the owner's "everyone is a member" switch off). The picker and
an upload on its way belong to the match's screens: leaving them, or a change of role, disowns both (`disown`,
called by the shell), and the shell answers no event of a picker taken off the page.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.model.match import Match
from scorekeeper.store.canvas_photos import KEEPS_LOCATION
from scorekeeper.ui.components.photo_adding import add_button, picker_of, store_photo, too_big
from scorekeeper.ui.components.photo_state import (
    change_photos,
    disown,
    may_change,
    refused,
    state_of,
)
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

__all__ = [
    "change_photos",
    "disown",
    "export_note",
    "first_photo_thumbnail",
    "photos_section",
    "picker_of",
    "store_photo",
    "thumbnail_button",
    "too_big",
]

THUMB_PX = 72
"""A thumbnail's side on the scoreboard (logical px): four fit a 390 px phone's row with room to spare."""


# ---------------------------------------------------------------------- the section
def photos_section(ctx: AppContext, match: Match) -> ft.Control:
    """The scoreboard's photo section: the thumbnails (tap: full size), "Add photo" and the location switch."""
    state = state_of(ctx)
    state.match_id = match.id
    thumbs = [thumbnail_button(ctx, match, photo_id, index) for index, photo_id in enumerate(match.photos)]
    buttons = [add_button(ctx, state)]
    if KEEPS_LOCATION:  # the browser's canvas writes no EXIF: there the location is never kept
        buttons.append(
            tag(
                "photo-keep-location",
                ft.Switch(
                    label=ctx.t("Keep the location"),
                    value=state.keep_location,
                    on_change=lambda e: setattr(state, "keep_location", bool(e.control.value)),
                    tooltip=ctx.t("Keep where the photo was taken (its GPS position) in the photo file."),
                ),
            )
        )
    return ft.Column(
        [
            ft.Text(ctx.t("Photos"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM),
            *([ft.Row(thumbs, wrap=True, spacing=8, run_spacing=8)] if thumbs else []),
            ft.Row(buttons, wrap=True, spacing=12, run_spacing=4),
        ],
        spacing=6,
    )


def image_or_placeholder(ctx: AppContext, photo_id: str, size: int, *, full: bool = False) -> ft.Control:
    """The photo (or its thumbnail) from the store; a placeholder while this device does not have it yet."""
    content = ctx.store.photos.image(photo_id) if full else ctx.store.photos.thumbnail(photo_id)
    if content is None:
        return ft.Container(
            ft.Icon(ft.Icons.HOURGLASS_EMPTY, color=ft.Colors.ON_SURFACE_VARIANT),
            width=size,
            height=size,
            alignment=ft.Alignment.CENTER,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=8,
            tooltip=ctx.t(
                "This photo is not on this device yet: a sync brings it from a device that has it."
            ),
        )
    if full:
        return ft.Image(src=content, fit=ft.BoxFit.CONTAIN, width=size)  # its height by its own shape
    return ft.Image(src=content, fit=ft.BoxFit.COVER, width=size, height=size, border_radius=8)


def first_photo_thumbnail(ctx: AppContext, photo_ids: list[str], size: int = 48) -> ft.Control | None:
    """For a list of matches (the history): the first photo's thumbnail, or None for a match without photos."""
    if not photo_ids:
        return None
    return image_or_placeholder(ctx, photo_ids[0], size)


def export_note(ctx: AppContext) -> ft.Control | None:
    """For the export screen: a line saying that the photo files are not in the export (None without photos)."""
    count = len(ctx.store.photos.ids())
    if not count:
        return None
    text = ctx.t(
        "The export holds each game's photos by name only, not the photo files ({count} in the data folder's "
        "photos folder): they reach your other devices by sync.",
        count=count,
    )
    return tag("export-photos-note", ft.Text(text, size=13, color=ft.Colors.ON_SURFACE_VARIANT))


def thumbnail_button(ctx: AppContext, match: Match, photo_id: str, index: int) -> ft.Control:
    def open_full(_: Any) -> None:
        photo_dialog(ctx, match, photo_id)

    box = ft.Container(
        image_or_placeholder(ctx, photo_id, THUMB_PX),
        width=THUMB_PX,
        height=THUMB_PX,
        on_click=open_full,
        border_radius=8,
    )
    return tag(f"photo-{index}", box, label=ctx.t("Photo {n}", n=index + 1))


def photo_dialog(ctx: AppContext, match: Match, photo_id: str) -> None:
    """The photo full size, with Delete (undoable) and Close."""
    after: list[str] = []

    def close(_: object = None) -> None:
        ctx.close_dialog(dialog)

    def delete(_: object) -> None:
        if after:
            return
        if not may_change(ctx):  # a dialog drawn before the right lapsed
            close()
            ctx.error(refused(ctx))
            return
        problem = change_photos(
            ctx, match.id, lambda ids: [i for i in ids if i != photo_id], ctx.t("Delete photo")
        )
        after.append(problem or "")
        close()

    def dismissed(_: object = None) -> None:
        if not after:
            return
        if after[0]:
            ctx.error(after[0])
        else:
            ctx.notify(ctx.t("Photo deleted. Undo brings it back."))
        ctx.rerender()

    side = int(min(max(ctx.width - 80, 200), 900))
    dialog = ft.AlertDialog(
        content=tag("photo-full", image_or_placeholder(ctx, photo_id, side, full=True)),
        content_padding=8,
        actions=[
            tag(
                "photo-delete",
                ft.TextButton(
                    ctx.t("Delete photo"),
                    icon=ft.Icons.DELETE_OUTLINE,
                    icon_color=ft.Colors.ERROR,
                    style=ft.ButtonStyle(color=ft.Colors.ERROR),
                    on_click=delete,
                ),
            ),
            tag("photo-close", ft.TextButton(ctx.t("Close"), on_click=close)),
        ],
        on_dismiss=dismissed,
    )
    dialog.data = dismissed  # in-process tests have no browser to report the dismissal
    ctx.page.show_dialog(dialog)
