"""`python -m scorekeeper.bench.sync_fetched [--json]`: the browser's sync (sync/fetched.py: fetched ahead, synced
in memory, pushed) beside the served app's (the WebDAV target), against the real WsgiDAV on loopback.

For a store of 10 and of 10,000 matches: a "laptop" (the WebDAV target, as the served app syncs) and a "phone"
(the browser's code, its fetch stood in by httpx: the same requests and bytes as in a browser, but a browser
adds a CORS preflight before a request it has not asked the same address with lately, and Python in the browser
runs slower) each hold the same matches; then one match changes on the laptop and goes to the phone
(`phone_in_*`), and one changes on the phone and goes out (`phone_out_*`). Beside them the same two changes
with a second laptop in the phone's place (`served_in_*`, `served_out_*`): requests, bytes (both ways, headers
included), seconds.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from scorekeeper.bench.dav_server import DavServer, wsgidav_server
from scorekeeper.bench.store import export_text
from scorekeeper.bench.sync import _change_one
from scorekeeper.exchange.transfer import import_json_text
from scorekeeper.store import Store
from scorekeeper.sync.dav_fetch import DavClient, basic_auth
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.fetch_httpx import httpx_fetch
from scorekeeper.sync.fetched import Remote, sync_fetched
from scorekeeper.sync.webdav import WebDavTarget

SIZES = {"10": 10, "10k": 10_000}


class Phone:
    """A store that syncs as the static build does, on one event loop and one httpx client."""

    def __init__(self, store: Store, server: DavServer, folder: str) -> None:
        self.store, self.remote = store, Remote()
        self.loop = asyncio.new_event_loop()
        self.http = httpx.AsyncClient(timeout=300)
        self.client = DavClient(
            f"{server.url}{folder}/", httpx_fetch(self.http), basic_auth(server.user, server.password)
        )

    def sync(self) -> None:
        self.loop.run_until_complete(sync_fetched(self.store, self.client, self.remote))

    def traffic(self) -> tuple[int, int]:
        counts = self.client.counts
        return counts.requests, counts.sent + counts.received

    def close(self) -> None:
        self.loop.run_until_complete(self.http.aclose())
        self.loop.close()


class Served:
    """A store that syncs as the served app does (the WebDAV target)."""

    def __init__(self, store: Store, server: DavServer, folder: str) -> None:
        self.store, self.target = store, server.target(folder, timeout=600)

    def sync(self) -> None:
        sync_once(self.store, self.target)

    def traffic(self) -> tuple[int, int]:
        target: WebDavTarget = self.target
        return target.requests, target.bytes_sent + target.bytes_received

    def close(self) -> None:
        return None


def _measure(traffic: Callable[[], tuple[int, int]], action: Callable[[], Any]) -> tuple[int, int, float]:
    requests, moved = traffic()
    start = time.perf_counter()
    action()
    seconds = time.perf_counter() - start
    after_requests, after_moved = traffic()
    return after_requests - requests, after_moved - moved, round(seconds, 3)


def _size(server: DavServer, root: Path, label: str, matches: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for kind in ("phone", "served"):
        folder = f"{kind}-{label}"
        (server.root / folder).mkdir()
        laptop = Store.open(root / f"{folder}-laptop")
        other = Store.open(root / f"{folder}-other")
        import_json_text(laptop, export_text(matches, seed=matches))
        target = server.target(folder, timeout=600)
        sync_once(laptop, target)
        device: Phone | Served = (
            Phone(other, server, folder) if kind == "phone" else Served(other, server, folder)
        )
        device.sync()  # the first sync: everything
        device.sync()  # its own head as written (the phone's next reads of it are conditional)
        rng = random.Random(matches)
        _change_one(laptop, rng)
        sync_once(laptop, target)
        requests, moved, seconds = _measure(device.traffic, device.sync)
        figures |= {f"{kind}_in_requests_{label}": requests, f"{kind}_in_bytes_{label}": moved}
        figures[f"{kind}_in_s_{label}"] = seconds
        _change_one(other, rng)
        requests, moved, seconds = _measure(device.traffic, device.sync)
        figures |= {f"{kind}_out_requests_{label}": requests, f"{kind}_out_bytes_{label}": moved}
        figures[f"{kind}_out_s_{label}"] = seconds
        device.close()
        for store in (laptop, other):
            store.close()
    return figures


def run(as_json: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, wsgidav_server(Path(tmp) / "server", folders=()) as server:
        for label, matches in SIZES.items():
            figures |= _size(server, Path(tmp), label, matches)
    return {"sync_fetched": figures}


if __name__ == "__main__":
    result = run("--json" in sys.argv)
    print(json.dumps(result, indent=1) if "--json" in sys.argv else result)
