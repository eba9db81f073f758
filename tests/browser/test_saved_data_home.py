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
from play_support import racko_moves_in
from steps import phone_on, screenshot

from scorekeeper.digital.session import PlaySession, Seat, computer_seat
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
        # The resize to another width class built home again: the notice is still there until dismissed.
        ui.wait_text("wiederhergestellt")
        ui.wait("repairs-dismiss")
        ui.open("/")  # and the next visit: the games, no notice, nothing wrong
        ui.wait(f"resume-{ids['cut']}")
        assert "Something went wrong" not in ui.all_text()


def unreplayable_game(folder: Path) -> str:
    """A fresh data folder with one digital Racko game whose log repeats its first move (today's engine refuses
    move 2), with no good copy to fall back on; returns its id."""
    store = Store.open(folder)
    session = racko_moves_in(store, store.add_player("Anna").id)
    store.close()
    path = folder / "digital" / f"{session.saved.id}.json"
    envelope = json.loads(path.read_text(encoding="utf-8"))
    log = envelope["tables"]["game"]["1"]["log"]
    log.insert(0, log[0])
    path.write_text(json.dumps(envelope), encoding="utf-8")
    (folder / "digital" / f"{session.saved.id}.json.bak").unlink()
    return session.saved.id


@pytest.mark.browser
def test_a_game_that_no_longer_replays_is_set_aside_from_home(chromium: Any, tmp_path: Path) -> None:
    """Home says the game cannot be continued and sets it aside after a confirmation; the file stays."""
    with phone_on(chromium, tmp_path / "data", unreplayable_game, "set-aside-home") as (ui, saved_id):
        ui.open("/")
        ui.wait(f"set-aside-{saved_id}")
        ui.wait_text("cannot be continued with this version")
        screenshot(ui, "set-aside-home-desktop", DESKTOP)
        screenshot(ui, "set-aside-home-phone", PHONE)
        ui.open(f"/play/{saved_id}", ready="set-aside")  # the card opens to the reason, set aside there too
        ui.wait_text("Move 2 of the saved round cannot be replayed")
        screenshot(ui, "set-aside-play-phone", PHONE)
        ui.open("/", ready=f"set-aside-{saved_id}")
        ui.tap(f"set-aside-{saved_id}")
        ui.wait("set-aside-confirm")
        screenshot(ui, "set-aside-confirm-phone", PHONE)
        ui.tap("set-aside-confirm")
        ui.wait_text("The game was set aside")
        ui.page.locator(f"[flt-semantics-identifier=resume-{saved_id}]").wait_for(state="detached")
        screenshot(ui, "set-aside-done-phone", PHONE)
    assert (tmp_path / "data" / "digital" / f"{saved_id}.json").exists()
