"""The play screen as a new player meets it, in-process: the person at the device is spoken to ("You drew ...",
"Du hast ... angesagt") and everyone else named; several people passing the device may not be called "You";
while a computer player moves in pass-and-play the table stays in view without any hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest
from test_messages_i18n import TEMPLATES, field_names
from test_play_ui import play_app, shown
from test_ui_core_harness import walk

from scorekeeper.digital.addressed import SECOND_PERSON
from scorekeeper.digital.session import COMPUTER, PERSON, PlaySession, Seat, computer_seat
from scorekeeper.store import Store
from scorekeeper.ui.i18n import Translator
from scorekeeper.ui.views.digital.game import PlayScreen
from tests.play_support import play_round
from tests.run_alone import run_alone

SEAT_FIELDS = ("who", "winner")


def move_templates() -> dict[str, str]:
    """The engine's move templates that name the moving or winning seat -> where they are."""
    return {
        template: where
        for template, where in TEMPLATES.items()
        if (where.endswith("describe.py") or where == "digital/engine.py")
        and field_names(template) & set(SEAT_FIELDS)
    }


def test_every_move_that_names_a_seat_has_a_second_person_twin() -> None:
    templates = move_templates()
    assert len(templates) > 25
    missing = [
        (template, where)
        for template, where in templates.items()
        for key in SEAT_FIELDS
        if key in field_names(template) and (template, key) not in SECOND_PERSON
    ]
    assert not missing
    for (template, key), twin in SECOND_PERSON.items():
        assert field_names(twin) == field_names(template) - {key}, twin


def lone_session(tmp_path: Path, game: str, name: str = "Anna", seed: int = 3) -> PlaySession:
    store = Store.open(tmp_path / game)
    seats = [Seat(PERSON, "p1", name), computer_seat("normal", 1, "Bo"), computer_seat("easy", 2, "Cleo")]
    return PlaySession.create(store, game, {}, seats, seed=seed)


@pytest.mark.parametrize("game", ["racko", "ruckzuck", "rage"])
def test_the_person_at_the_device_is_spoken_to_and_the_others_named(tmp_path: Path, game: str) -> None:
    session = lone_session(tmp_path, game, name="You")
    play_round(session)
    german = Translator("de")
    lines = [str(move) for move in session.moves]
    assert any(line.startswith("You ") for line in lines) and any(line.startswith("Bo ") for line in lines)
    assert not any("You wins" in line or "You's" in line or "You waits" in line for line in lines)
    said = [move.translated(german) for move in session.moves]
    assert not any(line.startswith("You ") for line in said)
    assert any(line.startswith("Du ") for line in said), said[:10]


def test_a_rage_trick_the_person_wins_is_said_to_them(tmp_path: Path) -> None:
    won = []
    for seed in range(4):
        session = lone_session(tmp_path / str(seed), "rage", seed=seed)
        play_round(session)
        won += [str(move) for move in session.moves if "win the trick" in move or "wins the trick" in move]
    assert any(line.endswith("You win the trick.") for line in won)
    assert any(line.endswith("Bo wins the trick.") or line.endswith("Cleo wins the trick.") for line in won)
    assert not any("Anna" in line for line in won)


