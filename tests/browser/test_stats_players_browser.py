"""Statistics by player in a real browser at phone size (390 x 844): from the statistics screen to one player's
figures, filtered by place and by game; screenshots go to tests/browser/output/player-stats-*.png."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, UI, browser_tabs, served
from steps import extras_seed_data

from scorekeeper.store import Store

pytestmark = pytest.mark.browser

CLOCK: list[list[str | None]] = [["2026-11-20T19:00:00+00:00", "2026-11-20T20:30:00+00:00"]]


def scroll_down(ui: UI, pixels: int) -> None:
    """Scroll the screen's content the way a mouse wheel does (Flutter listens to wheel events)."""
    ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    ui.page.mouse.wheel(0, pixels)
    ui.page.wait_for_timeout(600)


def test_player_statistics_filtered_by_place_at_phone_size(chromium: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data) as store:
        seeded = extras_seed_data().seed_store(store)
        for match_id in (seeded.racko, seeded.rage):
            store.change_match(match_id, lambda m: dataclasses.replace(m, place="Club", clock=CLOCK), "place")
    ann = seeded.players["Ann"]
    OUTPUT.mkdir(exist_ok=True)
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("player-stats", PHONE)
        ui.open("/stats", ready="stats-by-player")
        ui.tap("stats-by-player")
        ui.wait("player-stats-overall")
        ui.wait_text("All games of Ann")
        ui.tap("player-stats-place-Club")
        ui.wait_text("Time played is known for 2 of 2 games.")
        assert "place=Club" in ui.page.url and f"player={ann}" in ui.page.url
        ui.wait("player-stats-card-racko")
        (OUTPUT / "player-stats-club-phone.png").write_bytes(ui.still())
        scroll_down(ui, 700)
        ui.wait("player-stats-nemesis")
        (OUTPUT / "player-stats-club-records-phone.png").write_bytes(ui.still())
        scroll_down(ui, 900)
        ui.wait("player-stats-months-chart")
        (OUTPUT / "player-stats-club-chart-phone.png").write_bytes(ui.still())
        ui.tap("player-stats-game-rage")
        ui.wait("player-stats-record-bids-rage")
        ui.wait_text("Most bids made in a row: 10")
