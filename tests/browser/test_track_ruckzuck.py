"""A whole tracked Ruck Zuck game in a real browser (phone size): hands as cards and as typed totals, a typed
total the rules reject and its fix, an edited round, "stock ran out", and the lowest total winning."""

from __future__ import annotations

import pytest
from conftest import UI, new_game
from steps import wait_totals

pytestmark = pytest.mark.browser


def test_ruckzuck_match(ui: UI) -> None:
    new_game(ui, "ruckzuck", ["Anna", "Ben", "Cleo"], dealer_seat=2)
    ui.shot("round-entry-empty")

    # Round 1: Anna went out; Ben keeps 3, 17 and a joker (120); Cleo's total is typed (45).
    ui.tap("out-0")
    for card in ("3", "17", "J"):
        ui.tap(f"card-{card}")
    ui.wait_text("Penalty: 120")
    ui.tap("next-seat")
    ui.tap("hand-mode-total")
    ui.fill("total-2", "45")
    ui.shot("round-entry")
    ui.tap("save-round")
    wait_totals(ui, 0, 120, 45)
    ui.shot("scoreboard")

    # Round 2: a typed total above what all cards together are worth is refused by the rules, then fixed.
    ui.tap("enter-round")
    ui.tap("out-1")
    ui.tap("hand-seat-0")
    ui.tap("hand-mode-total")
    ui.fill("total-0", "2000")
    ui.tap("hand-seat-2")
    ui.wait_text("Cards left in the hand of Cleo")
    ui.tap("card-10")
    ui.tap("card-20")
    ui.tap("save-round")
    ui.wait_text("Anna: a penalty total must lie between 0 and 1,425, not 2000.")
    ui.shot("round-entry-error")
    ui.tap("hand-seat-0")
    ui.wait_text("Penalty total of Anna")  # total mode says so in its heading
    ui.fill("total-0", "200")
    ui.tap("save-round")
    wait_totals(ui, 200, 120, 75)

    # Edit round 1: Cleo's total was 40, not 45.
    ui.tap("round-row-0", count=False)
    ui.tap("round-edit", count=False)
    ui.tap("hand-seat-2")
    ui.wait_text("Penalty total of Cleo")
    ui.fill("total-2", "40")
    ui.shot("round-entry-edit")
    ui.tap("save-round")
    ui.wait_total(2, 70)

    # Round 3 (the last of 3): the stock ran out; everyone holds one card.
    ui.tap("enter-round")
    ui.tap("out-stock")
    for seat, name, card in ((0, "Anna", "1"), (1, "Ben", "2"), (2, "Cleo", "3")):
        ui.tap(f"hand-seat-{seat}")
        ui.wait_text(f"Cards left in the hand of {name}")
        ui.tap(f"card-{card}")
        ui.wait_text(f"Penalty: {card}")
    ui.tap("save-round")
    ui.wait("play-again")
    ui.wait_text("Cleo wins!")
    wait_totals(ui, 201, 122, 73)
    ui.shot("game-end")
