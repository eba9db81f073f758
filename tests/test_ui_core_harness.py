"""In-process harness for UI tests: runs `main(page)` on a Flet session with a recording fake connection, finds
controls by their Semantics identifier and fires their handlers. Uses Flet's private messaging API, which is why
flet is pinned exactly. (No tests in this module: it is imported by the test_ui_core_* files.)

What the app schedules on the session's event loop (`page.run_task`: `push_route`, focus, browser storage) is run
after every tap, change and navigation, as Flet's server loop would, and the fake connection answers the
browser's side of each method call: `push_route` is recorded in `connection.routes` and comes back as the
`route_change` event a browser sends; SharedPreferences keep their values in `connection.storage`. Before, the
loop never ran: navigation pushes were dropped untested (and Python warned "coroutine ... was never awaited").

The loops run on a thread of the harness's own (`LOOP_THREAD`), one drain at a time while the test waits for it,
never in the test's thread: a browser test earlier in the run leaves Playwright's loop running there (its sync API
keeps it registered as running for the whole session), and asyncio refuses to run a loop in a thread that has one
running ("Cannot run the event loop while another loop is running")."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    InvokeMethodRequestBody,
    MessageAction,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from scorekeeper.model.match import Match
from scorekeeper.store import MatchSummary, Store
from scorekeeper.ui.app import make_main
from scorekeeper.ui.context import AppContext

T = TypeVar("T")

LOOP_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ui-harness-loop")
"""Where every session's loop runs (see the module docstring). One thread: drains run one after another, and the
test waits for each, so the app's tasks never run alongside the test's own steps."""


def run_on(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `loop` until `coroutine` is done, on `LOOP_THREAD`, whatever loop this thread has running; what it
    raises is raised here."""
    return LOOP_THREAD.submit(loop.run_until_complete, coroutine).result()


LIVE: set[RecordingConnection] = set()
"""Every connection of the test running: one device's tap can schedule work on another's loop (pubsub). Held
strongly until `close_all`: a session dropped with work still scheduled would be collected with it unrun."""


def settle_all() -> None:
    """Run what the app scheduled on every live session until all are quiet (a device's task may wake another)."""
    for _ in range(100):
        busy = [connection for connection in list(LIVE) if connection.busy()]
        if not busy:
            return
        for connection in busy:
            connection.settle()
    raise AssertionError("the sessions keep scheduling work for each other")


def close_all() -> None:
    """After a test: finish what is scheduled, then close every session's loop (nothing is left to be collected
    unrun, and no loop is left open)."""
    try:
        settle_all()
    finally:
        for connection in list(LIVE):
            connection.close()


def gone(handler: Any, *args: Any, **kwargs: Any) -> Future[Any]:
    """`page.run_task` of a closed session: nothing runs."""
    future: Future[Any] = Future()
    future.cancel()
    return future


