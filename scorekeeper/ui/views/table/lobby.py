"""Host a table: pick the game and the number of seats (`/table/new`), then the lobby (`/table/<code>`).

The lobby shows the join code large (`table-code`, its text is the code) with a QR code of the join address and
the address as text; a row per seat (`seat-<n>`, numbered from 1) saying who has joined; each open seat can be
given to a computer player (`computer-<n>`); `start-table` deals once every seat is filled. Joins reach the lobby
through pubsub, without a reload. Only the owner opens these screens (see server/rights.py).
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorekeeper.digital import engine
from scorekeeper.games.base import RuleError
from scorekeeper.games.options import options_for
from scorekeeper.games.spec import GAMES, find, spec
from scorekeeper.server import table_runtime as rt
from scorekeeper.table.seats import OPEN
from scorekeeper.table.table import KEEP, PERSON, PLAY, Table
from scorekeeper.ui.components.keyed import KeyedParts
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.setup_form import choice_button
from scorekeeper.ui.components.setup_form import option_controls as options_ui
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.session_state import TableSetupDraft
from scorekeeper.ui.views.digital.setup import strength_label


def can_host(ctx: AppContext) -> bool:
    """Only an app served as a web server can let phones in (a packaged phone app or a window cannot)."""
    return bool(getattr(ctx.page, "web", False))


Choose = Callable[[str, object], None]


def game_buttons(ctx: AppContext, draft: TableSetupDraft, choose: Choose) -> list[ft.Control]:
    """One button per game; the chosen one filled."""
    return [
        choice_button(
            f"table-game-{g.key}",
            g.key == draft.game,
            game_title(ctx, g.key),
            lambda _, k=g.key: choose("game", k),
            height=48,
        )
        for g in GAMES
    ]


def seat_count_buttons(draft: TableSetupDraft, choose: Choose) -> list[ft.Control]:
    """One button per number of seats the chosen game allows."""
    low, high = spec(draft.game).players
    return [
        choice_button(
            f"table-players-{n}",
            n == draft.players,
            str(n),
            lambda _, n=n: choose("players", n),
            width=64,
            height=48,
            # Flet's default padding (24 px a side) left "10" too little room: it wrapped to "1" over "0"
            style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=4)),
        )
        for n in range(low, high + 1)
    ]


def mode_buttons(ctx: AppContext, draft: TableSetupDraft, choose: Choose) -> list[ft.Control]:
    """Play digitally or keep score of a game played with real cards."""
    return [
        choice_button(
            f"table-mode-{mode}",
            draft.mode == mode,
            label,
            lambda _, m=mode: choose("mode", m),
            height=48,
        )
        for mode, label in ((PLAY, ctx.t("Play digitally")), (KEEP, ctx.t("Keep score")))
    ]


def setup(ctx: AppContext, game: str | None) -> ft.View:
    route = "/table/new"
    draft = ctx.session.table_setup
    if draft is None:
        draft = ctx.session.table_setup = TableSetupDraft(game or GAMES[0].key, PLAY)
    if game and find(game) and game != draft.game:
        draft.game, draft.values = game, {}
    body = ft.Column(spacing=12)

    def redraw() -> None:
        body.controls = parts()
        body.update()

    def choose(key: str, value: object) -> None:
        """A tap on one of the setup's buttons: the game, the number of seats or the mode."""
        if key == "game" and isinstance(value, str):
            if value != draft.game:
                draft.values = {}  # another game's options do not apply
            draft.game = value
        elif key == "players" and isinstance(value, int):
            draft.players = value
        elif key == "mode" and isinstance(value, str):
            draft.mode = value
        low, high = spec(draft.game).players
        draft.players = max(low, min(high, draft.players))
        redraw()

    def create() -> None:
        players = draft.players
        options = options_for(draft.game, players, draft.values)
        try:
            spec(draft.game).options(players, **options)  # the game's own checks, before anyone joins
        except (RuleError, TypeError) as error:
            ctx.error(ctx.describe(error))
            return
        table = rt.host(ctx.store).create(draft.game, options, players, draft.mode)
        rt.watch(table)
        ctx.navigate(f"/table/{table.code}")

    def parts() -> list[ft.Control]:
        players = draft.players
        options = options_ui(ctx, draft.game, players, draft.values, redraw)
        return [
            section(ctx.t("Game"), ft.Row(game_buttons(ctx, draft, choose), wrap=True)),
            section(ctx.t("Mode"), ft.Row(mode_buttons(ctx, draft, choose), wrap=True)),
            section(ctx.t("Seats"), ft.Row(seat_count_buttons(draft, choose), wrap=True)),
            section(ctx.t("Options"), *options) if options else ft.Container(),
            ft.Row([primary_button(ctx.t("Open the table"), create, identifier="create-table")]),
        ]

    if not can_host(ctx):
        text = ctx.t(
            "Phones can only join a table when this app is served on the network. On a computer, start it "
            "with: python main.py --table"
        )
        return screen(ctx, route, ctx.t("Host a table"), [tag("host-table-why", ft.Text(text, size=16))])
    body.controls = parts()
    return screen(ctx, route, ctx.t("Host a table"), [body])


