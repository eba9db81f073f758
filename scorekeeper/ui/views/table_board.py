"""The board of a live table (`/table/<code>/board`): a tablet or TV in the middle of the table.

Read-only, and only public information: it is drawn from `Table.board()`, whose view has every private field
blanked. Whose turn it is, the game's public cards (see `ui.play.boards`), the move log as the table saw it, the
live scoreboard, and who has joined. Large type: nothing under 24 px. Redraws on every change through pubsub.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import spec
from scorekeeper.table.table import BoardPayload, Table
from scorekeeper.ui import table_runtime as rt
from scorekeeper.ui.components.keyed import DRAWING, KeyedParts
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import SMALL, big, board_of
from scorekeeper.ui.views.table_join import find_table
from scorekeeper.ui.views.table_keep import board_parts
from scorekeeper.ui.views.table_lobby import subscribe

LOG_LINES = 4


def scoreboard(ctx: AppContext, payload: BoardPayload, lower_wins: bool) -> ft.Control:
    order = sorted(range(len(payload.names)), key=lambda s: payload.totals[s], reverse=not lower_wins)
    rows = []
    for place, seat in enumerate(order, start=1):
        turn = seat == payload.to_act
        points = "" if payload.round_points is None else f"  ({payload.round_points[seat]:+d})"
        rows.append(
            tag(
                f"board-score-{seat}",
                ft.Row(
                    [
                        big(f"{place}.", 28),
                        big(payload.names[seat], 28, bold=turn, colour=ft.Colors.PRIMARY if turn else None),
                        ft.Container(expand=True),
                        big(f"{payload.totals[seat]}{points}", 28, bold=True),
                    ],
                    spacing=12,
                ),
            )
        )
    return ft.Container(
        ft.Column([big(ctx.t("Scores"), 28, bold=True), *rows], spacing=6),
        padding=16,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )


def status(ctx: AppContext, payload: BoardPayload) -> str:
    if payload.match_over:
        return ctx.t("The game is over.")
    if payload.round_over:
        return ctx.t("Round {n} is over.", n=payload.round_index + 1)
    return ctx.t("{name}'s turn.", name=payload.names[payload.to_act])


def parts(ctx: AppContext, table: Table, shown: KeyedParts | None = None) -> list[ft.Control]:
    if not table.started:
        joined = ", ".join(s.name for s in table.seats if s.name) or "–"
        return [
            big(ctx.t("Join with this code"), 32),
            tag("table-code", big(table.code, 96, bold=True)),
            big(rt.join_url(ctx.page, table.code)),
            tag("board-joined", big(ctx.t("At the table: {names}", names=joined))),
        ]
    if table.keeping is not None:
        return board_parts(ctx, table, shown or KeyedParts())
    return play_parts(ctx, table, shown or KeyedParts())


def play_parts(ctx: AppContext, table: Table, shown: KeyedParts) -> list[ft.Control]:
    """The board of a digital game, by role; a part whose inputs did not change since the last move is the
    control already on screen (nothing to diff, nothing sent, see `KeyedParts`)."""
    payload = table.board()
    turn = status(ctx, payload)
    lines = [ctx.describe(m) for m in payload.moves[-LOG_LINES:]]
    lower_wins = spec(table.game).lower_wins
    scores = (payload.names, payload.totals, payload.round_points, payload.to_act, lower_wins)
    left = ft.Column(
        [
            shown.part("turn", turn, lambda: tag("board-turn", big(turn, 40, bold=True))),
            shown.part(
                "public", (payload.view, payload.names, ctx.width), lambda: public(ctx, table, payload)
            ),
            shown.part("moves", lines, lambda: tag("board-moves", ft.Column([big(line) for line in lines]))),
        ],
        spacing=16,
        expand=3,
        key="left",
    )
    right = ft.Column(
        [shown.part("scores", scores, lambda: scoreboard(ctx, payload, lower_wins))], expand=2, key="right"
    )
    if ctx.width < 900:
        return [left, right]
    row = ft.Row([left, right], vertical_alignment=ft.CrossAxisAlignment.START, spacing=32, key="wide")
    return [row]


def public(ctx: AppContext, table: Table, payload: BoardPayload) -> ft.Control:
    """The game's public cards (its `ui.play.<game>_board`), in the board's left column."""
    game = board_of(table.game)
    return ft.Column(game(ctx, payload.view, payload.names) if game is not None else [], spacing=16)


def stage_of(table: Table) -> str:
    """Which board the table shows: joining, score keeping or a digital game."""
    return "keep" if table.keeping is not None else "play" if table.started else "join"


def build(ctx: AppContext, code: str, **_: str) -> ft.View:
    route = f"/table/{code}/board"
    try:  # a guest's code goes through the wrong-code guard; the host's own screens know the code
        table = rt.host(ctx.store).get(code) if not ctx.guest else find_table(ctx, code)
    except RuleError as error:
        table, refused = None, ctx.describe(error)
    if table is None:
        text = refused if ctx.guest else ctx.t("This table was not found.")
        return ft.View(route=route, controls=[tag("board-refused", big(text))], padding=24)
    shown = KeyedParts()
    body = ft.Column(parts(ctx, table, shown), spacing=16, scroll=ft.ScrollMode.AUTO, expand=True)
    stage = stage_of(table)

    def redraw() -> None:
        with DRAWING:
            if stage_of(table) != stage:  # the game started: another board altogether, built afresh
                ctx.rerender()
                return
            body.controls = parts(ctx, table, shown)
            try:
                body.update()
            except Exception:
                pass

    subscribe(ctx, table, redraw)
    rt.kick(table)
    title = ctx.t("{game} table {code}", game=game_title(ctx, table.game), code=table.code)
    return ft.View(
        route=route,
        appbar=ft.AppBar(title=ft.Text(title, size=SMALL), automatically_imply_leading=False),
        controls=[tag("table-board", body)],
        padding=24,
    )
