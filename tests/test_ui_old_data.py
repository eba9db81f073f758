"""Every screen of every game in the data folders written by earlier versions opens (in-process): home, history,
statistics, each scoreboard, board, round list and final results, each stored round in the round form, and the
digital games. A game out of today's rules shows as it was played; only a round entered now follows them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_store_old_versions import FIXTURES, WRITTEN_BY
from test_ui_core_harness import App

FAILED = "Something went wrong"


@pytest.mark.parametrize("label", WRITTEN_BY)
def test_every_screen_opens_on_the_data_of_an_earlier_version(tmp_path: Path, label: str) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / f"data_{label}", folder)
    expected = json.loads((FIXTURES / f"data_{label}.expected.json").read_text(encoding="utf-8"))
    app = App(folder, width=1280, height=800)
    app.ctx.settings.update({"play_pace": "instant"})
    routes = ["/", "/history", "/stats"]
    for match_id, figures in expected["matches"].items():
        routes += [f"/match/{match_id}", f"/match/{match_id}/board", f"/history/{match_id}"]
        if figures["is_over"]:
            routes.append(f"/match/{match_id}/end")
        if figures["mode"] == "tracked":
            routes += [f"/match/{match_id}/round/{n}" for n in range(figures["rounds"])]
    routes += [f"/play/{saved_id}" for saved_id in expected["digital_games"]]
    for route in routes:
        app.go(route)
        text = app.screen_text()
        assert FAILED not in text and "was not found" not in text, (route, text[:300])
    assert app.store.recovery_messages == []
    assert not [p for p in folder.rglob("*") if ".corrupt-" in p.name]


def test_the_old_ruck_zuck_game_shows_its_one_round_and_its_winner(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / "data_804ac6b", folder)
    app = App(folder)
    match = next(m for m in app.store.iter_matches(game="ruckzuck") if m.options.get("rounds") == 1)
    app.go(f"/match/{match.id}")
    assert app.has("final-results")
    text = app.screen_text()
    assert "117" in text and "Anna" in text
