"""Games set aside in a real browser at phone size: Settings lists them with "Try again"; a game today's engine
still refuses says why under it and stays, one that replays comes back to home's "Continue a game", and home
offers the match of the game still set aside (its round dealt again). Before, only editing files brought a
game back."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from conftest import DESKTOP, PHONE, UI
from steps import phone_on, screenshot
from test_saved_data_home import unreplayable_game

from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store


def two_set_aside(folder: Path) -> dict[str, str]:
    """A Racko game whose moves no longer replay and a Ruck Zuck game that replays (as after an update that
    fixed what an older version refused), both set aside; their ids, and the Racko game's match id."""
    broken = unreplayable_game(folder)
    store = Store.open(folder)
    anna = next(p for p in store.list_players() if p.name == "Anna")
    session = PlaySession.create(
        store,
        "ruckzuck",
        {},
        [Seat("person", anna.id, "Anna"), computer_seat("normal", 1, "Computer 2")],
        seed=3,
    )
    session.run_computers()
    aside = store.set_aside_digital_game(broken)
    store.set_aside_digital_game(session.saved.id)
    store.close()
    assert aside is not None and aside.match_id is not None
    return {"broken": broken, "replays": session.saved.id, "match": aside.match_id}


TOP_BAR = 64  # the screen's title bar stays on top: what is under it cannot be tapped


def scroll_to(ui: UI, identifier: str, steps: int = 15) -> None:
    """Scroll the screen the way a mouse wheel does until the control tagged `identifier` is wholly on screen (a
    tap is a click at its place on Flutter's canvas, which the browser cannot scroll to by itself)."""
    ui.wait(identifier)
    size = ui.page.viewport_size or PHONE
    for _ in range(steps):
        box = ui.node(identifier).bounding_box()
        if box is not None and box["y"] >= TOP_BAR and box["y"] + box["height"] <= size["height"] - 8:
            return
        down = box is None or box["y"] >= TOP_BAR
        ui.page.mouse.move(size["width"] / 2, size["height"] / 2)
        ui.page.mouse.wheel(0, 250 if down else -250)
        ui.page.wait_for_timeout(300)
    raise AssertionError(f"{identifier} could not be scrolled onto the screen: {ui.diagnosis()}")


def still_refused(ui: UI, identifier: str, within: float = 15) -> None:
    """Wait until the game's line under it says why it stays set aside."""
    deadline = time.monotonic() + within
    while "It still cannot be continued" not in ui.text_of(identifier):
        if time.monotonic() > deadline:
            raise AssertionError(f"{identifier} does not say why: {ui.diagnosis()}")
        ui.page.wait_for_timeout(100)


@pytest.mark.browser
def test_games_set_aside_are_tried_again_from_settings(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", two_set_aside, "games-set-aside") as (ui, ids):
        ui.open("/", ready=f"continue-{ids['match']}")  # the Racko match is offered, its round dealt again
        ui.wait_text("The round in progress was set aside and is dealt again")
        screenshot(ui, "games-set-aside-home-before-phone", PHONE)
        ui.open("/settings", ready="data-where")
        scroll_to(ui, f"try-again-{ids['broken']}")
        ui.wait_text("Games set aside")
        screenshot(ui, "games-set-aside-settings-phone", PHONE)
        ui.tap(f"try-again-{ids['broken']}")
        still_refused(ui, f"aside-reason-{ids['broken']}")
        screenshot(ui, "games-set-aside-still-phone", PHONE)
        scroll_to(ui, f"try-again-{ids['replays']}")
        ui.tap(f"try-again-{ids['replays']}")
        ui.wait_text("The game is back")
        ui.page.locator(f"[flt-semantics-identifier=aside-{ids['replays']}]").wait_for(state="detached")
        scroll_to(ui, f"aside-{ids['broken']}")
        screenshot(ui, "games-set-aside-back-phone", PHONE)
        screenshot(ui, "games-set-aside-back-desktop", DESKTOP)
        ui.resize(PHONE)
        ui.open("/", ready=f"resume-{ids['replays']}")  # back under "Continue a game"
        ui.wait(f"continue-{ids['match']}")
        screenshot(ui, "games-set-aside-home-after-phone", PHONE)
    assert (tmp_path / "data" / "digital" / f"{ids['broken']}.json").exists()
