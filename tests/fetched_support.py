"""The browser's sync on the host: `DavClient` over httpx (the stand-in for the browser's fetch) against a real
WebDAV server, and a blocking view of it for the `Target` contract tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable
from typing import Any, TypeVar

import httpx

from scorekeeper.store import Store
from scorekeeper.sync.dav_fetch import Answer, DavClient, Fetch, basic_auth
from scorekeeper.sync.fetch_httpx import httpx_fetch
from scorekeeper.sync.fetched import Remote, sync_fetched
from scorekeeper.sync.report import SyncReport

T = TypeVar("T")


def fresh_fetch(timeout: float = 30.0) -> Fetch:
    """A fetch that makes its httpx client per request (each `asyncio.run` has a loop of its own)."""

    async def fetch(method: str, url: str, headers: dict[str, str], body: bytes | None) -> Answer:
        async with httpx.AsyncClient(timeout=timeout) as client:
            return await httpx_fetch(client)(method, url, headers, body)

    return fetch


def client_for(server: Any, folder: str = "sync", *, timeout: float = 30.0) -> DavClient:
    return DavClient(f"{server.url}{folder}/", fresh_fetch(timeout), basic_auth(server.user, server.password))


def run(awaitable: Awaitable[T]) -> T:
    """Await `awaitable` on an event loop of its own, in a thread of its own: a browser test earlier in the same
    process (Playwright's sync API) leaves this thread's loop running, where `asyncio.run` refuses."""
    done: list[T] = []
    failed: list[BaseException] = []

    async def go() -> T:
        return await awaitable

    def thread() -> None:
        try:
            done.append(asyncio.run(go()))
        except BaseException as error:
            failed.append(error)

    worker = threading.Thread(target=thread)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return done[0]


class BlockingDav:
    """`DavClient` as a synchronous `Target` (each call awaited to its end): the contract tests' view."""

    def __init__(self, client: DavClient) -> None:
        self.client, self.name = client, client.name

    def read(self, path: str) -> tuple[bytes, str] | None:
        return run(self.client.read(path))

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        return run(self.client.write(path, data, expect))

    def list(self, folder: str) -> list[str]:
        return run(self.client.list(folder))

    def check(self) -> None:
        run(self.client.check())


class Phone:
    """A device that syncs as the static build does: fetched ahead, synced in memory, pushed."""

    def __init__(self, store: Store, client: DavClient) -> None:
        self.store, self.client, self.remote = store, client, Remote()

    def sync(self) -> SyncReport:
        return run(sync_fetched(self.store, self.client, self.remote))
