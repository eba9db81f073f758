"""Fast in-process tests of the tracking screens: the real app on a Flet session with a recording connection
(see test_ui_core_harness), driven by the controls' identifiers. Numbers come from the engine; these tests check
that the screens pass the players' input through and show what the engine says."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ui_core_harness import App

from scorekeeper.ui.routes import resolve
from scorekeeper.ui.views.rounds.entry import personalise


def test_routes_resolve_to_views() -> None:
    assert resolve("/") == ("home", {})
    assert resolve("/match/ab12/round/3") == ("round_entry", {"match_id": "ab12", "index": "3"})
    assert resolve("/match/ab12/round") == ("round_entry", {"match_id": "ab12"})
    assert resolve("/new?again=xy") == ("new_game", {"again": "xy"})
    assert resolve("/history/m1") == ("history", {"match_id": "m1"})
    assert resolve("/nowhere/at/all") == ("home", {})


def test_engine_messages_name_the_players() -> None:
    text = personalise("Round 2: Player 2 called Racko, but Player 10 did not.", ["Anna", "Ben"])
    assert text == "Round 2: Ben called Racko, but Player 10 did not."


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def test_racko_round_from_the_pad_with_a_wrong_caller_then_undo(app: App) -> None:
    summary = app.start_match("racko", ["Anna", "Ben"], 0)
    assert app.ctx.route == f"/match/{summary.id}/round"
    for number in [*range(1, 11), 11, 12, 13, 20, 14, 30, 31, 32, 40, 39]:
        app.tap(f"num-{number}")
    assert app.find("num-5").disabled and not app.find("num-15").disabled  # used numbers are greyed out
    app.tap("caller-1")  # Ben's rack is no Racko
    app.tap("save-round")
    assert "Ben called Racko, but the rack is not in ascending order" in app.screen_text()
    assert app.store.get_match(summary.id).rounds == []  # nothing saved
    app.tap("caller-0")
    app.enter()  # Enter saves
    assert app.ctx.route == f"/match/{summary.id}"
    assert app.store.get_match(summary.id).totals() == [75, 20]
    assert app.find("total-0").value == "75" and app.find("total-1").value == "20"
    app.tap("undo")
    assert app.store.get_match(summary.id).rounds == []
    assert app.find("total-0").value == "0"


def test_racko_quick_form_and_delete_round(app: App) -> None:
    summary = app.start_match("racko", ["Anna", "Ben", "Cleo"], 1, variant="bonus")
    app.tap("mode-quick")
    app.tap("caller-2")
    app.tap("run-2-4")  # the caller's longest run of 4: +100
    app.tap("count-0-3")
    assert not app.has("run-0-1")  # only the caller's run sets a bonus
    app.tap("count-1-6")
    app.tap("save-round")
    assert app.store.get_match(summary.id).totals() == [15, 30, 175]
    app.tap("round-row-0")
    app.tap("round-delete")
    assert app.store.get_match(summary.id).rounds == []


def test_rage_hook_rule_and_made_it(app: App) -> None:
    summary = app.start_match("rage", ["Anna", "Ben", "Cleo"], 2)  # seed edition: hook rule, 10 cards first
    app.tap("bid-0-3")
    app.tap("bid-1-3")
    assert app.find("bid-2-4").disabled  # 3 + 3 + 4 = 10 cards: the dealer may not bid 4
    assert "The dealer may not bid 4." in app.screen_text()
    app.tap("bid-2-1")
    app.tap("save-round")  # bids done
    for seat in range(3):
        app.tap(f"made-{seat}")
    assert "Tricks: 7 of 10" in app.screen_text()
    app.tap("save-round")
    assert "The tricks add up to 7, but 10 tricks were played." in app.screen_text()
    app.tap("tricks-2-4")
    app.tap("bonus-2-plus")
    app.tap("save-round")
    assert app.store.get_match(summary.id).totals() == [13, 13, 4]
    assert "Cards this round: 9" in app.screen_text()


def test_ruckzuck_hands_and_typed_totals(app: App) -> None:
    # At least one round per player: the first round is already on the scoreboard.
    summary = app.start_match("ruckzuck", ["Anna", "Ben"], 0, rounds=2)
    first = app.store.get_match(summary.id)
    first = first.with_round({"hands": [5, 5], "out": None})
    first = app.store.save_match(first)
    app.go(f"/match/{summary.id}/round")
    app.tap("out-1")
    for card in ("7", "J"):
        app.tap(f"card-{card}")
    assert app.find("card-7").disabled
    assert "Penalty: 107" in app.screen_text()
    app.tap("save-round")
    match = app.store.get_match(summary.id)
    assert match.totals() == [112, 5] and match.is_over
    assert app.ctx.route.endswith("/end")
    assert "Ben wins!" in app.screen_text()


def test_shared_first_place_and_play_again(app: App) -> None:
    summary = app.start_match("ruckzuck", ["Anna", "Ben", "Cleo"], 0, rounds=3)
    first = app.store.get_match(summary.id)
    for _ in range(2):  # at least one round per player: two rounds already played, all even
        first = first.with_round({"hands": [5, 5, 5], "out": None})
    first = app.store.save_match(first)
    app.go(f"/match/{summary.id}/round")
    app.tap("out-stock")
    app.tap("hand-mode-total")
    app.type_text("total-0", "12")
    app.tap("hand-seat-1")
    app.tap("hand-mode-total")
    app.type_text("total-1", "12")
    app.tap("hand-seat-2")
    app.tap("card-40")
    app.tap("save-round")
    assert "Anna and Ben share first place!" in app.screen_text()
    assert "shared place" in app.screen_text()
    app.tap("play-again")
    assert app.ctx.route == f"/new?again={summary.id}"
    app.tap("start-game")
    (newest,) = [m for m in app.store.list_matches() if m.id != summary.id]
    assert newest.names == ["Anna", "Ben", "Cleo"] and newest.status == "active"


def test_ruck_zuck_rounds_never_read_zero_before_anyone_is_seated(app: App) -> None:
    app.go("/")
    app.tap("start-ruckzuck")
    assert app.find("option-rounds").value == "2"  # was "0": one round per player, and no player yet


def test_german_screens(app: App) -> None:
    app.ctx.update_settings(language="de")
    assert "Neues Spiel" in app.screen_text()
    assert app.store.get_setting("language") == "de"


def test_home_starts_each_game_in_one_tap(app: App) -> None:
    for game in ("racko", "ruckzuck", "rage"):
        app.go("/")
        app.tap(f"start-{game}")
        assert app.ctx.route == f"/new?game={game}"
        assert app.ctx.session.new_game.game == game
