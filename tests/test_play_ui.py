"""The play screens in-process: pass-and-play privacy over the control tree, home's Play and resume entries,
hints, and a whole Racko round against computer players through the act- controls."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from test_ui_core_harness import App, walk

from scorekeeper.digital.session import PERSON, PlaySession, Seat
from scorekeeper.games.racko import TURN_LIMIT


def play_app(tmp_path: Path, **settings: Any) -> App:
    app = App(tmp_path / "data")
    app.ctx.settings.update({"play_pace": "instant", **settings})
    return app


def table(app: App) -> Any:
    return next(iter(app.ctx.session.play_tables.values()))


def shown(app: App) -> set[str]:
    """Every text and accessible name on screen."""
    found: set[str] = set()
    for root in app.roots():
        for node in walk(root):
            if isinstance(node, ft.Text) and node.value:
                found.add(str(node.value))
            if isinstance(node, ft.Semantics) and node.label:
                found.add(str(node.label))
    return found


def act_ids(app: App) -> list[str]:
    return [
        node.identifier
        for root in app.roots()
        for node in walk(root)
        if isinstance(node, ft.Semantics) and (node.identifier or "").startswith("act-")
    ]


def stock(session: PlaySession) -> int:
    return int(session.state.view(0).stock_count)


def hidden_cards(session: PlaySession, seat: int) -> set[int]:
    """The cards of `seat`'s rack nobody else may know (not taken from the discard pile)."""
    view = session.state.view(seat)
    return {card for card in view.rack if card is not None and card not in view.known[seat]}


NOT_CARDS = re.compile(
    r"[Ss]lot \d+|ascending \d+ · run \d+|Stock: \d+ cards|[Rr]ound \d+|\d+ points|2-player|3 consecutive"
)


def leaks(app: App, cards: set[int], stock_count: int) -> set[str]:
    """Texts on screen that name one of `cards` (numbers that are slot labels, counts or scores aside)."""
    found = set()
    for text in shown(app):
        if text == str(stock_count) or (text.isdigit() and int(text) % 5 == 0 and int(text) <= 50):
            continue  # the stock's count; a slot label
        numbers = {int(n) for n in re.findall(r"\d+", NOT_CARDS.sub("", text))}
        if numbers & cards:
            found.add(text)
    return found


