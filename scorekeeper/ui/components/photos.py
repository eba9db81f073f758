"""Photos of a match on its scoreboard: a row of thumbnails, "Add photo" with the location switch beside it, and
a tapped photo full size with Delete.

How a picked photo reaches the store (`Store.photos.add`, which scales it once on the host):
- in a browser served by `main.py --web`: the file goes over HTTP through the app's upload route and its limits
  (`scorekeeper.ui.uploads`: one signed URL for the announced size, once), as the import does; on a phone the
  browser's picker for images offers the camera;
- on a desktop window: the picked file's path is read;
- elsewhere (a phone app, `flet run`): the picked file comes with its bytes;
- in the static build (Python in the browser, no Pillow) the bytes are scaled by the browser's own canvas
  (`scorekeeper.store.browser_photos`) and stored as they are (`Store.photos.add_scaled`); the location switch
  is not offered there (a canvas writes no EXIF).
Scaling runs on a worker thread; the photo's id is then added to the match through `Store.change_match`, so
undo takes it back. Delete only drops the id from the match (the file stays, so undo brings it back).

A photo a match names that this device does not have yet (sync brings it) shows as a placeholder.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.match import Match
from scorekeeper.store.browser_photos import KEEPS_LOCATION
from scorekeeper.store.photos import MAX_PHOTO_BYTES
from scorekeeper.ui import uploads
from scorekeeper.ui.components.match_io import announce
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

THUMB_PX = 72
"""A thumbnail's side on the scoreboard (logical px): four fit a 390 px phone's row with room to spare."""


@dataclass
class Pending:
    """A photo on its way to the server: the picked file's name and size, its upload slot, the match."""

    name: str
    size: int
    slot: uploads.Slot
    match_id: str
    keep_location: bool


@dataclass
class PhotoState:
    """What a session keeps for photos between redraws (`ctx.session.photos`)."""

    picker: ft.FilePicker | None = None
    keep_location: bool = False
    match_id: str = ""
    pending: Pending | None = None


def state_of(ctx: AppContext) -> PhotoState:
    state = ctx.session.photos
    if state is None:
        state = ctx.session.photos = PhotoState()
    return state


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


def change_photos(ctx: AppContext, match_id: str, change: Any, why: str) -> str | None:
    """Change the match's list of photo ids through the store (undoable); the message for the player, or None."""
    try:
        ctx.store.change_match(match_id, lambda m: _with_photos(m, change(list(m.photos))), why)
    except Exception as error:  # refused or not written: say why, nothing changed
        return ctx.t("Could not save: {error}", error=ctx.describe(error))
    announce(ctx, match_id)
    return None


def _with_photos(match: Match, photos: list[str]) -> Match:
    return match if photos == match.photos else dataclasses.replace(match, photos=photos)


# ---------------------------------------------------------------------- adding
def add_button(ctx: AppContext, state: PhotoState) -> ft.Control:
    button = ft.OutlinedButton(ctx.t("Add photo"), icon=ft.Icons.ADD_A_PHOTO, height=44)
    picker = picker_of(ctx, state)
    if picker is None or ctx.read_only:
        button.disabled = True
    else:
        try:
            button.action = ft.PickFiles(
                picker,
                dialog_title=ctx.t("Add photo"),
                file_type=ft.FilePickerFileType.IMAGE,
                with_data=sends_bytes(ctx),
            )
        except Exception:  # a picker not attached to a page cannot be bound: leave the button inert
            button.disabled = True
    return tag("photo-add", button)


def picker_of(ctx: AppContext, state: PhotoState) -> ft.FilePicker | None:
    """This session's file picker for photos (its own: the import's picker reports to the import)."""
    if state.picker is not None:
        return state.picker
    try:
        picker = ft.FilePicker()
    except Exception:  # no page to register with
        return None

    async def picked(event: Any) -> None:
        await on_picked(ctx, state, picker, list(event.files or []))

    def uploading(event: Any) -> None:
        on_upload(ctx, state, event)

    # Both set once, before the picker reaches the browser: the client reports only events a handler was set
    # for, and a handler set anew at every redraw sent the picker again with every save.
    picker.on_result = picked
    picker.on_upload = uploading
    state.picker = picker
    return picker


def uploads_available(ctx: AppContext) -> bool:
    """Send a picked photo over HTTP? In a browser, when the server set uploads up (`main.py --web`)."""
    return bool(getattr(ctx.page, "web", False)) and uploads.active() is not None


def sends_bytes(ctx: AppContext) -> bool:
    """Does a picked file come with its bytes? Where there is neither a path (desktop) nor an upload."""
    page = ctx.page
    platform = getattr(page, "platform", None)
    web_or_phone = bool(getattr(page, "web", False)) or bool(platform is not None and platform.is_mobile())
    return web_or_phone and not uploads_available(ctx)


def too_big(ctx: AppContext, size: int) -> str | None:
    limit = min(MAX_PHOTO_BYTES, uploads.max_import_bytes())
    over = uploads.too_big(size, limit)
    if over is None:
        return None
    from babel.numbers import format_decimal

    size_mb, limit_mb = (format_decimal(v, format="#,##0.#", locale=ctx.t.language) for v in over)
    return ctx.t(
        "This photo is too big ({size} MB; at most {limit} MB). Nothing was changed.",
        size=size_mb,
        limit=limit_mb,
    )


