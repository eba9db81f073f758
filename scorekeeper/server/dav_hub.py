"""The owner's own server as a sync hub: a WebDAV endpoint at `/sync/` that the owner's and members' paired devices
sync with, each by its own device token.

What it is: WsgiDAV (a well-kept WebDAV server library) over the hub folder `<data>/hub/` (the layout of any sync
target: target.json, devices/<id>/...), as a WSGI app inside the served app's ASGI app through a2wsgi. The served
app is itself one device of the fleet: while the hub is on, its own data folder syncs with the hub folder as a
folder target (`hub_setting`, asked by sync_runtime) unless the owner set another target, and a device's new head
on the hub asks it to sync at once (`nudge`).

The rules:
- **Off by default.** The owner switches it on in Settings, Sync (`switch`: `<data>/sync-hub.json`, never in the
  synced or exported data); while off, every request under `/sync/` is answered 404 and nothing is read.
- **Only paired devices.** Every request but a CORS preflight needs a device token: HTTP Basic with the token as
  password (any user name: the WebDAV client of the app, sync/webdav.py, sends "device"), or
  `Authorization: Bearer <token>` (a browser's fetch). The check is WsgiDAV's domain controller
  (`DeviceTokens`), which asks the owner devices and the member devices of the data folder
  (owner_devices.py: tokens kept hashed, compared in constant time). A visitor, a wrong token, a device whose
  pairing was revoked or a member unpaired gets 401 for every method, nothing listed or written.
- **Wrong tokens are limited** (`WrongTokens`): WRONG_PER_ADDRESS (SCOREKEEPER_HUB_WRONG_PER_ADDRESS) wrong ones a minute from one address, then
  that address gets 429 for the rest of the minute without a comparison; WRONG_PER_HOST a minute from all
  addresses together, then every address that itself sent a wrong one in the last minute gets 429 (a paired
  device that never sent a wrong token is never refused, as the join codes' guard). A token is 256 random
  bits: the limit keeps the log and the processor calm, guessing finds nothing anyway.
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
import binascii
import json
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from scorekeeper.server import owner_devices as owners
from scorekeeper.store.photo_pixels import MAX_PHOTO_BYTES
from scorekeeper.store.storage import atomic_write_bytes
from scorekeeper.sync.remote import MAX_FILE_BYTES

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PATH = "/sync"
"""Where the hub is served: `https://<host>/sync/` is the address a device enters."""
FOLDER = "hub"
"""The hub folder in the data folder."""
UPLOADS = "hub-uploads"
"""Where an upload waits until it is whole (beside the hub folder: one file system, so a rename is atomic)."""
STATE_FILE = "sync-hub.json"
MAX_BODY_BYTES = max(MAX_FILE_BYTES, MAX_PHOTO_BYTES)
WRONG_PER_ADDRESS = 20
WRONG_ENV = "SCOREKEEPER_HUB_WRONG_PER_ADDRESS"
"""Changes WRONG_PER_ADDRESS (the tests send many wrong tokens from one loopback address)."""
WRONG_PER_HOST = 200
WRONG_WINDOW = 60.0
REALM = "scorekeeper"
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


def device_of(data: Path, token: str) -> owners.OwnerDevice | None:
    """The owner or member device that holds `token` now (None: unknown, revoked or unpaired)."""
    if not token:
        return None
    return owners.devices_of(data).check(token) or owners.members_of(data).check(token)


# The served app as a device of the fleet


def hub_setting(store: Any) -> Any:
    """The folder target the served app syncs with while the hub is on and no other target is set (a
    sync_runtime.TargetSetting), else None; from then on another device's news on the hub asks this store's
    sync to run at once."""
    from scorekeeper.server import sync_runtime

    data = getattr(store, "data_dir", None)
    if data is None or getattr(store, "read_only", False) or not is_on(Path(data)):
        return None
    kept = weakref.ref(store)

    def sync_now() -> None:
        alive = kept()
        running = sync_runtime.running_for(alive) if alive is not None else None
        if running is not None:
            running.sync_now()

    on_news(Path(data), sync_now)
    return sync_runtime.TargetSetting(str(hub_folder(Path(data))), "")


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


# Who may come in


class WrongTokens:
    """Wrong tokens per address and for the whole host within WRONG_WINDOW seconds (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, per_address: int | None = None) -> None:
        self._clock = clock
        try:
            self.per_address = per_address or int(os.environ.get(WRONG_ENV, "") or WRONG_PER_ADDRESS)
        except ValueError:
            self.per_address = WRONG_PER_ADDRESS
        self._lock = threading.Lock()
        self._by_address: dict[str, deque[float]] = {}
        self._host: deque[float] = deque()

    def _trim(self, now: float) -> None:
        while self._host and now - self._host[0] >= WRONG_WINDOW:
            self._host.popleft()
        for address, times in list(self._by_address.items()):
            while times and now - times[0] >= WRONG_WINDOW:
                times.popleft()
            if not times:
                del self._by_address[address]

    def refused_for(self, address: str) -> float:
        """Seconds until `address` may try again (0: now)."""
        with self._lock:
            now = self._clock()
            self._trim(now)
            mine = self._by_address.get(address)
            if not mine:
                return 0.0
            if len(mine) >= self.per_address:
                return mine[-self.per_address] + WRONG_WINDOW - now
            if len(self._host) >= WRONG_PER_HOST:
                return self._host[-WRONG_PER_HOST] + WRONG_WINDOW - now
            return 0.0

    def wrong(self, address: str) -> None:
        with self._lock:
            now = self._clock()
            self._by_address.setdefault(address, deque()).append(now)
            self._host.append(now)


class DeviceTokens:
    """WsgiDAV's domain controller for the hub: the password of HTTP Basic is a paired device's token."""

    def __init__(self, wsgidav_app: Any, config: dict[str, Any]) -> None:
        self.hub: Hub = config["scorekeeper_hub"]

    def __str__(self) -> str:
        return "DeviceTokens()"

    def get_domain_realm(self, path_info: str, environ: dict[str, Any] | None) -> str:
        return REALM

    def require_authentication(self, realm: str, environ: dict[str, Any] | None) -> bool:
        return True  # nothing is anonymous, not even at the start's check of the shares

    def is_share_anonymous(self, path_info: str) -> bool:
        return False

    def supports_http_digest_auth(self) -> bool:
        return False

    def basic_auth_user(self, realm: str, user_name: str, password: str, environ: dict[str, Any]) -> bool:
        device = device_of(self.hub.data, password)
        address = environ.get("REMOTE_ADDR", "?")
        if device is None:
            self.hub.wrong.wrong(address)
            log.warning(
                "hub: refused %s %s from %s (no paired device holds that token)",
                environ.get("REQUEST_METHOD"),
                environ.get("PATH_INFO"),
                address,
            )
            return False
        environ["scorekeeper.device"] = device.id
        return True

    def digest_auth_user(self, realm: str, user_name: str, environ: dict[str, Any]) -> bool:
        return False


# The ASGI side


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def device_token(authorization: str | None) -> str | None:
    """The token in an Authorization header: Basic's password (any user name) or Bearer's token; None when
    there is none or the header cannot be read."""
    if not authorization:
        return None
    method, _, value = authorization.strip().partition(" ")
    value = value.strip()
    if method.lower() == "bearer":
        return value or None
    if method.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    _user, colon, password = decoded.partition(":")
    return password if colon and password else None


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
                config = {
                    "provider_mapping": {PATH: provider},
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
                    "cors": {},  # ours (every answer of the hub, also those WsgiDAV never sees)
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
