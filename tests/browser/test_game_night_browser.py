"""A game night of three games in a real browser at phone size: from the history's "Game nights" to the night,
its ranking, the summary picture downloaded as a PNG, a game taken out and added again. In Dutch, whose column headers are the widest
(English texts are checked in process, tests/test_game_night_screen.py). Screenshots:
tests/browser/output/game-night-*.png."""

from __future__ import annotations

import dataclasses
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from steps import phone_on

from scorekeeper.model.match import Match
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

EVENING = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def seed(data: Path) -> list[str]:
    """Three finished games at Anna's kitchen, one per game, the second digital; their ids."""
    games = [
        ("racko", ["Anna", "Ben"], [520, 310], (0, 40), "tracked"),
        ("ruckzuck", ["Anna", "Ben", "Cleo"], [12, 3, 3], (50, 80), "digital"),
        ("rage", ["Anna", "Ben", "Cleo"], [40, 95, 60], (100, 160), "tracked"),
    ]
    ids = []
    with Store.open(data) as store:
        store.set_setting("language", "nl")
        for game, names, totals, (start, end), mode in games:
            begun, ended = (EVENING + timedelta(minutes=m) for m in (start, end))
            match = Match.new(
                game, {"players": len(names)}, [n.lower() for n in names], names=names, mode=mode
            )
            match = dataclasses.replace(
                match,
                final_totals=totals,
                status="finished",
                place="Anna's kitchen",
                created=begun.isoformat(),
                clock=[[begun.isoformat(), ended.isoformat()]],
            )
            ids.append(store.save_match(match).id)
    return ids


def test_a_night_of_three_games_at_phone_size(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", seed, "game-night") as (ui, ids):
        first, second = ids[0], ids[1]
        ui.open("/history", ready="history-nights")
        ui.shot("history")
        ui.tap("history-nights")
        ui.wait(f"night-{first}")
        ui.tap(f"night-{first}")
        ui.wait("night-ranking")
        ui.wait_text("Ben")
        ui.shot("game-night")
        with ui.page.expect_download(timeout=15_000) as download:
            ui.tap("night-picture")
        assert download.value.suggested_filename == "game-night-2026-05-01.png"
        image = Image.open(io.BytesIO(Path(download.value.path()).read_bytes()))
        assert image.format == "PNG" and image.width == 1080
        image.save(Path(__file__).with_name("output") / "game-night-picture.png")
        ui.wait_text("Afbeelding opgeslagen: game-night-2026-05-01.png")
        # taken out and added again by hand
        ui.tap(f"night-out-{second}")
        ui.wait_text("Uit deze avond gehaald.")
        ui.tap("night-add")
        ui.wait(f"night-add-{second}")
        ui.shot("game-night-add")
        ui.tap(f"night-add-{second}")
        ui.wait(f"night-match-{second}")
        ui.open("/nights", ready=f"night-{first}")
        ui.shot("game-nights")
