"""A visitor is a visitor, driven the way an attacker drives it: a websocket client that speaks Flet's protocol
to the real served app (as scorekeeper/bench/host.py's devices do) and registers on whatever route it likes.

A live digital table is started in the data folder before the server starts (its saved game carries the table);
the server brings it back. Then a visitor asks for the host's screens in other spellings and for the table's
saved game as a play screen; a member (a member device's token in its storage) and the owner (the owner token
of the test server) ask for the same. What each receives is read from the frames the server sends: the tagged
controls' identifiers are in them as text."""

from __future__ import annotations

import time
from collections.abc import Iterator

import msgpack
import pytest
from websockets.sync.client import connect

from scorekeeper.bench.owner_harness import OWNER_TOKEN
from scorekeeper.server import owner_devices as owners
from scorekeeper.server.owner_session import DEVICE_KEY, LINK_KEY, MEMBER_DEVICE_KEY
from scorekeeper.store import Store
from scorekeeper.table.table import Table
from tests.browser.conftest import served

CODE = "ACDEFG"


class Visit:
    """One browser tab as the server sees it: registers on `route`, keeps every frame, answers the server's
    calls to the browser's storage from `storage`."""

    def __init__(self, url: str, route: str, storage: dict[str, str] | None = None) -> None:
        self.url, self.route, self.storage = url, route, dict(storage or {})
        self.frames: list[bytes] = []

    def answer(self, body: dict) -> object:
        args = body.get("args") or {}
        if body.get("name") == "get":
            return self.storage.get(str(args.get("key")))
        return True if body.get("name") in ("set", "remove") else None

    def run(self, until: tuple[bytes, ...], seconds: float = 20.0) -> bytes:
        """Register, then read frames until one of `until` was received (or `seconds` passed); all received."""
        socket_url = self.url.replace("http://", "ws://").rstrip("/") + "/ws"
        page = {"route": self.route, "width": 390.0, "height": 844.0, "web": True, "platform": "android"}
        deadline = time.monotonic() + seconds
        with connect(socket_url, max_size=None, open_timeout=20) as socket:
            socket.send(b"\x00" + msgpack.packb([1, {"session_id": None, "page_name": "", "page": page}]))
            while time.monotonic() < deadline and not any(mark in self.received for mark in until):
                try:
                    frame = socket.recv(timeout=max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    break
                if not isinstance(frame, bytes):
                    continue
                self.frames.append(frame)
                message = msgpack.unpackb(frame[1:], strict_map_key=False) if frame[:1] == b"\x00" else None
                if message and message[0] == 5:  # the server calls the browser (storage, wake lock): answer
                    body = message[1]
                    reply = {"control_id": body["control_id"], "call_id": body["call_id"]}
                    reply |= {"result": self.answer(body), "error": None}
                    socket.send(b"\x00" + msgpack.packb([5, reply]))
        return self.received

    @property
    def received(self) -> bytes:
        return b"".join(self.frames)


@pytest.fixture(scope="module")
def live_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """(the server's URL, the table's saved game id, a member device's token): a started two-seat table."""
    data = tmp_path_factory.mktemp("routes") / "data"
    store = Store.open(str(data))
    table = Table(CODE, "racko", {"two_player_rule": False}, 2)
    table.claim(0, "Anna")
    table.claim(1, "Ben")
    saved_id = table.start(store, seed=7).saved.id
    store.close()
    member_token, _ = owners.members_of(data).add("a member's phone")
    with served(data) as url:
        yield url, saved_id, member_token


MEMBER = "member"
VISITOR = "visitor"
OWNER = "owner"


def storage_of(who: str, member_token: str) -> dict[str, str]:
    if who == MEMBER:
        return {MEMBER_DEVICE_KEY: member_token}
    if who == OWNER:
        return {LINK_KEY: OWNER_TOKEN}
    return {}


@pytest.mark.parametrize(
    "route", ["//table/new", "/table/new/", f"//table/{CODE}", f"/table/{CODE}//", "/TABLE/new"]
)
def test_a_visitor_gets_the_join_page_for_the_host_screens_in_any_spelling(live_table, route: str) -> None:
    url, _, _ = live_table
    received = Visit(url, route).run(until=(b"join-code",))
    assert b"join-code" in received
    for host_only in (b"table-code", b"free-1", b"start-table", b"computer-1", b"host-table"):
        assert host_only not in received, host_only
    # not even the code: the address pushed is the join page's (the register answer only echoes the route the
    # visitor sent itself)
    visit = Visit(url, route)
    visit.run(until=(b"join-code",))
    assert CODE.encode() not in b"".join(visit.frames[1:])


def test_a_visitor_never_opens_a_tables_game_as_pass_and_play(live_table) -> None:
    url, saved_id, _ = live_table
    received = Visit(url, f"/play/{saved_id}").run(until=(b"join-code",))
    assert b"join-code" in received
    for seen in (b"reveal", b"play-panel", b"table-panel", b"act-", b"Anna"):
        assert seen not in received, seen


def test_a_member_is_told_where_a_tables_game_is_played(live_table) -> None:
    url, saved_id, member_token = live_table
    received = Visit(url, f"/play/{saved_id}", storage_of(MEMBER, member_token)).run(
        until=(b"played-at-table",)
    )
    assert b"played-at-table" in received
    for seen in (b"reveal", b"play-panel", b"table-panel", b"act-"):
        assert seen not in received, seen


def test_home_lists_a_tables_game_to_the_owner_only(live_table) -> None:
    url, saved_id, member_token = live_table
    mark = f"resume-{saved_id}".encode()
    member_home = Visit(url, "/", storage_of(MEMBER, member_token)).run(until=(b"play-racko",))
    assert b"play-racko" in member_home and mark not in member_home
    owner_home = Visit(url, "/", storage_of(OWNER, member_token)).run(until=(mark,))
    assert mark in owner_home


def test_the_owner_is_taken_to_the_lobby_of_a_tables_game(live_table) -> None:
    url, saved_id, member_token = live_table
    received = Visit(url, f"/play/{saved_id}", storage_of(OWNER, member_token)).run(until=(b"table-code",))
    assert b"table-code" in received and b"reveal" not in received


def test_a_member_device_that_was_unpaired_is_a_visitor(live_table) -> None:
    url, _, member_token = live_table
    received = Visit(url, "/history", {MEMBER_DEVICE_KEY: "x" + member_token}).run(until=(b"join-code",))
    assert b"join-code" in received and b"history" not in received.lower().replace(b"/history", b"")


def test_the_owner_storage_keys_are_the_pages(live_table) -> None:
    """The keys this test hands the server are the ones the page and the app use."""
    assert (LINK_KEY, DEVICE_KEY) == ("scorekeeper.owner_link", "scorekeeper.owner_device")
