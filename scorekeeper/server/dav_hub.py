"""The owner's own server as a sync hub: a WebDAV endpoint at `/sync/` that the owner's and members' paired devices
sync with, each by its own device token.

What it is: WsgiDAV (a well-kept WebDAV server library) over the hub folder `<data>/hub/` (the layout of any sync
target: target.json, devices/<id>/...), as a WSGI app inside the served app's ASGI app through a2wsgi. The served
app is itself one device of the fleet: while the hub is on, its own data folder syncs with the hub folder as a
folder target (`hub_of`, asked by sync_runtime) unless the owner set another target, and a device's new head
on the hub asks it to sync at once (`nudge`).

The rules:
- **Off by default.** The owner switches it on in Settings, Sync (`switch`: `<data>/sync-hub.json`, never in the
  synced or exported data); while off, every request under `/sync/` is answered 404 and nothing is read.
- **Only paired devices, each in its own folder** (dav_devices.py): every request but a CORS preflight needs
  a paired owner or member device's token, as HTTP Basic's password (any user name: the app's WebDAV client,
  sync/webdav.py, sends "device") or as `Authorization: Bearer <token>` (a browser's fetch), checked by
  WsgiDAV's domain controller. A visitor, a wrong token, a revoked owner device or an unpaired member gets 401
  for every method, nothing listed or written; too many wrong tokens from one address get 429 for a while; a
  device writes only the device folder it claimed first (403 elsewhere).
- **Bodies are limited** to MAX_BODY_BYTES (a sync file's limit, remote.MAX_FILE_BYTES, or a photo's,
  whichever is larger): a larger Content-Length is answered 413 before a byte is read; a body without a length
  (chunked) 411.
- **Logged like every route**: uvicorn's access log has each request (no query string, never a header); a
  refusal adds a line with the method, the path, the client address and why, never the token.
- **CORS** (a static build served from another origin syncs from the browser): the token travels in a header,
  never a cookie, so any origin may ask (`Access-Control-Allow-Origin: *`, no credentials); a preflight is
  answered for the WebDAV methods and the headers the sync target sends, and the ETag (the engine's version
  tag), DAV and Content-Length are exposed to the page.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scorekeeper.server.dav_devices import REALM, DeviceFolders, DeviceTokens, WrongTokens, device_token
from scorekeeper.store.photo_pixels import MAX_PHOTO_BYTES
from scorekeeper.store.storage import atomic_write_bytes
from scorekeeper.sync.remote import MAX_FILE_BYTES

log = logging.getLogger(__name__)


PATH = "/sync"
"""Where the hub is served: `https://<host>/sync/` is the address a device enters."""
FOLDER = "hub"
"""The hub folder in the data folder."""
UPLOADS = "hub-uploads"
"""Where an upload waits until it is whole (beside the hub folder: one file system, so a rename is atomic)."""
STATE_FILE = "sync-hub.json"
MAX_BODY_BYTES = max(MAX_FILE_BYTES, MAX_PHOTO_BYTES)
DAV_METHODS = ("OPTIONS", "GET", "HEAD", "PUT", "DELETE", "PROPFIND", "MKCOL", "MOVE", "COPY")
CORS_REQUEST_HEADERS = (
    "Authorization",
    "Content-Type",
    "Depth",
    "Destination",
    "If-Match",
    "If-None-Match",
    "Overwrite",
)
CORS_EXPOSED = ("ETag", "DAV", "Content-Length", "WWW-Authenticate", "Retry-After")
CORS_MAX_AGE = 600


def hub_folder(data: Path) -> Path:
    return Path(data) / FOLDER


def is_on(data: Path) -> bool:
    """Whether the owner has switched the hub on for this data folder (an unreadable file: off)."""
    try:
        doc = json.loads((Path(data) / STATE_FILE).read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("on") is True


def switch(data: Path, on: bool) -> None:
    """Switch the hub on or off (on: its folders are made, the owner's only). The hub folder stays as it is
    when switched off: switched on again, the devices find their files."""
    data = Path(data)
    if on:
        for folder in (hub_folder(data), data / UPLOADS):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    atomic_write_bytes(data / STATE_FILE, json.dumps({"version": 1, "on": on}).encode())


# The served app as a device of the fleet


def hub_of(store: Any, nudge: Callable[[Any], Any]) -> Path | None:
    """The hub folder the served app's `store` syncs with while the hub is on (None: off, or a store that
    cannot write); from then on another device's news on the hub calls `nudge(store)` (sync_runtime.hub_target:
    a sync at once)."""
    data = getattr(store, "data_dir", None)
    if data is None or getattr(store, "read_only", False) or not is_on(Path(data)):
        return None
    kept = weakref.ref(store)

    def news() -> None:
        alive = kept()
        if alive is not None:
            nudge(alive)

    on_news(Path(data), news)
    return hub_folder(Path(data))


_nudges: dict[str, Callable[[], Any]] = {}


def on_news(data: Path, nudge: Callable[[], Any] | None) -> None:
    """`nudge` is called when another device wrote its head to the hub of `data` (None: no longer)."""
    key = str(Path(data).resolve())
    if nudge is None:
        _nudges.pop(key, None)
    else:
        _nudges[key] = nudge


def nudge(data: Path) -> None:
    found = _nudges.get(str(Path(data).resolve()))
    if found is not None:
        try:
            found()
        except Exception:  # the sync says its own failures in Settings
            log.info("the hub could not ask for a sync")


# The ASGI side


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _cors_headers(preflight: bool) -> list[tuple[bytes, bytes]]:
    headers = [(b"access-control-allow-origin", b"*")]
    if preflight:
        headers += [
            (b"access-control-allow-methods", ", ".join(DAV_METHODS).encode()),
            (b"access-control-allow-headers", ", ".join(CORS_REQUEST_HEADERS).encode()),
            (b"access-control-max-age", str(CORS_MAX_AGE).encode()),
        ]
    else:
        headers.append((b"access-control-expose-headers", ", ".join(CORS_EXPOSED).encode()))
    return headers


def in_hub(path: str) -> bool:
    return path == PATH or path.startswith(PATH + "/")


class Hub:
    """The hub of one data folder as an ASGI app for the paths under PATH (see the module docstring)."""

    def __init__(self, data: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self.data = Path(data)
        self.wrong = WrongTokens(clock)
        self._wsgi: Any = None
        self._lock = threading.Lock()

    def _dav(self) -> Any:
        """WsgiDAV behind a2wsgi, made at the first request while the hub is on (its folders exist then)."""
        with self._lock:
            if self._wsgi is None:
                from a2wsgi import WSGIMiddleware
                from wsgidav.wsgidav_app import WsgiDAVApp

                from scorekeeper.server.dav_files import AtomicFilesystemProvider

                for folder in (hub_folder(self.data), self.data / UPLOADS):
                    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                provider = AtomicFilesystemProvider(hub_folder(self.data), self.data / UPLOADS)
                from wsgidav.error_printer import ErrorPrinter
                from wsgidav.http_authenticator import HTTPAuthenticator
                from wsgidav.request_resolver import RequestResolver

                config = {
                    "provider_mapping": {PATH: provider},
                    # WsgiDAV's own stack without its CORS and directory browser, and with the device folders'
                    # check after the authenticator (dav_devices.py)
                    "middleware_stack": [ErrorPrinter, HTTPAuthenticator, DeviceFolders, RequestResolver],
                    "scorekeeper_share": PATH,
                    "http_authenticator": {
                        "domain_controller": DeviceTokens,
                        "accept_basic": True,
                        "accept_digest": False,
                        "default_to_digest": False,
                    },
                    "scorekeeper_hub": self,
                    "lock_storage": True,
                    "property_manager": None,
                    "dir_browser": {"enable": False},
                    "verbose": 0,
                    "logging": {"enable": False, "enable_loggers": []},
                }
                self._wsgi = WSGIMiddleware(WsgiDAVApp(config), workers=8)
            return self._wsgi

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = str(scope.get("method", "")).upper()
        peer = scope.get("client")
        address = str(peer[0]) if peer else "?"
        if method == "OPTIONS" and _header(scope, b"access-control-request-method") is not None:
            await _answer(send, 204, _cors_headers(preflight=True))  # a preflight never carries a token
            return
        if not is_on(self.data):
            await _answer(send, 404, _cors_headers(False), b"No sync hub here.\n")
            return
        wait = self.wrong.refused_for(address)
        if wait > 0:
            log.warning(
                "hub: refused %s %s from %s (too many wrong tokens)", method, scope.get("path"), address
            )
            retry = [(b"retry-after", str(max(1, round(wait))).encode())]
            await _answer(send, 429, _cors_headers(False) + retry, b"Too many wrong tokens. Wait a minute.\n")
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > MAX_BODY_BYTES):
            log.warning(
                "hub: refused %s %s from %s (body over the limit)", method, scope.get("path"), address
            )
            await _answer(send, 413, _cors_headers(False), b"The file is too large.\n")
            return
        if length is None and _header(scope, b"transfer-encoding") is not None:
            await _answer(send, 411, _cors_headers(False), b"A length is needed.\n")
            return
        authorization = _header(scope, b"authorization")
        token = device_token(authorization)
        # A browser (a fetch: it sends an Origin, or a Bearer token) is asked for a Bearer token: Basic there
        # would open the browser's own login box on the app's page.
        browser = _header(scope, b"origin") is not None or (authorization or "").lower().startswith("bearer")
        headers = [(k, v) for k, v in scope.get("headers", ()) if k.lower() != b"authorization"]
        if token is not None:  # one form for WsgiDAV: Basic with the token as password
            basic = base64.b64encode(f"device:{token}".encode()).decode()
            headers.append((b"authorization", f"Basic {basic}".encode("latin-1")))
        inner = {**scope, "headers": headers}
        status = 0

        async def send_with_cors(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                kept = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    # uvicorn adds its own Date; the CORS headers are ours
                    if not k.lower().startswith(b"access-control-") and k.lower() != b"date"
                ]
                if browser:
                    kept = [
                        (k, f'Bearer realm="{REALM}"'.encode() if k.lower() == b"www-authenticate" else v)
                        for k, v in kept
                    ]
                message["headers"] = kept + _cors_headers(False)
            await send(message)

        await self._dav()(inner, receive, send_with_cors)
        if (
            method == "PUT"
            and status in (200, 201, 204)
            and str(scope.get("path", "")).endswith("/head.json")
        ):
            nudge(self.data)  # another device's news: the served app syncs at once


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes = b"") -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                *headers,
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HubRoutes:
    """ASGI: the paths under PATH go to the hub, everything else to `app`."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and in_hub(str(scope.get("path", ""))):
            await self.hub(scope, receive, send)
            return
        await self.app(scope, receive, send)
