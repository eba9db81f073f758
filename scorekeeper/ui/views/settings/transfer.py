"""Settings, "Export and import": the buttons and their handlers.

Export and import are the exchange formats' (`scorekeeper.exchange.transfer`: `export_json_text(store)`,
`export_csv_text(store)`, `import_json_text(store, ...)`). Files are
chosen with Flet's FilePicker service: on a desktop a save dialog writes the file; in a browser or on a phone
the same call hands the bytes to the device as a download. "Save a copy in the data folder" needs no dialog at
all, for machines where no file dialog can open. Import uses the `PickFiles` client action, so the browser opens
its file chooser inside the tap (browsers allow it only then). Both work in headless Chromium (see
tests/browser/test_history_stats_settings_screens.py); the handlers are plain functions, also tested without a browser.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.exchange import transfer
from scorekeeper.store import Store, StoreError
from scorekeeper.ui.components import photos
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.settings import upload as settings_upload
from scorekeeper.ui.views.settings.bgstats import bgstats_section
from scorekeeper.ui.views.settings.importing import (
    import_and_show,
    show_result,
)

# What can be exported, as data: kind -> (file extension, the function giving the store's text).
EXPORTS: dict[str, tuple[str, Callable[[Store], str]]] = {
    "json": ("json", transfer.export_json_text),
    "csv": ("csv", transfer.export_csv_text),
}


def export_name(kind: str, when: datetime | None = None) -> str:
    """A file name that sorts by date: "scorekeeper-2026-05-01-2130.json"."""
    stamp = (when or datetime.now()).strftime("%Y-%m-%d-%H%M")
    return f"scorekeeper-{stamp}.{EXPORTS[kind][0]}"


def export_bytes(store: Store, kind: str) -> bytes:
    """The export file's bytes; the CSV starts with a byte-order mark so spreadsheets read accents right."""
    text = EXPORTS[kind][1](store)
    return (("\ufeff" + text) if kind == "csv" else text).encode("utf-8")


def save_in_data_folder(store: Store, kind: str, when: datetime | None = None) -> Path:
    """Write an export into `<data folder>/exports/` (no dialog needed) and return its path."""
    folder = Path(store.data_dir) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / export_name(kind, when)
    write = transfer.export_json if kind == "json" else transfer.export_csv
    return Path(write(store, target))


def picked_size(chosen: Any) -> int | None:
    """The picked file's size in bytes, as the picker reports it (or from its bytes or its path)."""
    size = getattr(chosen, "size", None)
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    content = getattr(chosen, "bytes", None)
    if content is not None:
        return len(content)
    try:
        return Path(chosen.path).stat().st_size if getattr(chosen, "path", None) else None
    except OSError:
        return None  # reading it will say why


async def on_picked(ctx: AppContext, picker: Any, files: list[Any]) -> None:
    """The FilePicker's result. A file over the limit is refused before anything is sent or read; in a browser
    the file is then sent over HTTP (settings_upload), elsewhere it is read from its bytes or path and imported
    on a worker thread (`handle_picked`): this handler runs on Flet's event loop, which every session shares
    and which must keep sending the import's progress meanwhile."""
    if not files:
        return  # the dialog was closed without a choice
    chosen = files[0]
    refused = settings_upload.too_big_message(ctx, picked_size(chosen))
    if refused is not None:
        show_result(ctx, False, refused)
    elif (
        getattr(chosen, "bytes", None) is None
        and not getattr(chosen, "path", None)
        and picked_size(chosen)
        and settings_upload.available(ctx)
    ):
        await settings_upload.start(ctx, picker, chosen)
    else:  # (an empty file has nothing to send: the import says it is no export)
        settings_upload.in_background(ctx, handle_picked, ctx, files)


def handle_picked(ctx: AppContext, files: list[Any]) -> None:
    """Import a picked file from its bytes (phone, a browser without uploads) or its path (desktop). Blocks
    until the import is done: `on_picked` runs it on a worker thread."""
    if not files:
        return  # the dialog was closed without a choice
    chosen = files[0]
    refused = settings_upload.too_big_message(ctx, picked_size(chosen))
    if refused is not None:  # before the file is read
        show_result(ctx, False, refused)
        return
    content = getattr(chosen, "bytes", None)
    if content is None and getattr(chosen, "path", None):
        try:
            content = Path(chosen.path).read_bytes()
        except OSError as error:
            ctx.error(ctx.t("The file could not be read: {reason}", reason=error.strerror or str(error)))
            return
    if content is None:
        ctx.error(ctx.t("The file could not be read."))
        return
    import_and_show(ctx, content)


def file_picker(ctx: AppContext) -> Any:
    """The page's FilePicker service (made once per session); None where the page cannot host one."""
    picker = ctx.session.file_picker
    if picker is None:
        try:
            picker = ft.FilePicker()
        except Exception:  # no page to register with (e.g. a view built outside a session)
            return None
        ctx.session.file_picker = picker

    async def picked(event: Any) -> None:
        await on_picked(ctx, picker, list(event.files or []))

    def uploading(event: Any) -> None:
        settings_upload.on_upload(ctx, event)

    # Both set before the picker reaches the browser: the client only reports events a handler was set for.
    picker.on_result = picked
    picker.on_upload = uploading
    return picker


