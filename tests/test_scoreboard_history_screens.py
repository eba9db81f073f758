"""The scoreboard and the history, in process (test_ui_core_harness): a second session's scoreboard mode redraws
when a round is saved elsewhere (and only for its own game), deleting a finished game from the history, the
scoreboard's status row."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import flet as ft
import pytest
import test_ui_core_harness as harness
from flet.pubsub.pubsub_hub import PubSubHub
from test_ui_core_harness import App, start, tap_all

from scorekeeper.model.match import Match


# ------------------------------------------------------------------ helpers
@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Poll `condition` (another session redraws on a worker thread, as on the real server)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except LookupError:  # the view is being rebuilt right now
            pass
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


# ------------------------------------------------------------------ two sessions
@pytest.fixture
def shared_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[PubSubHub]:
    """One pubsub hub for every session, dispatching on a running loop and worker thread as the server does."""
    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor(max_workers=1)
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    hub = PubSubHub(loop, executor)
    monkeypatch.setattr(harness, "PubSubHub", lambda *_: hub)
    yield hub
    loop.call_soon_threadsafe(loop.stop)
    runner.join(timeout=5)
    executor.shutdown(wait=True)
    loop.close()


def test_scoreboard_mode_redraws_when_another_session_saves(tmp_path: Path, shared_hub: PubSubHub) -> None:
    phone = App(tmp_path / "data")
    match = start(phone, "racko", ["Anna", "Ben"], 0)
    tablet = App(tmp_path / "data", width=1280, height=800)  # the same data folder, another browser
    tablet.go(f"/match/{match.id}/board")
    assert tablet.find("total-0").value == "0"

    tap_all(phone, "mode-quick", "caller-0", "run-0-3", "count-1-4")  # the 2-player rule: the caller's run
    phone.tap("save-round")
    assert phone.store.get_match(match.id).totals() == [75, 20]
    wait_until(lambda: tablet.find("total-0").value == "75", "the board to show the new round")
    assert tablet.find("total-1").value == "20"
    assert tablet.ctx.route == f"/match/{match.id}/board"  # still in scoreboard mode

    phone.tap("undo")  # an undo elsewhere redraws the board too
    wait_until(lambda: tablet.find("total-0").value == "0", "the board to show the undo")


def test_board_of_another_game_is_not_redrawn(tmp_path: Path, shared_hub: PubSubHub) -> None:
    phone = App(tmp_path / "data")
    match = start(phone, "racko", ["Anna", "Ben"], 0)
    other = Match.new("racko", {"players": 2}, ["x", "y"], names=["Xia", "Yan"])
    other = phone.store.save_match(other)
    tablet = App(tmp_path / "data", width=1280, height=800)
    tablet.go(f"/match/{other.id}/board")
    board = tablet.view
    tap_all(phone, "mode-quick", "caller-0", "run-0-3", "count-1-4", "save-round")
    assert phone.store.get_match(match.id).totals() == [75, 20]
    time.sleep(0.3)  # give a wrong redraw the time to happen
    assert tablet.view is board


# ------------------------------------------------------------------ history: delete
def finished_match(app: App) -> Match:
    match = Match.new("racko", {"players": 2, "target": 50}, ["a", "b"], names=["Anna", "Ben"])
    match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    assert match.is_over
    return app.store.save_match(match)


def test_delete_a_finished_game_after_confirming(app: App) -> None:
    match = finished_match(app)
    app.go(f"/history/{match.id}")
    app.tap("history-delete")
    assert "Delete this game?" in app.screen_text()
    app.tap("history-delete-cancel")
    assert app.store.get_match(match.id) is not None
    assert not any(dialog.open for dialog in app.page._dialogs.controls)

    app.tap("history-delete")
    app.tap("history-delete-confirm")
    assert app.store.get_match(match.id) is None
    assert app.ctx.route == "/history"
    assert not app.has(f"history-{match.id}")
    assert any(path.name.startswith(match.id) for path in (app.store.data_dir / "trash").iterdir())


def test_delete_clears_the_undo_of_that_game(app: App) -> None:
    match = finished_match(app)
    app.ctx.undo = (match.id, "Round 1", match.to_dict())
    app.go(f"/history/{match.id}")
    tap_all(app, "history-delete", "history-delete-confirm")
    assert app.ctx.undo is None


def test_unfinished_game_cannot_be_deleted_from_history(app: App) -> None:
    match = app.store.save_match(Match.new("racko", {"players": 2}, ["a", "b"], names=["Anna", "Ben"]))
    app.go(f"/history/{match.id}")
    assert not app.has("history-delete")


def test_delete_in_french(app: App) -> None:
    match = finished_match(app)
    app.ctx.update_settings(language="fr")
    app.go(f"/history/{match.id}")
    app.tap("history-delete")
    assert "Supprimer cette partie\u00a0?" in app.screen_text()
    app.tap("history-delete-confirm")
    assert app.store.get_match(match.id) is None


# ------------------------------------------------------------------ scoreboard layout
def test_scoreboard_status_is_one_wrapping_row(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben"], 1, target=200)
    app.go(f"/match/{match.id}")
    status = app.find("status")
    assert isinstance(status, ft.Row) and status.wrap
    texts = harness.texts(status)
    assert texts == ["Round 1", "Dealer: Ben", "Deals next: Anna", "Playing to 200 points"]
