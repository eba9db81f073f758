"""What saving a round costs, counted, never timed (`python -m scorekeeper.bench ui` times it): the
store flushes to disk only what makes the save durable (the match file and its folder), before the scoreboard
is sent; a scoreboard built again on screen (undo, redo, a change from another device) is sent as a patch of
what changed, not as a whole new screen; the scoreboard a save shows (which the browser builds whole) has a
counted number of controls, a few per round."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgpack
import pytest
from test_ui_core_harness import App, walk


@pytest.fixture
def app(tmp_path: Path) -> App:
    app = App(tmp_path / "data")
    app.data_dir = tmp_path / "data"  # type: ignore[attr-defined]  # where this test's flushes land
    return app


def quick_round(app: App) -> None:
    """Anna calls Racko, Ben's ascending count is 3 (Anna +75, Ben +15)."""
    app.tap("mode-quick")
    app.tap("caller-0")
    app.tap("count-1-3")


def sent_since(app: App, count: int) -> int:
    return sum(map(len, app.connection.sent[count:]))


def test_undo_and_redo_reach_the_scoreboard_as_a_small_patch(app: App) -> None:
    summary = app.start_match("racko", ["Anna", "Ben"], 0, two_player_rule=False, target=100_000)
    for _ in range(3):
        quick_round(app)
        app.tap("save-round")
        app.tap("enter-round")
    app.go("/")
    count = len(app.connection.sent)
    app.go(f"/match/{summary.id}")  # the whole scoreboard, as any screen is sent when it opens
    whole = sent_since(app, count)
    for step, total in (("undo", "150"), ("redo", "225")):
        count = len(app.connection.sent)
        app.tap(step)
        assert app.find("total-0").value == total
        patch = sent_since(app, count)
        assert 0 < patch * 3 < whole, (step, patch, whole)
    app.tap("round-row-0")  # the patched scoreboard still answers taps
    app.tap("round-edit")
    assert app.ctx.route == f"/match/{summary.id}/round/0"


def test_the_round_that_ends_the_game_opens_the_final_results(app: App) -> None:
    summary = app.start_match("racko", ["Anna", "Ben"], 0, two_player_rule=False, target=75)
    quick_round(app)
    round_page = [view.route for view in app.page.views]
    app.tap("save-round")
    assert app.ctx.route == f"/match/{summary.id}/end"
    assert app.has("play-again")
    assert [view.route for view in app.page.views] == round_page  # at once, in place of the round screen


def test_a_save_shows_the_scoreboard_in_place_of_the_round_screen_without_a_transition(app: App) -> None:
    """The browser keys its pages by `View.route`. The round screen opens over its scoreboard (a new page, with
    the theme's transition); after a save the scoreboard comes back as a patch of itself under the round
    screen's key, so the browser replaces that page's content at once (a new page brought in by the transition
    kept the new total from view for a third of a second) and receives only what changed. Back from the round
    screen is the page under it again."""
    summary = app.start_match("racko", ["Anna", "Ben"], 0, two_player_rule=False, target=100_000)
    scoreboard = f"/match/{summary.id}"
    quick_round(app)
    app.tap("save-round")
    app.go("/")
    count = len(app.connection.sent)
    app.go(scoreboard)
    whole = sent_since(app, count)  # the whole scoreboard, as any screen is sent when it opens
    for round_number in (2, 3):
        app.tap("enter-round")
        pages = [view.route for view in app.page.views]
        assert len(pages) == 2 and pages[0] != pages[1]  # the round screen over its scoreboard: a new page
        quick_round(app)
        count = len(app.connection.sent)
        app.tap("save-round")
        assert app.ctx.route == scoreboard
        assert app.find("total-0").value == str(75 * round_number)
        assert [view.route for view in app.page.views] == pages[1:]  # in place of the round screen's page
        patch = sent_since(app, count)
        assert 0 < patch * 3 < whole, (patch, whole)
        # the page's route (the browser's URL) goes out in the same patch, not in a later update
        assert msgpack.packb("route") + msgpack.packb(scoreboard) in b"".join(app.connection.sent[count:])
    app.tap("enter-round")
    pages = [view.route for view in app.page.views]
    app.go(scoreboard)  # the round screen's back arrow: the page under it again
    assert [view.route for view in app.page.views] == pages[:1]
    app.go("/")  # leaving the scoreboard: a new page
    assert [view.route for view in app.page.views] == ["/"]


