"""Plays as real BG Stats files hold them, in a real browser at phone size (issue 51): a partners Racko game, a
game whose scores were typed as sums and a game known by its winner only, imported from one BG Stats file, in
the history, a game's page, the statistics by player and their game night. Screenshots:
tests/browser/output/bgstats-real-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT
from steps import phone_on

from scorekeeper.exchange.bgstats_import import import_bgstats_text
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

PARTNERS = "b0000000-0000-4000-8000-000000000001"
SUMMED = "b0000000-0000-4000-8000-000000000002"
WINNER_ONLY = "b0000000-0000-4000-8000-000000000003"


def score(ref: int, value: Any, winner: bool, **more: Any) -> dict[str, Any]:
    return {"playerRefId": ref, "score": value, "winner": winner, "seatOrder": 0, "rank": 0, **more}


def seed(data: Path) -> dict[str, str]:
    """One evening at Café Central as BG Stats exported it: a partners Racko game (Anna and Cleo against Ben
    and Dana), a Racko game of two with its scores typed as sums, a Ruck Zuck game known by its winner (Cleo)."""
    document = {
        "games": [
            {"id": 1, "name": "Rack-O", "bggName": "Rack-O", "usesTeams": True},
            {"id": 2, "name": "Ruck Zuck Kartenspiel", "bggName": "Ruck Zuck"},
        ],
        "players": [{"id": n + 1, "name": name} for n, name in enumerate(["Anna", "Ben", "Cleo", "Dana"])],
        "locations": [{"id": 1, "name": "Café Central"}],
        "plays": [
            {
                "uuid": PARTNERS,
                "gameRefId": 1,
                "locationRefId": 1,
                "playDate": "2026-05-01 19:00:00",
                "durationMin": 40,
                "usesTeams": True,
                "playerScores": [
                    score(1, "310", True, team="0"),
                    score(2, "150", False, team="1"),
                    score(3, "200", True, team="0"),
                    score(4, "120", False, team="1"),
                ],
            },
            {
                "uuid": SUMMED,
                "gameRefId": 1,
                "locationRefId": 1,
                "playDate": "2026-05-01 19:50:00",
                "durationMin": 30,
                "playerScores": [
                    score(1, "75+50+100+75+125+100", True),
                    score(2, "200+150", False),
                ],
            },
            {
                "uuid": WINNER_ONLY,
                "gameRefId": 2,
                "locationRefId": 1,
                "playDate": "2026-05-01 20:30:00",
                "durationMin": 25,
                "manualWinner": True,
                "playerScores": [score(1, None, False), score(2, "", False), score(3, None, True)],
            },
        ],
    }
    with Store.open(data) as store:
        report = import_bgstats_text(store, json.dumps(document))
        assert (report.imported, report.unreadable) == (3, 0)
        people = {p.name: p.id for p in store.list_players()}
    return people


def test_partners_summed_and_winner_only_plays_at_phone_size(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", seed, "bgstats-real") as (ui, people):
        partners, summed, winner_only = (key.replace("-", "") for key in (PARTNERS, SUMMED, WINNER_ONLY))
        ui.open("/history", ready="history-game-all")
        ui.wait_text("Final scores only")
        ui.wait_text("Cleo · Anna · Ben")  # known by its winner: places, no points
        ui.shot("history")
        ui.open(f"/history/{partners}", ready="history-time")
        ui.wait_text("Won by Anna")
        ui.shot("partners")
        ui.open(f"/history/{summed}", ready="history-time")
        ui.wait_text("525")
        ui.shot("summed")
        ui.open(f"/history/{winner_only}", ready="history-time")
        ui.wait_text("Won by Cleo")
        ui.wait_text("–")  # no totals: they were never known
        ui.shot("winner-only")
        ui.open("/stats", ready="stats-by-player")
        ui.tap("stats-by-player")
        ui.wait("player-stats-overall")
        ui.tap(f"player-stats-player-{people['Cleo']}")
        ui.wait_text("All games of Cleo")
        ui.wait("player-stats-card-ruckzuck")
        ui.shot("stats-cleo")
        ui.page.mouse.move(195, 500)
        ui.page.mouse.wheel(0, 700)  # down to the game cards: Ruck Zuck has a win and no score
        ui.page.wait_for_timeout(600)
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / "bgstats-real-stats-cleo-games-phone.png").write_bytes(ui.still())
        ui.open("/nights", ready=f"night-{partners}")
        ui.tap(f"night-{partners}")
        ui.wait("night-ranking")
        ui.wait_text("Cleo")
        ui.shot("night")
