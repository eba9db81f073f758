"""The wrong-code guard for a table on the internet: counted per session, per address and host-wide,
on every route that takes a code (join, board, seat); a table's code stops working when its game is over.

Without a browser: `TableHost` with a stepped clock, and in-process guest sessions (the UI harness)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.table import codes
from scorekeeper.table.host import HOST, TableHost, TooManyTries
from scorekeeper.table.table import TableError
from tests.test_server_roles import Device
from tests.test_table import Clock, MemoryStore
from tests.test_table_ui import fresh_host  # noqa: F401  (autouse: no table and no count left behind)

NAT = "203.0.113.9"
"""One public address shared by several people (a home router, a carrier's NAT, a proxy without headers)."""


def wrong(host: TableHost, client: str, address: str | None, times: int, clock: Clock) -> None:
    for _ in range(times):
        with pytest.raises(TableError) as refused:
            host.find("AAAAAA", client, address)
        assert not isinstance(refused.value, TooManyTries)
        clock.now += 0.1


def test_one_persons_typos_do_not_lock_out_the_others_behind_the_same_address() -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    wrong(host, "session:anna", NAT, codes.LIMIT, clock)
    with pytest.raises(TooManyTries):  # one typo too many
        host.find("AAAAAA", "session:anna", NAT)
    with pytest.raises(TooManyTries):  # then the right code too, for a minute
        host.find(table.code, "session:anna", NAT)
    assert host.find(table.code, "session:ben", NAT) is table


def test_many_sessions_of_one_address_stop_at_the_address_ceiling() -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    for n in range(codes.ADDRESS_LIMIT):  # a guesser who takes a new session for every guess
        wrong(host, f"session:{n}", NAT, 1, clock)
    with pytest.raises(TooManyTries):  # a fresh session's first wrong code makes it a guesser at once
        host.find("CCCCCC", "session:new", NAT)
    with pytest.raises(TooManyTries):  # the right code too, for a minute, to that guesser (issue 40)
        host.find(table.code, "session:new", NAT)
    assert host.find(table.code, "session:newer", NAT) is table  # never to a session that did not guess
    assert host.find(table.code, "session:elsewhere", "198.51.100.1") is table
    clock.now += codes.WINDOW
    assert host.find(table.code, "session:new", NAT) is table


def test_many_addresses_together_stop_at_the_host_wide_cap() -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    for n in range(codes.HOST_LIMIT):  # a botnet: every guess from another address
        wrong(host, f"session:{n}", f"10.0.{n // 250}.{n % 250}", 1, clock)
    with pytest.raises(TooManyTries):
        host.find("CCCCCC", "session:one-more", "198.51.100.2")
    with pytest.raises(TooManyTries) as refused:  # every guesser, for a minute, the right code too
        host.find(table.code, "session:one-more", "198.51.100.2")
    assert "at this host" in str(refused.value)
    assert host.find(table.code, "session:late", "198.51.100.1") is table  # not a guesser (issue 40)
    clock.now += codes.WINDOW
    assert host.find(table.code, "session:one-more", "198.51.100.2") is table


def test_the_guard_forgets_old_clients() -> None:
    """A guesser's thousands of sessions do not stay in memory after their window."""
    clock = Clock()
    guard = codes.JoinGuard(clock, host_limit=10**9, address_limit=10**9)
    for n in range(1024):
        guard.wrong(f"session:{n}", f"10.1.{n // 250}.{n % 250}")
        clock.now += 1
    assert len(guard.levels[codes.CLIENT]._wrong) < 2 * codes.WINDOW + 256


def test_a_tables_code_stops_working_when_its_game_is_over() -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {"target": 50}, 2)
    anna, ben = table.claim(0, "Anna"), table.claim(1, "Ben")
    table.start(MemoryStore(), seed=1)
    assert host.find(table.code, "session:x", NAT) is table
    session = table.session
    assert session is not None
    while not session.match_over:  # play the game out: each seat takes from the stock and discards
        if session.round_over:
            table.next_round()  # the host deals the next round (phones keep their result until they move on)
            continue
        seat = session.state.current_player
        token = anna if seat == 0 else ben
        legal = table.payload(seat, token).legal
        table.act(seat, token, next(a for a in ("call", "stock", "discard", 0) if a in legal))
    with pytest.raises(TableError) as over:
        host.find(table.code, "session:x", NAT)
    assert "is over" in str(over.value)
    assert table.seat_of(anna) == 0  # the seated phones keep their seat (and its final screen)


# ---------------------------------------------------------------------- the routes, in-process
def guest(tmp_path: Path, name: str, address: str = NAT) -> Device:
    folder = tmp_path / name
    folder.mkdir()
    device = Device(folder, address)
    device.ctx.guest = True  # whatever decides it (address, owner token): these are visitors
    return device


@pytest.mark.slow
@pytest.mark.parametrize("route", ["/table/{code}/board", "/table/{code}/seat", "/join/{code}"])
def test_every_route_that_takes_a_code_is_guarded(tmp_path: Path, route: str) -> None:
    """The board and seat routes answered wrong codes without limit ("This table was not found."); now every
    route counts them, and the right code is refused too once a session is over its limit."""
    table = HOST.create("racko", {}, 2)
    guesser = guest(tmp_path, "guesser")
    for _ in range(codes.LIMIT):
        guesser.go(route.format(code="CCCCCC"))
        assert "Too many" not in guesser.screen_text()
    guesser.go(route.format(code="CCCCCC"))
    guesser.go(route.format(code=table.code))
    assert "Too many wrong codes" in guesser.screen_text()
    neighbour = guest(tmp_path, "neighbour")  # same address, another person: not locked out
    neighbour.go(route.format(code=table.code))
    assert "Too many" not in neighbour.screen_text()
    assert "not found" not in neighbour.screen_text()
