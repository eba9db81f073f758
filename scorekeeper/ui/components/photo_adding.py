"""Adding a photo to a match: the session's file picker, the picked file's way to the store (bytes, a path, or an
upload over HTTP: `scorekeeper.server.uploads`), scaling on a worker thread and the id put on the match. Every step
asks the rights again when it runs (`photo_state.may_change`). See photos.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.server import uploads
from scorekeeper.store.photos import MAX_PHOTO_BYTES
from scorekeeper.ui.components.photo_state import change_photos, may_change, refused
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.session_state import Pending, PhotoState


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
    owned = state.picker
    if owned is None or owned is not picker or not may_change(ctx):  # a picker disowned, or a right lapsed
        ctx.error(refused(ctx))
        return
    chosen = files[0]
    size = int(getattr(chosen, "size", 0) or 0)
    over = too_big(ctx, size)
    if over is not None:
        ctx.error(over)
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
    if not may_change(ctx):  # the right lapsed while the file was on its way: it is not kept
        state.pending = None
        if store is not None:
            store.discard(pending.slot)
        ctx.error(refused(ctx))
        return
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
    if not may_change(ctx):
        ctx.error(refused(ctx))
        return
    store_photo(ctx, pending.match_id, content, pending.keep_location)


def store_photo(ctx: AppContext, match_id: str, content: bytes, keep_location: bool) -> None:
    """Scale and store the photo, add its id to the match (undoable), redraw. Worker thread. Nothing is
    scaled or written for a session that may no longer change the match."""
    if not may_change(ctx):
        ctx.error(refused(ctx))
        return
    try:
        photo_id = ctx.store.photos.add(content, keep_location=keep_location)
    except Exception as error:  # not a picture, too big, the folder not writable: nothing was changed
        ctx.error(ctx.describe(error))
        return
    attach_photo(ctx, match_id, photo_id)


async def store_browser_photo(ctx: AppContext, match_id: str, content: bytes) -> None:
    """The static build: the browser scales the photo (scorekeeper/store/canvas_photos.py), the store keeps the
    result as it is; then as `store_photo`."""
    from scorekeeper.store.canvas_photos import scaled

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
