"""The sync hub (server/dav_hub.py) behind the project's own proxy files, for real: Debian's Caddy with
`deploy/Caddyfile` (`tls internal`, https on loopback) and Debian's nginx with `deploy/nginx.conf` in front of the
served app with its hub on. Through each: the app's WebDAV client syncs a game from one device to another over
`/sync/` (PROPFIND, MKCOL, PUT with If-Match / If-None-Match, GET, DELETE pass), a browser's GET that accepts
compression still gets the ETag a PUT's If-Match is checked against, a preflight from another origin is answered,
and a visitor gets 401."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sync_support import game

from scorekeeper.bench.fronts import caddy, nginx
from scorekeeper.server import dav_hub
from scorekeeper.server import owner_devices as owners
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.webdav import WebDavTarget
from tests.browser.conftest import free_port, running

pytestmark = pytest.mark.slow


def needs(program: str) -> None:
    if shutil.which(program) is None and not Path(f"/usr/sbin/{program}").exists():
        pytest.skip(f"Debian's {program} is not installed (.ci/run installs it)")


@contextmanager
def hub_behind(proxy: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The served app with its hub on behind `proxy`; yields (the hub's address through the proxy, a token)."""
    needs(proxy)
    data = tmp_path / "data"
    data.mkdir()
    dav_hub.switch(data, True)
    token, _ = owners.devices_of(data).add("phone")
    port = free_port()
    front = caddy if proxy == "caddy" else nginx
    with running(data, port), front(port, tmp_path) as url:
        yield url + "sync/", token


@pytest.mark.parametrize("proxy", ["caddy", "nginx"])
def test_a_game_goes_through_the_hub_behind_the_proxy(proxy: str, tmp_path: Path) -> None:
    with hub_behind(proxy, tmp_path) as (url, token):
        phone, laptop = Store.open(tmp_path / "phone"), Store.open(tmp_path / "laptop")
        try:
            match = game(phone, rounds=3)
            for store in (phone, laptop):
                with WebDavTarget(url, "device", token, timeout=20, verify=False) as target:
                    target.check()
                    sync_once(store, target)
            arrived = laptop.get_match(match.id)
            assert arrived is not None and len(arrived.rounds) == 3
        finally:
            phone.close()
            laptop.close()

        with httpx.Client(verify=False, timeout=20) as client:
            bearer = {"Authorization": f"Bearer {token}"}
            put = client.put(url + "probe.json", headers=bearer | {"If-None-Match": "*"}, content=b"{}" * 500)
            assert put.status_code in (201, 204)
            # a browser asks for compressed answers: the tag it reads must still guard its next write
            got = client.get(url + "probe.json", headers=bearer | {"Accept-Encoding": "gzip"})
            assert got.status_code == 200 and got.content == b"{}" * 500
            again = client.put(
                url + "probe.json", headers=bearer | {"If-Match": got.headers["etag"]}, content=b"[]"
            )
            assert again.status_code in (200, 204), (got.headers, again.status_code)
            assert client.delete(url + "probe.json", headers=bearer).status_code in (200, 204)

            preflight = client.options(
                url + "probe.json",
                headers={
                    "Origin": "https://phone-app.example",
                    "Access-Control-Request-Method": "PROPFIND",
                    "Access-Control-Request-Headers": "authorization, depth",
                },
            )
            assert (
                preflight.status_code == 204
                and "PROPFIND" in preflight.headers["access-control-allow-methods"]
            )
            visitor = client.request("PROPFIND", url, headers={"Depth": "1"})
            assert visitor.status_code == 401
