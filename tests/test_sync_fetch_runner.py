"""The static build's automatic sync (sync/fetch_runner.py) on the host's event loop, against the real WsgiDAV: it
syncs at start, a few seconds after a save (and not after its own writes), and while the browser is offline it
makes no request and says so."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fetched_support import client_for, run
from sync_servers import DavServer
from sync_support import game

from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.fetch_runner import FetchRunner
from scorekeeper.sync.runner import SyncStatus


async def until(runner: FetchRunner, done: int) -> SyncStatus:
    """Wait for the `done`-th finished sync (a report or an error)."""
    finished: list[SyncStatus] = []
    arrived = asyncio.Event()

    def heard(status: SyncStatus) -> None:
        if not status.running:
            finished.append(status)
            if len(finished) >= done:
                arrived.set()

    runner.add_listener(heard)
    await asyncio.wait_for(arrived.wait(), 60)
    runner.remove_listener(heard)
    return finished[-1]


def test_it_syncs_at_start_and_after_a_save(webdav_server: DavServer, tmp_path: Path) -> None:
    phone, laptop = Store.open(tmp_path / "phone"), Store.open(tmp_path / "laptop")
    client = client_for(webdav_server)

    async def go() -> None:
        runner = FetchRunner(phone, lambda: client, after_save=0.2, interval=3600)
        game(phone)
        runner.start()
        first = await until(runner, 1)
        assert first.last_error is None and first.last_report is not None
        assert first.last_report.sent > 0
        later = game(phone, seed=5)
        second = await until(runner, 1)  # the save's sync (its own writes asked for none)
        assert second.last_error is None
        runner.stop()
        with webdav_server.target() as target:
            sync_once(laptop, target)
        assert laptop.get_match(later.id) is not None

    try:
        run(go())
    finally:
        phone.close()
        laptop.close()


def test_offline_it_asks_nothing_and_says_so(webdav_server: DavServer, tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    client = client_for(webdav_server)

    async def go() -> None:
        runner = FetchRunner(phone, lambda: client, online=lambda: False, interval=3600, retry=3600)
        runner.start()
        status = await until(runner, 1)
        runner.stop()
        assert status.last_error is not None and "No network" in str(status.last_error)
        assert client.counts.requests == 0

    try:
        run(go())
    finally:
        phone.close()
