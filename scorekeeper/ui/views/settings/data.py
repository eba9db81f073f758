"""Settings, "Where your data lives": the data folder (with a copy button), its backups and "Back up now", and
what the store recovered or set aside when it opened.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.server import permissions
from scorekeeper.store import StoreError
from scorekeeper.ui.components.extras_common import day, note
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext


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


def copy_button(ctx: AppContext, text: str) -> ft.Control:
    """Copies `text` to the clipboard (done by the client inside the tap, as browsers require)."""
    button = icon_button(ft.Icons.COPY, ctx.t("Copy the path"))
    try:
        button.action = ft.CopyToClipboard(text)
        button.on_click = lambda _: ctx.notify(ctx.t("Copied"))
    except Exception:  # no page to copy with (a view built outside a session): no button (and no tag, which
        button.visible = False  # Flutter would draw as an error box over a hidden control)
        return button
    return tag("copy-data-dir", button)


def _where_text(ctx: AppContext) -> str:
    """Where the data is, as the person holding this device sees it: served to a browser (a phone at the table,
    or the host's own browser) the data lives on the computer running the app, not in the browser. In the static
    build (Python in the browser) it lives in the browser itself (IndexedDB), whose folder means nothing to a
    person."""
    if IN_BROWSER:
        return ctx.t("Your games, players and settings are stored in this browser, on this device.")
    if not ctx.served:
        return ctx.t("Your games, players and settings are stored on this device in:")
    if not ctx.may(permissions.DATA_PATH):
        return ctx.t("Your games, players and settings are stored on the host computer that serves this app.")
    return ctx.t("Your games, players and settings are stored on the computer that serves this app, in:")


def data_section(ctx: AppContext) -> ft.Control:
    rows: list[ft.Control] = [tag("data-where", ft.Text(_where_text(ctx)))]
    if not ctx.may(permissions.DATA_PATH):
        return section(ctx.t("Where your data lives"), *rows)
    data_dir = Path(ctx.store.data_dir)
    snapshots = ctx.store.list_snapshots()
    if not IN_BROWSER:  # in the browser the folder is the worker's, inside IndexedDB: no path to show
        path = ft.Text(str(data_dir), weight=ft.FontWeight.BOLD, font_family="monospace")
        # Not `selectable`: selectable text is hidden from screen readers; the button copies it instead.
        rows.append(
            ft.Row(
                [tag("data-dir", path), copy_button(ctx, str(data_dir))],
                wrap=True,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
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
