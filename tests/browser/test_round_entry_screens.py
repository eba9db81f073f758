"""Entering, listing and deleting tracked rounds in a real browser at phone size, in English and German: the round dialog closes after a deletion
(also after a snack bar), refused deletions say why, the Racko caller row's message and offer, the round list
marks, the history's games in progress, partners as teams, the chips game's "out". Screenshots go to
tests/browser/output/fixes-<language>-<screen>.png."""

from __future__ import annotations

import pytest
from conftest import OUTPUT, PHONE, UI
from steps import seeded_in_each_language

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.ui.i18n import Translator

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CALLER_RUN4 = [1, 2, 3, 4, 12, 20, 30, 40, 45, 50]
SEVEN = [5, 6, 8, 11, 13, 21, 37, 22, 41, 42]
ONE = [49, 9, 10, 14, 15, 16, 17, 18, 19, 23]
NAMES = ["Ann", "Bob", "Cy"]


def _seed(store: Store) -> dict[str, str]:
    ids = [store.add_player(name).id for name in NAMES]
    made: dict[str, str] = {}
    rz = Match.new("ruckzuck", {}, ids, names=NAMES)
    for hands in ([5, 0, 7], [0, 9, 3]):
        rz = rz.with_round({"hands": hands, "out": hands.index(0)})
    rz = store.save_match(rz)
    made["ruckzuck"] = rz.id
    rage = Match.new("rage", {"edition": "amigo"}, ids, names=NAMES)
    for size in (10, 9):
        rage = rage.with_round(
            {"bids": [0, 0, 0], "tricks": [size, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]}
        )
    rage = store.save_match(rage)
    made["rage"] = rage.id
    racko = Match.new("racko", {"variant": "bonus", "target": 1000}, ids, names=NAMES)
    racko = racko.with_round({"racks": [CALLER_RUN4, SEVEN, ONE], "callers": [0], "blitz": False})
    racko = racko.with_round({"counts": [7, 10, 1], "runs": [None, 6, None], "callers": [1], "blitz": False})
    racko = store.save_match(racko)
    made["racko"] = racko.id
    fresh = Match.new("racko", {}, ids, names=NAMES)
    fresh = store.save_match(fresh)
    made["fresh"] = fresh.id
    chips = Match.new("racko", {"variant": "chips", "rounds": 3, "chips_start": 2}, ids, names=NAMES)
    chips = chips.with_round({"counts": [None, 7, 1], "runs": [4, 5, 1], "callers": [0], "blitz": False})
    chips = chips.with_round(
        {"counts": [None, None, 1], "runs": [None, None, 1], "callers": [0], "blitz": False}
    )
    chips = store.save_match(chips)
    made["chips"] = chips.id
    four = [*ids, store.add_player("Dan").id]
    names4 = [*NAMES, "Dan"]

    def quick4(counts: list[int | None], caller: int) -> dict:
        return {"counts": counts, "runs": None, "callers": [caller], "blitz": False}

    tied = Match.new("racko", {"partners": True, "target": 100}, four, names=names4)
    for result in (quick4([None, 1, 3, 1], 0), quick4([2, None, 3, 6], 1)):
        tied = tied.with_round(result)
    tied = store.save_match(tied)
    made["tied"] = tied.id
    won = Match.new("racko", {"partners": True, "target": 100}, four, names=names4)
    for result in (quick4([None, 4, 3, 2], 0), quick4([2, None, 3, 4], 1)):
        won = won.with_round(result)
    won = store.save_match(won)
    made["won"] = won.id
    return made


fixes = seeded_in_each_language(_seed, "fixes")


