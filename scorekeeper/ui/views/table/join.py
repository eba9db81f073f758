"""Join a table from a phone: `/join` (type the code) or `/join/<code>` (the QR code's link).

A code another instance made (several instances behind one proxy, `table.routing`) is opened as a new page:
the proxy sends that page to the instance that hosts the table, which a page already open here cannot reach. A
page that comes back here for that code (a proxy that does not route by code: a new session at that address, or
Flet's web client resuming this same session after the load) is not loaded again, which would go on for ever:
the code is looked up here and not found.

The phone gives a name (`join-name`), picks a free seat (`take-seat-<n>`, numbered from 1) and joins
(`join-submit`). The seat's secret token is kept in the phone's client storage, so a reload or a lost
connection brings the phone back to its seat without typing anything. A wrong or old code gets a clear message;
too many wrong codes are refused for a minute (per session, per address and host-wide: `table.codes`; the address
and host levels refuse only sessions that themselves entered a wrong code). The board and seat routes take a code
too: a seat or board token held for the table lets them in without the guard, else they go through the same guard
(`find_table`).
"""

from __future__ import annotations

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.server import table_runtime as rt
from scorekeeper.table.codes import normalize, this_instance
from scorekeeper.table.seats import NAME_LENGTH
from scorekeeper.table.table import Table
from scorekeeper.ui import emoji_font
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.session_state import JoinDraft


def client_of(ctx: AppContext) -> str:
    """Who counts as one client for the wrong-code guard: the browser tab's session (people behind one address
    each have their own), else the address."""
    try:
        return "session:" + str(ctx.page.session.id)
    except Exception:  # no session (in-process use): the address stands for the client
        return "address:" + str(ctx.session.address or "local")


def find_table(ctx: AppContext, code: str) -> Table:
    """The table of a code this session typed or followed, through the wrong-code guard (RuleError if refused)."""
    return rt.host(ctx.store).find(code, client_of(ctx), ctx.session.address)


def prefs(ctx: AppContext) -> ft.SharedPreferences:
    """The device's client storage (kept referenced: Flet drops services nobody references)."""
    service = ctx.session.prefs
    if service is None:
        service = ctx.session.prefs = ft.SharedPreferences()
    return service


def keep_token(ctx: AppContext, code: str, token: str) -> None:
    ctx.session.table_tokens[code] = token
    try:
        ctx.page.run_task(prefs(ctx).set, rt.TOKEN_KEY.format(code=code), token)
    except Exception:  # no client storage (in-process tests): the token lives as long as the session
        pass


def board_memory(code: str) -> str:
    """Where a session keeps its board token for a table in `table_tokens` (beside the seat tokens, which are
    kept under the bare code; a code never holds a slash)."""
    return f"{code}/board"


def keep_board_token(ctx: AppContext, code: str, token: str) -> None:
    """A board that opened a table by its code keeps the board token it was given, in the session and in the
    browser's storage: a reload comes back by it, without the wrong-code guard."""
    ctx.session.table_tokens[board_memory(code)] = token
    try:
        ctx.page.run_task(prefs(ctx).set, rt.BOARD_KEY.format(code=code), token)
    except Exception:  # no client storage (in-process tests): the token lives as long as the session
        pass


def problem_text(text: str = "") -> ft.Text:
    """The red line for a refused code or seat; always visible (a tagged control must not be hidden)."""
    return ft.Text(text, color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD)


def ask_code(ctx: AppContext, message: str = "", route: str = "/join") -> ft.View:
    field = ft.TextField(
        label=ctx.t("Table code"), capitalization=ft.TextCapitalization.CHARACTERS, max_length=8
    )

    def go() -> None:
        ctx.navigate(f"/join/{(field.value or '').strip().upper()}")

    field.on_submit = lambda _: go()
    ctx.on_enter = go
    controls: list[ft.Control] = [
        ft.Text(ctx.t("Enter the code shown on the host's screen."), size=16),
        tag("join-code", field),
        tag("join-error", problem_text(message)),
        ft.Row([primary_button(ctx.t("Continue"), go, identifier="join-code-submit")]),
    ]
    return screen(ctx, route, ctx.t("Join a table"), controls, back=None)


