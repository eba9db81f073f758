"""Playing a digital game: the game's panel for the person at the device, computer moves at a visible pace,
the move log, hints, the hand-over screen between people, the round result and the end of the match (those two
drawn by `play_result`; the move log and the pace buttons beside or below the table by `play_side`).

Which seat's cards are shown: with one person, always that person's; with several people on one device, the
person whose turn it is, and only after they tapped `reveal` on the hand-over screen; while a computer player
moves or the round is over, nobody's. Panels get only `session.view_for(seat)` of that seat. Under the hand-over
screen and while a computer player moves, the public table stays in view (the panel with `hidden`: no hand,
nothing to tap).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.digital import duplicates
from scorekeeper.digital.checks import replay_problem
from scorekeeper.digital.session import PlaySession
from scorekeeper.games.base import Action, RuleError
from scorekeeper.server import permissions
from scorekeeper.ui.announcements import PlayNews, announcer, speak
from scorekeeper.ui.components.layout import screen
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.set_aside import ask_set_aside
from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.kit import PanelContext
from scorekeeper.ui.registry import find_ui
from scorekeeper.ui.views.digital.result import round_result
from scorekeeper.ui.views.digital.side import move_log, pace_row

log = logging.getLogger(__name__)

PACE_SECONDS = {"instant": 0.0, "normal": 0.6, "slow": 1.5}
MAX_WIDTH = 1200
"""The play screen is wider than a form on a desktop: the table beside the move log."""
WIDE = 900
"""From this window width on the move log stands beside the table (three fifths of the width)."""
SCROLLBAR = 8
FIRST_FRAME_SECONDS = 0.05


def load_session(ctx: AppContext, saved_id: str) -> PlaySession | RuleError | None:
    """The session of this device (kept between screens), or the saved game rebuilt from its log; the reason
    when its log no longer replays (a file edited by hand, a rule tightened since); None when it is gone."""
    session = ctx.session.plays.get(saved_id)
    if session is not None:
        with session.lock:  # not while this device's own move is being saved
            stored = ctx.store.get_digital_game(saved_id)
            if stored is None or stored.version != session.saved.version:
                session = None  # moved on (or gone) on another device: start from what is stored
    if session is None:
        try:
            session = PlaySession.load(ctx.store, saved_id)
        except RuleError as error:
            return error
        if session is not None:
            ctx.session.plays[saved_id] = session
    return session


def keyed(**parts: ft.Control) -> list[ft.Control]:
    """The parts of the play screen, each keyed by its role. Why: a rebuilt part with the key of the one on
    screen is diffed field by field against it (Flet's keyed reconciliation), so a tap sends only what
    changed (a few fields of the board) instead of the whole, freshly registered tree of the play screen."""
    for key, part in parts.items():
        part.key = key
    return list(parts.values())


class PlayScreen:
    """The play screen's state on this device: who has revealed their cards, the computer-move runner."""

    def __init__(self, ctx: AppContext, session: PlaySession, route: str) -> None:
        self.ctx = ctx
        self.session = session
        self.route = route
        self.body = ft.Column(spacing=10)
        self.revealed: int | None = None
        self.ui: dict[str, Any] = {}
        self.hint: str | None = None
        self.whole_log = False
        """Whether the move log shows the whole round (else its last `play_side.LOG_LINES` moves)."""
        self.runner: threading.Thread | Any | None = None
        """The computer players' runner: a thread, or in the browser (no threads) a task on the event loop."""
        self.lock = threading.RLock()
        self.mounted = False
        self.closed = False
        """Set when the screen has a new table (the game was loaded again): this one's runner stops."""
        self.news = PlayNews(session.moves, self.turn())
        """What the screen reader was told (moves, whose turn), said anew on each drawing."""

    # ------------------------------------------------------------------ who sees what
    def device_seat(self) -> int | None:
        """The seat whose cards this device may show now (None: nobody's)."""
        people = self.session.people
        if len(people) == 1:
            return people[0]
        seat = self.session.to_act
        return seat if seat in people and self.revealed == seat else None

    def waiting_person(self) -> int | None:
        """Pass-and-play: the person to act who has not revealed their cards yet."""
        people = self.session.people
        seat = self.session.to_act
        if len(people) > 1 and seat in people and self.revealed != seat:
            return seat
        return None

    # ------------------------------------------------------------------ actions
    def act(self, action: Action) -> None:
        seat = self.device_seat()
        if seat is None:
            return
        try:
            self.session.act(seat, action)
        except RuleError as error:
            self.ctx.error(self.ctx.describe(error))
            return
        except Exception as error:  # e.g. the store refused a stale save: say so, go on from what is stored
            self.ctx.error(self.ctx.describe(error))
            self.ctx.session.plays.pop(self.session.saved.id, None)
            self.ctx.rerender()
            return
        self.hint = None
        if self.session.to_act != seat:
            self.revealed = None  # the turn is over: the cards are hidden before anyone else looks
            self.ui.clear()
        self.render()
        self.kick()

    def reveal(self) -> None:
        self.revealed = self.session.to_act
        self.render()

    def show_hint(self) -> None:
        seat = self.device_seat()
        if seat is None:
            return
        action = self.session.hint(seat)
        if action is not None:
            self.hint = self.ctx.t(
                "Hint: {move}", move=self.ctx.describe(self.session.describe(action, seat))
            )
        self.render()

    def next_round(self) -> None:
        try:
            self.session.next_round()
        except Exception as error:
            self.ctx.error(self.ctx.describe(error))
        self.revealed = None
        self.ui.clear()
        self.ctx.rerender()  # the title names the round

    def set_pace(self, pace: str) -> None:
        self.ctx.settings["play_pace"] = pace
        try:
            self.ctx.store.set_setting("play_pace", pace)
        except Exception:
            pass
        self.render()

    # ------------------------------------------------------------------ computer players
    def kick(self) -> None:
        """Let the computer players move (off the UI thread; in the browser, between the page's events) when it
        is their turn."""
        with self.lock:
            if self.runner is not None:  # a runner is still at work; it looks again before it stops
                return
            if self.session.computer_to_act and self.active():
                if IN_BROWSER:
                    self.runner = self.ctx.page.run_task(self._run_on_loop)
                else:
                    self.runner = threading.Thread(target=self._run, daemon=True, name="computer-players")
                    self.runner.start()

    def _run(self) -> None:
        # The frame answering the person's tap goes out first; computer moves would hold the interpreter.
        time.sleep(FIRST_FRAME_SECONDS)
        while True:
            try:
                for pause in self._paced():
                    if pause:
                        time.sleep(pause)
            except Exception as error:
                self._failed(error)
                return
            if self._done():
                return

    async def _run_on_loop(self) -> None:
        """`_run` for the browser: the same moves, the pauses awaited (a zero pause still lets a frame out)."""
        await asyncio.sleep(FIRST_FRAME_SECONDS)
        while True:
            try:
                for pause in self._paced():
                    await asyncio.sleep(pause)
            except Exception as error:
                self._failed(error)
                return
            if self._done():
                return

    def _failed(self, error: Exception) -> None:
        log.exception("computer player failed")
        self.ctx.error(self.ctx.describe(error))
        with self.lock:
            self.runner = None

    def _done(self) -> bool:
        """Draw what the computer players did; True when the runner stops (nothing more for it to do)."""
        self.render()
        with self.lock:  # kick() decides under the same lock, so no turn is left without a runner
            if not self.session.computer_to_act or not self.active():
                self.runner = None
                return True
        return False

    def active(self) -> bool:
        """Whether this table is still the one on screen."""
        return not self.closed and self.ctx.route == self.route

    def _paced(self) -> Iterator[float]:
        """The computer players' moves, one at a time: yields the pause (seconds, 0 for instant play) before
        each, so that a thread sleeps it and a task on the event loop awaits it."""
        while self.active():
            pace = PACE_SECONDS.get(str(self.ctx.settings.get("play_pace", "normal")), 0.6)
            yield pace
            if not self.active() or not self.session.step_computer():
                return
            if pace:
                self.render()

    def wait(self, timeout: float = 30.0) -> None:
        """Until the computer players are done (for tests)."""
        deadline = time.monotonic() + timeout
        while isinstance(runner := self.runner, threading.Thread) and time.monotonic() < deadline:
            runner.join(0.05)

    # ------------------------------------------------------------------ drawing
    def turn(self) -> tuple[int, int, bool, bool]:
        """What tells one turn from the next, for the screen reader's news."""
        session = self.session
        return session.round_index, session.to_act, session.round_over, session.match_over

    def render(self) -> None:
        with self.lock:
            self.body.controls = self.parts()
            speak(
                self.ctx, self.news.since(self.session.moves, self.turn(), self.status(), self.ctx.describe)
            )
            if self.mounted:
                try:
                    self.body.update()
                except Exception:  # the page has gone (closed tab): nothing to draw on
                    pass

    def parts(self) -> list[ft.Control]:
        ctx, session = self.ctx, self.session
        names = session.match.names
        found: dict[str, ft.Control] = {
            "status": tag("turn-status", ft.Text(self.status(), size=16, weight=ft.FontWeight.BOLD))
        }
        if session.round_over:
            found["result"] = round_result(ctx, session, self.next_round, self.panel_width())
        elif (waiting := self.waiting_person()) is not None:
            found["hand-over"] = self.hand_over(names[waiting])
            found["table"] = self.panel(waiting, hidden=True)  # what happened so far, without any hand
        else:
            seat = self.device_seat()
            if seat is not None:
                found["panel"] = self.panel(seat)
                if ctx.settings.get("play_hints", True) and session.legal_for(seat):
                    found["hint"] = self.hint_row()
            elif session.computer_to_act:  # several people: the table stays in view, without any hand
                found["table"] = self.panel(session.people[0], hidden=True)
        parts = keyed(**found)
        moves = list(session.moves)
        side = keyed(log=move_log(ctx, moves, self.whole_log, self.toggle_log))
        if len(session.people) < len(session.seats):  # the pace of computer players, where there is one
            side += keyed(pace=pace_row(ctx, self.set_pace))
        if self.ctx.width >= WIDE:  # tablet and desktop: the move log beside the table, not below it
            return keyed(
                wide=ft.Row(
                    [
                        ft.Column(parts, spacing=10, expand=3, key="main"),
                        ft.Column(side, spacing=10, expand=2, key="side"),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                    spacing=24,
                )
            )
        return parts + side

    def panel_width(self) -> float:
        """How wide `parts` draws the panel: the screen's frame (see layout.screen) less its padding, three
        fifths of it beside the move log, less room for a scroll bar."""
        width = self.ctx.width
        frame = min(width - 24, MAX_WIDTH)
        return (frame if width < WIDE else (frame - 24) * 0.6) - SCROLLBAR

    def status(self) -> str:
        ctx, session = self.ctx, self.session
        if session.match_over:
            return ctx.t("The game is over.")
        if session.round_over:
            return ctx.t("Round {n} is over.", n=session.round_index + 1)
        seat = session.to_act
        if seat == self.device_seat() and len(session.people) == 1:
            return ctx.t("Your turn.")
        if seat == self.device_seat():
            return ctx.t("Your turn, {name}.", name=session.match.names[seat])
        return ctx.t("{name}'s turn.", name=session.match.names[seat])

    def panel(self, seat: int, *, hidden: bool = False) -> ft.Control:
        """The game's panel from `seat`'s view; `hidden`: the public table only (tagged `table-panel`)."""
        ctx, session = self.ctx, self.session
        screens = find_ui(session.game)
        if screens is None or screens.panel is None:
            return ft.Text(ctx.t("This screen is not available yet."))
        pc = PanelContext(
            ctx=ctx,
            view=session.view_for(seat),
            legal=[] if hidden else session.legal_for(seat),
            act=self.act,
            names=list(session.match.names),
            ui=self.ui,
            refresh=self.render,
            last=self.session.last_move,
            width=self.panel_width(),
            hidden=hidden,
        )
        return tag("table-panel" if hidden else "play-panel", screens.panel(pc))

    def hand_over(self, name: str) -> ft.Control:
        ctx = self.ctx
        return ft.Container(
            ft.Column(
                [
                    ft.Icon(ft.Icons.PHONE_ANDROID, size=48),
                    tag("hand-over", ft.Text(ctx.t("Pass the device to {name}", name=name), size=22)),
                    ft.Text(ctx.t("Only {name} should look at the screen now.", name=name)),
                    tag(
                        "reveal",
                        ft.FilledButton(ctx.t("Show my cards"), on_click=lambda _: self.reveal(), height=52),
                    ),
                ],
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                spacing=16,
            ),
            padding=24,
            alignment=ft.Alignment.CENTER,
        )

    def hint_row(self) -> ft.Control:
        ctx = self.ctx
        button = tag(
            "hint",
            ft.OutlinedButton(
                ctx.t("Hint"), icon=ft.Icons.LIGHTBULB_OUTLINE, on_click=lambda _: self.show_hint()
            ),
        )
        if not self.hint:
            return button
        # The text under the button, not beside it: a child that expands inside a wrapping Row is a layout
        # error in Flutter, which the web page draws as a grey box in place of the whole screen.
        return ft.Column([button, tag("hint-text", ft.Text(self.hint, italic=True))], spacing=4)

    def toggle_log(self) -> None:
        self.whole_log = not self.whole_log
        self.render()


def build(ctx: AppContext, saved_id: str, **_: str) -> ft.View:
    at_table = played_at_table(ctx, saved_id)
    if at_table is not None:
        return at_table
    opened = duplicates.to_open(ctx.store, saved_id)  # an older duplicate's address opens the resumed game
    if opened != saved_id:
        # Its own route from here on: a redraw (the next round, a resize) shows the screen's route again, and
        # the browser's address follows (`Shell.follow`), so a bookmark or a reload carries the resumed id.
        saved_id, ctx.route = opened, f"/play/{opened}"
    route = f"/play/{saved_id}"
    session = load_session(ctx, saved_id)
    if session is None:
        return screen(ctx, route, ctx.t("Play"), [ft.Text(ctx.t("This game was not found."))])
    if isinstance(session, RuleError):
        return broken_game(ctx, route, saved_id, session)
    tables = ctx.session.play_tables
    kept = tables.get(saved_id)
    table = kept if isinstance(kept, PlayScreen) else None  # the only screen kept there
    if table is None or table.session is not session:  # a new table also for a session loaded again
        if table is not None:
            table.closed = True
        table = tables[saved_id] = PlayScreen(ctx, session, route)
    table.body = ft.Column(spacing=10)
    announcer(ctx)  # made with the screen: a computer player's thread cannot make it
    table.render()
    table.mounted = True
    table.kick()
    ctx.on_enter = None
    title = ctx.t("{game} · round {n}", game=game_title(ctx, session.game), n=session.round_index + 1)
    actions = [
        icon_button(
            ft.Icons.SCOREBOARD_OUTLINED,
            ctx.t("Scoreboard"),
            on_click=lambda _: ctx.navigate(f"/match/{session.match.id}"),
        )
    ]
    return screen(ctx, route, title, [table.body], back="/", actions=actions, max_width=MAX_WIDTH)


def played_at_table(ctx: AppContext, saved_id: str) -> ft.View | None:
    """A live table's game never opens here: its seats play it on their phones, each seeing only its own hand
    (opened here, anyone could see every hand and move for its players, and the table would be stuck). The
    owner is taken to the table's lobby; anyone else is told where the game is. None for any other game, and
    for a table's game that can no longer be continued (the screen says why, and the owner sets it aside)."""
    saved = ctx.store.get_digital_game(saved_id)
    code = saved.table_code if saved is not None else None
    if saved is None or code is None or replay_problem(ctx.store, saved) is not None:
        return None
    if not ctx.guest:
        from scorekeeper.ui.views.table import lobby as table_lobby

        ctx.route = f"/table/{code}"  # the address follows (Shell.follow)
        return table_lobby.build(ctx, code=code)
    text = ctx.t("This game is played at a live table: each player plays it on their own phone.")
    return screen(ctx, f"/play/{saved_id}", ctx.t("Play"), [tag("played-at-table", ft.Text(text))], back="/")


def broken_game(ctx: AppContext, route: str, saved_id: str, error: RuleError) -> ft.View:
    """A saved game whose moves no longer replay: say why, and let the host set it aside after a confirmation
    (the store keeps it, in exports too; the rounds it finished stay in the history), so home does not offer it
    for ever."""
    controls: list[ft.Control] = [
        ft.Text(ctx.t("This saved game cannot be continued: {reason}", reason=ctx.describe(error))),
        ft.Text(ctx.t("The rounds it finished are kept in the history.")),
    ]
    if ctx.may(permissions.DELETE_HISTORY):
        button = ft.OutlinedButton(
            ctx.t("Set this game aside"),
            icon=ft.Icons.ARCHIVE_OUTLINED,
            on_click=lambda _: ask_set_aside(ctx, saved_id),
        )
        controls.append(tag("set-aside", button))
    return screen(ctx, route, ctx.t("Play"), controls, back="/")
