"""How much a change at a live table costs each device: a part of a seat's screen
or of the board whose inputs did not change is not built again and nothing is sent for it; a move sends each
device a small patch, not a rebuilt screen; a move in a digital game does not rewrite the lobby file.
Counts and sizes, never times."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import flet as ft
import pytest

from scorekeeper.digital import engine
from scorekeeper.table import host as host_module
from scorekeeper.table import lobbies
from scorekeeper.table.host import HOST, TableHost
from scorekeeper.ui.components import keyed
from scorekeeper.ui.components.keyed import KeyedParts
from scorekeeper.ui.digital import rage_panel
from scorekeeper.ui.views.table import board as table_board
from scorekeeper.ui.views.table import seat as table_seat
from tests.test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: autouse)
from tests.test_ui_core_harness import App


class Recorded(KeyedParts):
    """KeyedParts that remember every screen that used them (to read the counts in a test)."""

    made: ClassVar[list[Recorded]] = []

    def __init__(self) -> None:
        super().__init__()
        Recorded.made.append(self)


def deliver(device: App, code: str) -> None:
    """What the server's pubsub does after a change at the table: call this device's handlers of the topic."""
    hub = device.connection.pubsubhub
    subscribers = hub._PubSubHub__topic_subscribers.get(f"table:{code}", {})  # type: ignore[attr-defined]
    for handlers in list(subscribers.values()):
        for handler in list(handlers):
            handler(f"table:{code}", None)


def test_a_part_is_built_again_only_when_its_inputs_change() -> None:
    shown = KeyedParts()
    first = shown.part("status", ("Anna", 1), lambda: ft.Text("Anna 1"))
    assert shown.part("status", ("Anna", 1), lambda: ft.Text("again")) is first
    second = shown.part("status", ("Anna", 2), lambda: ft.Text("Anna 2"))
    assert second is not first and second.key == first.key == "status"
    assert shown.built["status"] == 2
    shown.forget()
    assert shown.part("status", ("Anna", 2), lambda: ft.Text("Anna 2")) is not second


@pytest.fixture
def rage_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A Rage table of 3 phones and a TV board, started; each screen's KeyedParts recorded."""
    Recorded.made = []
    monkeypatch.setattr(keyed, "KeyedParts", Recorded)  # the seat screens' (TableScreen)
    monkeypatch.setattr(table_board, "KeyedParts", Recorded)
    host, code = host_table(tmp_path, 3, "rage")
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben", "Cleo"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    tv = app(tmp_path, "tv", width=1920)
    tv.go(f"/table/{code}/board")
    Recorded.made = []
    for phone in phones:
        phone.go(f"/table/{code}/seat")
    board_parts = Recorded()
    monkeypatch.setattr(table_board, "KeyedParts", lambda: board_parts)
    tv.go(f"/table/{code}/board")
    yield {"code": code, "phones": phones, "parts": Recorded.made[:3], "tv": tv, "board": board_parts}


def sent(device: App, since: int) -> list[bytes]:
    return device.connection.sent[since:]


