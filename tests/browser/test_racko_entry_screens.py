"""Racko's round form in a real browser beyond the tracked game (`test_track_racko`): Blitz-Racko with two
callers and the quick form, a chips round's live preview, an edited quick-form round; each screen at phone and
desktop width (tests/browser/output/racko_entry-en-*)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import UI, seeded_ui

from scorekeeper.model.match import Match
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Ben", "Cleo"]
ANNA = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]  # a Racko right after the deal
BEN = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]  # another one
CLEO = [21, 22, 23, 24, 50, 49, 48, 47, 46, 45]  # ascending 5
BERT = [2, 4, 6, 8, 10, 44, 43, 42, 41, 40]  # ascending 6: no Racko


def _seed(store: Store) -> dict[str, str]:
    ids = [store.add_player(name).id for name in NAMES]
    blitz = Match.new("racko", {"blitz": True}, ids, names=NAMES)
    chips = Match.new("racko", {"variant": "chips", "rounds": 3, "chips_start": 2}, ids, names=NAMES)
    quick = Match.new("racko", {"variant": "bonus", "target": 1000}, ids, names=NAMES)
    quick = quick.with_round({"counts": [7, 10, 1], "runs": [None, 6, None], "callers": [1], "blitz": False})
    for match in (blitz, chips, quick):
        store.save_match(match)
    return {"blitz": blitz.id, "chips": chips.id, "quick": quick.id}


@pytest.fixture
def racko(chromium: Any, tmp_path: Path) -> Iterator[tuple[UI, dict[str, str]]]:
    with seeded_ui(chromium, tmp_path, "en", _seed, "racko_entry") as (ui, made, _t):
        yield ui, made


def shot(ui: UI, screen: str) -> None:
    """`UI.shot` (phone and desktop) once the screen is painted: after a page load the accessibility tree can be
    complete before the first frame is drawn (a blank picture is taken again, for up to 10 s), and on a busy
    machine the frame after a tap comes a moment after the tree."""
    for _ in range(20):
        if len(ui.page.screenshot()) > 8000:
            break
        ui.page.wait_for_timeout(500)
    ui.page.wait_for_timeout(700)
    ui.shot(screen)


def enter_racks(ui: UI, *racks: list[int]) -> None:
    for rack in racks:
        for number in rack:
            ui.tap(f"num-{number}", count=False)


def tap_and_see(ui: UI, key: str, text: str, screen: str) -> None:
    """Tap `key`, wait for `text`, take the screen's shots."""
    ui.tap(key, count=False)
    ui.wait_text(text)
    shot(ui, screen)


def test_blitz_callers_and_the_quick_form(racko: tuple[UI, dict[str, str]]) -> None:
    ui, made = racko
    ui.open(f"/match/{made['blitz']}/round", ready="save-round")
    enter_racks(ui, ANNA, BEN, CLEO)
    ui.tap("blitz", count=False)
    ui.tap("caller-0", count=False)
    points = "This round (points): Anna +100, Ben +100, Cleo +25"
    tap_and_see(ui, "caller-1", points, "blitz")
    ui.tap("mode-quick", count=False)
    tap_and_see(ui, "count-2-5", points, "quick")


def test_chips_preview_and_the_offered_caller(racko: tuple[UI, dict[str, str]]) -> None:
    ui, made = racko
    ui.open(f"/match/{made['chips']}/round", ready="save-round")
    enter_racks(ui, ANNA, BERT, CLEO)
    ui.wait("offer-caller")
    shot(ui, "offer")
    tap_and_see(ui, "offer-caller", "This round (chips):", "chips")


def test_an_edited_quick_round(racko: tuple[UI, dict[str, str]]) -> None:
    ui, made = racko
    ui.open(f"/match/{made['quick']}/round/0", ready="save-round")
    ui.wait_text("This round (points):")
    shot(ui, "quick-edit")
    ui.tap("mode-racks", count=False)
    ui.wait("rack-seat-0")  # a quick-form round's racks start empty
    shot(ui, "racks-of-a-quick-round")
