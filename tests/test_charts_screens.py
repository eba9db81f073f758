"""The charts on their screens, in process (no browser): history, statistics and scoreboard mode show the same
chart whichever renderer the client has, named by its summary, with its numbers as a folded table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flet as ft
import flet.canvas as cv
import pytest
from test_history_stats_data import Seeded, seed_store
from test_ui_core_harness import App, close_all, walk

from scorekeeper.store import Store
from scorekeeper.ui.charts import draw


@pytest.fixture
def seeded(tmp_path: Path) -> tuple[Path, Seeded]:
    with Store.open(tmp_path) as store:
        data = seed_store(store)
    return tmp_path, data


def chart_node(app: App, identifier: str) -> ft.Semantics:
    found = [n for n in walk(app.view) if isinstance(n, ft.Semantics) and n.identifier == identifier]
    assert len(found) == 1, f"{identifier}: {len(found)} nodes"
    return found[0]


def drawn_by(app: App) -> set[str]:
    """Which renderers drew the screen's charts: "canvas", "flet-charts"."""
    kinds = set()
    for node in walk(app.view):
        if isinstance(node, cv.Canvas):
            kinds.add("canvas")
        elif type(node).__module__.startswith("flet_charts"):
            kinds.add("flet-charts")
    return kinds


@pytest.mark.parametrize("flet_charts", [True, False], ids=["flet-charts", "canvas"])
def test_history_and_statistics_draw_the_same_charts_with_either_renderer(
    seeded: tuple[Path, Seeded], monkeypatch: pytest.MonkeyPatch, flet_charts: bool
) -> None:
    monkeypatch.setattr(draw, "FLET_CHARTS", flet_charts)
    folder, data = seeded
    app = App(folder, width=390)
    try:
        app.go(f"/history/{data.racko}")
        assert (
            chart_node(app, "progression-chart").label == "Score progression after 8 rounds: Ann 530, Bob 110"
        )
        assert app.has("progression-numbers") and app.has("progression-table")
        assert drawn_by(app) == {"flet-charts" if flet_charts else "canvas"}
        app.go("/stats")
        share = chart_node(app, "win-share-chart").label
        assert share == "Share of wins: Ann: 2 wins (66.7%); Bob: 1 win (33.3%); Cy: 0 wins (0%)"
        assert "Ann · wins: 2 (66.7%)" in app.text() and "Cy · wins: 0 (0%)" in app.text()
        assert app.has("win-share-table")  # the key: every player's wins and share
        assert app.has("progression-chart")
        assert drawn_by(app) == {"flet-charts" if flet_charts else "canvas"}
        app.go(f"/stats/players?player={data.players['Ann']}")
        months = chart_node(app, "player-stats-months-chart").label or ""
        assert months.startswith("Games and wins per month: ") and "games 3, wins 2" in months
    finally:
        close_all()


@contextmanager
def canvas_app(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    """The app at phone size on `folder`, as the static build draws it: charts on Flet's canvas."""
    monkeypatch.setattr(draw, "FLET_CHARTS", False)
    app = App(folder, width=390, height=844)
    try:
        yield app
    finally:
        close_all()


def test_the_charts_speak_the_apps_language(
    seeded: tuple[Path, Seeded], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, data = seeded
    with Store.open(folder) as store:
        store.set_setting("language", "de")
    with canvas_app(folder, monkeypatch) as app:
        app.go(f"/history/{data.racko}")
        assert chart_node(app, "progression-chart").label == "Punkteverlauf nach 8 Runden: Ann 530, Bob 110"
        assert "Stand nach jeder Runde" in app.text()


def test_scoreboard_mode_draws_the_chart_below_the_standings(
    seeded: tuple[Path, Seeded], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, data = seeded
    with canvas_app(folder, monkeypatch) as app:
        app.go(f"/match/{data.ruckzuck}/board")
        label = chart_node(app, "progression-chart").label or ""
        assert label.startswith("Score progression after 3 rounds: ")
        canvases: list[Any] = [n for n in walk(app.view) if isinstance(n, cv.Canvas)]
        assert len(canvases) == 1 and canvases[0].on_resize is not None
