"""Settings, importing a file's content: the one way every transport (a file's bytes, its path, an upload) ends.

`import_and_show` imports with a progress bar in the screen's import status area and puts the outcome under
the import button; one import at a time per session. The picker and the upload (`settings/transfer.py`,
`settings/upload.py`) only bring the content here.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.exchange.bgstats_import import looks_like_bgstats
from scorekeeper.exchange.transfer import ImportPhase, Progress, import_json_text
from scorekeeper.store import StoreError
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.settings.bgstats import import_bgstats


def decimal(ctx: AppContext, value: float) -> str:
    """A number of MB as the app's language writes it ("2.5" in English, "2,5" in German)."""
    from babel.numbers import format_decimal

    return format_decimal(value, format="#,##0.#", locale=ctx.t.language)


def count(ctx: AppContext, n: int) -> str:
    """A count as the app's language writes it: "277,000" in English, "277.000" in German."""
    return decimal(ctx, n)


def import_summary(ctx: AppContext, report: Any) -> str:
    """The import's outcome in the app's language, its counts with the language's thousands separator."""
    if not report.changed:
        return ctx.t("Nothing new to import: everything in the file is already here.")
    added, players = report.matches_added, report.players_added
    text = ctx.t(
        "Imported: {added}, {updated} updated, {same} already here, {players}.",
        added=ctx.t.plural("{n} new game", "{n} new games", added, n=count(ctx, added)),
        updated=count(ctx, report.matches_updated),
        same=count(ctx, report.matches_unchanged + report.matches_kept),
        players=ctx.t.plural("{n} new player", "{n} new players", players, n=count(ctx, players)),
    )
    if report.matches_kept:
        text += " " + ctx.t(
            "Games kept as they are on this device, because they are newer here: {n}.",
            n=count(ctx, report.matches_kept),
        )
    return text


def import_content(
    ctx: AppContext, content: bytes | str, progress: Progress | None = None
) -> tuple[bool, str]:
    """Import an export file's content (this app's, or BG Stats': `settings/bgstats.py`). Returns (imported,
    message); a bad file changes nothing."""
    if looks_like_bgstats(content):
        return import_bgstats(ctx, content, progress)
    try:
        report = import_json_text(ctx.store, content, progress)
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


def import_and_show(ctx: AppContext, content: bytes | str) -> None:
    """Import a file's content with its progress on the screen, then show the outcome: the one way every
    transport (bytes, path, upload) ends. Call it off the event loop (it takes minutes on a big file). One import
    at a time per session: the screen is free while it runs, and a second file picked meanwhile would share its
    progress line; it is refused with a message instead."""
    running = ctx.session.importing
    if not running.acquire(blocking=False):
        ctx.error(ctx.t("An import is already running. Please wait until it is done."))
        return
    try:
        show_result(ctx, *import_with_progress(ctx, content))
    finally:
        running.release()


def show_result(ctx: AppContext, imported: bool, message: str) -> None:
    """Put the outcome under the import button (the redraw shows it) and redraw."""
    ctx.session.import_result = (imported, message)
    if imported:
        apply_imported_settings(ctx)
    else:
        ctx.rerender()


def import_with_progress(ctx: AppContext, content: bytes | str) -> tuple[bool, str]:
    """`import_content` with a progress bar under the import button: a file of thousands of games takes seconds,
    and a screen that seems frozen is tapped again. The bar follows the games written (the check before is quick),
    then turns indeterminate while they are saved (the commit and the index write, seconds on a big file).

    On the screen, not in a dialog: a modal dialog opened and closed by the server within one import could be
    left open in the browser, over the screen and with no way out (a slow connection)."""
    status = ctx.session.import_status
    if not isinstance(status, ft.Column):
        return import_content(ctx, content, None)
    bar = ft.ProgressBar(value=None, width=280)
    label = ft.Text(ctx.t("Checking the file…"))
    shown = [-1]

    def redraw() -> None:
        try:
            status.update()
        except Exception:  # the screen was left: the import goes on regardless
            pass

    def progress(done: int, total: int, phase: ImportPhase = ImportPhase.WRITING) -> None:
        if phase is ImportPhase.SAVING:
            bar.value = None  # no measure of the commit's progress: a moving bar says it is still working
            label.value = ctx.t("Saving the games…")
            redraw()
            return
        percent = done * 100 // max(total, 1)
        if percent == shown[0]:
            return  # one redraw per percent, not one per game
        shown[0] = percent
        bar.value = done / max(total, 1)
        label.value = ctx.t("Writing the games… {percent} %", percent=count(ctx, percent))
        redraw()

    status.controls = [tag("import-progress", ft.Column([label, bar], tight=True))]
    status.visible = True
    redraw()
    try:
        return import_content(ctx, content, progress)
    finally:
        status.visible = False
        redraw()
