"""The served app with its sync hub on (server/dav_hub.py), on loopback, as a WebDAV server for `bench sync`: the
app started as `main.py --web` starts it (uvicorn, the Flet app, every middleware), an owner device paired for
the benchmark's devices, whose token is their password. The same `DavServer` shape as the WsgiDAV-on-cheroot
server (dav_server.py): the hub folder is its root, a benchmark's folder a sub-folder of the hub."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scorekeeper.bench.dav_server import DavServer, FaultLayer, _no_app, free_port
from scorekeeper.bench.fronts import stop, wait_answer

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def hub_server(base: Path) -> Iterator[DavServer]:
    """The app serving `base/data` on 127.0.0.1 (a free port) with its hub on; user "device", password an owner
    device's token."""
    from scorekeeper.server import dav_hub
    from scorekeeper.server import owner_devices as owners

    data = base / "data"
    data.mkdir(parents=True)
    dav_hub.switch(data, True)
    token, _ = owners.OwnerDevices(data).add("bench")
    port = free_port()
    env = {
        **os.environ,
        "FLET_FORCE_WEB_SERVER": "1",
        "FLET_WEB_NO_CDN": "1",
        "SCOREKEEPER_SESSIONS_PER_CLIENT": "100000",
    }
    code = f"from scorekeeper.ui.app import run; run(True, '127.0.0.1', {port}, {str(data)!r})"
    with open(base / "server.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    dav = DavServer(f"{url}{dav_hub.PATH}/", dav_hub.hub_folder(data), "device", token, FaultLayer(_no_app))
    try:
        wait_answer(url + "/")
        yield dav
    finally:
        dav.close_targets()
        stop(process)
