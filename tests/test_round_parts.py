"""The host's round form built from a game's `PartShape` (`ui/views/rounds/parts.py`), in process: every seat's
part on one screen, step by step; the hook rule greyed out with the game's reason; a field asked once per round
as one row of names; a saved round opened again for an edit. It serves any game whose `GameUI` names no form of
its own (the test-only fourth game, `test_conformance`); here it is tried on the three real games' shapes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from test_ui_core_harness import App, start, tap_all

from scorekeeper.games.spec import spec
from scorekeeper.ui import registry
from scorekeeper.ui.views.rounds import parts as round_parts


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


@pytest.fixture
def by_shape(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Enter the game `key`'s rounds on the form built from its part shape (for this test only)."""

    def use(key: str) -> None:
        game = spec(key)
        generic = dataclasses.replace(registry.UIS[game], round_form=round_parts.build_form)
        monkeypatch.setitem(registry.UIS, game, generic)

    return use


def test_rage_bids_then_tricks_with_the_hook_greyed_out(app: App, by_shape: Callable[[str], None]) -> None:
    by_shape("rage")
    match = start(app, "rage", ["Anna", "Ben", "Cleo"], 2, edition="amigo", hook_rule=True)
    app.go(f"/match/{match.id}/round")
    assert app.find("save-round").content == "Continue"  # type: ignore[attr-defined]
    tap_all(app, "bid-0-3", "bid-1-3")
    assert app.find("bid-2-4").disabled and not app.find("bid-2-2").disabled
    assert (
        "Cleo deals and may not bid 4" in app.screen_text()
    )  # the game's own reason (`why_barred`), names put in
    tap_all(app, "bid-2-2", "save-round")
    assert app.has("tricks-0-3") and app.has("step-back")
    tap_all(app, "tricks-0-3", "tricks-1-3", "tricks-2-3", "save-round")  # 9 of 10 tricks: refused
    assert "10 tricks were played" in app.screen_text()
    tap_all(app, "tricks-2-4", "bonus-0-1", "save-round")
    saved = app.store.get_match(match.id)
    assert saved is not None
    assert saved.rounds == [{"bids": [3, 3, 2], "tricks": [3, 3, 4], "bonus": [1, 0, 0], "minus": [0, 0, 0]}]
    app.go(f"/match/{match.id}/round/0")  # an edit starts from the saved parts
    tap_all(app, "save-round", "save-round")
    again = app.store.get_match(match.id)
    assert again is not None and again.rounds == saved.rounds


def test_ruck_zuck_asks_who_went_out_once(app: App, by_shape: Callable[[str], None]) -> None:
    by_shape("ruckzuck")
    match = start(app, "ruckzuck", ["Anna", "Ben", "Cleo"], 2)
    app.go(f"/match/{match.id}/round")
    assert "Who went out?" in app.screen_text()
    tap_all(app, "out-1", "out-0")  # the second tap moves it: one seat goes out
    assert "I went out" not in app.screen_text()  # no switch per seat
    for seat, total in enumerate(("0", "17", "45")):
        app.type_text(f"hand-{seat}", total)
    app.tap("save-round")
    saved = app.store.get_match(match.id)
    assert saved is not None and saved.rounds == [{"hands": [0, 17, 45], "out": 0}]


def test_a_saved_racko_round_opens_for_an_edit(app: App, by_shape: Callable[[str], None]) -> None:
    by_shape("racko")
    match = start(app, "racko", ["Anna", "Ben"], 0)
    racks = [list(range(1, 11)), [20, 11, 12, 13, 14, 15, 16, 17, 18, 19]]
    match = match.with_round({"racks": racks, "callers": [0], "blitz": False})
    match = app.store.save_match(match)
    app.go(f"/match/{match.id}/round/0")
    assert "Who called Racko?" in app.screen_text() and app.has("called-0")
    app.tap("save-round")
    saved = app.store.get_match(match.id)
    assert saved is not None and saved.rounds == [{"racks": racks, "callers": [0], "blitz": False}]


def test_ruck_zuck_host_extras_on_the_generic_form(app: App) -> None:
    """Ruck Zuck's registered form is this one with its `HostExtras`: who went out must be said (a name or
    "Stock ran out"; a second tap on a name keeps it), the seat that went out has no tab and loses what was
    entered for it, cards held in one hand are greyed out on the pad for another, a typed total must be given,
    and a stock round opens again for an edit with "Stock ran out" chosen."""
    match = start(app, "ruckzuck", ["Anna", "Ben", "Cleo"])
    app.go(f"/match/{match.id}/round")
    tap_all(app, "card-7", "save-round")
    assert "Who went out? Choose a player or 'Stock ran out'." in app.screen_text()
    tap_all(app, "out-0", "out-0")  # Anna went out (a second tap keeps her): her card 7 is dropped
    assert not app.has("hand-seat-0") and app.has("hand-seat-1")
    assert "Cards left in the hand of Ben" in app.screen_text()
    assert not app.find("card-7").disabled
    tap_all(app, "card-7", "hand-seat-2")
    assert app.find("card-7").disabled  # Ben holds it
    tap_all(app, "hand-mode-total", "save-round")
    assert "Enter the penalty total of Cleo." in app.screen_text()
    app.type_text("total-2", "12")
    app.tap("save-round")
    saved = app.store.get_match(match.id)
    assert saved is not None and saved.rounds == [{"hands": [[], [7], 12], "out": 0}]
    app.go(f"/match/{match.id}/round")
    tap_all(app, "out-stock", "card-3", "hand-seat-1", "card-4", "hand-seat-2", "card-5", "save-round")
    app.go(f"/match/{match.id}/round/1")
    assert app.has("hand-seat-0")  # nobody went out: every hand has its tab
    app.tap("save-round")  # "Stock ran out" is still chosen: saved without a question
    assert "Who went out?" not in app.screen_text() and app.ctx.route == f"/match/{match.id}"
    again = app.store.get_match(match.id)
    assert again is not None and again.rounds[1] == {"hands": [[3], [4], [5]], "out": None}