class RecordingConnection(Connection):
    """A connection that keeps what would go to the browser instead of sending it, and answers the browser's side
    of the methods the app invokes (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Any] = []
        self.loop = asyncio.new_event_loop()
        self.executor = ThreadPoolExecutor(max_workers=1)
        self.pubsubhub = PubSubHub(self.loop, self.executor)
        self.page_url = (
            "http://127.0.0.1:8550"  # what flet-web takes from the websocket (Page.url, its query)
        )
        self.session: Session | None = None  # set once the session over this connection exists
        self.invoked: list[tuple[str, Any]] = []  # every client method the app called: (name, arguments)
        self.routes: list[str] = []  # the routes pushed to the browser's history, in order
        self.storage: dict[str, Any] = {}  # the browser's SharedPreferences
        LIVE.add(self)

    def send_message(self, message: Any) -> None:
        # Encoding is not optional: Flet takes its change-tracking snapshots while serialising.
        body = msgpack.packb(
            [message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl)
        )
        self.sent.append(body)
        if message.action == MessageAction.INVOKE_METHOD:
            self.answer(message.body)

    def answer(self, call: InvokeMethodRequestBody) -> None:
        """The browser's reply to a method call (sent from inside the awaiting coroutine, which has registered
        the call already). A pushed route also comes back as a `route_change` event, as from a browser."""
        assert self.session is not None
        args = dict(call.args or {})
        self.invoked.append((call.name, args))
        result: Any = None
        if call.name == "push_route":
            self.routes.append(args["route"])
            self.loop.create_task(self.route_changed(args["route"]))
        elif call.name == "set":
            self.storage[args["key"]], result = args["value"], True
        elif call.name in ("get", "contains_key"):
            result = self.storage.get(args["key"]) if call.name == "get" else args["key"] in self.storage
        elif call.name == "remove":
            result = self.storage.pop(args["key"], None) is not None
        elif call.name == "get_keys":
            result = [key for key in self.storage if key.startswith(args["key_prefix"])]
        self.session.handle_invoke_method_results(call.control_id, call.call_id, result, None)

    async def route_changed(self, route: str) -> None:
        assert self.session is not None
        self.session.apply_page_patch({"route": route})
        await self.session.dispatch_event(self.session.page._i, "route_change", {"route": route})

    def settle(self) -> None:
        """Run what the app scheduled on the session's loop until nothing is left, as Flet's server would between
        two events. A task that has not ended after a generous while is a hang: fail, naming it."""

        async def drain() -> None:
            for _ in range(1000):
                await asyncio.sleep(0)  # lets run_task's callbacks create their tasks
                pending = asyncio.all_tasks() - {asyncio.current_task()}
                if not pending:
                    return
                done, hung = await asyncio.wait(pending, timeout=60)
                if hung:
                    raise AssertionError(f"scheduled work never finished: {hung}")
                for task in done:  # a failure in the background must not pass unseen
                    if not task.cancelled() and task.exception() is not None:
                        raise AssertionError(f"scheduled work failed: {task}") from task.exception()
            raise AssertionError("scheduled work keeps scheduling more")

        run_on(self.loop, drain())

    def busy(self) -> bool:
        """Work is scheduled on this session's loop (what run_task hands over, or a task not yet finished)."""
        return not self.loop.is_closed() and (
            bool(self.loop._ready) or any(not task.done() for task in asyncio.all_tasks(self.loop))  # type: ignore[attr-defined]
        )

    def close(self) -> None:
        LIVE.discard(self)
        if self.session is not None:
            # Like a closed tab: what a background thread (a computer player) asks of this session after the test
            # is dropped before its coroutine is even made (made and not run, Python warns in a later test).
            object.__setattr__(self.session.page, "run_task", gone)
        if not self.loop.is_closed():
            self.loop.close()
        self.executor.shutdown(wait=False)


def children(control: Any) -> list[BaseControl]:
    """The controls directly inside `control` (any dataclass field holding controls)."""
    found: list[BaseControl] = []
    if not dataclasses.is_dataclass(control):
        return found
    for f in dataclasses.fields(control):
        if f.name.startswith("_") or f.name == "parent":
            continue
        value = getattr(control, f.name, None)
        if isinstance(value, BaseControl):
            found.append(value)
        elif isinstance(value, list | tuple):
            found.extend(v for v in value if isinstance(v, BaseControl))
    return found


def walk(control: Any):
    yield control
    for child in children(control):
        yield from walk(child)


def texts(control: Any) -> list[str]:
    """Every Text value and button label under `control`, in tree order."""
    values: list[str] = []
    for node in walk(control):
        if isinstance(node, ft.Text) and node.value:
            values.append(str(node.value))
        elif isinstance(node, ft.Button | ft.FilledButton | ft.OutlinedButton | ft.TextButton) and isinstance(
            node.content, str
        ):
            values.append(node.content)
    return values


