"""Digital Ruck Zuck and Rage in a real browser at phone size: one person against computer players plays a whole
round to the round result and starts the next round; Rage also reaches the match result (its shortest schedule
is ten rounds, so the match is set up in the store before its last round, as a resumed game).

The person's move is picked from the controls on screen: the panels tag an action's last tap `act-<json>` and a
step towards it `choose-<name>` (see `path()` in ruckzuck_panel.py and rage_panel.py). Flutter sometimes drops a
click under load, so every step polls the screen again instead of assuming the previous tap landed."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import PHONE, UI
from steps import acts, phone_on, present, screenshot, tap_act, tap_first

from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat
from scorekeeper.store import Store
from tests.play_support import play_round

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def chooses(ui: UI) -> list[str]:
    """The identifiers of the steps towards an action offered on screen now (`choose-card-17`, `choose-joker`)."""
    nodes = ui.page.locator("[flt-semantics-identifier^='choose-']")
    return sorted(nodes.nth(i).get_attribute("flt-semantics-identifier") or "" for i in range(nodes.count()))


def shoot(ui: UI, name: str) -> Path:
    return screenshot(ui, f"play-{name}-phone", PHONE)


def start(ui: UI, game: str) -> None:
    """From home: the play setup of `game` with its default seats (you and computer players), instant pace."""
    ui.tap(f"play-{game}")
    ui.wait("start-game")
    ui.tap("pace-instant", count=False)
    ui.tap("start-game")
    ui.wait("play-panel", timeout=30_000)


def ruckzuck_step(ui: UI) -> bool:
    """One step of the person's Ruck Zuck turn: place or swap a card if a field is lit, else pick a hand card
    with a move, else end the turn or draw. False when nothing is offered (a computer's turn, or a redraw)."""
    offered = acts(ui)
    moves = [a for a in offered if a.startswith('act-["place"') or a.startswith('act-["swap"')]
    if moves:
        tap_act(ui, moves[0])
        return True
    cards = [c for c in chooses(ui) if c.startswith("choose-card-")]
    if cards:
        tap_act(ui, cards[0])
        # the chosen card's fields light up; if none do (the tap was dropped), the next step picks it again
        return True
    return tap_first(ui, ('act-"end"', 'act-"draw"'), offered)


def rage_step(ui: UI) -> bool:
    """One step of the person's Rage turn: the lowest bid offered, else a playable card (a joker through its
    colour picker). False when nothing is offered."""
    offered = acts(ui)
    bids = [a for a in offered if a.startswith('act-["bid"')]
    if bids:
        tap_act(ui, bids[0])
        return True
    plays = [a for a in offered if a.startswith('act-["play"')]
    if plays:
        tap_act(ui, plays[0])
        return True
    if "choose-joker" in chooses(ui):
        tap_act(ui, "choose-joker")
        return True
    if offered:
        tap_act(ui, offered[0])
        return True
    return False


def play_until(ui: UI, done: str, step, timeout: float = 300) -> int:
    """Take the person's steps until `done` shows; how many steps were taken."""
    steps, deadline = 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        if present(ui, done):
            return steps
        if step(ui):
            steps += 1
        else:
            ui.page.wait_for_timeout(200)
    raise AssertionError(f"{done} did not appear; screen:\n{ui.all_text()[:1500]}")


def next_round(ui: UI, step) -> None:
    """Tap `next-round` until the new round is on and the person has made a move in it (a dropped click
    leaves the result showing, so the button is tapped again)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if present(ui, "next-round"):
            tap_act(ui, "next-round")
        elif not present(ui, "round-result") and step(ui):
            return
        else:
            ui.page.wait_for_timeout(200)
    raise AssertionError(f"the next round did not start; screen:\n{ui.all_text()[:1500]}")


@pytest.mark.parametrize(
    ("game", "step"), [("ruckzuck", ruckzuck_step), ("rage", rage_step)], ids=["ruckzuck", "rage"]
)
def test_one_person_plays_a_round_and_starts_the_next(ui: UI, game: str, step: Callable[[UI], bool]) -> None:
    start(ui, game)
    assert play_until(ui, "round-result", step) > 0
    assert "Round 1 is over." in ui.all_text()
    shoot(ui, f"{game}-round-result")
    next_round(ui, step)


def before_the_last_round(data: Path) -> str:
    """A saved Amigo game of Rage (you against two computer players) with nine rounds played in-process (the
    person's moves are the hint's) and the last round, one card each, dealt; its id."""
    with Store.open(data) as store:
        you = store.add_player("You")
        seats = [
            Seat(PERSON, you.id, you.name),
            computer_seat("easy", 1, "CPU 2"),
            computer_seat("normal", 2, "CPU 3"),
        ]
        session = PlaySession.create(store, "rage", {"edition": "amigo"}, seats, seed=11)
        for _ in range(9):
            play_round(session, moves=500)
            assert not session.match_over
            session.next_round()
        session.run_computers()
        return session.saved.id


def test_rage_last_round_to_the_match_result(chromium, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", before_the_last_round, "rage-match") as (ui, saved_id):
        ui.open(f"/play/{saved_id}", ready="play-panel")
        assert play_until(ui, "match-result", rage_step) > 0  # the person bid and played in the browser
        shoot(ui, "rage-match-result")
