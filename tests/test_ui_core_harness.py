"""In-process harness for UI tests: runs `main(page)` on a Flet session with a recording fake connection, finds
controls by their Semantics identifier and fires their handlers. Uses Flet's private messaging API, which is why
flet is pinned exactly. (No tests in this module: it is imported by the test_ui_core_* files.)"""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from scorekeeper.match import Match
from scorekeeper.store import MatchSummary, Store
from scorekeeper.ui.app import make_main
from scorekeeper.ui.context import AppContext


class RecordingConnection(Connection):
    """A connection that keeps what would go to the browser instead of sending it."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Any] = []
        self.loop = asyncio.new_event_loop()
        self.executor = ThreadPoolExecutor(max_workers=1)
        self.pubsubhub = PubSubHub(self.loop, self.executor)

    def send_message(self, message: Any) -> None:
        # Encoding is not optional: Flet takes its change-tracking snapshots while serialising.
        body = msgpack.packb(
            [message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl)
        )
        self.sent.append(body)


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

    def __init__(self, data_dir: Path, width: float = 390, height: float = 844) -> None:
        self.connection = RecordingConnection()
        self.session = Session(self.connection)
        self.page = self.session.page
        # What the Flet server does when a browser registers: the client's page properties, then the first send.
        self.session.apply_page_patch({"route": "/", "width": width, "height": height})
        self.connection.send_message(SimpleNamespace(action=0, body=self.session.get_page_patch()))
        self.store = Store.open(data_dir)
        make_main(store=self.store)(self.page)
        self.ctx: AppContext = self.page.data

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
        self.check_tags()

    def enter(self) -> None:
        self.ctx.on_enter()


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