class App:
    """One user session of the app on a fresh data folder."""

    def __init__(
        self,
        data_dir: Path,
        width: float = 390,
        height: float = 844,
        *,
        served: bool = False,
        client_ip: str | None = None,
    ) -> None:
        self.connection = RecordingConnection()
        self.session = Session(self.connection)
        self.connection.session = self.session
        self.page = self.session.page
        # What the Flet server does when a browser registers: the client's page properties, then the first send.
        self.session.apply_page_patch({"route": "/", "width": width, "height": height})
        self.connection.send_message(SimpleNamespace(action=0, body=self.session.get_page_patch()))
        self.page.client_ip = client_ip
        self.store = Store.open(data_dir)
        make_main(store=self.store, served=served)(self.page)
        settle_all()
        self.ctx: AppContext = self.page.data

    @property
    def routes(self) -> list[str]:
        """The routes the app pushed to the browser's history (its address bar), in order."""
        return self.connection.routes

    @property
    def view(self) -> ft.View:
        return self.page.views[-1]

    def roots(self) -> list[Any]:
        return [self.view, *self.page._dialogs.controls]

    def find(self, identifier: str) -> BaseControl:
        for root in self.roots():
            for node in walk(root):
                if isinstance(node, ft.Semantics) and node.identifier == identifier:
                    content = node.content
                    while isinstance(content, ft.Semantics) and content.identifier is None:
                        content = content.content  # a tappable Container's own button node (see `tag`)
                    return content
        raise LookupError(f"no control tagged {identifier!r} on {self.ctx.route}; texts: {self.text()[:40]}")

    def has(self, identifier: str) -> bool:
        try:
            self.find(identifier)
        except LookupError:
            return False
        return True

    def tap(self, identifier: str) -> None:
        control = self.find(identifier)
        handler = getattr(control, "on_click", None)
        if handler is None:
            raise AssertionError(f"{identifier} is not tappable")
        if getattr(control, "disabled", False):
            raise AssertionError(f"{identifier} is disabled")
        handler(SimpleNamespace(control=control, data=None))
        settle_all()
        self.check_tags()

    def check_tags(self) -> None:
        """No tagged control is hidden: in its place Flutter draws a red error box ("Semantics.content must be
        provided and visible"). A tagged control that has nothing to show is left out instead."""
        for root in self.roots():
            for node in walk(root):
                if isinstance(node, ft.Semantics) and node.visible is not False and node.identifier:
                    content = node.content
                    if content is None or content.visible is False:
                        raise AssertionError(f"{node.identifier} is tagged but hidden on {self.ctx.route}")

    def set_value(self, identifier: str, value: Any) -> None:
        control = self.find(identifier)
        control.value = value
        handler = getattr(control, "on_change", None)
        if handler is not None:
            handler(SimpleNamespace(control=control, data=value))
        settle_all()

    def type_text(self, identifier: str, value: str) -> None:
        self.set_value(identifier, value)

    def text(self) -> list[str]:
        return [t for root in self.roots() for t in texts(root)]

    def screen_text(self) -> str:
        return "\n".join(self.text())

    def start_match(self, game: str, names: list[str], dealer: int, **values: object) -> MatchSummary:
        """Saved players, then the New game screen: game, options, seats, first dealer, start."""
        for name in names:
            self.store.add_player(name)
        self.go("/new")
        self.tap(f"game-{game}")
        self.ctx.session.new_game.values.update(values)
        for name in names:
            self.tap(f"pick-{name}")
        self.tap(f"dealer-{dealer + 1}")
        self.tap("start-game")
        return self.store.list_matches()[0]

    def go(self, route: str) -> None:
        self.ctx.navigate(route)
        settle_all()
        self.check_tags()

    def browser_route(self, route: str) -> None:
        """The browser changes the route itself (back or forward button, a typed address)."""
        run_on(self.connection.loop, self.connection.route_changed(route))
        settle_all()
        self.check_tags()

    def enter(self) -> None:
        self.ctx.on_enter()
        settle_all()


def start(app: App, game: str, names: list[str], dealer: int = 0, **values: object) -> Match:
    """App.start_match, then the saved match itself."""
    app.start_match(game, names, dealer, **values)
    (summary,) = app.store.list_matches()
    match = app.store.get_match(summary.id)
    assert match is not None
    return match


def tap_all(app: App, *identifiers: str) -> None:
    for identifier in identifiers:
        app.tap(identifier)
