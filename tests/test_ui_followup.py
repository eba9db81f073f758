"""Follow-up UI tests, in process (test_ui_core_harness): live Racko rack feedback, the Racko chips game and
Blitz-Racko with several callers through the round entry, a second session's scoreboard mode redrawing when a
round is saved elsewhere, deleting a finished game from the history, and the follow-up translations."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import flet as ft
import pytest
import test_ui_core_harness as harness
from babel.messages.pofile import read_po
from flet.pubsub.pubsub_hub import PubSubHub
from test_ui_core_harness import App, messages_in, start, tap_all

from scorekeeper.match import Match
from scorekeeper.ui.i18n import LOCALES_DIR, Translator, catalog

# The harness has no running event loop, so the app's fire-and-forget tasks (URL push, wakelock) never run.
pytestmark = pytest.mark.filterwarnings("ignore:coroutine .* was never awaited:RuntimeWarning")
ROOT = Path(__file__).resolve().parents[1]
FOLLOWUP_FILES = [
    *(ROOT / "scorekeeper/ui/views" / f"{n}.py" for n in ("round_racko", "scoreboard", "history")),
    ROOT / "scorekeeper/ui/components/rack_pad.py",  # the rack pad moved out of round_racko
]
LANGUAGES = ("de", "nl", "fr")


# ------------------------------------------------------------------ translations
def followup_ids(language: str) -> list[str]:
    with (LOCALES_DIR / language / "LC_MESSAGES" / "followup.po").open("rb") as handle:
        return [str(m.id) for m in read_po(handle, locale=language) if m.id]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_followup_files_is_translated(language: str) -> None:
    found = sorted({m for path in FOLLOWUP_FILES for m in messages_in(path)})
    assert "Delete this game?" in found and len(found) > 40  # the collector sees the touched screens
    assert Translator(language).missing(found) == []
    fields = re.compile(r"\{[^}]*\}")
    for message in found:  # the same {fields}, or formatting the translation fails
        translated = catalog(language)[message]
        assert sorted(fields.findall(translated)) == sorted(fields.findall(message)), message


@pytest.mark.parametrize("language", LANGUAGES)
def test_followup_catalog_holds_only_used_new_messages(language: str) -> None:
    ids = followup_ids(language)
    used = {m for path in FOLLOWUP_FILES for m in messages_in(path)}
    assert ids and set(ids) <= used  # nothing stale
    others: set[str] = set()
    for domain in ("core", "extras"):
        with (LOCALES_DIR / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
            others |= {str(m.id) for m in read_po(handle, locale=language) if m.id}
    assert not set(ids) & others  # no msgid duplicated from another domain


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


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Poll `condition` (another session redraws on a worker thread, as on the real server)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except LookupError:  # the view is being rebuilt right now
            pass
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


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
        if seat != caller:  # paid by the payer's run: the caller's is not asked (issue 8.16)
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
    tap_all(app, "caller-2", "count-0-4", "run-0-5")  # the caller's run is not asked (issue 8.16)
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


def round_draft(app: App) -> dict:
    """What the open round form has collected so far."""
    return next(v for k, v in app.ctx.session.rounds.items() if k.startswith("round:"))


def test_blitz_round_with_two_callers(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben", "Cleo"], 0, blitz=True)
    for rack in (ANNA, BEN, CLEO):
        tap_all(app, *(f"num-{n}" for n in rack))
    tap_all(app, "caller-0", "caller-1")
    # not a Blitz round: one caller only, the second tap replaced the first
    assert round_draft(app)["callers"] == [1]
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
    assert round_draft(app)["callers"] == [2, 0]
    app.set_value("blitz", False)
    assert round_draft(app)["callers"] == [2] and round_draft(app)["blitz"] is False


# ------------------------------------------------------------------ two sessions
@pytest.fixture
def shared_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[PubSubHub]:
    """One pubsub hub for every session, dispatching on a running loop and worker thread as the server does."""
    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor(max_workers=1)
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    hub = PubSubHub(loop, executor)
    monkeypatch.setattr(harness, "PubSubHub", lambda *_: hub)
    yield hub
    loop.call_soon_threadsafe(loop.stop)
    runner.join(timeout=5)
    executor.shutdown(wait=True)
    loop.close()


def test_scoreboard_mode_redraws_when_another_session_saves(tmp_path: Path, shared_hub: PubSubHub) -> None:
    phone = App(tmp_path / "data")
    match = start(phone, "racko", ["Anna", "Ben"], 0)
    tablet = App(tmp_path / "data", width=1280, height=800)  # the same data folder, another browser
    tablet.go(f"/match/{match.id}/board")
    assert tablet.find("total-0").value == "0"

    tap_all(phone, "mode-quick", "caller-0", "run-0-3", "count-1-4")  # the 2-player rule: the caller's run
    phone.tap("save-round")
    assert phone.store.get_match(match.id).totals() == [75, 20]
    wait_until(lambda: tablet.find("total-0").value == "75", "the board to show the new round")
    assert tablet.find("total-1").value == "20"
    assert tablet.ctx.route == f"/match/{match.id}/board"  # still in scoreboard mode

    phone.tap("undo")  # an undo elsewhere redraws the board too
    wait_until(lambda: tablet.find("total-0").value == "0", "the board to show the undo")


def test_board_of_another_game_is_not_redrawn(tmp_path: Path, shared_hub: PubSubHub) -> None:
    phone = App(tmp_path / "data")
    match = start(phone, "racko", ["Anna", "Ben"], 0)
    other = Match.new("racko", {"players": 2}, ["x", "y"], names=["Xia", "Yan"])
    phone.store.save_match(other)
    tablet = App(tmp_path / "data", width=1280, height=800)
    tablet.go(f"/match/{other.id}/board")
    board = tablet.view
    tap_all(phone, "mode-quick", "caller-0", "run-0-3", "count-1-4", "save-round")
    assert phone.store.get_match(match.id).totals() == [75, 20]
    time.sleep(0.3)  # give a wrong redraw the time to happen
    assert tablet.view is board


# ------------------------------------------------------------------ history: delete
def finished_match(app: App) -> Match:
    match = Match.new("racko", {"players": 2, "target": 50}, ["a", "b"], names=["Anna", "Ben"])
    match.add_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    assert match.is_over
    return app.store.save_match(match)


def test_delete_a_finished_game_after_confirming(app: App) -> None:
    match = finished_match(app)
    app.go(f"/history/{match.id}")
    app.tap("history-delete")
    assert "Delete this game?" in app.screen_text()
    app.tap("history-delete-cancel")
    assert app.store.get_match(match.id) is not None
    assert not any(dialog.open for dialog in app.page._dialogs.controls)

    app.tap("history-delete")
    app.tap("history-delete-confirm")
    assert app.store.get_match(match.id) is None
    assert app.ctx.route == "/history"
    assert not app.has(f"history-{match.id}")
    assert any(path.name.startswith(match.id) for path in (app.store.data_dir / "trash").iterdir())


def test_delete_clears_the_undo_of_that_game(app: App) -> None:
    match = finished_match(app)
    app.ctx.undo = (match.id, "Round 1", match.to_dict())
    app.go(f"/history/{match.id}")
    tap_all(app, "history-delete", "history-delete-confirm")
    assert app.ctx.undo is None


def test_unfinished_game_cannot_be_deleted_from_history(app: App) -> None:
    match = app.store.save_match(Match.new("racko", {"players": 2}, ["a", "b"], names=["Anna", "Ben"]))
    app.go(f"/history/{match.id}")
    assert not app.has("history-delete")


def test_delete_in_french(app: App) -> None:
    match = finished_match(app)
    app.ctx.update_settings(language="fr")
    app.go(f"/history/{match.id}")
    app.tap("history-delete")
    assert "Supprimer cette partie\u00a0?" in app.screen_text()
    app.tap("history-delete-confirm")
    assert app.store.get_match(match.id) is None


# ------------------------------------------------------------------ scoreboard layout
def test_scoreboard_status_is_one_wrapping_row(app: App) -> None:
    match = start(app, "racko", ["Anna", "Ben"], 1, target=200)
    app.go(f"/match/{match.id}")
    status = app.find("status")
    assert isinstance(status, ft.Row) and status.wrap
    texts = harness.texts(status)
    assert texts == ["Round 1", "Dealer: Ben", "Deals next: Anna", "Playing to 200 points"]
