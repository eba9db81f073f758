"""The play screen as a new player meets it, in a real browser: the hint says its move in words in every game
(a layout error once drew a grey box in its place), the table stays in view while a computer player moves in
pass-and-play, the last move is marked, the whole round's log opens, and the racks, the pace row and the Ruck
Zuck board fit at phone, tablet and 1080p size."""

from __future__ import annotations

import time

import pytest
from conftest import UI
from steps import present, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"width": 1024, "height": 768}
FULL_HD = {"width": 1920, "height": 1080}


def start(ui: UI, game: str, pace: str = "instant") -> None:
    """From home: the play setup of `game` with its default seats (you and computer players)."""
    ui.tap(f"play-{game}")
    ui.wait("start-game")
    ui.tap(f"pace-{pace}", count=False)
    ui.tap("start-game")
    ui.wait("play-panel", timeout=30_000)


def wait_for(ui: UI, identifier: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not present(ui, identifier):
        ui.page.wait_for_timeout(200)
    ui.wait(identifier, timeout=1_000)


@pytest.mark.parametrize("game", ["racko", "ruckzuck", "rage"])
def test_the_hint_names_a_move(ui: UI, game: str) -> None:
    start(ui, game)
    wait_for(ui, "hint")  # the person's turn (in Rage a computer player may bid first)
    ui.tap("hint")
    ui.wait("hint-text")
    text = ui.text_of("hint-text")
    assert text.startswith("Hint: ") and len(text) > len("Hint: ") + 5, text
    screenshot(ui, f"polish-hint-{game}-phone", {"width": 390, "height": 844})
