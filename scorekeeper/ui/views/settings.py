"""Settings: language and theme (applied at once), where the data lives, backups, export and import.

Export and import go through the store (`export_json_text`, `export_csv_text`, `import_json_text`). Files are
chosen with Flet's FilePicker service: on a desktop a save dialog writes the file; in a browser or on a phone
the same call hands the bytes to the device as a download. "Save a copy in the data folder" needs no dialog at
all, for machines where no file dialog can open. Import uses the `PickFiles` client action, so the browser opens
its file chooser inside the tap (browsers allow it only then). Both work in headless Chromium (see
tests/browser/test_extras_screens.py); the handlers are plain functions, also tested without a browser.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.store import StoreError
from scorekeeper.ui import permissions
from scorekeeper.ui.components.extras_common import day, note, pills
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.i18n import LANGUAGES

PICKER_KEY = "extras_file_picker"  # the page's one FilePicker, kept in the session's drafts

# What can be exported, as data: kind -> (file extension, store method giving the text).
EXPORTS: dict[str, tuple[str, str]] = {
    "json": ("json", "export_json_text"),
    "csv": ("csv", "export_csv_text"),
}


def export_name(kind: str, when: datetime | None = None) -> str:
    """A file name that sorts by date: "scorekeeper-2026-05-01-2130.json"."""
    stamp = (when or datetime.now()).strftime("%Y-%m-%d-%H%M")
    return f"scorekeeper-{stamp}.{EXPORTS[kind][0]}"


def export_bytes(store: Any, kind: str) -> bytes:
    """The export file's bytes; the CSV starts with a byte-order mark so spreadsheets read accents right."""
    text = getattr(store, EXPORTS[kind][1])()
    return (("\ufeff" + text) if kind == "csv" else text).encode("utf-8")


def save_in_data_folder(store: Any, kind: str, when: datetime | None = None) -> Path:
    """Write an export into `<data folder>/exports/` (no dialog needed) and return its path."""
    folder = Path(store.data_dir) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / export_name(kind, when)
    method = store.export_json if kind == "json" else store.export_csv
    return Path(method(target))


def import_summary(ctx: AppContext, report: Any) -> str:
    """The import's outcome in the app's language."""
    if not report.changed:
        return ctx.t("Nothing new to import: everything in the file is already here.")
    text = ctx.t(
        "Imported: {added}, {updated} updated, {same} already here, {players}.",
        added=ctx.t.plural("{n} new game", "{n} new games", report.matches_added),
        updated=report.matches_updated,
        same=report.matches_unchanged + report.matches_kept,
        players=ctx.t.plural("{n} new player", "{n} new players", report.players_added),
    )
    if report.matches_kept:
        text += " " + ctx.t(
            "Games kept as they are on this device, because they are newer here: {n}.", n=report.matches_kept
        )
    return text


def import_content(
    ctx: AppContext, content: bytes | str, progress: Callable[[int, int], None] | None = None
) -> tuple[bool, str]:
    """Import an export file's content. Returns (imported, message); a bad file changes nothing."""
    try:
        report = ctx.store.import_json_text(content, progress)
    except (StoreError, ValueError) as error:
        return False, ctx.t("The file was not imported: {reason}", reason=ctx.describe(error))
    except RecursionError:  # JSON nested thousands deep: no export looks like that
        return False, ctx.t(
            "The file was not imported: {reason}", reason=ctx.t("The data is nested too deeply to be read.")
        )
    return True, import_summary(ctx, report)


def apply_imported_settings(ctx: AppContext) -> None:
    """An import may bring the other device's language or theme: show them at once."""
    saved = ctx.store.settings()
    changes = {
        key: saved[key]
        for key in ("language", "theme")
        if key in saved and saved[key] != ctx.settings.get(key)
    }
    if changes:
        ctx.update_settings(**changes)
    else:
        ctx.rerender()


def handle_picked(ctx: AppContext, files: list[Any]) -> None:
    """The FilePicker's result: read the first file's bytes (browser/phone) or its path (desktop), import."""
    if not files:
        return  # the dialog was closed without a choice
    chosen = files[0]
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
    imported, message = import_with_progress(ctx, content)
    if not imported:
        ctx.error(message)
        return
    ctx.notify(message)
    apply_imported_settings(ctx)