def test_a_save_flushes_the_match_file_and_its_folder_and_nothing_else(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The acknowledged save is on disk before the scoreboard is sent; the match index (derived, checked at every
    open) is not flushed: its two flushes were half the store's part of a save."""
    summary = app.start_match("racko", ["Anna", "Ben"], 0, two_player_rule=False, target=100_000)
    quick_round(app)
    flushed: list[str] = []
    events: list[str] = []
    real_fsync, real_send = os.fsync, app.connection.send_message

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if path.startswith(str(app.data_dir)):  # not another test's threads still writing elsewhere
            flushed.append(os.path.basename(path))
            events.append("fsync")
        real_fsync(fd)

    def send(message: Any) -> None:
        events.append("send")
        real_send(message)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(app.connection, "send_message", send)
    app.tap("save-round")
    assert app.store.get_match(summary.id).totals() == [75, 15]
    assert len(flushed) == 2, flushed
    assert flushed[0].startswith(f".{summary.id}.json") and flushed[1] == "matches"
    assert events.index("send") > events.index("fsync") + 1  # on disk before the screen says so


def test_the_save_breakdown_names_every_part_of_a_save() -> None:
    """`bench ui`'s breakdown of a save (bench/save_spans.py drives the real handler in process): every part the
    note reports is measured, so a renamed or bypassed part cannot silently drop out of it."""
    from scorekeeper.bench.save_spans import measure

    figures = measure(saves=2)
    parts = set(figures["save_server_spans_ms"])
    assert parts >= {"save.form", "save.rules", "save.store", "save.broadcast", "store.check", "store.read"}
    assert parts >= {"store.history", "store.write", "disk.fsync", "store.index", "store.tell", "view.build"}
    assert parts >= {"view.patch", "patch.encode"}
    assert figures["save_patch_bytes"] > 0 and len(figures["save_server_ms_all"]) == 2


ROUND_LINE = 7
"""Controls of one line of the round table: its tag and button node, the tappable row, the Row, and a Text per
cell (Anna, Ben and the round's number); the cell's padding lies on the row."""
EVENING = 25
"""The scoreboard's section of the evening (ui/components/evening.py): its title and four rows (time played with
Pause, the start player, the place, notes), each a tagged tile with its icon, text and button."""
PHOTOS = 7
"""The scoreboard's photo section of a match without photos (ui/components/photos.py): its column, title, the
row of Add photo (a tagged button) and the location switch (tagged)."""
NAMED_ICONS = 3
"""The app bar's icon buttons (back, undo, scoreboard mode) each carry their icon as a control of its own: the
name a screen reader says (widgets.icon_button)."""
SCOREBOARD_AFTER_ONE_ROUND = 70 + PHOTOS + EVENING + NAMED_ICONS
"""All controls of a two-player Racko scoreboard after its first round (app bar, status, standings, the table,
the photos, the evening)."""


def test_a_save_sends_one_message_and_a_scoreboard_of_a_few_controls_per_round(app: App) -> None:
    """The scoreboard a save shows comes in place of the round screen: the browser builds it whole (its widgets,
    its accessibility nodes, its frame), and the server diffs all of it against the one under the round screen, so
    its size is the save's cost on both sides. Counted: one patch per save (and the route push), a fixed number of
    controls per round line, and the whole board after the first round."""
    summary = app.start_match("racko", ["Anna", "Ben"], 0, two_player_rule=False, target=100_000)
    sizes: list[int] = []
    for save in range(4):
        quick_round(app)
        count = len(app.connection.sent)
        app.tap("save-round")
        assert app.ctx.route == f"/match/{summary.id}"
        # The patch (the page's route in it), then the address bar's history entry (Flet's push_route call) and
        # the screen reader's announcement of the round (ui/announcements.py); the first scoreboard of the session
        # also registers the photo section's file picker, once
        assert len(app.connection.sent) - count == (4 if save == 0 else 3)
        assert app.routes[-1] == f"/match/{summary.id}"
        sizes.append(len(list(walk(app.page.views[-1]))))
        assert len(list(walk(round_line(app, len(sizes) - 1)))) == ROUND_LINE
        app.tap("enter-round")
    assert sizes[0] == SCOREBOARD_AFTER_ONE_ROUND, sizes
    assert [b - a for a, b in pairwise(sizes)] == [ROUND_LINE] * 3, sizes


def round_line(app: App, index: int) -> Any:
    """The tagged line of round `index` in the scoreboard on show (the tag itself, with all inside it)."""
    for control in walk(app.page.views[-1]):
        if getattr(control, "identifier", None) == f"round-row-{index}":
            return control
    raise LookupError(index)
