"""Settings, "Export and import": the exchange with BG Stats (the format's side: `exchange/bgstats.py`,
`exchange/bgstats_import.py`).

Export: a period (all, this month, this year, or days chosen in a date-range picker) and a button that hands the
plays file to the device the way the other exports do (a download in a browser, a save dialog on a desktop).
Import needs no button of its own: "Import a file" takes a BG Stats export as well as this app's
(`settings/importing.import_content` asks `looks_like_bgstats`), and the outcome is said here (`import_bgstats`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

import flet as ft

from scorekeeper.exchange.bgstats import Period, export_bgstats_text
from scorekeeper.exchange.bgstats_import import Report, import_bgstats_text
from scorekeeper.exchange.transfer import Progress
from scorekeeper.store import StoreError
from scorekeeper.ui.components.setup_form import choice_row
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

PERIODS = ("all", "month", "year", "days")


def period_of(choice: str, today: date, first: date | None = None, last: date | None = None) -> Period | None:
    """The period a choice stands for (None: every play): this month and this year up to today; "days" the
    chosen days (None for a side not chosen)."""
    if choice == "month":
        return Period(today.replace(day=1), today)
    if choice == "year":
        return Period(today.replace(month=1, day=1), today)
    if choice == "days":
        return Period(first, last)
    return None


def file_name(when: datetime | None = None) -> str:
    """ "scorekeeper-bgstats-2026-12-05-2130.json": sorts by date beside the other exports."""
    return f"scorekeeper-bgstats-{(when or datetime.now()).strftime('%Y-%m-%d-%H%M')}.json"


def export_bytes(ctx: AppContext, period: Period | None) -> bytes:
    return export_bgstats_text(ctx.store, period).encode("utf-8")


def export_action(
    ctx: AppContext, picker: Any, hands_over: bool, period: Callable[[], Period | None]
) -> Callable[[Any], Any]:
    """The export button's handler: the plays file of the chosen period, saved or downloaded."""

    async def export(_: Any) -> None:
        name = file_name()
        try:
            data = export_bytes(ctx, period())
            if picker is None:
                raise RuntimeError(ctx.t("no file dialog on this device"))
            saved = await picker.save_file(dialog_title=ctx.t("Export"), file_name=name, src_bytes=data)
        except Exception as error:  # no dialog here (or the store refused): say so
            ctx.error(ctx.t("The plays could not be exported: {reason}", reason=ctx.describe(error)))
            return
        if hands_over:
            ctx.notify(ctx.t("Download started: {name}", name=name))
        elif saved:
            ctx.notify(ctx.t("Saved to {path}", path=saved))

    return export


def _labels(ctx: AppContext) -> dict[str, str]:
    return {
        "all": ctx.t("All games"),
        "month": ctx.t("This month"),
        "year": ctx.t("This year"),
        "days": ctx.t("Choose days"),
    }


def bgstats_section(ctx: AppContext, picker: Any, hands_over: bool) -> ft.Control:
    """The BG Stats part of "Export and import": which plays, and the export button. Choosing a period redraws
    only this part; the choice is kept in the session, so a redraw of the screen (an import, a sync) keeps it."""
    state = ctx.session.bgstats_period
    state.setdefault("choice", "all")
    state.setdefault("first", None)
    state.setdefault("last", None)
    body = ft.Column(spacing=8)

    def chosen() -> Period | None:
        return period_of(state["choice"], date.today(), state["first"], state["last"])

    def pick(choice: str) -> None:
        state["choice"] = choice
        if choice == "days":
            ctx.page.show_dialog(range_picker)
        redraw()

    def days_chosen(event: Any) -> None:
        picker_control = event.control
        state["first"] = _day(picker_control.start_value)
        state["last"] = _day(picker_control.end_value)
        redraw()

    range_picker = ft.DateRangePicker(
        on_change=days_chosen,
        first_date=datetime(2000, 1, 1),
        last_date=datetime(date.today().year + 1, 12, 31),
        help_text=ctx.t("Choose days"),
    )

    def redraw() -> None:
        body.controls = _body(ctx, state, pick, export_action(ctx, picker, hands_over, chosen))
        try:
            body.update()
        except Exception:  # not on a page yet (built for the first time)
            pass

    body.controls = _body(ctx, state, pick, export_action(ctx, picker, hands_over, chosen))
    return tag("bgstats", body)