def import_with_progress(ctx: AppContext, content: bytes | str) -> tuple[bool, str]:
    """`import_content` with a progress bar on screen: a file of thousands of games takes seconds, and a screen
    that seems frozen is tapped again. The bar follows the games written (the check before is quick)."""
    bar = ft.ProgressBar(value=None, width=280)
    label = ft.Text(ctx.t("Checking the file…"))
    dialog = ft.AlertDialog(
        modal=True,
        title=ft.Text(ctx.t("Importing")),
        content=tag("import-progress", ft.Column([label, bar], tight=True)),
    )
    shown = [-1]

    def progress(done: int, total: int) -> None:
        percent = done * 100 // max(total, 1)
        if percent == shown[0]:
            return  # one redraw per percent, not one per game
        shown[0] = percent
        bar.value = done / max(total, 1)
        label.value = ctx.t("Writing the games… {percent} %", percent=percent)
        try:
            dialog.update()
        except Exception:  # the dialog is not on screen (any more): the import goes on regardless
            pass

    ctx.page.show_dialog(dialog)
    try:
        return import_content(ctx, content, progress)
    finally:
        ctx.close_dialog(dialog)


def file_picker(ctx: AppContext) -> Any:
    """The page's FilePicker service (made once per session); None where the page cannot host one."""
    picker = ctx.drafts.get(PICKER_KEY)
    if picker is None:
        try:
            picker = ft.FilePicker()
        except Exception:  # no page to register with (e.g. a view built outside a session)
            return None
        ctx.drafts[PICKER_KEY] = picker
    picker.on_result = lambda event: handle_picked(ctx, list(event.files or []))
    return picker


def _hands_bytes_over(page: Any) -> bool:
    """Browsers and phones can't write a chosen path: the save call itself delivers the bytes."""
    if getattr(page, "web", False):
        return True
    platform = getattr(page, "platform", None)
    return bool(platform is not None and platform.is_mobile())


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


def backup_action(ctx: AppContext) -> Callable[[Any], None]:
    def backup(_: Any) -> None:
        try:
            path = ctx.store.snapshot()
        except StoreError as error:
            ctx.error(ctx.describe(error))
            return
        ctx.notify(ctx.t("Backup saved: {name}", name=Path(path).name))
        ctx.rerender()

    return backup


def set_aside_files(data_dir: Path) -> list[Path]:
    """Damaged files the store renamed to `<name>.corrupt-<time>` when it restored the last good copy."""
    if not data_dir.is_dir():
        return []
    return sorted(p for p in data_dir.rglob("*.corrupt-*") if p.is_file())


def _app_version() -> str:
    try:
        return metadata.version("scorekeeper")
    except metadata.PackageNotFoundError:
        return "dev"


def copy_button(ctx: AppContext, text: str) -> ft.Control:
    """Copies `text` to the clipboard (done by the client inside the tap, as browsers require)."""
    button = ft.IconButton(ft.Icons.COPY, tooltip=ctx.t("Copy the path"))
    try:
        button.action = ft.CopyToClipboard(text)
        button.on_click = lambda _: ctx.notify(ctx.t("Copied"))
    except Exception:  # no page to copy with (a view built outside a session)
        button.visible = False
    return tag("copy-data-dir", button)


def _where_text(ctx: AppContext) -> str:
    """Where the data is, as the person holding this device sees it: served to a browser (a phone at the table,
    or the host's own browser) the data lives on the computer running the app, not in the browser."""
    if not ctx.served:
        return ctx.t("Your games, players and settings are stored on this device in:")
    if not ctx.may(permissions.DATA_PATH):
        return ctx.t("Your games, players and settings are stored on the host computer that serves this app.")
    return ctx.t("Your games, players and settings are stored on the computer that serves this app, in:")


def _data_section(ctx: AppContext) -> ft.Control:
    rows: list[ft.Control] = [tag("data-where", ft.Text(_where_text(ctx)))]
    if not ctx.may(permissions.DATA_PATH):
        return section(ctx.t("Where your data lives"), *rows)
    data_dir = Path(ctx.store.data_dir)
    snapshots = ctx.store.list_snapshots()
    rows += [
        ft.Row(
            [
                # Not `selectable`: selectable text is hidden from screen readers; the button copies it instead.
                tag("data-dir", ft.Text(str(data_dir), weight=ft.FontWeight.BOLD, font_family="monospace")),
                copy_button(ctx, str(data_dir)),
            ],
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    ]
    if snapshots:
        newest = datetime.fromtimestamp(snapshots[0].stat().st_mtime).isoformat()
        rows.append(
            ft.Text(
                ctx.t(
                    "Backups kept in the “backups” folder: {n}, the newest from {date}.",
                    n=len(snapshots),
                    date=day(ctx, newest),
                )
            )
        )
    if ctx.may(permissions.BACKUPS):
        rows.append(
            ft.Row(
                [
                    tag(
                        "back-up-now",
                        ft.OutlinedButton(
                            ctx.t("Back up now"), icon=ft.Icons.BACKUP, on_click=backup_action(ctx), height=44
                        ),
                    )
                ],
                wrap=True,
            )
        )
    messages = list(getattr(ctx.store, "recovery_messages", []) or [])
    damaged = set_aside_files(data_dir)
    if messages:
        rows.append(note("\n".join(ctx.describe(m) for m in messages), error=True))
    if damaged:
        rows.append(
            note(
                ctx.t(
                    "Damaged files were set aside and the last good copy was restored. You may delete them:"
                )
                + "\n"
                + "\n".join(str(p.relative_to(data_dir)) for p in damaged)
            )
        )
    return section(ctx.t("Where your data lives"), *rows)


def _transfer_section(ctx: AppContext) -> ft.Control:
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
                allowed_extensions=["json"],
                with_data=True,
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
        ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
    )


