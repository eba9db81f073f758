"""Issue 8 in a real browser at phone size, in English and German: the round dialog closes after a deletion
(also after a snack bar), refused deletions say why, the Racko caller row's message and offer, the round list
marks, the history's games in progress, partners as teams, the chips game's "out". Screenshots go to
tests/browser/output/fixes-<language>-<screen>.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, UI, served

from scorekeeper.match import Match
from scorekeeper.store import Store
from scorekeeper.ui.i18n import Translator

pytestmark = pytest.mark.browser

CALLER_RUN4 = [1, 2, 3, 4, 12, 20, 30, 40, 45, 50]
SEVEN = [5, 6, 8, 11, 13, 21, 37, 22, 41, 42]
ONE = [49, 9, 10, 14, 15, 16, 17, 18, 19, 23]
NAMES = ["Ann", "Bob", "Cy"]


def _seed(store: Store) -> dict[str, str]:
    ids = [store.add_player(name).id for name in NAMES]
    made: dict[str, str] = {}
    rz = Match.new("ruckzuck", {}, ids, names=NAMES)
    for hands in ([5, 0, 7], [0, 9, 3]):
        rz.add_round({"hands": hands, "out": hands.index(0)})
    store.save_match(rz)
    made["ruckzuck"] = rz.id
    rage = Match.new("rage", {"edition": "amigo"}, ids, names=NAMES)
    for size in (10, 9):
        rage.add_round({"bids": [0, 0, 0], "tricks": [size, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    store.save_match(rage)
    made["rage"] = rage.id
    racko = Match.new("racko", {"variant": "bonus", "target": 1000}, ids, names=NAMES)
    racko.add_round({"racks": [CALLER_RUN4, SEVEN, ONE], "callers": [0], "blitz": False})
    racko.add_round({"counts": [7, 10, 1], "runs": [None, 6, None], "callers": [1], "blitz": False})
    store.save_match(racko)
    made["racko"] = racko.id
    fresh = Match.new("racko", {}, ids, names=NAMES)
    store.save_match(fresh)
    made["fresh"] = fresh.id
    return made


@pytest.fixture(params=["en", "de"])
def fixes(
    chromium: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[UI, dict, Translator]]:
    language = request.param
    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data) as store:
        made = _seed(store)
        store.set_setting("language", language)
    with served(data) as url:
        context = chromium.new_context(viewport=PHONE)
        try:
            yield UI(context.new_page(), url, f"fixes-{language}"), made, Translator(language)
        finally:
            context.close()


def shot(ui: UI, screen: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    ui.page.wait_for_timeout(500)
    ui.page.screenshot(path=str(OUTPUT / f"{ui.name}-{screen}.png"))


def dialog_open(ui: UI) -> bool:
    return ui.page.locator('[flt-semantics-identifier="round-delete"]').count() > 0


def test_round_dialog_closes_after_delete_and_cancel(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open(f"/match/{made['ruckzuck']}", ready="round-row-0")
    ui.tap("round-row-0", count=False)
    ui.wait("round-delete")
    shot(ui, "round-dialog")
    ui.tap("round-delete", count=False)
    ui.page.wait_for_timeout(1500)
    shot(ui, "after-delete")
    ui.wait_text(t("Round {n} deleted.", n=1))
    ui.page.wait_for_timeout(800)
    assert not dialog_open(ui)
    # A second round tap after the snack bar: Cancel closes that dialog, nothing else is deleted.
    ui.tap("round-row-0", count=False)
    ui.wait("round-cancel")
    ui.tap("round-cancel", count=False)
    ui.page.wait_for_timeout(800)
    assert not dialog_open(ui)
    ui.wait("round-row-0")
    assert ui.page.locator('[flt-semantics-identifier="round-row-1"]').count() == 0


def test_refused_rage_deletion_says_why(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open(f"/match/{made['rage']}", ready="round-row-0")
    ui.tap("round-row-0", count=False)
    ui.tap("round-delete", count=False)
    ui.page.wait_for_timeout(800)
    assert not dialog_open(ui)
    shot(ui, "rage-delete-refused")
    assert "round-row-1" in ui.page.content()
