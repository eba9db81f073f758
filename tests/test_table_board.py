"""The live table's board and lobby in process (no browser): who plays a seat, in words (a person's seat handed to a
computer player keeps the person's name, a dropped phone is said, and so is a player to move whose phone is gone);
the board's layout places parts by role; every board text is at least 24 px."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest

from scorekeeper.table.host import HOST
from scorekeeper.table.seats import computer_name
from scorekeeper.ui.digital.boards import SMALL, Scale
from scorekeeper.ui.views.table import board_layout
from tests.test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: autouse)
from tests.test_ui_core_harness import walk


def texts(device) -> str:  # type: ignore[no-untyped-def]
    return " ".join(str(node.value) for node in walk(device.view) if isinstance(node, ft.Text))


def started_with_three_phones(tmp_path: Path) -> tuple[object, str, list[object]]:
    host, code = host_table(tmp_path, 3, "racko")
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben", "Cleo"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    for phone in phones:
        phone.go(f"/table/{code}/seat")
    return host, code, phones


def test_a_seat_handed_to_a_computer_player_keeps_the_persons_name(tmp_path: Path) -> None:
    host, code, phones = started_with_three_phones(tmp_path)
    table = HOST.tables[code]
    phones[2].page.on_disconnect(None)  # Cleo's phone is gone for good
    host.go(f"/table/{code}")
    assert host.has("seat-gone-3")  # the lobby says so in words, not only by an icon
    assert "Phone not connected" in texts(host)
    host.tap("computer-3")
    assert table.names()[2] == "Cleo" and table.status()[2].stand_in
    assert not table.status()[0].stand_in
    tv = app(tmp_path, "tv", width=1920)
    tv.go(f"/table/{code}/board")
    shown = texts(tv)
    assert "Cleo (computer)" in shown and computer_name(2) not in shown


def test_a_computer_player_given_an_open_seat_in_the_lobby_is_named_as_before(tmp_path: Path) -> None:
    _host, code = host_table(tmp_path, 2, "racko")
    table = HOST.tables[code]
    table.set_computer(1, "normal")
    assert table.names()[1] == computer_name(1) and not table.status()[1].stand_in


def test_the_board_says_when_the_player_to_move_is_gone(tmp_path: Path) -> None:
    _host, code, phones = started_with_three_phones(tmp_path)
    table = HOST.tables[code]
    seat = table.session.to_act
    name = table.names()[seat]
    tv = app(tmp_path, "tv", width=1920)
    tv.go(f"/table/{code}/board")
    assert f"{name}'s phone is not connected." not in tv.find("board-turn").value
    phones[seat].page.on_disconnect(None)
    tv.go(f"/table/{code}/board")
    assert tv.find("board-turn").value == f"{name}'s turn. {name}'s phone is not connected."
    assert tv.has(f"board-presence-{seat}")


@pytest.mark.parametrize("width", [1920, 1024, 390])
def test_no_board_text_is_under_24_px_at_any_size(tmp_path: Path, width: int) -> None:
    _host, code, _phones = started_with_three_phones(tmp_path)
    tv = app(tmp_path, "tv", width=width)
    tv.go(f"/table/{code}/board")
    small = [(n.value, n.size) for n in walk(tv.view) if isinstance(n, ft.Text) and (n.size or 14) < SMALL]
    assert not small


def test_the_layout_places_parts_by_role() -> None:
    class Wide:
        width = 1920.0

    parts = [ft.Text("scores", key="scores"), ft.Text("turn", key="turn"), ft.Text("facts", key="facts")]
    parts.append(ft.Text("fields", key="fields-3"))  # a part that changes itself: its role is "fields"
    assert board_layout.role(parts[-1]) == "fields"
    top, body = board_layout.arrange(Wide(), parts, "Racko table ABC", Scale(1.0, 1920))  # type: ignore[arg-type]
    main, side = body.controls
    assert [c.key for c in side.controls] == ["scores"]
    assert [c.key for c in main.controls] == ["facts", "fields-3"]
    assert parts[1] in top.controls[0].content.controls
