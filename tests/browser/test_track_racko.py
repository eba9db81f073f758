"""A whole tracked Racko game through the UI in a real browser (phone size): racks entered on the number pad,
a wrong caller rejected and fixed, a round edited, the game end. Also measures taps per rack."""

from __future__ import annotations

import pytest
from conftest import UI, new_game
from steps import wait_totals

pytestmark = pytest.mark.browser

ANNA = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  # a Racko with runs: may call under the 2-player rule
BEN = [11, 12, 13, 20, 14, 30, 31, 32, 40, 39]  # ascending 4 -> 20 points


def enter_rack(ui: UI, rack: list[int]) -> int:
    before = ui.taps
    for number in rack:
        ui.tap(f"num-{number}")
    return ui.taps - before


def test_racko_match(ui: UI) -> None:
    new_game(ui, "racko", ["Anna", "Ben"], dealer_seat=0, options={"target": "200"})
    ui.shot("round-entry-empty")

    # Round 1: both racks on the pad, Anna called.
    start = ui.taps
    assert enter_rack(ui, ANNA) == 10
    assert enter_rack(ui, BEN) == 10
    ui.tap("caller-0")
    ui.wait_text("This round (points): Anna +75, Ben +20")
    ui.shot("round-entry-filled")
    ui.tap("save-round")
    taps_per_rack = (ui.taps - start) / 2
    assert taps_per_rack <= 11, taps_per_rack
    wait_totals(ui, 75, 20)
    ui.shot("scoreboard")

    # Round 2: Ben is marked as caller but his rack is no Racko: the engine's message, nothing saved.
    ui.tap("enter-round")
    enter_rack(ui, [21, 22, 23, 24, 25, 26, 27, 28, 29, 30])
    enter_rack(ui, [40, 1, 2, 3, 4, 5, 6, 7, 8, 9])  # ascending 1 (40 then 1)
    ui.tap("caller-1")
    ui.tap("save-round")
    ui.wait_text("Ben called Racko, but the rack is not in ascending order")
    ui.shot("round-entry-error")
    ui.tap("caller-0")
    ui.tap("save-round")
    wait_totals(ui, 150, 25)

    # Edit round 1: Ben's slot 25 becomes 25 instead of 14, so he counts 9 cards in order (45 instead of 20).
    ui.tap("round-row-0", count=False)
    ui.tap("round-edit", count=False)
    ui.wait("save-round")
    ui.tap("rack-seat-1", count=False)
    ui.tap("slot-4", count=False)
    ui.tap("num-25", count=False)
    ui.wait_text("Ben +45")
    ui.shot("round-entry-edit")
    ui.tap("save-round", count=False)
    wait_totals(ui, 150, 50)

    # Round 3 in the quick form: Anna calls again and reaches 225 >= 200: the game is over.
    ui.tap("enter-round")
    ui.tap("mode-quick")
    ui.tap("caller-0")
    ui.tap("run-0-3")  # the 2-player rule needs the caller's run
    ui.tap("count-1-3")
    ui.tap("save-round")
    ui.wait("play-again")
    ui.wait_text("Anna wins!")
    wait_totals(ui, 225, 65)
    ui.shot("game-end")

    # Scoreboard mode (large type), then play again with the same players.
    ui.open(ui.page.url.rsplit("/end", 1)[0].removeprefix(ui.url.rstrip("/")) + "/board", ready="total-0")
    ui.wait_total(0, 225)
    ui.shot("scoreboard-mode")
