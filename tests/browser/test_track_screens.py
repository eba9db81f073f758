"""The other main screens in a real browser, photographed at phone and desktop size: home with a game to
continue, players, new game with seats chosen; plus the browser's back button and Enter on a desktop."""

from __future__ import annotations

import pytest
from conftest import UI, new_game

pytestmark = pytest.mark.browser


def test_home_players_new_game(ui: UI) -> None:
    new_game(ui, "rage", ["Anna", "Ben", "Cleo", "Dirk"], dealer_seat=0)
    ui.shot("rage-bids-4-players")
    ui.resize({"width": 1280, "height": 800})  # waits for the app's redraw at the new width
    # Desktop keyboard: Enter confirms (here: "Bids done" refuses, as the bids are missing).
    ui.page.keyboard.press("Enter")
    ui.wait_text("Enter the bid of Ben.")
    ui.resize({"width": 390, "height": 844})
    ui.open("/", ready="new-game")
    ui.wait_text("Rage · round 1")
    ui.shot("home")
    ui.open("/players", ready="player-name")
    ui.wait("player-Dirk")
    ui.shot("players")
    ui.open("/new", ready="start-game")
    ui.tap("game-racko", count=False)
    for name in ("Anna", "Ben", "Cleo", "Dirk"):
        ui.tap(f"pick-{name}", count=False)
    ui.wait_text("Seats 1 and 3 play against seats 2 and 4")
    ui.shot("new-game")
    # In-app navigation pushes browser history: the browser's back button returns to the previous screen.
    ui.open("/", ready="new-game")
    ui.tap("new-game", count=False)
    ui.wait("start-game")
    ui.page.go_back()
    ui.wait_text("Continue a game")