def test_a_change_that_a_phone_does_not_see_rebuilds_and_sends_nothing(
    rage_table: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, phones, parts = rage_table["code"], rage_table["phones"], rage_table["parts"]
    table = HOST.tables[code]
    panels: list[int] = []
    real_build = rage_panel.build
    monkeypatch.setattr(rage_panel, "build", lambda pc: panels.append(pc.view.seat) or real_build(pc))
    before = [dict(p.built) for p in parts]
    counts = [len(phone.connection.sent) for phone in phones]
    table.disconnect(2)  # Cleo's phone loses Wi-Fi: the table changed, nothing on Anna's or Ben's screen did
    for phone in phones:
        deliver(phone, code)
    assert panels == []
    assert [dict(p.built) for p in parts] == before
    # Nothing is sent to a phone that only watches. (The phone to act gets its bid buttons' style again: Flet's
    # Button makes a new style object on every update, which its diff cannot tell from a change.)
    to_act = table.session.to_act
    watching = [n for n in range(2) if n != to_act]
    assert watching and all(sent(phones[n], counts[n]) == [] for n in watching)
    # The board says whose phone is gone : it rebuilds Cleo's panel (and the turn line when she
    # is to move) and sends that patch, a fraction of its screen.
    board, board_parts = rage_table["tv"], rage_table["board"]
    whole = len(board.connection.sent[-1])
    count = len(board.connection.sent)
    built = dict(board_parts.built)
    deliver(board, code)
    rebuilt = {role for role, n in board_parts.built.items() if n != built.get(role)}
    assert "seat-2" in rebuilt and rebuilt <= {"seat-2", "turn"}
    (patch,) = sent(board, count)
    assert len(patch) * 4 < whole


def test_a_move_sends_each_device_a_small_patch_not_a_new_screen(rage_table: dict[str, Any]) -> None:
    code, phones, parts, tv = rage_table["code"], rage_table["phones"], rage_table["parts"], rage_table["tv"]
    table = HOST.tables[code]
    session = table.session
    bot = engine.make_bot("rage", "normal")
    tokens = [phone.ctx.session.table_tokens[code] for phone in phones]
    devices = [*phones, tv]
    whole = {id(device): len(device.connection.sent[-1]) for device in devices}  # each one's whole screen
    for _ in range(4):
        seat = session.to_act
        action = bot.choose(session.view_for(seat), session.legal_for(seat))
        counts = {id(device): len(device.connection.sent) for device in devices}
        logs = [p.built["log"] for p in parts]
        table.act(seat, tokens[seat], action)
        for n, device in enumerate(devices):  # the mover's phone too (its own tap redraws it the same way)
            deliver(device, code)
            (patch,) = sent(device, counts[id(device)])
            if n not in (seat, session.to_act):  # only watching (the next to act gets its bidding pad)
                assert len(patch) * 4 < whole[id(device)]  # the changed fields, not a new screen
        assert [p.built["log"] for p in parts] == [n + 1 for n in logs]  # a new line in every move log


def test_the_panel_is_built_again_when_its_own_choices_change(rage_table: dict[str, Any]) -> None:
    """A panel's half-made choice (`ui`, e.g. the joker's colour picker) is one of its inputs; the move log
    and the status line stay as they are."""
    code, anna = rage_table["code"], rage_table["phones"][0]
    table = HOST.tables[code]
    phone = table_seat.Phone(anna.ctx, table, 0, anna.ctx.session.table_tokens[code])
    phone.render(update=False)
    phone.render(update=False)
    assert dict(phone.shown.built) == {"status": 1, "panel": 1, "log": 1}
    phone.ui["show_last"] = True
    phone.render(update=False)
    assert dict(phone.shown.built) == {"status": 1, "panel": 2, "log": 1}


def test_a_move_in_a_digital_game_does_not_rewrite_the_lobby_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.store import Store

    store = Store.open(tmp_path / "data")
    writes: list[list[str]] = []
    real_save = lobbies.save

    def counting(store: Any, tables: list[Any]) -> None:
        writes.append([t.code for t in tables if lobbies.outside_session(t)])
        real_save(store, tables)

    monkeypatch.setattr(host_module.lobbies, "save", counting)
    tables = TableHost()
    tables.resume(store)
    table = tables.create("racko", {}, 2)
    table.set_computer(0, "easy")
    table.set_computer(1, "easy")
    assert writes[-1] == [table.code]  # the lobby is in the file ...
    table.start(store, seed=3)
    assert writes[-1] == []  # ... and leaves it once the game is its play session's save
    done = len(writes)
    for _ in range(6):
        assert table.step_computer()
    assert len(writes) == done
    lobby = tables.create("rage", {}, 3)  # another table's change still writes
    assert writes[-1] == [lobby.code]


def test_a_failed_lobby_write_is_made_again_on_the_next_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.store import Store

    store = Store.open(tmp_path / "data")
    tables = TableHost()
    tables.resume(store)
    table = tables.create("racko", {}, 2)
    table.set_computer(0, "easy")
    table.set_computer(1, "easy")
    real_save = lobbies.save
    failing = [True]

    def flaky(store: Any, kept: list[Any]) -> None:
        if failing.pop() if failing else False:
            raise OSError("disk full")
        real_save(store, kept)

    monkeypatch.setattr(host_module.lobbies, "save", flaky)
    table.start(store, seed=3)  # the write that takes the table out of the file fails ...
    assert table.code in (lobbies.path_of(store).read_text())
    table.step_computer()  # ... so the next change writes it
    assert table.code not in (lobbies.path_of(store).read_text())


def test_a_waiting_phone_is_drawn_again_only_when_its_game_starts_or_its_seat_is_gone(tmp_path: Path) -> None:
    host, code = host_table(tmp_path, 3, "rage")
    anna = join(tmp_path, code, "Anna", 1)
    ben = join(tmp_path, code, "Ben", 2)
    count = len(anna.connection.sent)
    deliver(anna, code)  # another phone joined: only the line of who is at the table is sent
    (patch,) = sent(anna, count)
    assert b"Ben" in patch and len(patch) < 300 and anna.has("seat-waiting")
    deliver(anna, code)  # heard again: nothing changed, nothing sent
    assert len(anna.connection.sent) == count + 1
    HOST.tables[code].free(1)  # the host frees Ben's seat: his phone goes back to joining
    deliver(ben, code)
    assert not ben.has("seat-waiting")
    table = HOST.tables[code]
    for seat in (1, 2):
        table.set_computer(seat, "normal")
    host.go(f"/table/{code}")
    host.tap("start-table")
    deliver(anna, code)  # the game started: her seat's play screen
    assert anna.has("play-panel") or anna.has("turn-status")


def test_the_board_is_built_afresh_when_the_game_starts(tmp_path: Path) -> None:
    """Joining and playing are two different boards: the start replaces the screen instead of diffing one
    into the other; moves after that are diffed."""
    host, code = host_table(tmp_path, 2, "rage")
    tv = app(tmp_path, "tv", width=1920)
    tv.go(f"/table/{code}/board")
    joining = tv.view
    phones = [join(tmp_path, code, "Anna", 1), join(tmp_path, code, "Ben", 2)]
    deliver(tv, code)
    assert tv.view is joining and tv.has("table-code")
    host.go(f"/table/{code}")
    host.tap("start-table")
    deliver(tv, code)
    playing = tv.view
    assert playing is not joining and tv.has("board-turn")
    table = HOST.tables[code]
    seat = table.session.to_act
    table.act(seat, phones[seat].ctx.session.table_tokens[code], table.session.legal_for(seat)[0])
    deliver(tv, code)
    assert tv.view is playing
