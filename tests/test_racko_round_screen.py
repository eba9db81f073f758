"""The Racko round screen, in process (test_ui_core_harness): live rack feedback while the rack fills, the chips
game (balances, a player out, the end) and Blitz-Racko with several callers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest
from test_ui_core_harness import App, start, tap_all

from scorekeeper.ui.views.rounds.racko import entry_of


# ------------------------------------------------------------------ helpers
@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def slot_marks(app: App) -> list[tuple[bool, bool]]:
    """Per slot of the open rack: (shown as ascending, shown as part of a run)."""
    marks = []
    for index in range(10):
        box = app.find(f"slot-{index}")
        assert isinstance(box, ft.Container)
        number = box.content.controls[1]  # type: ignore[union-attr]
        marks.append((box.bgcolor is not None, bool(number.italic)))
    return marks


# ------------------------------------------------------------------ Racko: live feedback
def test_racko_rack_shows_count_and_runs_while_it_fills(app: App) -> None:
    start(app, "racko", ["Anna", "Ben"], 0)
    assert app.find("rack-live").value == "0/10 cards"  # no figures before the first card
    tap_all(app, "num-3", "num-4", "num-5")
    assert app.find("rack-live").value == "3/10 cards · ascending 3 · run 3"
    assert slot_marks(app)[:4] == [(True, True)] * 3 + [(False, False)]
    app.tap("num-2")  # slot 20 below slot 15: the count stops at 3
    assert app.find("rack-live").value == "4/10 cards · ascending 3 · run 3"
    app.tap("slot-6")  # a gap at slot 30, 35: the next card goes to slot 35
    tap_all(app, "num-20", "num-21")
    assert app.find("rack-live").value == "6/10 cards · ascending 3 · run 3"
    marks = slot_marks(app)
    assert [i for i, (_, run) in enumerate(marks) if run] == [0, 1, 2, 6, 7]
    assert [i for i, (good, _) in enumerate(marks) if good] == [0, 1, 2]
    # the rack's chip shows the card count while the rack fills, the final figures once it is full
    assert "6/10 cards" in app.screen_text()
    tap_all(app, "num-22", "num-30", "rack-back")
    assert app.find("rack-live").value == "7/10 cards · ascending 3 · run 3"


def test_racko_live_line_in_german(app: App) -> None:
    start(app, "racko", ["Anna", "Ben"], 0)
    app.ctx.update_settings(language="de")
    tap_all(app, "num-7", "num-8")
    assert app.find("rack-live").value == "2/10 Karten · aufsteigend 2 · Folge 2"


# ------------------------------------------------------------------ Racko: chips game
def quick_round(app: App, caller: int, entries: dict[int, tuple[int | None, int]]) -> None:
    """The quick form: caller, then per playing seat (ascending count or None for the caller, longest run)."""
    app.tap("enter-round")
    app.tap("mode-quick")
    app.tap(f"caller-{caller}")
    for seat, (count, run) in entries.items():
        if count is not None:
            app.tap(f"count-{seat}-{count}")
        if seat != caller:  # paid by the payer's run: the caller's is not asked
            app.tap(f"run-{seat}-{run}")


def test_racko_chips_game_balances_a_player_out_and_the_end(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"], 0, variant="chips", chips_start=5, rounds=5)
    app.go(f"/match/{match.id}")
    assert match.opts.is_chips and app.find("total-0").value == "5"

    # Round 1: Anna calls. Ben's own run of 6 costs 9 chips but he has 5: he pays 5 and is out.
    quick_round(app, 0, {0: (None, 3), 1: (3, 6), 2: (4, 1)})
    assert "This round (chips): Anna +6, Ben -5, Cleo -1" in app.screen_text()  # capped, as it will be saved
    app.tap("save-round")
    assert app.store.get_match(match.id).totals() == [11, 0, 4]
    assert [app.find(f"total-{s}").value for s in range(3)] == ["11", "0", "4"]
    assert "out of chips" in app.screen_text()
    assert "Dealer: Cleo" in app.screen_text()  # Ben, next on the left, is out: the deal skips him

    # Round 2: Ben sits out (no caller chip, no entries for him).
    app.tap("enter-round")
    assert not app.has("caller-1") and app.has("caller-2")
    app.tap("mode-quick")
    assert not app.has("run-1-1")
    tap_all(app, "caller-2", "count-0-4", "run-0-5")  # the caller's run is not asked
    app.tap("save-round")
    assert app.store.get_match(match.id).totals() == [6, 0, 9]

    # Round 3: Cleo pays all 9 for her run of 6: only Anna has chips left and the game ends early.
    quick_round(app, 0, {0: (None, 3), 2: (4, 6)})
    app.tap("save-round")
    final = app.store.get_match(match.id)
    assert final.totals() == [15, 0, 0] and final.is_over and final.rounds_planned() == 5
    assert app.ctx.route == f"/match/{match.id}/end"
    assert "Anna wins!" in app.screen_text()


def test_racko_chips_game_rejects_an_entry_for_a_player_who_is_out(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"], 0, variant="chips", chips_start=1, rounds=3)
    app.go(f"/match/{match.id}")
    quick_round(app, 2, {0: (2, 1), 1: (5, 2), 2: (None, 4)})
    app.tap("save-round")
    stored = app.store.get_match(match.id)
    assert stored.totals() == [0, 0, 3] and stored.is_over  # both paid their only chip
    assert "Cleo wins!" in app.screen_text()


# ------------------------------------------------------------------ Racko: Blitz
ANNA = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]  # a Racko right after the deal
BEN = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]  # another one
CLEO = [21, 22, 23, 24, 50, 49, 48, 47, 46, 45]  # ascending 5


def round_draft(app: App) -> Any:
    """What the open round form has collected so far."""
    return next(v for k, v in app.ctx.session.rounds.items() if k.startswith("round:"))


def test_blitz_round_with_two_callers(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"], 0, blitz=True)
    for rack in (ANNA, BEN, CLEO):
        tap_all(app, *(f"num-{n}" for n in rack))
    tap_all(app, "caller-0", "caller-1")
    # not a Blitz round: one caller only, the second tap replaced the first
    assert entry_of(round_draft(app)).callers == [1]
    app.set_value("blitz", True)
    app.tap("caller-0")
    assert "This round (points): Anna +100, Ben +100, Cleo +25" in app.screen_text()
    app.tap("save-round")
    stored = app.store.get_match(match.id)
    assert stored.rounds[0]["callers"] == [1, 0] and stored.rounds[0]["blitz"] is True
    assert stored.totals() == [100, 100, 25]
    assert [app.find(f"total-{s}").value for s in range(3)] == ["100", "100", "25"]


def test_blitz_off_keeps_only_the_first_caller(app: App) -> None:
    start(app, "racko", ["Anna", "Ben", "Cleo"], 0, blitz=True)
    app.set_value("blitz", True)
    tap_all(app, "caller-2", "caller-0")
    assert entry_of(round_draft(app)).callers == [2, 0]
    app.set_value("blitz", False)
    entry = entry_of(round_draft(app))
    assert entry.callers == [2] and entry.blitz is False