def seat_row(ctx: AppContext, table: Table, index: int) -> ft.Control:
    seat = table.seats[index]
    connected = table.connected.get(index, 0) > 0
    if seat.kind == OPEN:
        who = ft.Text(ctx.t("Waiting for a phone…"), italic=True, size=16)
    elif seat.strength is not None:
        who = ft.Text(
            ctx.t(
                "{name} (computer, {strength})", name=seat.name, strength=strength_label(ctx, seat.strength)
            ),
            size=16,
        )
    else:
        who = ft.Text(seat.name, size=16, weight=ft.FontWeight.BOLD)
    words: list[ft.Control] = [ft.Text(ctx.t("Seat {n}", n=index + 1), size=13), who]
    if seat.kind == PERSON and not connected:  # in words too: an icon alone is easily missed
        words.append(
            tag(
                f"seat-gone-{index + 1}",
                ft.Text(ctx.t("Phone not connected"), size=14, italic=True, color=ft.Colors.ERROR),
            )
        )
    actions: list[ft.Control] = []
    computers = table.mode != KEEP  # score keeping: every seat is a person with a phone
    if computers and (seat.kind == OPEN or (seat.strength is None and not connected and table.started)):
        actions.append(
            tag(
                f"computer-{index + 1}",
                ft.TextButton(
                    ctx.t("Computer player"),
                    icon=ft.Icons.SMART_TOY_OUTLINED,
                    on_click=lambda _: give_computer(ctx, table, index),
                ),
            )
        )
    if seat.kind != OPEN:
        actions.append(
            tag(
                f"free-{index + 1}",
                ft.TextButton(ctx.t("Free the seat"), on_click=lambda _: table.free(index)),
            )
        )
    icon = ft.Icons.PHONE_ANDROID if connected else ft.Icons.CHAIR_OUTLINED
    return tag(
        f"seat-{index + 1}",
        ft.Card(
            ft.ListTile(
                leading=ft.Icon(icon),
                title=ft.Row(words, spacing=12, wrap=True),
                trailing=ft.Row(actions, tight=True, spacing=0),
            )
        ),
    )


def give_computer(ctx: AppContext, table: Table, index: int) -> None:
    strengths = engine.strengths(table.game)
    try:
        table.set_computer(index, "normal" if "normal" in strengths else strengths[0])
    except RuleError as error:
        ctx.error(ctx.describe(error))
    rt.kick(table)


