"""Failures shown as messages, never as Flet's red "Error running app": every event handler
has one error boundary (the session's crash report goes to the app), views have theirs, settings change in
memory only after they were written, and a deeply nested import file is refused with a message."""

from __future__ import annotations

import asyncio
import errno
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import flet as ft
import msgpack
import pytest

from scorekeeper.ui.views.settings.importing import import_content
from tests.test_ui_core_harness import App


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def disk_full(*_: object, **__: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def dispatch_click(app: App, identifier: str) -> None:
    """A tap as Flet's server delivers it: through the session, which catches what the handler raises."""
    control = app.find(identifier)
    # In a thread of its own: after the browser tests, Playwright's loop is still running in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, app.session.dispatch_event(control._i, "click", None)).result()


def crashed(app: App) -> bool:
    """Did the browser get a "session crashed" message (the red screen)?"""
    from flet.messaging.protocol import MessageAction

    return any(
        msgpack.unpackb(body, strict_map_key=False)[0] == MessageAction.SESSION_CRASHED.value
        for body in app.connection.sent
    )


def snack_texts(app: App) -> list[str]:
    return [
        bar.content.value
        for bar in app.page._dialogs.controls
        if isinstance(bar, ft.SnackBar) and isinstance(bar.content, ft.Text)
    ]


def test_failing_handler_shows_translated_message(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    app.go("/settings")
    app.ctx.update_settings(language="de")
    monkeypatch.setattr(app.store, "set_setting", disk_full)
    monkeypatch.setattr(app.store, "update_settings", disk_full)
    dispatch_click(app, "language-fr")
    assert not crashed(app)
    assert any("Speicherplatz" in text or "voll" in text for text in snack_texts(app)), snack_texts(app)
    # Nothing changed in memory: the screen still shows what is saved.
    assert app.ctx.settings["language"] == "de" and app.ctx.t.language == "de"
    assert app.ctx.route == "/settings" and app.has("language-fr")


def test_update_settings_changes_nothing_when_the_write_fails(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.store, "set_setting", disk_full)
    monkeypatch.setattr(app.store, "update_settings", disk_full)
    with pytest.raises(OSError):
        app.ctx.update_settings(theme="dark")
    assert app.ctx.settings.get("theme", "system") == "system"


def test_failing_new_game_keeps_the_app(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("Anna", "Ben"):
        app.store.add_player(name)
    app.go("/new")
    app.tap("game-racko")
    app.tap("pick-Anna")
    app.tap("pick-Ben")
    app.tap("dealer-1")
    monkeypatch.setattr(app.store, "save_match", disk_full)
    dispatch_click(app, "start-game")
    assert not crashed(app)
    assert any("disk is full" in text for text in snack_texts(app)), snack_texts(app)
    assert app.has("start-game")  # the form is still there to try again


def test_deeply_nested_import_is_refused(app: App) -> None:
    imported, message = import_content(app.ctx, "[" * 100_000 + "]" * 100_000)
    assert not imported
    assert "nested too deeply" in message


def test_read_only_store_shows_a_banner_on_every_screen(app: App) -> None:
    """The store says it is read-only (and why); every screen says so and what to do."""
    from scorekeeper.games.base import Message

    app.go("/")
    assert not app.has("read-only-banner")
    # What the store's file part keeps when the folder could only be opened for reading.
    app.store.files.read_only_reason = Message("The data folder {folder} is not writable.", folder="/data")
    assert app.store.read_only
    for route in ("/", "/history", "/settings"):
        app.go(route)
        assert app.has("read-only-banner"), route
        text = app.screen_text()
        assert "nothing can be saved" in text and "make the data folder writable" in text
        assert "/data is not writable" in text
    app.store.files.read_only_reason = Message("the data folder is on a read-only disk")
    app.go("/")
    assert "\nThe data folder is on a read-only disk\n" in app.screen_text()  # a line of its own: capitalised
