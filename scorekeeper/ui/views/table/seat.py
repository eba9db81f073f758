"""A phone's seat at a table (`/table/<code>/seat`): that seat's play screen and nothing else.

The seat comes from the token the phone keeps (session memory, else client storage after a reload); without a
valid token the phone is sent to the join screen. Everything drawn comes from `Table.payload(seat, token)`:
its own view, legal moves and the moves as this seat saw them. The game's play panel is reused as it is, so
the `act-`/`choose-` identifiers are those of the play screens. Changes reach the phone through pubsub.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.base import Action, RuleError
from scorekeeper.server import table_runtime as rt
from scorekeeper.table.codes import normalize
from scorekeeper.table.payloads import SeatPayload
from scorekeeper.table.table import Table
from scorekeeper.ui import emoji_font
from scorekeeper.ui.components.keyed import DRAWING, KeyedParts, TableScreen
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.kit import PanelContext
from scorekeeper.ui.registry import find_ui
from scorekeeper.ui.views.table.join import find_table, prefs, seat_lost
from scorekeeper.ui.views.table.keep import KeepPhone

LOG_LINES = 5


class Phone(TableScreen):
    """The seat screen of one phone in a digital game: drawn from its own payload on every change at the
    table, by role (see `TableScreen`)."""

    def __init__(self, ctx: AppContext, table: Table, seat: int, token: str) -> None:
        super().__init__(table)
        self.ctx, self.seat, self.token = ctx, seat, token
        self.ui: dict[str, Any] = {}
        self.turn: tuple[int, int] | None = None
        self.panel_parts = KeyedParts()
        """The play panel's own parts (`PanelContext.parts`): another seat's move draws again only what it
        changed on this phone (the piles), not the whole panel. Forgotten while the panel is not on screen."""

    def act(self, action: Action) -> None:
        try:
            self.table.act(self.seat, self.token, action)
        except RuleError as error:
            self.ctx.error(self.ctx.describe(error))
        rt.kick(self.table)
        self.render()

    def next_round(self) -> None:
        try:
            self.table.next_round(self.seat, self.token)
        except RuleError as error:
            self.ctx.error(self.ctx.describe(error))
        rt.kick(self.table)
        self.render()

    def parts(self) -> list[ft.Control]:
        try:
            payload = self.table.payload(self.seat, self.token)
        except RuleError as error:  # the host freed this seat or gave it to a computer player
            self.shown.forget()
            self.panel_parts.forget()
            return [seat_lost(self.ctx, self.table.code, self.ctx.describe(error))]
        turn = (payload.round_index, payload.to_act)
        if turn != self.turn:  # a new turn: the panel's half-made choices are gone
            self.ui.clear()
            self.turn = turn
        return self.seat_parts(payload)

    def status(self, payload: SeatPayload) -> str:
        ctx = self.ctx
        if payload.match_over:
            return ctx.t("The game is over.")
        if payload.round_over:
            return ctx.t("Round {n} is over.", n=payload.round_index + 1)
        turn = (
            ctx.t("Your turn, {name}.", name=payload.names[self.seat])
            if payload.to_act == self.seat
            else ctx.t("{name}'s turn.", name=payload.names[payload.to_act])
        )
        if payload.result_round is not None:  # the next round was dealt while this phone shows the result
            return f"{ctx.t('Round {n} has started.', n=payload.round_index + 1)} {turn}"
        return turn

    def seat_parts(self, payload: SeatPayload) -> list[ft.Control]:
        """The seat screen's parts by role, each built only when what it shows changed (see `KeyedParts`)."""
        ctx, shown = self.ctx, self.shown
        status = self.status(payload)
        parts = [
            shown.part(
                "status",
                status,
                lambda: tag("turn-status", ft.Text(status, size=18, weight=ft.FontWeight.BOLD)),
            )
        ]
        if payload.result_round is not None:  # kept until this player moves on (`Table.next_round`)
            inputs: Any = (payload.result_round, payload.names, payload.round_points, payload.totals)
            inputs += (payload.match_over, [ctx.describe(line) for line in payload.result_lines or []])
            inputs += (payload.moved_on, payload.waiting)
            parts.append(shown.part("result", inputs, lambda: self.result(payload)))
            self.panel_parts.forget()  # the panel leaves the screen: drawn afresh when it comes back
        else:  # the panel also shows its own half-made choices (`ui`) and is laid out for the width
            inputs = (payload.view, payload.legal, payload.names, dict(self.ui), ctx.width)
            parts.append(shown.part("panel", inputs, lambda: self.panel(payload)))
        lines = [ctx.describe(m) for m in payload.moves[-LOG_LINES:]]
        parts.append(shown.part("log", lines, lambda: self.move_log(lines)))
        return parts

    def move_log(self, lines: list[str]) -> ft.Control:
        texts = [ft.Text(line, size=13) for line in lines] or [ft.Text(self.ctx.t("No moves yet."))]
        return tag("move-log", section(self.ctx.t("Moves"), *texts))

    def panel(self, payload: SeatPayload) -> ft.Control:
        screens = find_ui(self.table.game)
        if screens is None or screens.panel is None:
            return ft.Text(self.ctx.t("This screen is not available yet."))
        seat = (payload.view, payload.legal, self.act, payload.names)  # what this seat sees and may do
        pc = PanelContext(self.ctx, *seat, ui=self.ui, refresh=self.render, parts=self.panel_parts)
        return tag("play-panel", screens.panel(pc))

    def result(self, payload: SeatPayload) -> ft.Control:
        ctx = self.ctx
        rows: list[ft.Control] = []
        lines = payload.result_lines or []
        for index, name in enumerate(payload.names):
            points = payload.round_points[index] if payload.round_points else 0
            detail = ctx.describe(lines[index]) if index < len(lines) else ""
            rows.append(
                ft.Row(
                    [
                        ft.Column(
                            [ft.Text(name, weight=ft.FontWeight.BOLD), ft.Text(detail, size=12)], expand=True
                        ),
                        tag(
                            f"round-points-{index}",
                            ft.Text(f"{points:+d}", size=18, weight=ft.FontWeight.BOLD),
                        ),
                        ft.Text(str(payload.totals[index]), size=18),
                    ]
                )
            )
        number = (payload.result_round if payload.result_round is not None else payload.round_index) + 1
        parts: list[ft.Control] = [tag("round-result", section(ctx.t("Round {n}", n=number), *rows))]
        if payload.match_over:
            parts.append(tag("match-result", ft.Text(ctx.t("The game is over."), size=22)))
        elif payload.moved_on:  # this player is ready; the others still look at the result
            text = ctx.t("Waiting for the others to move on: {names}.", names=", ".join(payload.waiting))
            parts.append(tag("next-waiting", ft.Text(text, size=16, italic=True)))
        else:
            parts.append(
                ft.Row([primary_button(ctx.t("Next round"), self.next_round, identifier="next-round")])
            )
        return ft.Column(parts, spacing=10)


