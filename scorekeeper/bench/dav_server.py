"""Real WebDAV servers for the sync tests and `bench sync`, on loopback: WsgiDAV (from PyPI) served by cheroot, with a thin fault
layer in front, and `rclone serve webdav` (Debian's rclone).

The provider is the hub's own (scorekeeper/server/dav_files.py): WsgiDAV's filesystem provider with whole-file
uploads and ETags in nanoseconds, what Nextcloud, Apache mod_dav and nginx do and what the sync target relies
on. Everything else is WsgiDAV as shipped.

`DavServer.faults` lets a test make the server answer a status (or nothing, until the client gives up) for
chosen requests, so 409, 500, 507 and time-outs come over a real socket from a real server.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cheroot import wsgi
from wsgidav.wsgidav_app import WsgiDAVApp

from scorekeeper.server.dav_files import AtomicFilesystemProvider

USER = "player"
PASSWORD = (
    "s3cret-app-pass\u00e4word"  # non-ASCII on purpose: it must reach the server intact and nowhere else
)

_STATUS_TEXT = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    412: "Precondition Failed",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    507: "Insufficient Storage",
}


@dataclass
class Fault:
    """Answer `status` (or, with status 0, nothing until the test ends: a time-out) for the requests that match
    `method` and contain `path`, after letting `after` of them through, `times` times (None: always)."""

    status: int
    method: str = ""
    path: str = ""
    after: int = 0
    times: int | None = None
    seen: int = 0
    hits: int = 0

    def fires(self, method: str, path: str) -> bool:
        if (self.method and method != self.method) or self.path not in path:
            return False
        self.seen += 1
        if self.seen <= self.after or (self.times is not None and self.hits >= self.times):
            return False
        self.hits += 1
        return True


@dataclass
class FaultLayer:
    """WSGI middleware in front of the real WsgiDAV app; the server behind it stays as it is."""

    app: Callable[..., Iterable[bytes]]
    faults: list[Fault] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        with self.lock:
            fault = next((f for f in self.faults if f.fires(method, path)), None)
        if fault is None:
            return self.app(environ, start_response)
        length = int(environ.get("CONTENT_LENGTH") or 0)
        if length:
            environ["wsgi.input"].read(length)  # the whole request is read, as a real server would
        if fault.status == 0:
            self.release.wait(30)  # no answer until the client has given up (released when the server stops)
            fault_status = 503
        else:
            fault_status = fault.status
        body = f"{fault_status} injected by the test".encode()
        start_response(
            f"{fault_status} {_STATUS_TEXT.get(fault_status, 'Error')}",
            [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))],
        )
        return [body]


@dataclass
class DavServer:
    url: str
    root: Path
    user: str
    password: str
    layer: FaultLayer
    made: list[Any] = field(default_factory=list)  # the targets `target` made, closed with the server

    @property
    def faults(self) -> list[Fault]:
        return self.layer.faults

    def target(self, folder: str = "sync", **kwargs: Any) -> Any:
        from scorekeeper.sync.webdav import WebDavTarget

        kwargs.setdefault("user", self.user)
        kwargs.setdefault("password", self.password)
        kwargs.setdefault("timeout", 5.0)
        made = WebDavTarget(f"{self.url}{folder}", **kwargs)
        self.made.append(made)
        return made

    def close_targets(self) -> None:
        """Close the targets' clients, so that no kept connection outlives the server."""
        while self.made:
            self.made.pop().close()


def _quiet(config: dict) -> dict:
    config.update({"verbose": 0, "logging": {"enable": False, "enable_loggers": []}})
    return config


@contextmanager
def wsgidav_server(base: Path, folders: Iterable[str] = ("sync",)) -> Iterator[DavServer]:
    """A WsgiDAV server on 127.0.0.1 (a free port) over `base/dav` with `folders` made, user `USER`; "/ro/" is
    the same tree read-only (writes answer 403)."""
    root, uploads = base / "dav", base / "dav-uploads"
    root.mkdir(parents=True)
    uploads.mkdir()
    for folder in folders:
        (root / folder).mkdir(parents=True)
    config = _quiet(
        {
            "host": "127.0.0.1",
            "port": 0,
            "provider_mapping": {
                "/ro": AtomicFilesystemProvider(root, uploads, readonly=True),
                "/": AtomicFilesystemProvider(root, uploads),
            },
            "simple_dc": {"user_mapping": {"*": {USER: {"password": PASSWORD}}}},
            "http_authenticator": {"accept_basic": True, "accept_digest": False, "default_to_digest": False},
            "lock_storage": True,
            "dir_browser": {"enable": False},
            "property_manager": None,
        }
    )
    layer = FaultLayer(WsgiDAVApp(config))
    server = wsgi.Server(("127.0.0.1", 0), layer, numthreads=8, timeout=10)
    server.prepare()
    thread = threading.Thread(target=server.serve, name="wsgidav", daemon=True)
    thread.start()
    port = server.bind_addr[1]
    dav = DavServer(f"http://127.0.0.1:{port}/", root, USER, PASSWORD, layer)
    try:
        yield dav
    finally:
        dav.close_targets()
        layer.release.set()
        server.stop()
        thread.join(10)


def free_port() -> int:
    """A free loopback port: the fronts' picker (under pytest-xdist, from the worker's own block)."""
    from scorekeeper.bench.fronts import free_port as pick

    return pick()


@contextmanager
def rclone_server(base: Path, folders: Iterable[str] = ("sync",)) -> Iterator[DavServer]:
    """`rclone serve webdav` over `base/rclone` on 127.0.0.1 (a free port), user `USER`."""
    rclone = shutil.which("rclone")
    if rclone is None:
        raise RuntimeError("rclone is not installed (.ci/run installs it)")
    root = base / "rclone"
    for folder in folders:
        (root / folder).mkdir(parents=True)
    port = free_port()
    process = subprocess.Popen(
        [
            rclone,
            "serve",
            "webdav",
            str(root),
            "--addr",
            f"127.0.0.1:{port}",
            "--user",
            USER,
            "--pass",
            PASSWORD,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "RCLONE_CONFIG": str(base / "rclone.conf")},
    )
    dav = DavServer(f"http://127.0.0.1:{port}/", root, USER, PASSWORD, FaultLayer(_no_app))
    try:
        _wait_for_port(port, process)
        yield dav
    finally:
        dav.close_targets()
        process.terminate()
        process.wait(10)


def _no_app(environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
    raise NotImplementedError("rclone has no fault layer")


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"rclone exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)  # polling for the port to open, not proving anything did not happen
    raise RuntimeError("rclone serve webdav did not start")
