"""The charts in the served app (flet-charts) at phone size: scoreboard mode after three rounds, a game's history,
the statistics (light and dark theme) and a player's months. Each chart is one node of the accessibility tree,
an image named by its summary, and is drawn: the players' colours are on screen where the node is.

Screenshots go to tests/browser/output/charts-served-*.png. The static build's charts (Flet's canvas, from the
same descriptions) are in test_charts_static.py, which uses the helpers below."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, UI, browser_tabs, served
from PIL import Image
from steps import extras_seed_data

from scorekeeper.store import Store
from scorekeeper.ui.charts import describe

pytestmark = pytest.mark.browser

ANN, BOB, CY = (0xE5, 0x39, 0x35), (0x1E, 0x88, 0xE5), (0x43, 0xA0, 0x47)  # the seeded players' colours
BOARD = "Score progression after 3 rounds: Ann 185, Bob 3, Cy 75"  # the Ruck Zuck game: 3 rounds
HEIGHTS = {
    "progression-chart": describe.PROGRESSION_HEIGHT,
    "win-share-chart": describe.SHARE_SIZE,
    "player-stats-months-chart": describe.MONTHS_HEIGHT,
}
SHARE = "Share of wins: Ann: 2 wins (66.7%); Bob: 1 win (33.3%); Cy: 0 wins (0%)"


def chart_name(ui: UI, identifier: str) -> str:
    """What a screen reader says of the chart: its node's accessible name (an image's label)."""
    node = ui.node(identifier)
    assert node.get_attribute("role") == "img"
    return node.get_attribute("aria-label") or node.inner_text()


def drawn_colours(ui: UI, identifier: str, *colours: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """Those of `colours` that are not painted where the chart's node is (about: anti-aliasing blends edges)."""
    shot = ui.node(identifier).screenshot()
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"{ui.name}-{identifier}-node.png").write_bytes(shot)  # what was looked at, for a failure
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    pixels = list(image.get_flattened_data())

    def painted(colour: tuple[int, int, int]) -> bool:
        near = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, colour, strict=True)) < 40)
        return near >= 30

    return [colour for colour in colours if not painted(colour)]


def scroll_to(ui: UI, identifier: str, height: float) -> None:
    """Scroll the screen's content (a mouse wheel, as Flutter listens to it) until the node is wholly in view:
    `height` tall (Flutter clips a node's box to the part in view)."""
    for _ in range(12):
        box = ui.node(identifier).bounding_box()
        if box is not None and box["height"] >= height - 1 and box["y"] + box["height"] <= PHONE["height"]:
            return
        ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        ui.page.mouse.wheel(0, 300)
        ui.page.wait_for_timeout(400)
    raise AssertionError(f"{identifier} is not wholly in view: {ui.node(identifier).bounding_box()}")


def save(ui: UI, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"{name}.png").write_bytes(ui.still())


def check_chart(ui: UI, identifier: str, name: str, *colours: tuple[int, int, int]) -> None:
    """The chart `identifier` is in view, named `name` (a prefix for "...:"), and painted in `colours`."""
    ui.wait(identifier)
    scroll_to(ui, identifier, HEIGHTS[identifier])
    said = chart_name(ui, identifier)
    assert said == name or (name.endswith(": ") and said.startswith(name)), said
    ui.page.wait_for_timeout(600)  # flet-charts draws its lines in a short animation
    assert drawn_colours(ui, identifier, *colours) == []


def test_charts_in_the_served_app_at_phone_size(chromium: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data) as store:
        seeded = extras_seed_data().seed_store(store)
        store.set_setting("theme", "light")
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("charts-served", PHONE)
        ui.open(f"/match/{seeded.ruckzuck}/board", ready="board-standings")
        check_chart(ui, "progression-chart", BOARD, ANN, BOB, CY)
        save(ui, "charts-served-board")

        ui.open(f"/history/{seeded.rage}", ready="history-delete")
        check_chart(
            ui, "progression-chart", "Score progression after 10 rounds: Ann 125, Bob 40, Cy 100", ANN
        )
        save(ui, "charts-served-history")
        ui.tap("progression-numbers")  # the numbers, folded under the chart
        ui.wait("progression-table")
        ui.wait_text("Totals after each round")

        ui.open("/stats", ready="stats-game-all")
        check_chart(ui, "win-share-chart", SHARE, ANN, BOB)
        save(ui, "charts-served-stats")
        check_chart(ui, "progression-chart", BOARD, ANN, BOB, CY)  # the latest game
        save(ui, "charts-served-stats-latest")

        ui.open(f"/stats/players?player={seeded.players['Ann']}", ready="player-stats-overall")
        check_chart(ui, "player-stats-months-chart", "Games and wins per month: ")
        save(ui, "charts-served-months")

        ui.open("/settings", ready="theme-dark")
        ui.tap("theme-dark")
        ui.open("/stats", ready="stats-game-all")
        check_chart(ui, "win-share-chart", SHARE, ANN, BOB)
        save(ui, "charts-served-stats-dark")
        check_chart(ui, "progression-chart", BOARD, ANN, BOB, CY)
        save(ui, "charts-served-stats-latest-dark")
