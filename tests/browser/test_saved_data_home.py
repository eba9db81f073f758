"""Home in a real browser on a data folder of an earlier version (804ac6b) with two damaged saved games: one
with a bad field and no good copy (set aside), one cut off with a good .bak (restored). Home draws every game
and says both on the first view; before, `/` showed "Something went wrong" on every visit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import DESKTOP, PHONE
from steps import phone_on, screenshot

from scorekeeper.play.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def damaged_data(folder: Path) -> dict[str, str]:
    folder.rmdir()
    shutil.copytree(FIXTURES / "data_804ac6b", folder)
    store = Store.open(folder)
    anna = next(p for p in store.list_players() if p.name == "Anna")
    ids = {}
    for name, game in (("bad", "racko"), ("cut", "ruckzuck")):
        session = PlaySession.create(
            store,
            game,
            {},
            [Seat("person", anna.id, "Anna"), computer_seat("normal", 1, "Computer 2")],
            seed=3,
        )
        for _ in range(2):
            session.run_computers() if session.computer_to_act else session.act(0, session.legal_for(0)[0])
        ids[name] = session.saved.id
    store.close()
    bad = folder / "digital" / f"{ids['bad']}.json"
    envelope = json.loads(bad.read_text(encoding="utf-8"))
    envelope["tables"]["game"]["1"]["data"]["round"] = "x"
    bad.write_text(json.dumps(envelope), encoding="utf-8")
    (folder / "digital" / f"{ids['bad']}.json.bak").unlink()
    cut = folder / "digital" / f"{ids['cut']}.json"
    cut.write_bytes(cut.read_bytes()[:50])
    return ids


@pytest.mark.browser
def test_home_shows_every_game_and_the_notice_on_the_first_view(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", damaged_data, "saved-data-home") as (ui, ids):
        ui.open("/")
        ui.wait(f"resume-{ids['cut']}")
        ui.wait_text("nicht lesbar")  # the fixture's language is German
        ui.wait_text("wiederhergestellt")
        text = ui.all_text()
        assert "Something went wrong" not in text and f"resume-{ids['bad']}" not in text
        screenshot(ui, "saved-data-home-phone", PHONE)
        screenshot(ui, "saved-data-home-desktop", DESKTOP)
        ui.open("/")  # and the next visit: the games, no notice, nothing wrong
        ui.wait(f"resume-{ids['cut']}")
        assert "Something went wrong" not in ui.all_text()
