"""The statistics-by-player screen in process (no browser): reached from the statistics screen, its filters
change the address and the figures, a record opens its match, and the client without flet-charts gets the same chart on a canvas, its numbers as a
table under it in both."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import flet.canvas as cv
import pytest
from test_history_stats_data import Seeded, seed_store
from test_ui_core_harness import App, walk

from scorekeeper.store import Store
from scorekeeper.ui.charts import draw

CLOCK: list[list[str | None]] = [["2026-01-05T19:00:00+00:00", "2026-01-05T20:30:00+00:00"]]


@pytest.fixture
def seeded(tmp_path: Path) -> tuple[Path, Seeded]:
    with Store.open(tmp_path) as store:
        seeded = seed_store(store)
        store.change_match(seeded.rage, lambda m: dataclasses.replace(m, place="Club", clock=CLOCK), "place")
    return tmp_path, seeded


def test_player_statistics_with_filters(seeded: tuple[Path, Seeded]) -> None:
    folder, data = seeded
    app = App(folder, width=390)
    app.go("/stats")
    app.tap("stats-by-player")
    assert app.ctx.route == "/stats/players"
    ann, cy = data.players["Ann"], data.players["Cy"]
    assert app.has(f"player-stats-player-{ann}") and app.has("player-stats-overall")
    text = app.screen_text()
    assert "Statistics by player" in text and "All games of Ann" in text
    assert app.has("player-stats-card-racko") and app.has("player-stats-record-round-racko")
    assert app.has("player-stats-record-bids-rage") and app.has("player-stats-opponents")
    assert "1.5\nHours played" in text and "Time played is known for 3 of 3 games." in text
    app.tap(f"player-stats-player-{cy}")
    assert app.ctx.route == f"/stats/players?player={cy}"
    assert "All games of Cy" in app.screen_text() and not app.has("player-stats-card-racko")
    app.tap("player-stats-place-Club")
    assert app.ctx.route == f"/stats/players?player={cy}&place=Club"
    assert app.has("player-stats-card-rage") and not app.has("player-stats-card-ruckzuck")
    app.tap("player-stats-game-racko")
    assert "No finished games of Cy for these filters." in app.screen_text()
    app.go(f"/stats/players?player={ann}&period=2001")
    assert "No finished games of Ann for these filters." in app.screen_text()
    app.go(f"/stats/players?player={ann}")
    app.tap("player-stats-record-round-racko")
    assert app.ctx.route == f"/history/{data.racko}"


def test_without_flet_charts_the_months_are_drawn_on_a_canvas(
    seeded: tuple[Path, Seeded], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(draw, "FLET_CHARTS", False)
    app = App(seeded[0], width=390)
    app.go("/stats/players")
    assert app.has("player-stats-months-chart") and app.has("player-stats-months-table")
    assert [node for node in walk(app.view) if isinstance(node, cv.Canvas)]
    assert not [node for node in walk(app.view) if type(node).__module__.startswith("flet_charts")]


def test_an_empty_store_says_when_statistics_appear(tmp_path: Path) -> None:
    app = App(tmp_path, width=390)
    app.go("/stats/players")
    assert "No finished games yet. Statistics appear after the first one." in app.screen_text()
