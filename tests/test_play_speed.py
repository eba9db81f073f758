"""The play screen answers a tap with what changed, not with the whole screen again.

A rebuilt part of the play screen takes the place of the one on screen (Flet's keyed reconciliation), so
the frame sent to the browser after a move holds the changed fields only. Sizes, not times: no timed
assertions.
"""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest
from test_ui_core_harness import App, walk

from scorekeeper.digital.session import PERSON, PlaySession, Seat, computer_seat


def offered(app: App, prefix: str) -> list[str]:
    return [
        node.identifier
        for root in app.roots()
        for node in walk(root)
        if isinstance(node, ft.Semantics) and (node.identifier or "").startswith(prefix)
    ]


@pytest.mark.parametrize("width", [390, 1024])  # phone: one column; tablet: the move log beside the table
def test_a_ruckzuck_move_sends_the_changes_not_the_whole_screen(tmp_path: Path, width: int) -> None:
    game = "ruckzuck"
    app = App(tmp_path / "data", width=width)
    app.ctx.settings["play_pace"] = "instant"
    person = app.store.add_player("Anna")
    seats = [
        Seat(PERSON, person.id, "Anna"),
        computer_seat("normal", 1, "Bo"),
        computer_seat("normal", 2, "Cleo"),
    ]
    session = PlaySession.create(app.store, game, {}, seats, seed=5)
    before = len(app.connection.sent)
    app.go(f"/play/{session.saved.id}")
    screen = sum(len(frame) for frame in app.connection.sent[before:])
    table = next(iter(app.ctx.session.play_tables.values()))
    for _ in range(4):
        table.wait()
        actions = offered(app, "act-")
        assert actions, "the person has a move"
        before = len(app.connection.sent)
        app.tap(actions[0])
        answer = app.connection.sent[before]  # the frame that answers the tap (computer moves come later)
        assert len(answer) < screen / 3, (len(answer), screen)
