"""The app's navigation reaches the browser: every screen change pushes its route to the browser's history (the
address bar, back and forward), and the route change the browser sends back does not build the screen again.
Runs on the in-process harness (test_ui_core_harness), which answers for the browser."""

from __future__ import annotations

from pathlib import Path

from run_alone import run_alone
from test_ui_core_harness import App


def test_each_screen_change_is_pushed_to_the_browser_once(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    assert app.routes == []  # the first screen is the page's own route: nothing to push
    summary = app.start_match("racko", ["Anna", "Ben"], 0)
    assert app.routes == ["/new", f"/match/{summary.id}/round"]
    shown = app.view
    app.browser_route(f"/match/{summary.id}/round")  # the browser's echo of our own push, once more
    assert app.view is shown  # did not build the screen again
    app.browser_route("/new")  # the browser's back button
    assert app.ctx.route == "/new" and app.has("start-game")
    assert app.routes == ["/new", f"/match/{summary.id}/round"]  # the browser moved itself: nothing pushed


def test_browser_storage_answers_what_was_kept(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    app.page.run_task(app.ctx.browser_storage().set, "k", "v")
    app.connection.settle()
    assert app.connection.storage == {"k": "v"}


def test_the_harness_runs_the_app_while_another_loop_runs_in_the_tests_thread(tmp_path: Path) -> None:
    """After a browser test, Playwright's sync API leaves its loop running in the test's thread for the rest of
    the run; the harness still runs what the app schedules (it did not: every later UI test failed with
    "Cannot run the event loop while another loop is running")."""

    async def after_a_browser_test() -> list[str]:  # a loop is running in this thread, as Playwright's is
        app = App(tmp_path / "data")
        app.go("/players")
        app.browser_route("/")
        return app.routes

    assert run_alone(after_a_browser_test()) == ["/players"]
