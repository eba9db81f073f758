"""Settings, "Import a file" in a browser: the picked file is sent over HTTP, then imported from disk.

A browser hands a picked file to the app either inside a websocket frame (`with_data=True`, which closes the
socket without a word when the file is over the frame limit) or by Flet's upload (see `scorekeeper.server.uploads`).
Here the second: `start` checks the size and the permission, asks for one signed URL and lets the browser PUT the
file; `on_upload` shows the progress in the screen's import status area (the place the import's own progress
bar uses), and when the whole file is there, `finish` imports it from disk on a worker thread (the screen keeps
updating meanwhile) and deletes it, whatever the outcome. Import stays all or nothing: a file that did not
arrive whole is never imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.server import permissions, uploads
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.session_state import Upload
from scorekeeper.ui.views.settings import importing as settings_import
from scorekeeper.ui.views.settings.importing import decimal


def in_background(ctx: AppContext, work: Callable[..., None], *args: Any) -> None:
    """Run `work` on Flet's worker threads, with the session's page set for it (the redraw at the end builds
    client actions, which need it): an import of a big file takes minutes, and the event loop must keep
    sending the progress meanwhile."""
    ctx.page.run_thread(work, *args)


def available(ctx: AppContext) -> bool:
    """Send picked files over HTTP? In a browser, when the server set uploads up (`main.py --web`)."""
    return bool(getattr(ctx.page, "web", False)) and uploads.active() is not None


def import_limit(ctx: AppContext) -> int:
    """The largest file this session can import: the app's limit; in a browser without uploads the file must
    also fit in one websocket frame (a bigger one closes the socket without a word). A static web build (Python
    in the browser, no server) has no websocket."""
    from flet.utils import is_pyodide

    limit = uploads.max_import_bytes()
    if getattr(ctx.page, "web", False) and not available(ctx) and not is_pyodide():
        limit = min(limit, uploads.WEBSOCKET_IMPORT_BYTES)
    return limit


def too_big_message(ctx: AppContext, size: int | None) -> str | None:
    """The message for a file over the import limit (None: it fits). Shown before anything is sent."""
    over = uploads.too_big(size, import_limit(ctx))
    return None if over is None else too_big_text(ctx, *over)


def too_big_text(ctx: AppContext, size_mb: float, limit_mb: float) -> str:
    return ctx.t(
        "This file is too big to import here ({size} MB; at most {limit} MB). Nothing was changed.",
        size=decimal(ctx, size_mb),
        limit=decimal(ctx, limit_mb),
    )


async def start(ctx: AppContext, picker: Any, chosen: Any) -> None:
    """Send the picked file to the server: one upload URL for it, then Flet's client does the PUT."""
    store = uploads.active()
    if store is None or not ctx.may(permissions.IMPORT):  # the settings screen is host-only; check again here
        settings_import.show_result(ctx, False, ctx.t("Importing is not allowed on this device."))
        return
    size = int(getattr(chosen, "size", 0) or 0)
    earlier, ctx.session.upload = ctx.session.upload, None
    if earlier is not None and not earlier.importing:  # picked again while one was on its way
        store.discard(earlier.slot)  # (one being imported is deleted when its import ends)
    slot = store.issue(size)
    upload = Upload(name=str(chosen.name), size=size, slot=slot)
    ctx.session.upload = upload
    try:
        url = ctx.page.get_upload_url(slot.name, uploads.EXPIRES_S)
        show_progress(ctx, upload, 0.0)
        await picker.upload(
            [ft.FilePickerUploadFile(upload_url=url, id=getattr(chosen, "id", None), name=upload.name)]
        )
    except Exception as error:  # no upload possible in this session: say why, leave nothing behind
        abandon(ctx, upload, sent_failure(ctx, ctx.describe(error)))


def show_progress(ctx: AppContext, upload: Upload, value: float) -> None:
    """The upload's progress bar in the import status area (one redraw per percent)."""
    status = ctx.session.import_status
    percent = int(value * 100)
    if status is None or percent == upload.shown:
        return
    upload.shown = percent
    label = ft.Text(ctx.t("Sending the file… {percent} %", percent=percent))
    status.controls = [
        tag("import-progress", ft.Column([label, ft.ProgressBar(value=value, width=280)], tight=True))
    ]
    status.visible = True
    try:
        status.update()
    except Exception:  # the screen was left: the upload goes on regardless
        pass


def on_upload(ctx: AppContext, event: Any) -> None:
    """Flet's upload progress: 0.0 first, steps of 10 %, 1.0 once the server has the whole file; or an error."""
    upload = ctx.session.upload
    if upload is None or event.file_name != upload.name or upload.importing:
        return  # an event of an upload given up (a newer pick), or a repeat of the last one
    if event.error:
        abandon(ctx, upload, failure_message(ctx, upload, str(event.error)))
        return
    progress = float(event.progress or 0.0)
    if progress < 1.0:
        show_progress(ctx, upload, progress)
        return
    upload.importing = True
    in_background(ctx, finish, ctx, upload)


def failure_message(ctx: AppContext, upload: Upload, error: str) -> str:
    """What the player reads when the server refused the file or the connection broke."""
    if " 413" in error:  # the server's own size check: the file grew after it was picked
        size, limit = (
            uploads.megabytes(upload.size, up=True),
            uploads.megabytes(uploads.max_import_bytes(), up=False),
        )
        return too_big_text(ctx, size, limit)
    return sent_failure(ctx, error)


def sent_failure(ctx: AppContext, reason: str) -> str:
    return ctx.t("The file could not be sent ({reason}). Nothing was changed.", reason=reason)


def abandon(ctx: AppContext, upload: Upload, message: str) -> None:
    """An upload that failed: delete what arrived, hide the progress, say why."""
    store = uploads.active()
    if store is not None:
        store.discard(upload.slot)
    if ctx.session.upload is upload:
        ctx.session.upload = None
    hide_status(ctx)
    settings_import.show_result(ctx, False, message)


def hide_status(ctx: AppContext) -> None:
    status = ctx.session.import_status
    if isinstance(status, ft.Column):
        status.visible = False
        try:
            status.update()
        except Exception:  # the screen was left
            pass


def finish(ctx: AppContext, upload: Upload) -> None:
    """The whole file is on disk: read it, delete it (whatever the outcome), and import it (all or nothing) the
    way every picked file is imported (`settings_import.import_and_show`). Runs on a worker thread."""
    store = uploads.active()
    content, failure = b"", None
    try:
        if store is None:
            raise OSError(ctx.t("the upload folder is gone"))
        content = store.path(upload.slot).read_bytes()
        if len(content) != upload.size:  # cut off on the way: never import part of a file
            failure = ctx.t("The file did not arrive completely. Nothing was changed.")
    except OSError as error:
        failure = ctx.t("The file could not be read: {reason}", reason=error.strerror or str(error))
    finally:
        if store is not None:
            store.discard(upload.slot)
        if ctx.session.upload is upload:
            ctx.session.upload = None
    if failure is not None:
        hide_status(ctx)
        settings_import.show_result(ctx, False, failure)
    else:
        settings_import.import_and_show(ctx, content)