def join_header(ctx: AppContext, table: Table, url: str) -> ft.Control:
    """The code, the address and the QR code: built once per lobby screen and kept on every redraw, so the QR
    image is never made again (a new image blinks while it is decoded, and a phone scanning it then fails)."""
    code = ft.Text(table.code, size=56, weight=ft.FontWeight.BOLD, font_family="monospace")
    join = ft.Column(
        [
            ft.Text(ctx.t("Join with this code"), size=16),
            tag("table-code", code),
            tag("join-address", ft.Text(url, size=16)),
        ],
        spacing=4,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )
    qr = tag("table-qr", ft.Image(src=rt.qr_png(url), width=220, height=220, gapless_playback=True))
    return ft.Row(
        [join, qr],
        wrap=True,
        alignment=ft.MainAxisAlignment.CENTER,
        spacing=24,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def lobby(ctx: AppContext, table: Table) -> ft.View:
    route = f"/table/{table.code}"
    body = ft.Column(spacing=12)
    url = rt.join_url(ctx.page, table.code)
    shown = KeyedParts()

    def start() -> None:
        try:
            if table.mode == KEEP:
                table.start_keeping(ctx.store)
            else:
                table.start(ctx.store)
        except RuleError as error:
            ctx.error(ctx.describe(error))
            return
        rt.kick(table)
        ctx.navigate(f"/table/{table.code}/board")

    def parts() -> list[ft.Control]:
        header = shown.part("join", url, lambda: join_header(ctx, table, url))
        seats = [seat_row(ctx, table, i) for i in range(len(table.seats))]
        items: list[ft.Control] = [header, section(ctx.t("Seats"), *seats)]
        if table.started:
            items += next_round_row(ctx, table)
            items.append(
                ft.Row(
                    [
                        primary_button(
                            ctx.t("Show the board"),
                            lambda: ctx.navigate(f"/table/{table.code}/board"),
                            identifier="open-board",
                        )
                    ]
                )
            )
            if table.keeping is not None:  # the host enters or edits any round on the normal screens
                match_id = table.keeping.match.id
                items.append(
                    ft.Row(
                        [
                            tag(
                                "open-scoreboard",
                                ft.OutlinedButton(
                                    ctx.t("Enter or edit rounds"),
                                    on_click=lambda _: ctx.navigate(f"/match/{match_id}"),
                                    height=48,
                                ),
                            )
                        ]
                    )
                )
        else:
            items.append(ft.Row([primary_button(ctx.t("Start the game"), start, identifier="start-table")]))
        return items

    def redraw() -> None:
        body.controls = parts()
        try:
            body.update()
        except Exception:  # the page has gone
            pass

    body.controls = parts()
    subscribe(ctx, table, redraw)
    title = ctx.t("{game} table", game=game_title(ctx, table.game))
    return screen(ctx, route, title, [body], back="/")


def next_round_row(ctx: AppContext, table: Table) -> list[ft.Control]:
    """After a digital round: who is still looking at the result, and the host's way to deal the next round
    for everyone at once (otherwise it is dealt once every person has moved on)."""
    session = table.session
    if session is None or not session.round_over or session.match_over:
        return []

    def deal() -> None:
        table.next_round()
        rt.kick(table)

    names = table.names()
    looking = ", ".join(names[seat] for seat in table.looking())
    return [
        ft.Text(ctx.t("Waiting for the others to move on: {names}.", names=looking), size=16, italic=True),
        ft.Row([primary_button(ctx.t("Deal the next round"), deal, identifier="host-next-round")]),
    ]


def subscribe(ctx: AppContext, table: Table, redraw: Callable[[], None]) -> None:
    """Redraw on every change at `table` (joins, moves) that any device or computer player makes."""
    rt.watch(table)
    try:
        rt.remember_pubsub(ctx.page.pubsub)
        ctx.page.pubsub.subscribe_topic(rt.TOPIC.format(code=table.code), lambda _t, _m: redraw())
    except Exception:  # in-process tests have no pubsub
        pass


def build(ctx: AppContext, code: str | None = None, game: str | None = None, **_: str) -> ft.View:
    if code is None or code == "new":
        return setup(ctx, game)
    table = rt.host(ctx.store).get(code)
    if table is None:
        return screen(
            ctx, f"/table/{code}", ctx.t("Host a table"), [ft.Text(ctx.t("This table was not found."))]
        )
    return lobby(ctx, table)