def _body(
    ctx: AppContext, state: dict[str, Any], pick: Callable[[Any], None], export: Any
) -> list[ft.Control]:
    labels = _labels(ctx)
    lines: list[ft.Control] = [
        ft.Text(ctx.t("BG Stats"), weight=ft.FontWeight.BOLD),
        ft.Text(
            ctx.t(
                "Export the finished games as plays for the BG Stats app: players, scores, winners, start "
                "player, place, notes and time played. “Import a file” also takes a BG Stats export and "
                "brings in its plays of Racko, Ruck Zuck and Rage, with their final scores."
            ),
            size=13,
        ),
        choice_row("bgstats-period", [(key, labels[key]) for key in PERIODS], state["choice"], pick),
    ]
    if state["choice"] == "days":
        first, last = state["first"], state["last"]
        shown = (
            ctx.t("From {first} to {last}", first=first.isoformat(), last=last.isoformat())
            if first and last
            else ctx.t("No days chosen yet: every game is exported.")
        )
        lines.append(tag("bgstats-days", ft.Text(shown, size=13)))
    lines.append(
        tag(
            "export-bgstats",
            ft.OutlinedButton(
                ctx.t("Export plays for BG Stats"), icon=ft.Icons.IOS_SHARE, on_click=export, height=44
            ),
        )
    )
    return lines


def _day(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).date()
        except ValueError:
            return None
    return None


# ---------------------------------------------------------------------- import
PROBLEMS_SHOWN = 3
"""How many plays' problems the import's message names (the rest are counted)."""


def summary(ctx: AppContext, report: Report) -> str:
    """An import's outcome: "12 plays imported, 30 of other games skipped" (and what else it did)."""
    parts = [
        ctx.t.plural("{n} play imported", "{n} plays imported", report.imported, n=report.imported),
    ]
    if report.updated:
        parts.append(ctx.t("{n} updated", n=report.updated))
    if report.already:
        parts.append(ctx.t("{n} already here", n=report.already))
    if report.other_games:
        parts.append(ctx.t("{n} of other games skipped", n=report.other_games))
    if report.unreadable:
        parts.append(
            ctx.t.plural(
                "{n} play skipped that could not be read",
                "{n} plays skipped that could not be read",
                report.unreadable,
                n=report.unreadable,
            )
        )
    if report.players_added:
        parts.append(
            ctx.t.plural("{n} new player", "{n} new players", report.players_added, n=report.players_added)
        )
    said = ctx.t("BG Stats: {parts}.", parts=", ".join(parts))
    if report.problems:  # which plays, and why: a skipped play or a value dropped is never silent
        told = "; ".join(ctx.describe(problem) for problem in report.problems[:PROBLEMS_SHOWN])
        more = len(report.problems) - PROBLEMS_SHOWN
        if more > 0:
            told = ctx.t("{problems}; and {n} more", problems=told, n=more)
        said = f"{said} {ctx.t('Play by play: {problems}.', problems=told)}"
    return said


def import_bgstats(
    ctx: AppContext, content: bytes | str, progress: Progress | None = None
) -> tuple[bool, str]:
    """Import a BG Stats file's plays. Returns (imported, message); a file that is not one changes nothing."""
    try:
        report = import_bgstats_text(ctx.store, content, progress)
    except (StoreError, ValueError) as error:
        return False, ctx.t("The file was not imported: {reason}", reason=ctx.describe(error))
    return True, summary(ctx, report)
