"""BG Stats in a real browser at phone size: a BG Stats export picked with "Import a file" (sent through the
upload, like any import), its Racko play on the scoreboard and in the history, then the plays of this month
downloaded for BG Stats. Screenshots: tests/browser/output/bgstats-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT
from steps import phone_on

from scorekeeper.model.match import Match
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).parents[1] / "fixtures" / "bgstats_export.json"
RACKO_PLAY = "c0000000000040008000000000000001"


def seed(data: Path) -> str:
    """A Racko game of Anna and Ben finished this month (the one play of the month to export)."""
    with Store.open(data) as store:
        ids = [store.add_player(name).id for name in ("Anna", "Ben")]
        match = Match.new("racko", {"players": 2, "target": 50}, ids, names=["Anna", "Ben"])
        match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
        return store.save_match(match).id


def test_a_bg_stats_export_comes_in_and_this_months_plays_go_out(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", seed, "bgstats") as (ui, _):
        ui.open("/settings", ready="import-file")
        with ui.page.expect_file_chooser(timeout=15_000) as chooser:
            ui.tap("import-file")
        chooser.value.set_files(str(FIXTURE))
        ui.wait_text("BG Stats: 5 plays imported, 3 of other games skipped")
        ui.wait("export-bgstats")
        ui.tap("bgstats-period-days")  # the date-range picker opens over the screen
        ui.page.wait_for_timeout(800)
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / "bgstats-days-phone.png").write_bytes(ui.still())
        ui.page.get_by_role("button", name="Save").click()  # the days shown: today to today
        ui.wait_text("From ")
        ui.tap("bgstats-period-month")
        ui.page.mouse.move(195, 400)
        ui.page.mouse.wheel(0, 600)  # down to the BG Stats part
        ui.page.wait_for_timeout(600)
        (OUTPUT / "bgstats-settings-phone.png").write_bytes(ui.still())
        with ui.page.expect_download(timeout=15_000) as download:
            ui.tap("export-bgstats")
        assert download.value.suggested_filename.startswith("scorekeeper-bgstats-")
        plays = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["plays"]
        assert [[s["score"] for s in play["playerScores"]] for play in plays] == [["75", "15"]]

        ui.open(f"/match/{RACKO_PLAY}", ready="status")
        ui.wait_text("Imported with its final totals only")
        ui.wait_text("525")
        ui.shot("scoreboard")
        ui.open("/history", ready="history-game-all")
        ui.wait_text("Final scores only")
        ui.shot("history")