def shot(ui: UI, screen: str) -> None:
    """A screenshot to look at. After a page load the accessibility tree can be complete before the first
    frame is painted, so a blank picture is taken again (for up to 10 s); one that stays blank (a layout error
    leaves the canvas empty) fails the test."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{ui.name}-{screen}.png"
    for _ in range(20):
        ui.page.wait_for_timeout(500)
        path.write_bytes(ui.still())
        if path.stat().st_size > 8000:
            return
    raise AssertionError(f"{path.name} stays blank")


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
    ui, made, _t = fixes
    ui.open(f"/match/{made['rage']}", ready="round-row-0")
    ui.tap("round-row-0", count=False)
    ui.tap("round-delete", count=False)
    ui.page.wait_for_timeout(800)
    assert not dialog_open(ui)
    shot(ui, "rage-delete-refused")
    assert "round-row-1" in ui.page.content()


def test_racko_caller_row_message_and_offer(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open(f"/match/{made['fresh']}/round", ready="save-round")
    for rack in (CALLER_RUN4, SEVEN, ONE):
        for number in rack:
            ui.tap(f"num-{number}", count=False)
    ui.wait("offer-caller")
    ui.tap("save-round", count=False)
    ui.wait_text(t("Say who called Racko: a round ends when someone calls Racko."))
    ui.page.wait_for_timeout(600)  # the form scrolls back up to the caller row
    shot(ui, "racko-no-caller")
    message = ui.node("caller-message").bounding_box()
    question = ui.page.get_by_text(t("Who called Racko?")).first.bounding_box()
    assert message is not None and question is not None
    assert 0 < message["y"] - question["y"] < 140  # right under the caller row (question, chips, message)
    assert message["y"] >= 0 and message["y"] + message["height"] <= PHONE["height"]  # and scrolled into view
    ui.tap("offer-caller", count=False)
    ui.tap("save-round", count=False)
    ui.wait_total(0, 75)


def test_round_list_marks_calls_and_bonus(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open(f"/match/{made['racko']}", ready="round-row-1")
    ui.wait_text(t("* = called Racko"))
    ui.wait_text(
        t(
            "Round {n}: {name} called Racko, {points}",
            n=2,
            name="Bob",
            points=t("{points} + {bonus} run of {run}", points=75, bonus=400, run=6),
        )
    )
    ui.page.mouse.wheel(0, 600)
    shot(ui, "racko-round-list")


def test_chips_round_list_shows_out(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open(f"/match/{made['chips']}", ready="round-row-1")
    assert t("out") in ui.text_of("round-row-1")
    assert "+0" not in ui.text_of("round-row-1")
    shot(ui, "chips-out")


def test_history_lists_games_in_progress(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open("/history", ready=f"history-continue-{made['fresh']}")
    ui.wait_text(t("Games in progress: {n}", n=5))
    shot(ui, "history")
    ui.tap(f"history-continue-{made['fresh']}", count=False)
    ui.wait("enter-round")


def test_partners_as_teams(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    ui.open(f"/match/{made['tied']}", ready="team-total-0")
    ui.wait_text(t("Team {names}", names="Ann + Cy"))
    ui.wait_text(t("Tied at the top with {total}: another round decides", total=115))
    shot(ui, "partners-tied")
    ui.resize({"width": 1024, "height": 768})  # a tablet across the table
    shot(ui, "partners-tied-tablet")
    ui.resize(PHONE)
    ui.open(f"/match/{made['won']}/end", ready="winners")
    ui.wait_text(t("Team {names} wins!", names="Bob + Dan"))
    shot(ui, "partners-end")


def test_ruck_zuck_total_mode_focuses_the_field(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, t = fixes
    rz = made["ruckzuck"]
    ui.open(f"/match/{rz}/round", ready="save-round")
    ui.tap("out-0", count=False)
    ui.tap("hand-seat-1", count=False)
    ui.tap("hand-mode-total", count=False)
    ui.wait("total-1")
    ui.page.wait_for_timeout(500)
    sent = ui.sent
    ui.page.keyboard.type("23")  # no click into the field: it has the focus already
    ui.settle(sent, answered=False)
    ui.wait_text(t("Penalty: {n}", n=23))
    ui.wait_text(t("Penalty total of {name}", name="Bob"))
    shot(ui, "ruckzuck-total")


def test_rage_result_made_it_and_live_score(fixes: tuple[UI, dict, Translator]) -> None:
    ui, made, _t = fixes
    ui.open(f"/match/{made['rage']}/round", ready="save-round")
    for seat, bid in ((0, 3), (1, 3), (2, 1)):
        ui.tap(f"bid-{seat}-{bid}", count=False)
    ui.tap("save-round", count=False)
    ui.wait("made-0")
    ui.tap("made-0", count=False)
    ui.tap("tricks-1-0", count=False)
    ui.tap("bonus-1-plus", count=False)
    ui.page.wait_for_timeout(300)
    assert "+5" not in ui.text_of("score-1").split()[0]
    shot(ui, "rage-result")


def test_new_game_rage_range_follows_the_edition(fixes: tuple[UI, dict, Translator]) -> None:
    ui, _made, t = fixes
    ui.open("/new?game=rage", ready="option-edition-amigo")
    ui.tap("option-edition-amigo", count=False)
    ui.wait_text(t("Players ({low} to {high}), tap in seat order", low=3, high=8))
    shot(ui, "new-game-amigo")