def guests_section(ctx: AppContext) -> ft.Control:
    """The host decides whether other devices may change settings, import, export, back up and delete
    (optionally after a PIN); a guest enters that PIN here."""
    saved = ctx.store.settings() if ctx.guest else ctx.settings
    saved = saved if isinstance(saved, dict) else {}
    if ctx.guest:
        if ctx.may(permissions.SETTINGS):
            return section(ctx.t("Guests"), ft.Text(ctx.t("The host lets this device change everything.")))
        text = ctx.t(
            "This device is a guest: it can view the games and keep score. Settings, export, import, backups "
            "and deleting stay with the host computer."
        )
        rows: list[ft.Control] = [tag("guest-note", ft.Text(text))]
        if saved.get(permissions.GUESTS_ALLOWED) is True and permissions.guest_pin(saved):
            field = ft.TextField(
                label=ctx.t("Host PIN"), password=True, width=200, keyboard_type=ft.KeyboardType.NUMBER
            )

            def unlock(_: object = None) -> None:
                if permissions.pin_matches(saved, field.value or ""):
                    ctx.unlocked = True
                    ctx.rerender()
                else:
                    ctx.error(ctx.t("That is not the host's PIN."))

            field.on_submit = unlock
            rows.append(
                ft.Row(
                    [
                        tag("guest-pin", field),
                        tag("guest-unlock", ft.OutlinedButton(ctx.t("Unlock"), on_click=unlock)),
                    ],
                    wrap=True,
                )
            )
        return section(ctx.t("Guests"), *rows)
    allowed = saved.get(permissions.GUESTS_ALLOWED) is True
    switch = ft.Switch(
        label=ctx.t("Other devices may change settings, export, import, back up and delete"),
        value=allowed,
        on_change=lambda e: ctx.update_settings(**{permissions.GUESTS_ALLOWED: bool(e.control.value)}),
    )
    rows = [
        ft.Text(
            ctx.t(
                "Devices that open this app over the network are guests: they can view the games and keep "
                "score."
            ),
            size=13,
        ),
        tag("guests-allowed", switch),
    ]
    if allowed:
        pin = ft.TextField(
            label=ctx.t("PIN guests must enter (empty: none)"),
            value=permissions.guest_pin(saved),
            width=260,
            max_length=12,
            keyboard_type=ft.KeyboardType.NUMBER,
        )
        pin.on_blur = pin.on_submit = lambda _: (
            ctx.update_settings(**{permissions.GUEST_PIN: (pin.value or "").strip()})
            if (pin.value or "").strip() != permissions.guest_pin(saved)
            else None
        )
        rows.append(tag("guest-pin-setting", pin))
    return section(ctx.t("Guests"), *rows)


def build(ctx: AppContext, **_: str) -> ft.View:
    current_language = str(ctx.settings.get("language", "en"))
    current_theme = str(ctx.settings.get("theme", "system"))
    themes = [("light", ctx.t("Light")), ("dark", ctx.t("Dark")), ("system", ctx.t("Like the system"))]
    controls: list[ft.Control] = [
        section(
            ctx.t("Language"),
            pills(
                list(LANGUAGES.items()),
                current_language,
                lambda code: ctx.update_settings(language=code),
                prefix="language",
            ),
        ),
        section(
            ctx.t("Theme"),
            pills(themes, current_theme, lambda theme: ctx.update_settings(theme=theme), prefix="theme"),
        ),
        *([_transfer_section(ctx)] if ctx.may(permissions.IMPORT) and ctx.may(permissions.EXPORT) else []),
        _data_section(ctx),
        guests_section(ctx),
        ft.Text(ctx.t("Scorekeeper version {version}", version=_app_version()), size=12),
    ]
    return screen(ctx, "/settings", ctx.t("Settings"), controls)
