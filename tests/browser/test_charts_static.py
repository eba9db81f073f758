"""The charts in the static build (Python in the page, Flet's prebuilt client without flet-charts): the same
descriptions drawn on Flet's canvas. One page load: the seeded games come in through Settings' import, then
scoreboard mode after three rounds, a game's history, the statistics and a player's months, each chart an
image named by its summary and painted in the players' colours. Screenshots: tests/browser/output/
charts-static-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from steps import extras_seed_data
from test_charts_browser import ANN, BOARD, BOB, CY, SHARE, check_chart, save
from test_static_site import StaticUI
from test_static_sync import phone_at

from scorekeeper.exchange.transfer import export_json
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


def test_charts_in_the_static_build_at_phone_size(chromium: Any, static_site: Path, tmp_path: Path) -> None:
    """The site as conftest's `static_site` built it (shared: the games go into this browser's IndexedDB)."""
    with phone_at(chromium, static_site, "charts-static") as ui:
        look_at_the_charts(ui, tmp_path)


def look_at_the_charts(ui: StaticUI, tmp_path: Path) -> None:
    with Store.open(tmp_path / "seed") as store:
        seeded = extras_seed_data().seed_store(store)
        store.set_setting("theme", "light")
        export = Path(export_json(store, tmp_path / "games.json"))
    ui.start("/settings", ready="import-file")
    with ui.page.expect_file_chooser(timeout=30_000) as chooser:
        ui.tap("import-file")
    chooser.value.set_files(str(export))
    ui.wait_text("Imported: 4 new games", timeout=60_000)

    ui.open(f"/match/{seeded.ruckzuck}/board", ready="board-standings")
    check_chart(ui, "progression-chart", BOARD, ANN, BOB, CY)
    save(ui, "charts-static-board")

    ui.open(f"/history/{seeded.rage}", ready="history-delete")
    check_chart(
        ui, "progression-chart", "Score progression after 10 rounds: Ann 125, Bob 40, Cy 100", ANN, CY
    )
    save(ui, "charts-static-history")
    ui.tap("progression-numbers")
    ui.wait("progression-table")

    ui.open("/stats", ready="stats-game-all")
    check_chart(ui, "win-share-chart", SHARE, ANN, BOB)
    ui.wait_text("Ann · wins: 2 (66.7%)")
    save(ui, "charts-static-stats")

    ui.open(f"/stats/players?player={seeded.players['Ann']}", ready="player-stats-overall")
    check_chart(ui, "player-stats-months-chart", "Games and wins per month: ")
    save(ui, "charts-static-months")
