"""Layout, focus and keyboard behaviour that the in-process harness can check (the browser tests in
tests/browser/test_layout_and_focus.py measure what is drawn): the Racko caller chips and rack tabs look different
and wear the players' colours, long names end in an ellipsis, number keys fill Racko racks and Rage bids, and
a rejected rename keeps its dialog open with the reason under the field."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest
from test_ui_core_harness import App, walk

from scorekeeper.model.match import Match
from scorekeeper.ui.views.rounds.racko import entry_of


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data", width=1440, height=900)


def press(app: App, *keys: str, shift: bool = False) -> None:
    """Keys as the browser reports them to page.on_keyboard_event."""
    for key in keys:
        app.page.on_keyboard_event(SimpleNamespace(key=key, shift=shift, ctrl=False, alt=False, meta=False))


COLOURS = ["#E53935", "#1E88E5", "#43A047", "#FB8C00"]


def start(app: App, game: str, names: list[str], dealer: int) -> None:
    """As App.start_match, with the players in four different colours."""
    for name, colour in zip(names, COLOURS, strict=False):
        app.store.add_player(name, colour)
    app.go("/new")
    app.tap(f"game-{game}")
    for name in names:
        app.tap(f"pick-{name}")
    app.tap(f"dealer-{dealer + 1}")
    app.tap("start-game")


def match_of(app: App) -> Match:
    return app.store.get_match(app.store.list_matches()[0].id)


def test_caller_chips_and_rack_tabs_look_different_in_player_colours(app: App) -> None:
    start(app, "racko", ["Ann", "Ben", "Cy"], 0)
    colours = {p.name: p.colour for p in app.store.list_players()}
    assert len(set(colours.values())) == 3
    app.tap("caller-1")
    caller, tab = app.find("caller-1"), app.find("rack-seat-1")
    assert isinstance(caller, ft.Container) and isinstance(tab, ft.Container)
    # The caller chip: round, a megaphone in Ben's colour, tinted with it when chosen.
    icons = [n for n in walk(caller) if isinstance(n, ft.Icon)]
    assert icons and icons[0].color == colours["Ben"]
    assert colours["Ben"] in str(caller.bgcolor)
    assert caller.border_radius == 20
    # The rack tab: square top corners, only an underline in the player's colour.
    assert tab.border.top.width == 0 and tab.border.bottom.color == colours["Ben"]
    assert tab.border_radius != 20


def test_long_names_are_shown_whole_in_the_scoreboard_standings(app: App) -> None:
    """A long name wraps in the standings (cut to one line with "…", it said "Maximil…" at 200 % text); the
    rounds table's narrow columns may still cut it, the standings above say it whole."""
    long_name = "Maximiliane Alexandra von Hohenzollern-S"
    assert len(long_name) == 40
    start(app, "racko", [long_name, "Ben"], 0)
    app.go(f"/match/{match_of(app).id}")
    texts = [n for n in walk(app.view) if isinstance(n, ft.Text) and n.value == long_name]
    assert any(
        t.max_lines is None and not t.no_wrap and t.overflow != ft.TextOverflow.ELLIPSIS for t in texts
    )


def test_typed_numbers_fill_a_racko_rack(app: App) -> None:
    start(app, "racko", ["Ann", "Ben"], 0)  # 2 players: cards 1..40
    assert app.ctx.route.endswith("/round")
    press(app, "2", "3")  # 23: no card 230, so it is placed at once
    press(app, "4", "Enter")  # 4 could still become 40: Enter places it
    press(app, "Numpad 9")
    draft = app.ctx.session.rounds[next(k for k in app.ctx.session.rounds if k.startswith("round:"))]
    rack = entry_of(draft).pad.racks[0]
    assert rack[:4] == [23, 4, 9, None]
    press(app, "Backspace")
    assert rack[:3] == [23, 4, None]
    press(app, "Tab")  # Ben's rack
    assert app.find("rack-seat-1").border.bottom.width == 4
    press(app, "Tab", shift=True)
    assert app.find("rack-seat-0").border.bottom.width == 4


def test_number_keys_enter_rage_bids_in_playing_order(app: App) -> None:
    start(app, "rage", ["Ann", "Ben", "Cy"], 0)  # dealer Ann: Ben bids first; round 1 deals 10 cards
    press(app, "2", "1", "Enter", "0")  # Ben 2; Cy: "1" could be 10, Enter makes it 1; Ann (dealer) 0
    draft = app.ctx.session.rounds[next(k for k in app.ctx.session.rounds if k.startswith("round:"))]
    bids = lambda: [seat.values.get("bid") for seat in draft.seats]  # noqa: E731
    assert bids() == [0, 2, 1]
    press(app, "Backspace")
    assert bids() == [None, 2, 1]


def test_a_rename_to_a_taken_name_keeps_the_dialog_open(app: App) -> None:
    app.store.add_player("Ann")
    app.store.add_player("Bea")
    app.go("/players")
    app.tap("rename-Bea")
    app.set_value("rename-name", "Ann")
    app.tap("rename-ok")
    field = app.find("rename-name")  # still there: the dialog did not close
    assert isinstance(field, ft.TextField) and "Ann" in str(field.error)
    assert [p.name for p in app.store.list_players()] == ["Ann", "Bea"]