def who_joined(ctx: AppContext, table: Table) -> str:
    """Everyone seated so far, in seat order (the waiting screen and the board before the start)."""
    return ctx.t("At the table: {names}", names=", ".join(s.name for s in table.seats if s.name) or "–")


def waiting(ctx: AppContext, table: Table, seat: int, joined: ft.Text) -> ft.Control:
    """Before the start: this phone's seat and name, and who else has joined (`joined`, kept up to date)."""
    you = ctx.t(
        "You sit at seat {n} as {name}. The game starts when the host starts it.",
        n=seat + 1,
        name=table.seats[seat].name,
    )
    return tag("seat-waiting", ft.Column([ft.Text(you, size=18), tag("seat-joined", joined)], spacing=12))


def connect(ctx: AppContext, table: Table, seat: int, token: str) -> None:
    """Count this phone as present at its seat while its session is connected (the host sees who vanished)."""
    connected = ctx.session.connected
    if connected.get(table.code) == seat:
        return
    try:
        table.connect(seat, token)
    except RuleError:
        return
    connected[table.code] = seat

    def gone(_: Any = None) -> None:
        if connected.pop(table.code, None) is not None:
            table.disconnect(seat)

    def back(_: Any = None) -> None:  # the same session came back (Wi-Fi again): present again
        if ctx.route == f"/table/{table.code}/seat":
            connect(ctx, table, seat, token)

    ctx.page.on_disconnect = gone
    ctx.page.on_close = gone
    ctx.page.on_connect = back


