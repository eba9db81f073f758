"""Entering, listing and deleting tracked rounds on the screens, in process (test_ui_core_harness): the Racko caller a round must name, the
quick form's runs, the round delete dialog, round lists that mark the caller, the history's games in progress,
partners as teams, the Rage player range, the chips game's "out", Ruck Zuck's typed totals."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest
from test_ui_core_harness import App, start, tap_all, walk

from scorekeeper.model.match import Match
from scorekeeper.ui.views.rounds.racko import entry_of

CALLER_RUN4 = [1, 2, 3, 4, 12, 20, 30, 40, 45, 50]  # a Racko (3 players: cards 1..50), longest run 4
SEVEN = [5, 6, 8, 11, 13, 21, 37, 22, 41, 42]  # ascending count 7
ONE = [49, 9, 10, 14, 15, 16, 17, 18, 19, 23]  # ascending count 1


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def enter_racks(app: App, *racks: list[int]) -> None:
    for rack in racks:
        tap_all(app, *(f"num-{n}" for n in rack))


def visible(app: App, identifier: str) -> bool:
    return app.has(identifier) and app.find(identifier).visible is not False


# --- 8.3 -------------------------------------------------------------------------------------------------


def test_racks_without_a_caller_are_refused_at_the_caller_row_and_the_racko_is_offered(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"])
    enter_racks(app, CALLER_RUN4, SEVEN, ONE)
    assert app.has("offer-caller")  # exactly one rack is a Racko: Anna's
    assert "Anna's rack is a Racko: Anna called" in app.screen_text()
    app.tap("save-round")
    assert app.store.get_match(match.id).rounds == []
    note = app.find("caller-message")
    assert note.visible and "who called Racko" in note.value
    assert "This round" not in app.screen_text()  # no points shown for a round that cannot be saved
    app.tap("offer-caller")
    assert not app.has("caller-message")  # gone, not a hidden control (Flutter shows an error box for that)
    app.tap("save-round")
    assert app.store.get_match(match.id).totals() == [175 - 100, 35, 5]


def test_quick_form_without_a_caller_is_refused(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"])
    tap_all(app, "mode-quick", "count-0-10", "count-1-7", "count-2-1", "save-round")
    assert app.store.get_match(match.id).rounds == []
    assert "who called Racko" in app.find("caller-message").value


# --- 8.16 / 8.2 ------------------------------------------------------------------------------------------


def test_quick_form_asks_the_callers_run_for_the_two_player_rule_only(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben"])
    app.tap("mode-quick")
    assert not app.has("run-0-3") and not app.has("run-1-3")  # nobody called yet: no run to ask
    app.tap("caller-0")
    assert app.has("run-0-3") and not app.has("run-1-3")
    assert not app.has("count-0-10")  # the caller's count is 10
    tap_all(app, "run-0-2", "count-1-4", "save-round")
    assert app.store.get_match(match.id).rounds == []  # a run of 2 breaks the 2-player rule
    assert "2-player rule" in app.screen_text()
    tap_all(app, "run-0-3", "save-round")
    stored = app.store.get_match(match.id)
    assert stored.totals() == [75, 20]
    assert stored.rounds[0]["counts"] == [10, 4]  # the caller's count is stored as what it is


def test_chips_quick_form_by_the_payers_run_does_not_ask_the_callers(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"], variant="chips")
    tap_all(app, "mode-quick", "caller-0")
    assert not app.has("run-0-3") and app.has("run-1-3") and app.has("run-2-3")
    tap_all(app, "count-1-5", "run-1-3", "count-2-2", "run-2-1", "save-round")
    assert app.store.get_match(match.id).totals() == [28, 23, 24]


def test_three_player_standard_quick_form_asks_no_run(app: App) -> None:
    start(app, "racko", ["Anna", "Ben", "Cleo"])
    tap_all(app, "mode-quick", "caller-1")
    assert not any(app.has(f"run-{s}-3") for s in range(3))


def controls_of(app: App, kind: type) -> list:
    return [node for root in app.roots() for node in walk(root) if isinstance(node, kind)]


# --- 8.1 -------------------------------------------------------------------------------------------------


def open_dialogs(app: App) -> list[ft.AlertDialog]:
    return [d for d in app.page._dialogs.controls if isinstance(d, ft.AlertDialog) and d.open]


def test_delete_round_closes_the_dialog_even_after_a_snack_bar(app: App) -> None:
    match = start(app, "ruckzuck", ["Anna", "Ben", "Cleo"])
    for hands in ([5, 0, 7], [0, 9, 3]):
        match = match.with_round({"hands": hands, "out": hands.index(0)})
    match = app.store.save_match(match)
    app.go(f"/match/{match.id}")
    app.ctx.notify("Saved.")  # a snack bar still counted as open, as after saving a round
    app.tap("round-row-0")
    assert len(open_dialogs(app)) == 1
    (dialog,) = open_dialogs(app)
    app.tap("round-delete")
    assert open_dialogs(app) == []  # the dialog closed (it was the snack bar that got closed before)
    dialog.data()  # what the browser's dismissal report runs: the redraw and the snack bar
    stored = app.store.get_match(match.id)
    assert [r["hands"] for r in stored.rounds] == [[0, 9, 3]]  # one deletion, one round
    app.tap("undo")
    assert [r["hands"] for r in app.store.get_match(match.id).rounds] == [[5, 0, 7], [0, 9, 3]]


def test_cancel_closes_the_round_dialog(app: App) -> None:
    match = start(app, "ruckzuck", ["Anna", "Ben", "Cleo"])
    match = match.with_round({"hands": [5, 0, 7], "out": 1})
    match = app.store.save_match(match)
    app.go(f"/match/{match.id}")
    app.ctx.notify("Saved.")
    app.tap("round-row-0")
    app.tap("round-cancel")
    assert open_dialogs(app) == []
    assert len(app.store.get_match(match.id).rounds) == 1


def test_refused_rage_deletion_says_why(app: App) -> None:
    match = start(app, "rage", ["Anna", "Ben", "Cleo"], edition="amigo")
    for size in (10, 9):
        match = match.with_round(
            {"bids": [0, 0, 0], "tricks": [size, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]}
        )
    match = app.store.save_match(match)
    app.go(f"/match/{match.id}")
    app.tap("round-row-0")
    (dialog,) = open_dialogs(app)
    app.tap("round-delete")
    assert open_dialogs(app) == []
    dialog.data()
    shown = app.screen_text()
    assert "Round 1 cannot be deleted: round 2 was played with 9 cards" in shown
    assert len(app.store.get_match(match.id).rounds) == 2


# --- 8.13 / 8.19 -----------------------------------------------------------------------------------------


def saved(app: App, game: str, options: dict, rounds: list[dict], names: list[str] | None = None) -> Match:
    names = names or ["Anna", "Ben", "Cleo"]
    ids = [app.store.add_player(n).id for n in names]
    match = Match.new(game, options, ids, names=names)
    for result in rounds:
        match = match.with_round(result)
    match = app.store.save_match(match)
    return match


def row_texts(app: App, index: int) -> list[str]:
    return [t.value for t in walk(app.find(f"round-row-{index}")) if isinstance(t, ft.Text)]


def test_round_list_marks_the_caller_and_breaks_the_bonus_down(app: App) -> None:
    rounds = [
        {"racks": [CALLER_RUN4, SEVEN, ONE], "callers": [0], "blitz": False},
        {"counts": [7, 10, 1], "runs": [None, 6, None], "callers": [1], "blitz": False},
    ]
    match = saved(app, "racko", {"variant": "bonus", "target": 1000}, rounds)
    app.go(f"/match/{match.id}")
    assert row_texts(app, 0)[1].startswith("175 *") and row_texts(app, 1)[2].startswith("475 *")
    text = app.screen_text()
    assert "* = called Racko" in text
    assert "Round 1: Anna called Racko, 75 + 100 run of 4" in text
    assert "Round 2: Ben called Racko, 75 + 400 run of 6" in text


def test_chips_round_list_shows_out_for_players_out(app: App) -> None:
    rounds = [
        {"counts": [None, 7, 1], "runs": [4, 5, 1], "callers": [0], "blitz": False},  # Ben pays his 2: out
        {"counts": [None, None, 1], "runs": [None, None, 1], "callers": [0], "blitz": False},
    ]
    match = saved(app, "racko", {"variant": "chips", "rounds": 3, "chips_start": 2}, rounds)
    app.go(f"/match/{match.id}")
    assert row_texts(app, 0)[2] == "-2"
    assert row_texts(app, 1)[2].startswith("out")
    assert "+0" not in " ".join(row_texts(app, 1))


# --- 8.17 ------------------------------------------------------------------------------------------------


PARTNERS = ["Ann", "Ben", "Cy", "Dan"]


def quick4(counts: list[int | None], caller: int) -> dict:
    return {"counts": counts, "runs": None, "callers": [caller], "blitz": False}


def test_partners_scoreboard_shows_teams_and_why_a_tie_goes_on(app: App) -> None:
    rounds = [quick4([None, 1, 3, 1], 0), quick4([2, None, 3, 6], 1)]  # 115 : 115 at target 100
    match = saved(app, "racko", {"partners": True, "target": 100}, rounds, PARTNERS)
    app.go(f"/match/{match.id}")
    text = app.screen_text()
    assert "Team Ann + Cy" in text and "Team Ben + Dan" in text
    assert app.find("team-total-0").value == "115" and app.find("team-total-1").value == "115"
    assert "Tied at the top with 115: another round decides" in text
    assert "3.=" not in text


def test_partners_progress_bars_fill_the_name_column_as_a_players_do(app: App) -> None:
    """A team's bar had a fixed 160 px and ended before its names did (on a phone and a desktop alike); now
    it fills the name column. A total is as wide as its digits, on one line (a fixed 72 px, which ended every bar
    in one line, broke "530" into "53" over "0" at 200 % text)."""
    rounds = [quick4([None, 1, 3, 1], 0)]
    match = saved(app, "racko", {"partners": True, "target": 500}, rounds, PARTNERS)
    app.go(f"/match/{match.id}")
    bars = controls_of(app, ft.ProgressBar)
    assert len(bars) == 2 and all(bar.width is None for bar in bars)
    assert all(
        app.find(f"team-total-{i}").no_wrap and app.find(f"team-total-{i}").width is None for i in (0, 1)
    )


def test_partners_game_end_names_the_winning_team(app: App) -> None:
    rounds = [quick4([None, 4, 3, 2], 0), quick4([2, None, 3, 4], 1)]  # 115 : 125
    match = saved(app, "racko", {"partners": True, "target": 100}, rounds, PARTNERS)
    app.go(f"/match/{match.id}/end")
    text = app.screen_text()
    assert "Team Ben + Dan wins!" in text
    assert "share first place" not in text
    places = [t.value for t in controls_of(app, ft.Text) if t.value in ("1.", "2.", "3.", "1.=", "3.=")]
    assert places[:2] == ["1.", "2."]


# --- 8.18 and the Rage cosmetics ---------------------------------------------------------------------------


def test_rage_live_score_does_not_count_cards_save_refuses(app: App) -> None:
    app.start_match("rage", ["Anna", "Ben", "Cleo"], 2)  # seed edition, 10 cards; Cleo deals
    tap_all(app, "bid-0-3", "bid-1-3", "bid-2-1", "save-round")
    tap_all(app, "tricks-0-0", "bonus-0-plus")  # a +5 card without a trick: Save would refuse it
    score = app.find("score-0")
    assert "+5 points" not in score.value and "-5 points" not in score.value
    assert "won only 0 tricks" in score.value and "Anna" in score.value
    tap_all(app, "tricks-0-1")
    assert app.find("score-0").value == "+1 points" or app.find("score-0").value.startswith("+1")


def test_made_it_looks_used_once_used(app: App) -> None:
    app.start_match("rage", ["Anna", "Ben", "Cleo"], 2)
    tap_all(app, "bid-0-3", "bid-1-3", "bid-2-1", "save-round")
    assert isinstance(app.find("made-0"), ft.OutlinedButton)
    app.tap("made-0")
    used = app.find("made-0")
    assert isinstance(used, ft.FilledButton) and used.icon == ft.Icons.CHECK
    app.tap("tricks-0-2")  # no longer the bid: back to the unused look
    assert isinstance(app.find("made-0"), ft.OutlinedButton)


def test_a_forbidden_dealer_bid_picked_early_is_not_shown_as_chosen(app: App) -> None:
    app.start_match("rage", ["Anna", "Ben", "Cleo"], 2)  # Cleo deals and bids last
    app.tap("bid-2-4")  # picked before the others bid
    tap_all(app, "bid-0-3", "bid-1-3")  # now 4 would make 10: forbidden
    chosen = app.find("bid-2-4")
    assert chosen.disabled and chosen.bgcolor != ft.Colors.PRIMARY
    assert "The dealer may not bid 4." in app.screen_text()


def test_new_game_player_range_follows_the_rage_edition(app: App) -> None:
    app.go("/new")
    app.tap("game-rage")
    assert "Players (2 to 10), tap in seat order" in app.screen_text()
    app.tap("option-edition-amigo")
    assert "Players (3 to 8), tap in seat order" in app.screen_text()
    assert "+5 (not +10) for an exact bid of 0" in app.screen_text()
    app.tap("option-edition-fundex")
    assert "Players (2 to 8), tap in seat order" in app.screen_text()


# --- Ruck Zuck total mode, Racko clear rack ----------------------------------------------------------------


def test_ruck_zuck_total_mode_heading_and_penalty_line(app: App) -> None:
    start(app, "ruckzuck", ["Anna", "Ben", "Cleo"])
    tap_all(app, "out-0", "hand-seat-1", "hand-mode-total")
    assert app.find("hand-heading").value == "Penalty total of Ben"
    assert app.find("total-1").autofocus
    app.type_text("total-1", "23")
    assert app.find("penalty").value == "Penalty: 23"


def test_clear_rack_can_be_undone(app: App) -> None:
    start(app, "racko", ["Anna", "Ben", "Cleo"])
    tap_all(app, *(f"num-{n}" for n in CALLER_RUN4[:4]))
    assert not app.has("rack-unclear")
    app.tap("rack-clear")
    draft = next(v for k, v in app.ctx.session.rounds.items() if k.startswith("round:"))
    assert entry_of(draft).pad.racks[0] == [None] * 10
    app.tap("rack-unclear")
    assert entry_of(draft).pad.racks[0][:4] == CALLER_RUN4[:4]
    assert not app.has("rack-unclear")


def test_ruck_zuck_with_fewer_rounds_than_players_is_refused_at_start(app: App) -> None:
    for name in ("Anna", "Ben", "Cleo"):
        app.store.add_player(name)
    app.go("/new")
    app.tap("game-ruckzuck")
    app.ctx.session.new_game.values.update(rounds=2)
    for name in ("Anna", "Ben", "Cleo"):
        app.tap(f"pick-{name}")
    app.tap("start-game")
    assert app.store.list_matches() == []
    assert "at least 3 rounds" in app.screen_text()


def test_import_is_not_the_primary_button(app: App) -> None:
    app.go("/settings")
    button = app.find("import-file")
    assert isinstance(button, ft.OutlinedButton) and not isinstance(button, ft.FilledButton)
    assert button.style is not None and button.style.color == ft.Colors.ERROR


def test_history_delete_and_player_rename_close_their_own_dialog_after_a_snack_bar(app: App) -> None:
    """The two other dialogs close themselves by name too (ctx.close_dialog), so a snack bar shown meanwhile is
    never what gets closed; Cancel leaves the game in place."""
    match = start(app, "ruckzuck", ["Anna", "Ben"])
    match = match.with_round({"hands": [5, 0], "out": 1})
    match = match.with_round({"hands": [0, 9], "out": 0})
    assert match.is_over
    match = app.store.save_match(match)
    app.go("/players")
    app.ctx.notify("Saved.")
    app.tap("rename-Anna")
    assert len(open_dialogs(app)) == 1
    (cancel,) = [
        c for c in walk(open_dialogs(app)[0]) if isinstance(c, ft.TextButton) and c.content == "Cancel"
    ]
    cancel.on_click(None)
    assert open_dialogs(app) == []
    app.go(f"/history/{match.id}")
    app.ctx.notify("Saved.")
    app.tap("history-delete")
    assert len(open_dialogs(app)) == 1
    app.tap("history-delete-cancel")
    assert open_dialogs(app) == []
    assert app.store.get_match(match.id) is not None
