"""The board of a live table (`/table/<code>/board`): a tablet or TV in the middle of the table.

Read-only, and only public information: it is drawn from `Table.board()`, whose view has every private field
blanked. Whose turn it is (and when that player's phone is gone), what lies on the table as large cards (see
`ui.digital.boards`), a panel per player with what everyone knows of them, the scores, the last moves. Before the
start: the join code, the address and its QR code. Large type: nothing under 24 px; on a TV it fills the screen
(`board_layout`). Redraws on every change through pubsub, only the parts whose inputs changed (`KeyedParts`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import spec
from scorekeeper.server import table_runtime as rt
from scorekeeper.table.codes import normalize
from scorekeeper.table.payloads import BoardPayload, SeatStatus
from scorekeeper.table.table import COMPUTER, PERSON, Table
from scorekeeper.ui.components.keyed import DRAWING, KeyedParts
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.boards import Scale, big, scale_of
from scorekeeper.ui.registry import GameBoard, find_ui
from scorekeeper.ui.views.table import board_layout
from scorekeeper.ui.views.table.join import board_memory, find_table, keep_board_token, prefs
from scorekeeper.ui.views.table.keep import board_parts
from scorekeeper.ui.views.table.lobby import subscribe

LOG_LINES = 4


def board_name(ctx: AppContext, status: SeatStatus | None, name: str) -> str:
    """A player's name on the board: a person's seat handed to a computer player says so ("Cleo (computer)")."""
    if status is not None and status.kind == COMPUTER and status.stand_in:
        return ctx.t("{name} (computer)", name=name)
    return name


def presence(ctx: AppContext, status: SeatStatus | None) -> str | None:
    """Who plays a seat, in words, when it is not a person with their phone here."""
    if status is None:
        return None
    if status.kind == COMPUTER:
        return ctx.t("Computer player")
    if status.kind == PERSON and not status.connected:
        return ctx.t("Phone not connected")
    return None


def scoreboard(
    ctx: AppContext, payload: BoardPayload, lower_wins: bool, scale: Scale | None = None
) -> ft.Control:
    scale = scale or scale_of(ctx)
    order = sorted(range(len(payload.names)), key=lambda s: payload.totals[s], reverse=not lower_wins)
    rows = []
    for place, seat in enumerate(order, start=1):
        turn = seat == payload.to_act
        points = (
            []
            if payload.round_points is None
            else [big(f"({payload.round_points[seat]:+d})", scale.text(32))]
        )
        name = board_name(
            ctx, payload.seats[seat] if seat < len(payload.seats) else None, payload.names[seat]
        )
        rows.append(
            tag(
                f"board-score-{seat}",
                ft.Row(
                    [
                        big(f"{place}.", scale.text(36)),
                        ft.Container(
                            big(name, scale.text(40), bold=turn, colour=ft.Colors.PRIMARY if turn else None),
                            expand=True,
                        ),
                        *points,
                        big(str(payload.totals[seat]), scale.text(56), bold=True),
                    ],
                    spacing=scale.px(16),
                ),
            )
        )
    return ft.Container(
        ft.Column([big(ctx.t("Scores"), scale.text(36), bold=True), *rows], spacing=scale.px(10)),
        padding=scale.px(24),
        border_radius=16,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )


def status(ctx: AppContext, payload: BoardPayload) -> str:
    """The line at the top: whose turn it is (and when that player's phone is gone), or the round's end."""
    if payload.match_over:
        return ctx.t("The game is over.")
    if payload.round_over:
        return ctx.t("Round {n} is over.", n=payload.round_index + 1)
    seat = payload.to_act
    turn = ctx.t("{name}'s turn.", name=payload.names[seat])
    seated = payload.seats[seat] if seat < len(payload.seats) else None
    if seated is not None and seated.kind == PERSON and not seated.connected:  # the game waits for them
        return turn + " " + ctx.t("{name}'s phone is not connected.", name=payload.names[seat])
    return turn


def parts(ctx: AppContext, table: Table, shown: KeyedParts | None = None) -> list[ft.Control]:
    shown = shown or KeyedParts()
    if not table.started:
        return join_parts(ctx, table, shown)
    if table.keeping is not None:
        return board_parts(ctx, table, shown)
    return play_parts(ctx, table, shown)


def join_parts(ctx: AppContext, table: Table, shown: KeyedParts) -> list[ft.Control]:
    """Before the start: the code and address large, the QR code to scan, and who has joined. The QR code is
    the same control on every redraw (a new image would blink while it is decoded, and a phone scanning it
    then fails)."""
    scale = scale_of(ctx)
    url = rt.join_url(ctx.page, table.code)
    joined = ", ".join(s.name for s in table.seats if s.name) or "–"
    side = min(scale.px(640), scale.width * 0.36)
    return [
        shown.part("heading", None, lambda: big(ctx.t("Join with this code"), scale.text(48), bold=True)),
        shown.part(
            "code",
            url,
            lambda: ft.Column(
                [
                    tag("table-code", big(table.code, scale.text(160), bold=True)),
                    tag("board-address", big(url, scale.text(36))),
                ],
                spacing=scale.px(12),
            ),
        ),
        shown.part(
            "joined",
            joined,
            lambda: tag("board-joined", big(ctx.t("At the table: {names}", names=joined), scale.text(40))),
        ),
        shown.part(
            "join",
            url,
            lambda: tag(
                "board-qr",
                ft.Image(
                    src=rt.qr_png(url),
                    width=side,
                    height=side,
                    fit=ft.BoxFit.CONTAIN,  # drawn at the box's size, not the PNG's own (about 300 px)
                    filter_quality=ft.FilterQuality.NONE,  # crisp modules when scaled up
                ),
            ),
        ),
    ]


def play_parts(ctx: AppContext, table: Table, shown: KeyedParts) -> list[ft.Control]:
    """The board of a digital game, by role; a part whose inputs did not change since the last move is the
    control already on screen (nothing to diff, nothing sent, see `KeyedParts`)."""
    payload = table.board()
    scale = scale_of(ctx)
    turn = status(ctx, payload)
    lines = [ctx.describe(m) for m in payload.moves[-LOG_LINES:]]
    lower_wins = spec(table.game).lower_wins
    named = [
        board_name(ctx, status, name) for status, name in zip(payload.seats, payload.names, strict=False)
    ]
    scores = (named, payload.totals, payload.round_points, payload.to_act, lower_wins)
    return [
        shown.part("turn", turn, lambda: tag("board-turn", big(turn, scale.text(56), bold=True))),
        shown.part("table", (payload.view, payload.names, scale), lambda: public(ctx, table, payload, scale)),
        players(ctx, table, payload, scale, shown),
        shown.part("scores", scores, lambda: scoreboard(ctx, payload, lower_wins, scale)),
        shown.part("moves", lines, lambda: moves(lines, scale)),
    ]


def moves(lines: list[str], scale: Scale) -> ft.Control:
    return tag("board-moves", ft.Column([big(line, scale.text(28)) for line in lines], spacing=scale.px(8)))


def public(ctx: AppContext, table: Table, payload: BoardPayload, scale: Scale | None = None) -> ft.Control:
    """What lies on the table in this game (its `GameBoard.table`), large."""
    board = board_of(table.game)
    if board is None:
        return ft.Container()
    return board.table(ctx, payload.view, payload.names, scale or scale_of(ctx))


def board_of(game: str) -> GameBoard | None:
    """What the board shows of `game` (the UI registry's `GameBoard`), or None: scoreboard and moves only."""
    screens = find_ui(game)
    return None if screens is None else screens.board


def players(
    ctx: AppContext, table: Table, payload: BoardPayload, scale: Scale, shown: KeyedParts
) -> ft.Control:
    """A panel per player along the bottom (`seats`), each a part of its own: a move or a dropped phone
    rebuilds only the panels it changed."""
    board = board_of(table.game)
    count = len(payload.names)
    filled = count <= 5 and board_layout.wide(ctx)
    panels = []
    for seat, name in enumerate(payload.names):
        status = payload.seats[seat] if seat < len(payload.seats) else None
        turn = seat == payload.to_act and not payload.round_over
        facts = seat_facts(board, payload.view, seat)
        inputs = (name, status, turn, facts, scale, filled)
        panels.append(
            shown.part(
                f"seat-{seat}",
                inputs,
                partial(panel, ctx, board, payload.view, seat, name, status, turn, scale, filled),
            )
        )
    if filled:
        return ft.Row(
            panels, spacing=scale.px(16), vertical_alignment=ft.CrossAxisAlignment.START, key="seats"
        )
    return ft.Row(panels, spacing=scale.px(16), wrap=True, run_spacing=scale.px(16), key="seats")


def seat_facts(board: GameBoard | None, view: Any, seat: int) -> tuple[Any, ...]:
    """What a player's panel shows of the view: the fields its board's `seat_fields` names (a field
    held per seat: that seat's entry). A panel is built again only when these change."""
    facts = []
    for name in board.seat_fields if board is not None else ():
        value = getattr(view, name)
        facts.append(value[seat] if isinstance(value, tuple | list) and seat < len(value) else value)
    return tuple(facts)


def panel(
    ctx: AppContext,
    board: GameBoard | None,
    view: Any,
    seat: int,
    name: str,
    status: SeatStatus | None,
    turn: bool,
    scale: Scale,
    filled: bool,
) -> ft.Control:
    """One player's panel: the name (the one to move tinted), who plays the seat when it is not a person with
    their phone, and what everyone knows of them in this game (its board's `seat`)."""
    lines: list[ft.Control] = [
        big(
            board_name(ctx, status, name),
            scale.text(40),
            bold=True,
            colour=ft.Colors.PRIMARY if turn else None,
        )
    ]
    gone = presence(ctx, status)
    if gone is not None:
        lines.append(
            tag(f"board-presence-{seat}", big(gone, scale.text(26), colour=ft.Colors.ON_SURFACE_VARIANT))
        )
    if board is not None:
        lines.extend(board.seat(ctx, view, seat, scale))
    box = ft.Container(
        ft.Column(lines, spacing=scale.px(6), tight=True),
        padding=scale.px(16),
        border_radius=16,
        # the one to move: a tinted panel (one field to send when the turn moves on, where a frame is eight)
        bgcolor=ft.Colors.PRIMARY_CONTAINER if turn else None,
        border=ft.Border.all(2, ft.Colors.OUTLINE_VARIANT),
        expand=1 if filled else None,
    )
    return tag(f"board-seat-{seat}", box)


def stage_of(table: Table) -> str:
    """Which board the table shows: joining, score keeping or a digital game."""
    return "keep" if table.keeping is not None else "play" if table.started else "join"


def opening(ctx: AppContext, route: str, code: str) -> ft.View:
    """A guest's board without a board token in its session: the token from the browser's storage (a reload:
    no wrong-code guard), else the code through the guard, and a new board token kept for the next reload. Every
    code looks the same until then (known or not), so the wait tells a guesser nothing."""
    holder = ft.Column([tag("board-opening", ft.ProgressRing())])

    def refuse(text: str) -> None:
        holder.controls = [tag("board-refused", big(text))]
        try:
            holder.update()
        except Exception:  # not on a page yet (the synchronous fallback below) or the page has gone
            pass

    def by_code() -> None:
        try:
            table = find_table(ctx, code)
        except RuleError as error:
            refuse(ctx.describe(error))
            return
        keep_board_token(ctx, table.code, rt.host(ctx.store).open_board(table))
        ctx.rerender()

    async def look() -> None:
        token = await prefs(ctx).get(rt.BOARD_KEY.format(code=code))
        table = rt.host(ctx.store).held(code, token) if isinstance(token, str) else None
        if isinstance(token, str) and table is not None and table.board_held(token):
            ctx.session.table_tokens[board_memory(table.code)] = token
            ctx.rerender()
        elif ctx.route.upper() == f"/TABLE/{code}/BOARD":  # (not when the screen changed meanwhile)
            by_code()

    try:
        ctx.page.run_task(look)
    except Exception:  # no event loop (in-process use): straight to the code
        by_code()
    return ft.View(route=route, controls=[holder], padding=24)


def build(ctx: AppContext, code: str, **_: str) -> ft.View:
    route = f"/table/{code}/board"
    if ctx.guest:  # by its board token (no guard), else `opening`: the code through the wrong-code guard
        wanted = normalize(code)
        table = rt.host(ctx.store).held(wanted, ctx.session.table_tokens.get(board_memory(wanted)))
        if table is None:
            return opening(ctx, route, wanted)
    else:  # the host's own screens know the code
        table = rt.host(ctx.store).get(code)
    if table is None:
        text = ctx.t("This table was not found.")
        return ft.View(route=route, controls=[tag("board-refused", big(text))], padding=24)
    shown = KeyedParts()
    scale = scale_of(ctx)
    title = ctx.t("{game} table {code}", game=game_title(ctx, table.game), code=table.code)

    def body_controls() -> list[ft.Control]:
        return board_layout.arrange(ctx, parts(ctx, table, shown), title, scale)

    # A TV does not scroll: the layout fills the screen. A narrow screen scrolls one column.
    filled = board_layout.wide(ctx)
    body = ft.Column(
        body_controls(),
        spacing=scale.px(24),
        scroll=None if filled else ft.ScrollMode.AUTO,
        expand=True,
    )
    stage = stage_of(table)

    def redraw() -> None:
        with DRAWING:
            if stage_of(table) != stage:  # the game started: another board altogether, built afresh
                ctx.rerender()
                return
            body.controls = body_controls()
            try:
                body.update()
            except Exception:
                pass

    subscribe(ctx, table, redraw)
    rt.kick(table)
    return ft.View(route=route, controls=[tag("table-board", body)], padding=scale.px(32))