def reconnect(ctx: AppContext, code: str, holder: ft.Column) -> None:
    """After a reload: the seat token from client storage (no wrong-code guard: a phone holding its seat comes
    back while any level refuses); else the code through the guard (`find_table`): a table's code opens its join
    screen, anything refused is said here, in `holder`."""

    def by_code() -> None:
        try:
            find_table(ctx, code)
        except RuleError as error:
            holder.controls = [tag("seat-refused", ft.Text(ctx.describe(error)))]
            try:
                holder.update()
            except Exception:  # the page has gone
                pass
            return
        ctx.navigate(f"/join/{code}")

    async def look() -> None:
        token = await prefs(ctx).get(rt.TOKEN_KEY.format(code=code))
        table = rt.host(ctx.store).held(code, token) if isinstance(token, str) else None
        if isinstance(token, str) and table is not None and table.seat_of(token) is not None:
            ctx.session.table_tokens[table.code] = token
            ctx.rerender()
        elif ctx.route.upper() == f"/TABLE/{code}/SEAT":  # (not when the person went elsewhere meanwhile)
            by_code()

    try:
        ctx.page.run_task(look)
    except Exception:
        pass


def build(ctx: AppContext, code: str, **_: str) -> ft.View:
    route = f"/table/{code}/seat"
    wanted = normalize(code)
    # The seat comes by its token alone (session memory, else client storage after a reload), never through the
    # wrong-code guard. Without a valid token every code looks the same at first (known or not, game over or not):
    # the phone waits for its storage, then the code goes through the guard (`reconnect`).
    token = ctx.session.table_tokens.get(wanted)
    table = rt.host(ctx.store).held(wanted, token)
    seat = table.seat_of(token) if table is not None else None
    if table is None or token is None or seat is None:
        holder = ft.Column([tag("reconnecting", ft.ProgressRing())])
        reconnect(ctx, wanted, holder)
        return screen(ctx, route, ctx.t("Join a table"), [holder], back=None)
    connect(ctx, table, seat, token)
    phone: TableScreen | None = None
    joined = ft.Text(who_joined(ctx, table), size=16)
    if not table.started:
        body: ft.Control = waiting(ctx, table, seat, joined)
    else:  # this seat's play screen, or its part of the round when the table keeps score
        phone = (KeepPhone if table.keeping is not None else Phone)(ctx, table, seat, token)
        phone.render(update=False)
        body = tag("keep-part", phone.body) if table.keeping is not None else phone.body

    def changed() -> None:
        if phone is not None:
            phone.changed()
        elif table.started or table.seat_of(token) != seat:
            with DRAWING:
                ctx.rerender()  # the seat's play or entry screen replaces the waiting text (or the seat is gone)
        elif (now := who_joined(ctx, table)) != joined.value and emoji_font.wanted(ctx, [now]):
            with DRAWING:
                ctx.rerender()  # a name with an emoji joined: the screen comes again, with the emoji font
        elif joined.value != now:  # another phone joined: that line only
            joined.value = now
            try:
                joined.update()
            except Exception:  # the page has gone
                pass

    rt.watch(table)
    try:
        rt.remember_pubsub(ctx.page.pubsub)
        ctx.page.pubsub.subscribe_topic(rt.TOPIC.format(code=table.code), lambda _t, _m: changed())
    except Exception:
        pass
    title = ctx.t("{game} · seat {n}", game=game_title(ctx, table.game), n=seat + 1)
    return screen(ctx, route, title, [body], back=None)