def _hands_bytes_over(page: Any) -> bool:
    """Browsers and phones can't write a chosen path: the save call itself delivers the bytes."""
    if getattr(page, "web", False):
        return True
    platform = getattr(page, "platform", None)
    return bool(platform is not None and platform.is_mobile())


def sends_bytes(ctx: AppContext) -> bool:
    """Does a picked file come with its bytes? Only where there is neither a path (desktop) nor an upload
    (a browser served by `main.py --web`, see settings_upload): a phone app, a browser under `flet run`."""
    return _hands_bytes_over(ctx.page) and not settings_upload.available(ctx)


def export_action(ctx: AppContext, kind: str) -> Callable[[Any], Any]:
    """The click handler of an export button: a save dialog (desktop) or a download (browser, phone)."""

    async def export(_: Any) -> None:
        picker = file_picker(ctx)
        name = export_name(kind)
        try:
            data = export_bytes(ctx.store, kind)
            if picker is None:
                raise RuntimeError(ctx.t("no file dialog on this device"))
            saved = await picker.save_file(dialog_title=ctx.t("Export"), file_name=name, src_bytes=data)
        except Exception as error:  # no dialog possible here: say so and point to the data-folder copy
            ctx.error(
                ctx.t(
                    "The file dialog could not open ({reason}). Use “Save a copy in the data folder”.",
                    reason=ctx.describe(error),
                )
            )
            return
        if _hands_bytes_over(ctx.page):
            ctx.notify(ctx.t("Download started: {name}", name=name))
        elif saved:
            ctx.notify(ctx.t("Saved to {path}", path=saved))

    return export


def save_copy_action(ctx: AppContext, kind: str) -> Callable[[Any], None]:
    def save(_: Any) -> None:
        try:
            path = save_in_data_folder(ctx.store, kind)
        except (StoreError, OSError) as error:
            ctx.error(ctx.t("Could not save the copy: {reason}", reason=ctx.describe(error)))
            return
        ctx.notify(ctx.t("Saved to {path}", path=str(path)))

    return save


def transfer_section(ctx: AppContext) -> ft.Control:
    picker = file_picker(ctx)
    # Import changes the stored games (a newer copy replaces one here): not the screen's primary button, and
    # marked in the error colour like the other actions that change or remove data.
    import_button = ft.OutlinedButton(
        ctx.t("Import a file"),
        icon=ft.Icons.UPLOAD_FILE,
        height=44,
        style=ft.ButtonStyle(color=ft.Colors.ERROR, side=ft.BorderSide(1, ft.Colors.ERROR)),
    )
    if picker is not None:
        try:
            import_button.action = ft.PickFiles(
                picker,
                dialog_title=ctx.t("Import"),
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json", "bgsplay"],  # a BG Stats plays file too (settings/bgstats.py)
                with_data=sends_bytes(ctx),
            )
        except Exception:  # a picker not attached to a page cannot be bound; leave the button inert
            import_button.disabled = True
    else:
        import_button.disabled = True
    # (identifier, label, icon, action): the ways out of the app, one button each.
    exports = (
        ("export-json", ctx.t("Export all data (JSON)"), ft.Icons.DOWNLOAD, export_action(ctx, "json")),
        (
            "export-csv",
            ctx.t("Export rounds as a table (CSV)"),
            ft.Icons.TABLE_CHART,
            export_action(ctx, "csv"),
        ),
        ("save-copy", ctx.t("Save a copy in the data folder"), ft.Icons.SAVE, save_copy_action(ctx, "json")),
    )
    status = ft.Column(visible=False)  # an import's progress, while it runs
    ctx.session.import_status = status
    result: list[ft.Control] = []
    last, ctx.session.import_result = ctx.session.import_result, None
    if (
        last is not None
    ):  # the import just done: what it brought, or why nothing (stays until the screen is left)
        imported, message = last
        result.append(tag("import-result", ft.Text(message, color=None if imported else ft.Colors.ERROR)))
    buttons = [
        *(
            tag(identifier, ft.OutlinedButton(label, icon=icon, on_click=action, height=44))
            for identifier, label, icon, action in exports
        ),
        tag("import-file", import_button),
    ]
    return section(
        ctx.t("Export and import"),
        ft.Text(
            ctx.t(
                "An export holds every game, player and setting. Importing one adds what is new and keeps "
                "the newer copy of a game that is on both sides; nothing is deleted."
            ),
            size=13,
        ),
        *([note] if (note := photos.export_note(ctx)) is not None else []),  # the photo files are not in it
        ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        status,
        *result,
        bgstats_section(ctx, picker, _hands_bytes_over(ctx.page)),
    )