def test_several_people_on_one_device_may_not_be_called_you(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    app.tap("play-racko")
    app.tap("seat-2-remove")
    app.tap("seat-1-remove")
    app.type_text("new-player-name", "Ben")
    app.find("new-player-name").on_submit(None)
    app.tap("start-game")
    assert app.ctx.route.startswith("/play/new")
    assert any("give each of them a name of their own instead of “You”" in text for text in shown(app))
    app.tap("seat-0-remove")
    app.type_text("new-player-name", "Ann")
    app.find("new-player-name").on_submit(None)
    app.tap("start-game")
    assert app.ctx.route.startswith("/play/") and not app.ctx.route.startswith("/play/new")


def semantics(controls: list[ft.Control], field: str) -> set[str]:
    """Every `identifier` or `label` (`field`) of the semantics nodes under `controls`."""
    return {
        str(getattr(node, field))
        for control in controls
        for node in walk(control)
        if isinstance(node, ft.Semantics) and getattr(node, field)
    }


def tags(controls: list[ft.Control]) -> set[str]:
    return semantics(controls, "identifier")


def labels(controls: list[ft.Control]) -> set[str]:
    return semantics(controls, "label")


PUBLIC = {"racko": {"player-0", "player-2"}, "ruckzuck": {"board", "stock"}, "rage": {"trump", "trick"}}


@pytest.mark.parametrize("game", ["racko", "ruckzuck", "rage"])
def test_pass_and_play_keeps_the_table_in_view_while_a_computer_moves(tmp_path: Path, game: str) -> None:
    app = play_app(tmp_path, play_pace="slow")
    seats = [Seat(PERSON, "ann", "Ann"), Seat(PERSON, "ben", "Ben"), computer_seat("normal", 2, "Cleo")]
    session: Any = None
    for dealer in range(3):  # a deal in which the computer player moves first
        session = PlaySession.create(app.store, game, {}, seats, first_dealer=dealer, seed=5)
        if session.computer_to_act:
            break
    assert session is not None and session.seats[session.to_act].kind == COMPUTER
    table = PlayScreen(app.ctx, session, f"/play/{session.saved.id}")
    parts = table.parts()
    found = tags(parts)
    assert "table-panel" in found and "play-panel" not in found, found
    assert PUBLIC[game] <= found, found
    assert "pace-slow" in found  # a computer player at the table: its pace can be changed here
    assert not {tag for tag in found if tag.startswith(("act-", "choose-", "hand"))}, found
    assert not [label for label in labels(parts) if label.startswith(("Slot ", "Select ", "Play "))]


def test_rage_names_each_new_trump_and_the_winner_of_every_trick(tmp_path: Path) -> None:
    """After a trump-change card and after a trick with a no-trump card a new trump is turned up: the log
    names it; every trick has its winner's line, also the one a trump-change card completed."""
    seen_change = seen_no_trump = False
    for seed in range(12):
        session = lone_session(tmp_path / str(seed), "rage", seed=seed)
        play_round(session)
        lines = [str(move) for move in session.moves]
        won = [
            line
            for line in lines
            if line.endswith(("wins the trick.", "win the trick.")) or "trick. " in line
        ]
        assert len(won) == sum(session.state.result()["tricks"]), lines
        for line in lines:
            if "a new trump is turned up." in line:
                seen_change = True
                assert "The new trump is " in line or "No card is left to turn up" in line, line
            if "The new trump is " in line and "trump-change" not in line:  # after a no-trump trick
                seen_no_trump = True
        if seen_change and seen_no_trump:
            break
    assert seen_change and seen_no_trump
    german = Translator("de")
    assert any("Der neue Trumpf ist " in move.translated(german) for move in session.moves)


class TaskPage:
    """A page that keeps the tasks it is asked to run (Flet runs them on its event loop)."""

    def __init__(self) -> None:
        self.tasks: list[tuple[Any, tuple[Any, ...]]] = []

    def run_task(self, handler: Any, *args: Any) -> None:
        self.tasks.append((handler, args))


def test_keeping_the_screen_awake_fails_quietly_when_the_page_does_not_answer(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A page that reconnected to a restarted server answers no service call: Flet's call times out after
    10 s, which was logged as an error with its traceback. Not keeping the screen on is no error."""
    import logging

    from scorekeeper.ui import app

    class SilentPage:  # Flet's Wakelock service, on a page that does not answer
        async def enable(self) -> None:
            raise RuntimeError("TimeoutException: Timeout waiting for invokeMethod Wakelock(1).enable call")

    monkeypatch.setattr(ft, "Wakelock", SilentPage)
    page = TaskPage()
    assert isinstance(app.keep_awake(page), SilentPage)  # type: ignore[arg-type]
    [(handler, args)] = page.tasks
    with caplog.at_level(logging.INFO, logger=app.__name__):
        run_alone(handler(*args))  # raises nothing
    assert any("awake" in record.getMessage() for record in caplog.records)
    assert all(record.levelno < logging.WARNING for record in caplog.records)


def test_racko_names_the_card_a_player_discarded_from_the_stock(tmp_path: Path) -> None:
    """A card drawn from the stock is hidden until its player discards it: then it lies face up, and the
    log names it."""
    session = lone_session(tmp_path, "racko", seed=5)
    play_round(session)
    discards = [str(move) for move in session.moves if "discarded the card from the stock." in move]
    assert discards and all(" The card was " in line for line in discards), discards
    exchanges = [str(move) for move in session.moves if " in slot " in move]
    assert exchanges and all(line.endswith("went onto the discard pile.") for line in exchanges), exchanges
    assert session.last_move is not None and session.seats[session.last_move[0]] is not None


def test_the_session_keeps_the_latest_move_also_after_a_reload(tmp_path: Path) -> None:
    session = lone_session(tmp_path, "rage", seed=2)
    session.run_computers()
    move = session.hint(0)
    assert move is not None
    session.act(0, move)
    assert session.last_move == (0, move)
    again = PlaySession.load(session.store, session.saved.id)
    assert again is not None and again.last_move == session.last_move and again.moves == session.moves


@pytest.mark.parametrize("game", ["racko", "ruckzuck", "rage"])
def test_the_hand_over_screen_shows_the_table_without_hands_or_moves(tmp_path: Path, game: str) -> None:
    app = play_app(tmp_path)
    seats = [Seat(PERSON, "ann", "Ann"), Seat(PERSON, "ben", "Ben")]
    session = PlaySession.create(app.store, game, {}, seats, first_dealer=1, seed=4)
    table = PlayScreen(app.ctx, session, f"/play/{session.saved.id}")
    parts = table.parts()
    found = tags(parts)
    assert {"hand-over", "table-panel"} <= found and "play-panel" not in found, found
    assert not {t for t in found if t.startswith("pace-")}  # only people: no computer players' pace
    private = {t for t in found if t.startswith(("act-", "choose-", "hand", "bidding")) and t != "hand-over"}
    assert not private, found
    assert not [label for label in labels(parts) if label.startswith(("Slot ", "Select ", "Play "))]
