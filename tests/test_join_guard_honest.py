"""No lockout of the honest (issue 40, finding 5): 13 sessions typing 10 wrong codes each in 6 s refused every
lookup by code at the host for a minute, right codes, reloading phones and the TV board included. Now the address
and host levels refuse only sessions that themselves guessed wrong, and a seat or board token passes without the
guard; guessing stays bounded (a fresh session's first wrong code makes it a guesser).

`TableHost` with a stepped clock, and in-process sessions through the UI harness (no browser, no sleep)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.server import table_runtime as rt
from scorekeeper.store import Store
from scorekeeper.table import codes
from scorekeeper.table.host import HOST, TableHost, TooManyTries
from scorekeeper.table.table import Table, TableError
from tests.test_hosting_guard import NAT, guest
from tests.test_table import Clock
from tests.test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: autouse)


def burst(host: TableHost, clock: Clock, addresses: list[str]) -> None:
    """The audit's scenario: 13 sessions, 10 wrong codes each, within 6 s (refusals along the way are fine)."""
    for n in range(13):
        for _ in range(codes.LIMIT):
            with pytest.raises(TableError):
                host.find("CCCCCC", f"session:guesser-{n}", addresses[n % len(addresses)])
            clock.now += 6 / 130


@pytest.mark.parametrize(
    "addresses",
    [[NAT], [f"10.0.0.{n}" for n in range(13)]],
    ids=["one address", "thirteen addresses"],
)
def test_the_audits_burst_keeps_no_right_code_out(addresses: list[str]) -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    burst(host, clock, addresses)
    level = codes.ADDRESS if len(addresses) == 1 else codes.HOST
    assert host.guard.refused("session:guesser-12", addresses[-1]) == level  # the level is over its limit
    with pytest.raises(TooManyTries):  # a guesser is refused the right code too
        host.find(table.code, "session:guesser-12", addresses[-1])
    # a new player with the right code, behind the guessers' router or elsewhere
    assert host.find(table.code, "session:new-player", addresses[0]) is table
    assert host.find(table.code, "session:far-away", "198.51.100.7") is table


def test_seat_and_board_tokens_pass_while_every_level_refuses() -> None:
    """A phone reloading with its seat token and the TV board with its board token: no guard at all, even for
    a session that is itself over its own limit."""
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    seat_token = table.claim(0, "Anna")
    board_token = host.open_board(table)
    burst(host, clock, [NAT])
    assert host.guard.refused("session:guesser-0", NAT) is not None
    assert host.held(table.code, seat_token) is table
    assert host.held(table.code, board_token) is table


def test_guessing_stays_bounded_a_fresh_session_gets_one_lookup() -> None:
    """While a level is over its limit, a fresh session's first wrong code makes it a guesser: its next lookup,
    the right code too, is refused for the window; a session that never guessed wrong is never refused."""
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    burst(host, clock, [NAT])
    with pytest.raises(TableError):  # its first lookup is answered (counted: no table)
        host.find("DDDDDD", "session:fresh", NAT)
    for code in ("EEEEEE", table.code):
        with pytest.raises(TooManyTries):
            host.find(code, "session:fresh", NAT)
    assert host.find(table.code, "session:honest", NAT) is table
    clock.now += codes.WINDOW
    assert host.find(table.code, "session:fresh", NAT) is table


def test_a_token_tells_nothing_about_which_codes_exist() -> None:
    host = TableHost(clock=Clock())
    table = host.create("racko", {}, 2)
    token = table.claim(0, "Anna")
    assert host.held("CCCCCC", token) is None  # no such table
    assert host.held(table.code, "not-a-token") is None  # the table, a wrong token: the same answer
    assert host.held(table.code, None) is None
    assert not table.board_held(token)  # a seat token is no board token
    assert host.guard.refused("anyone", NAT) is None  # and nothing was counted


def test_board_tokens_survive_a_host_restart(tmp_path: Path) -> None:
    """Kept as hashes: in tables.json for a lobby, in the saved game for a started digital table."""
    store = Store.open(tmp_path)
    host = TableHost(clock=Clock())
    host.store = store
    lobby = host.create("racko", {}, 2)
    lobby_board = host.open_board(lobby)
    playing = host.create("racko", {}, 2)
    playing.claim(0, "Anna")
    playing.claim(1, "Ben")
    playing.start(store, seed=1)
    playing_board = host.open_board(playing)
    assert lobby_board not in (tmp_path / "tables.json").read_text()  # a hash only, like a seat's token
    again = TableHost(clock=Clock())
    resumed = {table.code: table for table in again.resume(store)}
    assert again.held(lobby.code, lobby_board) is resumed[lobby.code]
    assert again.held(playing.code, playing_board) is resumed[playing.code]
    assert again.held(playing.code, lobby_board) is None


def trip_the_host_wide_level() -> None:
    """Many addresses together over the host-wide limit (on the process's host, real clock: no waiting)."""
    for n in range(codes.HOST_LIMIT + 1):
        with pytest.raises(TableError):
            HOST.find("CCCCCC", f"session:bot-{n}", f"10.9.{n // 250}.{n % 250}")


@pytest.mark.slow
@pytest.mark.parametrize("typo_first", [False, True], ids=["reload", "reload after a typo"])
def test_a_phone_reloading_with_its_seat_token_reaches_its_seat_while_the_host_level_refuses(
    tmp_path: Path, typo_first: bool
) -> None:
    _, code = host_table(tmp_path)
    phone = join(tmp_path, code, "Anna", 1)
    assert phone.connection.storage.get(rt.TOKEN_KEY.format(code=code))
    trip_the_host_wide_level()
    reloaded = app(tmp_path, "phone-reloaded")  # a new session with the browser's storage of the same phone
    reloaded.connection.storage.update(phone.connection.storage)
    if typo_first:  # this session itself typed a wrong code: the host level refuses it every lookup by code
        reloaded.go("/join/DDDDDD")
        reloaded.go(f"/join/{code}")
        assert "Too many wrong codes" in reloaded.screen_text()
    reloaded.go(f"/table/{code}/seat")
    assert reloaded.has("seat-waiting"), reloaded.screen_text()
    assert "Too many" not in reloaded.screen_text()


@pytest.mark.slow
def test_a_board_reloading_with_its_board_token_comes_back_while_the_host_level_refuses(
    tmp_path: Path,
) -> None:
    table: Table = HOST.create("racko", {}, 2)
    board = guest(tmp_path, "tv")
    board.go(f"/table/{table.code}/board")
    assert board.has("table-board")
    stored = board.connection.storage.get(rt.BOARD_KEY.format(code=table.code))
    assert isinstance(stored, str) and table.board_held(stored)
    trip_the_host_wide_level()
    reloaded = guest(tmp_path, "tv-reloaded")
    reloaded.connection.storage.update(board.connection.storage)
    reloaded.go("/table/DDDDDD/board")  # a typo first: this session is refused every lookup by code now
    assert "Too many wrong codes" in reloaded.screen_text()
    reloaded.go(f"/table/{table.code}/board")
    assert reloaded.has("table-board"), reloaded.screen_text()
    stranger = guest(tmp_path, "stranger")  # no token, no typo: its right code is looked up and let in
    stranger.go(f"/table/{table.code}/board")
    assert stranger.has("table-board")
