"""Sessions come and go without leaving files open or memory behind.

A real server (`run(web=True)`) is sent 100 sessions by a websocket client that speaks Flet's protocol as the
browser does (register, receive the first screen, close). The server keeps a disconnected session for
FLET_SESSION_TIMEOUT seconds (so a reloaded tab can come back to it); here that is 1 s, and the test waits
until the sessions are gone, then compares the server's open files and memory with the figures before."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest
from websockets.sync.client import connect

from tests.browser.conftest import free_port, running

SESSIONS = 100
ROUNDS = 3
WARM_UP = 200  # the allocator's pools, imports and caches grow during the first sessions, then stay


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def one_session(ws_url: str) -> None:
    """Register as a new browser tab on the home route, wait for the first screen, leave."""
    page = {"route": "/", "width": 390.0, "height": 844.0, "web": True, "platform": "android"}
    with connect(ws_url, max_size=None, open_timeout=30) as socket:
        socket.send(b"\x00" + msgpack.packb([1, {"session_id": None, "page_name": "", "page": page}]))
        received = 0
        deadline = time.monotonic() + 30
        while received < 2 and time.monotonic() < deadline:  # the registration answer, then the home screen
            socket.recv(timeout=30)
            received += 1


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, str]]:
    monkeypatch.setenv("FLET_SESSION_TIMEOUT", "1")
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    with running(data, port) as process:
        yield process.pid, f"ws://127.0.0.1:{port}/ws"


EVICTION = 12.0  # Flet evicts disconnected sessions every 10 s, here 1 s after they disconnect


def settled(pid: int, files: int, memory: int, timeout: float = 60.0) -> tuple[int, int]:
    """Wait until open files and memory are back to (`files`, `memory` + 20 MiB) or the time is up; returns
    the last (files, memory) seen."""
    deadline = time.monotonic() + timeout
    now = open_files(pid), resident_kib(pid)
    while (now[0] > files or now[1] - memory >= ALLOWED_GROWTH_KIB) and time.monotonic() < deadline:
        time.sleep(0.5)
        now = open_files(pid), resident_kib(pid)
    return now


# A leak of ~1 MB per session (a store each) would be 100 MB, one of ~130 KB (sessions never evicted) 13 MB.
ALLOWED_GROWTH_KIB = 6 * 1024


@pytest.mark.slow
def test_hundred_sessions_leave_nothing_behind(server: tuple[int, str]) -> None:
    """Rounds of 100 sessions: open files are back to the count before after every round, and memory stops
    growing (Python keeps its high-water mark, so a round may grow a little while the allocator warms up; a
    leak grows every round by the same amount: 13 MB per round before the fix)."""
    pid, ws_url = server
    for _ in range(WARM_UP):  # imports, caches and the thread pool are made once
        one_session(ws_url)
    time.sleep(EVICTION)  # let the warm-up sessions be evicted, so "before" is a server with no session
    files_before, memory_before = open_files(pid), resident_kib(pid)
    growths = []
    for _ in range(ROUNDS):
        for _ in range(SESSIONS):
            one_session(ws_url)
        files_after, memory_after = settled(pid, files_before, memory_before)
        time.sleep(EVICTION)  # the round's sessions are evicted before the next measurement
        memory_after = resident_kib(pid)
        print(
            f"open files {files_before} -> {files_after}, resident memory {memory_before} -> {memory_after} KiB"
        )
        assert files_after <= files_before
        growths.append(memory_after - memory_before)
        if growths[-1] < ALLOWED_GROWTH_KIB:
            break
        memory_before = memory_after
    assert growths[-1] < ALLOWED_GROWTH_KIB, growths