async def on_picked(ctx: AppContext, state: PhotoState, picker: Any, files: list[Any]) -> None:
    """The picker's result: refused when too big; sent over HTTP in a browser, else read from bytes or path."""
    if not files:
        return  # closed without a choice
    chosen = files[0]
    size = int(getattr(chosen, "size", 0) or 0)
    refused = too_big(ctx, size)
    if refused is not None:
        ctx.error(refused)
        return
    match_id, keep = state.match_id, state.keep_location
    content = getattr(chosen, "bytes", None)
    if content is None and getattr(chosen, "path", None):
        try:
            content = Path(chosen.path).read_bytes()
        except OSError as error:
            ctx.error(ctx.t("The file could not be read: {reason}", reason=error.strerror or str(error)))
            return
    if content is not None:
        ctx.notify(ctx.t("Adding the photo…"))
        if IN_BROWSER:  # no Pillow in the browser's Python: the browser scales it
            await store_browser_photo(ctx, match_id, bytes(content))
        else:
            ctx.page.run_thread(store_photo, ctx, match_id, bytes(content), keep)
        return
    store = uploads.active()
    if store is None or not uploads_available(ctx) or not size:
        ctx.error(ctx.t("The file could not be read."))
        return
    if state.pending is not None:  # picked again while one was on its way: that one is given up
        store.discard(state.pending.slot)
    slot = store.issue(size)
    state.pending = Pending(str(chosen.name), size, slot, match_id, keep)
    try:
        url = ctx.page.get_upload_url(slot.name, uploads.EXPIRES_S)
        ctx.notify(ctx.t("Sending the photo…"))
        await picker.upload(
            [ft.FilePickerUploadFile(upload_url=url, id=getattr(chosen, "id", None), name=str(chosen.name))]
        )
    except Exception as error:  # no upload possible in this session: say why, leave nothing behind
        store.discard(slot)
        state.pending = None
        ctx.error(
            ctx.t("The photo could not be sent ({reason}). Nothing was changed.", reason=ctx.describe(error))
        )


def on_upload(ctx: AppContext, state: PhotoState, event: Any) -> None:
    """Flet's upload progress; once the server has the whole file, it is stored on a worker thread."""
    pending = state.pending
    if pending is None or event.file_name != pending.name:
        return
    store = uploads.active()
    if event.error:
        state.pending = None
        if store is not None:
            store.discard(pending.slot)
        reason = str(event.error)
        message = too_big(ctx, MAX_PHOTO_BYTES + 1) if " 413" in reason else None
        ctx.error(
            message or ctx.t("The photo could not be sent ({reason}). Nothing was changed.", reason=reason)
        )
        return
    if float(event.progress or 0.0) < 1.0:
        return
    state.pending = None
    ctx.page.run_thread(finish_upload, ctx, pending)


def finish_upload(ctx: AppContext, pending: Pending) -> None:
    """The whole file is on the server: read it, delete it (whatever the outcome), store it. Worker thread."""
    store = uploads.active()
    content: bytes | None = None
    try:
        if store is not None:
            content = store.path(pending.slot).read_bytes()
    except OSError:
        content = None
    finally:
        if store is not None:
            store.discard(pending.slot)
    if content is None or len(content) != pending.size:  # cut off on the way: never keep part of a photo
        ctx.error(ctx.t("The photo did not arrive completely. Nothing was changed."))
        return
    store_photo(ctx, pending.match_id, content, pending.keep_location)


def store_photo(ctx: AppContext, match_id: str, content: bytes, keep_location: bool) -> None:
    """Scale and store the photo, add its id to the match (undoable), redraw. Worker thread."""
    try:
        photo_id = ctx.store.photos.add(content, keep_location=keep_location)
    except Exception as error:  # not a picture, too big, the folder not writable: nothing was changed
        ctx.error(ctx.describe(error))
        return
    attach_photo(ctx, match_id, photo_id)


async def store_browser_photo(ctx: AppContext, match_id: str, content: bytes) -> None:
    """The static build: the browser scales the photo (scorekeeper/store/browser_photos.py), the store keeps the
    result as it is; then as `store_photo`."""
    from scorekeeper.store.browser_photos import scaled

    try:
        photo, thumb = await scaled(content)
        photo_id = ctx.store.photos.add_scaled(photo, thumb)
    except Exception as error:  # not a picture, too big, the folder not writable: nothing was changed
        ctx.error(ctx.describe(error))
        return
    attach_photo(ctx, match_id, photo_id)


def attach_photo(ctx: AppContext, match_id: str, photo_id: str) -> None:
    """Add a stored photo's id to the match (undoable) and redraw, or say why not."""
    problem = change_photos(ctx, match_id, lambda ids: [*ids, photo_id], ctx.t("Add photo"))
    if problem:
        ctx.error(problem)
        return
    ctx.notify(ctx.t("Photo added."))
    ctx.rerender()