def test_pass_and_play_shows_no_hidden_card_of_the_other_person(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    seats = [Seat(PERSON, "anna", "Anna"), Seat(PERSON, "ben", "Ben")]
    session = PlaySession.create(app.store, "racko", {}, seats, first_dealer=1, seed=4)
    app.go(f"/play/{session.saved.id}")
    session = table(app).session  # the screen's own session, rebuilt from the store
    for turn in range(6):
        mover = session.to_act
        other = 1 - mover
        # The hand-over screen: no cards of anyone, no actions.
        assert app.has("reveal") and not app.has("play-panel") and not act_ids(app)
        assert not leaks(app, hidden_cards(session, 0) | hidden_cards(session, 1), stock(session))
        assert f"Pass the device to {session.match.names[mover]}" in shown(app)
        app.tap("reveal")
        assert app.has("play-panel")
        assert not leaks(app, hidden_cards(session, other), stock(session)), turn
        mine = {f"Slot {5 * (i + 1)}: {c}" for i, c in enumerate(session.state.view(mover).rack)}
        assert mine <= shown(app)
        app.tap('act-"stock"')
        assert not leaks(app, hidden_cards(session, other), stock(session))
        app.tap('act-"discard"')
        if session.to_act == mover:  # the rack may call: wait
            app.tap('act-"wait"')
        # Hidden again before the next person's screen.
        assert not app.has("play-panel")


def test_home_offers_play_and_resumes_a_game_in_progress(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    for game in ("racko", "ruckzuck", "rage"):
        assert app.has(f"play-{game}")
    app.tap("play-racko")
    app.tap("start-game")
    saved_id = app.ctx.route.rsplit("/", 1)[1]
    table(app).wait()
    session = table(app).session
    seat = session.people[0]
    app.tap('act-"stock"')
    table(app).wait()
    acts_before, log_before = sorted(act_ids(app)), list(session.state.log)
    # Another device (a new app session on the same data): home lists the game; it opens where it was.
    other = App.__new__(App)
    other.__init__(tmp_path / "data")
    other.ctx.settings["play_pace"] = "instant"
    assert other.has(f"resume-{saved_id}")
    other.tap(f"resume-{saved_id}")
    again = table(other).session
    assert again is not session and again.state.log == log_before
    assert sorted(act_ids(other)) == acts_before
    assert again.legal_for(seat) == session.legal_for(seat)
    # Its scoreboard offers to go on playing, not to enter a round by hand.
    other.go(f"/match/{again.match.id}")
    assert other.has("continue-play") and not other.has("enter-round")
    other.tap("continue-play")
    assert other.ctx.route == f"/play/{saved_id}"


def test_hint_and_its_setting(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    app.tap("play-racko")
    app.tap("start-game")
    table(app).wait()
    app.tap("hint")
    assert any(text.startswith("Hint: ") for text in shown(app))
    app.ctx.settings["play_hints"] = False
    app.ctx.rerender()
    assert not app.has("hint")


@pytest.mark.slow
def test_one_person_plays_a_round_through_the_act_controls(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    app.tap("play-racko")
    app.tap("start-game")
    for _ in range(2 * TURN_LIMIT + 2):  # the rules end every round by TURN_LIMIT turns, whatever was dealt
        table(app).wait()
        if app.has("round-result"):
            break
        session = table(app).session
        legal = session.legal_for(session.people[0])
        assert sorted(act_ids(app)) == sorted(f"act-{json.dumps(a, separators=(',', ':'))}" for a in legal), (
            session.to_act,
            table(app).runner,
            len(app.ctx.session.play_tables),
            app.ctx.route,
            app.screen_text()[:300],
        )
        choice = "call" if "call" in legal else "stock" if "stock" in legal else legal[-1]
        app.tap(f"act-{json.dumps(choice)}")
    assert app.has("round-result") and app.has("next-round")
    app.tap("next-round")
    table(app).wait()
    assert table(app).session.round_index == 1 and not app.has("round-result")


def test_statistics_filter_tracked_and_digital_and_versus_computers(tmp_path: Path) -> None:
    from scorekeeper.digital.records import against_computers, strength_of
    from scorekeeper.model.match import Match

    app = play_app(tmp_path)
    anna = app.store.add_player("Anna")
    digital = Match.new(
        "racko", {"target": 75}, [anna.id, "computer-hard-2"], names=["Anna", "Ada"], mode="digital"
    )
    digital = digital.with_round({"counts": [10, 3], "runs": [3, None], "callers": [0], "blitz": False})
    tracked = Match.new("racko", {"target": 75}, [anna.id, "ben"], names=["Anna", "Ben"])
    tracked = tracked.with_round({"counts": [3, 10], "runs": [None, 3], "callers": [1], "blitz": False})
    for match in (digital, tracked):
        assert match.is_over
        match = app.store.save_match(match)
    assert strength_of("computer-hard-2") == "hard" and strength_of(anna.id) is None
    [row] = against_computers([digital, tracked])
    assert (row.name, row.strength, row.games, row.wins) == ("Anna", "hard", 1, 1)
    app.go("/stats")
    assert "Ben" in app.screen_text() and app.has("stats-versus")
    app.tap("stats-mode-digital")
    assert "Ben" not in app.screen_text() and "Anna against Hard: 1 of 1 won" in app.screen_text()
    app.tap("stats-mode-tracked")
    assert "Ada" not in app.screen_text() and not app.has("stats-versus")


def test_blitz_deal_places_each_card_into_a_tapped_empty_slot(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    seats = [Seat(PERSON, "anna", "Anna"), Seat("computer", "computer-normal-2", "Ada", "normal")]
    created = PlaySession.create(app.store, "racko", {"blitz": True}, seats, first_dealer=1, seed=9)
    app.go(f"/play/{created.saved.id}")
    session = table(app).session
    placed = 0
    while session.state.view(0).phase == "blitz_place" and placed < 20:
        table(app).wait()
        if session.state.view(0).phase != "blitz_place":
            break  # the computers placed the last cards of the deal meanwhile
        if session.to_act != 0:
            continue
        view = session.view_for(0)
        empty = [i for i, card in enumerate(view.rack) if card is None]
        assert sorted(act_ids(app)) == sorted(f"act-{i}" for i in empty)
        assert any(text.startswith(f"Blitz deal: put {view.drawn} ") for text in shown(app))
        app.tap(f"act-{empty[-1]}")
        placed += 1
    table(app).wait()
    assert placed == 10 and None not in session.state.view(0).rack


def test_a_game_moved_on_elsewhere_is_loaded_again(tmp_path: Path) -> None:
    app = play_app(tmp_path)
    app.tap("play-racko")
    app.tap("start-game")
    table(app).wait()
    saved_id = app.ctx.route.rsplit("/", 1)[1]
    mine = table(app).session
    other = PlaySession.load(app.store, saved_id)  # another device with the same game
    assert other is not None
    other.act(other.people[0], "stock")
    app.go("/")
    app.go(f"/play/{saved_id}")
    assert table(app).session is not mine and table(app).session.state.log == other.state.log
    assert app.has('act-"discard"')