def join_form(ctx: AppContext, table: Table) -> ft.View:
    route = f"/join/{table.code}"
    draft = ctx.session.joins.setdefault(table.code, JoinDraft())
    name = emoji_font.watch(
        ctx, ft.TextField(label=ctx.t("Your name"), value=draft.name, max_length=NAME_LENGTH, autofocus=True)
    )
    problem = problem_text()
    seats = ft.Column(spacing=6)

    def pick(index: int) -> None:
        draft.seat = index
        draft.name = name.value or ""
        draw_seats()
        seats.update()

    full = ctx.t("All seats are taken.")

    def draw_seats() -> None:
        rows: list[ft.Control] = []
        free = table.free_seats()
        if draft.seat not in free:
            draft.seat = free[0] if free else None
        if not free:  # said at once, not only after a name was typed and Join tapped
            problem.value = full
        elif problem.value == full:  # a seat was freed meanwhile
            problem.value = ""
        for index, seat in enumerate(table.seats):
            taken = index not in free
            label = ctx.t("Seat {n}", n=index + 1) + (f" · {seat.name}" if taken else "")
            style = ft.FilledButton if draft.seat == index else ft.OutlinedButton
            button = style(label, on_click=lambda _, i=index: pick(i), disabled=taken, height=48, expand=True)
            rows.append(ft.Row([tag(f"take-seat-{index + 1}", button)]))
        seats.controls = rows

    def submit() -> None:
        if draft.seat is None:
            problem.value = full
            problem.update()
            return
        try:
            token = table.claim(draft.seat, name.value or "")
        except RuleError as error:
            problem.value = ctx.describe(error)
            draw_seats()
            problem.update()
            seats.update()
            return
        keep_token(ctx, table.code, token)
        ctx.navigate(f"/table/{table.code}/seat")

    def redraw() -> None:
        draw_seats()
        try:
            seats.update()
            problem.update()
        except Exception:
            pass

    draw_seats()
    ctx.on_enter = submit
    rt.watch(table)
    try:  # a seat another phone takes disappears from this list at once
        rt.remember_pubsub(ctx.page.pubsub)
        ctx.page.pubsub.subscribe_topic(rt.TOPIC.format(code=table.code), lambda _t, _m: redraw())
    except Exception:
        pass
    controls = [
        ft.Text(ctx.t("{game} table {code}", game=game_title(ctx, table.game), code=table.code), size=20),
        tag("join-name", name),
        section(ctx.t("Choose your seat"), seats),
        tag("join-error", problem),
        ft.Row([primary_button(ctx.t("Join"), submit, identifier="join-submit")]),
    ]
    resume_seat(ctx, table)
    return screen(ctx, route, ctx.t("Join a table"), controls, back=None)


def seat_lost(ctx: AppContext, code: str, message: str) -> ft.Control:
    """What a phone shows once the host gave its seat to another phone or a computer player: why, and the way
    back to a free seat."""
    again = primary_button(
        ctx.t("Join again"), lambda: ctx.navigate(f"/join/{code}"), identifier="join-again"
    )
    return tag("seat-lost", ft.Column([ft.Text(message, size=18), ft.Row([again])], spacing=12))


def resume_seat(ctx: AppContext, table: Table) -> None:
    """A phone that already holds a seat at this table goes straight back to it."""

    async def look() -> None:
        token = await prefs(ctx).get(rt.TOKEN_KEY.format(code=table.code))
        if isinstance(token, str) and table.seat_of(token) is not None:
            ctx.session.table_tokens[table.code] = token
            ctx.navigate(f"/table/{table.code}/seat")

    try:
        ctx.page.run_task(look)
    except Exception:
        pass


def opening_elsewhere(ctx: AppContext, code: str) -> ft.View:
    """The table lives on another instance: the browser loads its join page anew, through the proxy."""
    url = rt.join_url(ctx.page, code)

    async def load() -> None:
        await ft.UrlLauncher().launch_url(url, web_only_window_name="_self")

    try:
        ctx.page.run_task(load)
    except Exception:  # no browser (in-process use): the link below still leads there
        pass
    controls: list[ft.Control] = [
        ft.Row([ft.ProgressRing(width=20, height=20), ft.Text(ctx.t("Opening table {code}…", code=code))]),
        tag("join-elsewhere", ft.TextButton(url, url=url)),
    ]
    return screen(ctx, f"/join/{code}", ctx.t("Join a table"), controls, back=None)


def build(ctx: AppContext, code: str | None = None, **_: str) -> ft.View:
    if not code:
        return ask_code(ctx)
    code = normalize(code)
    sent_back = code in ctx.session.sent_elsewhere or normalize(ctx.session.entry_route) == f"/JOIN/{code}"
    if this_instance().hosts_elsewhere(code) and not sent_back:
        ctx.session.sent_elsewhere.add(code)
        return opening_elsewhere(ctx, code)
    try:
        table = find_table(ctx, code)
    except RuleError as error:
        return ask_code(ctx, ctx.describe(error), f"/join/{code}")
    return join_form(ctx, table)
