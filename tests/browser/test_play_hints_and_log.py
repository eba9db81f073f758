"""The play screen as a new player meets it, in a real browser: the hint says its move in words in every game
(a layout error once drew a grey box in its place), the table stays in view while a computer player moves in
pass-and-play, the last move is marked, the whole round's log opens, and the racks, the pace row and the Ruck
Zuck board fit at phone, tablet and 1080p size."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import PHONE, UI
from steps import phone_on, present, screenshot, tap_act

from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat
from scorekeeper.store import Store
from scorekeeper.ui.digital.racko_panel import CARD_WIDTH

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


def box(ui: UI, identifier: str) -> dict[str, float]:
    ui.wait(identifier)
    found = ui.node(identifier).bounding_box()
    assert found is not None, identifier
    return found


ANNA_BO_CLEO = [
    Seat(PERSON, "anna", "Anna"),
    computer_seat("normal", 1, "Bo"),
    computer_seat("easy", 2, "Cleo"),
]
"""Anna against two computer players, Bo (normal) and Cleo (easy)."""


def racko_with_50_in_slot_50(data: Path) -> str:
    """A saved Racko game (Anna against two computer players) whose deal puts 50, the highest card, in
    Anna's slot 50 and 47 in her slot 5, Anna to move; its id."""
    with Store.open(data) as store:
        session = PlaySession.create(store, "racko", {}, list(ANNA_BO_CLEO), first_dealer=2, seed=27)
        assert session.to_act == 0 and session.state.view(0).rack[9] == 50
        return session.saved.id


def test_racko_rack_and_pace_row_fit_at_every_size(chromium, tmp_path: Path) -> None:
    """Every card of the rack lies inside the panel at phone, tablet and 1080p size (slot 50's card once ran
    off the right edge), and the pace buttons stay on one line."""
    with phone_on(chromium, tmp_path / "data", racko_with_50_in_slot_50, "racko-fit") as (ui, saved_id):
        ui.open(f"/play/{saved_id}", ready="play-panel")
        for label, size in (("phone", PHONE), ("tablet", TABLET), ("1080p", FULL_HD)):
            screenshot(ui, f"polish-racko-{label}", size)
            panel = box(ui, "play-panel")
            right = panel["x"] + panel["width"]
            for slot in range(5, 55, 5):
                card = box(ui, f"rack-card-{slot}")  # a card cut off has a narrower box
                inside = panel["x"] <= card["x"] and card["x"] + card["width"] <= right + 1
                assert inside and card["width"] >= CARD_WIDTH - 1, (label, slot, card, panel)
            tops = {round(box(ui, f"pace-{pace}")["y"]) for pace in ("instant", "normal", "slow")}
            assert len(tops) == 1, (label, tops)


def ruckzuck_game(data: Path, *, finished: bool) -> str:
    """A saved Ruck Zuck game (Anna against two computer players) at Anna's first turn, or with its first round
    played to the end (Anna moving as the hint says); its id."""
    with Store.open(data) as store:
        session = PlaySession.create(store, "ruckzuck", {}, list(ANNA_BO_CLEO), first_dealer=2, seed=8)
        for _ in range(2_000):
            session.run_computers()
            if session.round_over or not finished:
                break
            move = session.hint(0)
            assert move is not None
            session.act(0, move)
        assert session.round_over == finished and not session.match_over
        return session.saved.id


def test_ruckzuck_fields_are_big_enough_to_tap_on_a_phone(chromium, tmp_path: Path) -> None:
    """Every field of the board is at least 40 px wide and lies inside the window at phone size (13 fields
    across a phone were 26 px); at tablet and 1080p size too."""
    with phone_on(chromium, tmp_path / "data", lambda d: ruckzuck_game(d, finished=False), "rz-fields") as (
        ui,
        saved_id,
    ):
        ui.open(f"/play/{saved_id}", ready="board")
        for label, size in (("phone", PHONE), ("tablet", TABLET), ("1080p", FULL_HD)):
            screenshot(ui, f"polish-ruckzuck-{label}", size)
            for field in (1, 13, 37, 49, "J1", "J2"):
                found = box(ui, f"field-{field}")
                assert found["width"] >= 40 and found["height"] >= 40, (label, field, found)
                assert found["x"] >= 0 and found["x"] + found["width"] <= size["width"], (label, field, found)


def test_ruckzuck_round_result_shows_the_final_board(chromium, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", lambda d: ruckzuck_game(d, finished=True), "rz-result") as (
        ui,
        saved_id,
    ):
        ui.open(f"/play/{saved_id}", ready="round-result")
        ui.wait("final-board")
        assert present(ui, "field-1") and present(ui, "field-49")  # the board as the round ended
        for label, size in (("phone", PHONE), ("tablet", TABLET)):
            screenshot(ui, f"polish-ruckzuck-result-{label}", size)


def test_the_last_move_is_marked_and_the_whole_log_opens(chromium, tmp_path: Path) -> None:
    """After the computer players' turns the discard pile is marked as the last move and the log names the
    card a computer player discarded from the stock or its rack; the whole round's log opens."""
    with phone_on(chromium, tmp_path / "data", racko_with_50_in_slot_50, "racko-last") as (ui, saved_id):
        ui.open(f"/play/{saved_id}", ready="play-panel")
        ui.tap("pace-instant", count=False)
        tap_act(ui, 'act-"stock"')
        tap_act(ui, 'act-"discard"')
        wait_for(ui, "hint")  # Anna's turn again: Bo and Cleo have moved
        ui.wait("last-move")
        log = ui.text_of("move-log")
        assert "Cleo discarded" in log or "Cleo put" in log, log
        assert "discarded the card from the stock." not in log or "The card was " in log, log
        screenshot(ui, "polish-last-move-phone", PHONE)
        screenshot(ui, "polish-last-move-tablet", TABLET)
        ui.resize(PHONE)
        tap_act(ui, 'act-"stock"')  # the seventh move of the round
        assert ui.all_text().count("You drew from the stock.") == 1  # the first move is out of sight
        ui.tap("whole-log")
        after = ui.all_text()
        assert after.count("You drew from the stock.") == 2 and "Show the last moves only" in after, after
        screenshot(ui, "polish-whole-log-phone", PHONE)
