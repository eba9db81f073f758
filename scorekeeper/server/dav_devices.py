"""Who may use the sync hub (dav_hub.py), and where each device may write.

- **A paired device's token** (`DeviceTokens`, WsgiDAV's domain controller): HTTP Basic's password, whatever the
  user name (dav_hub.py turns `Authorization: Bearer <token>` into that form first), is looked up among the owner
  devices and the member devices of the data folder (owner_devices.py: kept hashed, compared in constant time).
  Unknown, revoked or unpaired: 401, and the wrong try is counted.
- **Wrong tokens limited** (`WrongTokens`): WRONG_PER_ADDRESS (SCOREKEEPER_HUB_WRONG_PER_ADDRESS) wrong ones a
  minute from one address, then that address waits for the rest of the minute without a comparison;
  WRONG_PER_HOST a minute from all addresses together, then every address that itself sent a wrong one in the
  last minute waits (a paired device that never sent a wrong token is never refused, as the join codes' guard).
- **Each device writes only its own folder** (`DeviceFolders`, a WsgiDAV middleware after the authenticator):
  the sync layout gives every device `devices/<sync id>/` of its own (sync/remote.py). The first paired device
  that writes into such a folder claims it (`<data>/hub-claims.json`, sync id -> pairing id); a write by
  another paired device (PUT, DELETE, MKCOL, MOVE, COPY, PROPPATCH, LOCK: its path or its Destination) is
  refused with 403, and the served app's own sync id (a folder target, written on disk) is nobody else's. So a
  member's phone cannot write in the owner's name, nor remove `devices/` or the hub's root.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from wsgidav.mw.base_mw import BaseMiddleware

from scorekeeper.server import owner_devices as owners
from scorekeeper.store.storage import atomic_write_bytes

log = logging.getLogger(__name__)

WRONG_PER_ADDRESS = 20
WRONG_ENV = "SCOREKEEPER_HUB_WRONG_PER_ADDRESS"
"""Changes WRONG_PER_ADDRESS (the tests send many wrong tokens from one loopback address)."""
WRONG_PER_HOST = 200
WRONG_WINDOW = 60.0
REALM = "scorekeeper"
CLAIMS_FILE = "hub-claims.json"
SERVER = "server"
"""The claim of the served app's own sync id (it writes the hub folder on disk, never over HTTP)."""
WRITES = frozenset({"PUT", "DELETE", "MKCOL", "MOVE", "COPY", "PROPPATCH", "LOCK", "UNLOCK"})


def device_of(data: Path, token: str) -> owners.OwnerDevice | None:
    """The owner or member device that holds `token` now (None: unknown, revoked or unpaired)."""
    if not token:
        return None
    return owners.devices_of(data).check(token) or owners.members_of(data).check(token)


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
        self.hub: Any = config["scorekeeper_hub"]  # dav_hub.Hub: its data folder and its WrongTokens

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


class Claims:
    """Which pairing device owns which device folder of the hub of `data` (see the module docstring)."""

    def __init__(self, data: Path) -> None:
        self.data = Path(data)
        self.path = self.data / CLAIMS_FILE
        self._lock = threading.Lock()

    def _read(self) -> dict[str, str]:
        try:
            doc = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return {}
        claims = doc.get("claims") if isinstance(doc, dict) else None
        return {str(k): str(v) for k, v in claims.items()} if isinstance(claims, dict) else {}

    def _own_sync_id(self) -> str | None:
        try:
            doc = json.loads((self.data / "sync" / "device.json").read_bytes())
        except (OSError, ValueError):
            return None
        found = doc.get("device") if isinstance(doc, dict) else None
        return found if isinstance(found, str) else None

    def take(self, sync_id: str, pairing_id: str) -> bool:
        """True when `pairing_id` may write the folder of `sync_id` (claimed now if nobody had)."""
        if sync_id == self._own_sync_id():
            return pairing_id == SERVER
        with self._lock:
            claims = self._read()
            holder = claims.get(sync_id)
            if holder is not None:
                return holder == pairing_id
            claims[sync_id] = pairing_id
            atomic_write_bytes(self.path, json.dumps({"version": 1, "claims": claims}).encode())
            return True


def _parts(path: str, share: str) -> list[str] | None:
    """The path below the hub's share as parts (None: not below it)."""
    if not (path == share or path.startswith(share + "/")):
        return None
    return [part for part in path[len(share) :].split("/") if part]


def refused_write(method: str, parts: list[str], pairing_id: str, claims: Claims) -> str | None:
    """Why a write to `parts` (below the hub's root) is refused, or None. The root and `devices/` themselves
    are nobody's to remove, replace or move (a device makes `devices/` with MKCOL); a device folder is its
    claimer's."""
    if not parts:
        return "the hub's root"
    if parts[0] != "devices":
        return None  # target.json, a probe file: every paired device may
    if len(parts) == 1:
        return None if method == "MKCOL" else "the devices folder"
    if not claims.take(parts[1], pairing_id):
        return f"another device's folder ({parts[1][:40]})"
    return None


class DeviceFolders(BaseMiddleware):
    """WsgiDAV middleware (after the authenticator): a write only into the writer's own device folder."""

    def __init__(self, wsgidav_app: Any, next_app: Any, config: dict[str, Any]) -> None:
        super().__init__(wsgidav_app, next_app, config)
        self.hub: Any = config["scorekeeper_hub"]
        self.share: str = config["scorekeeper_share"]
        self.claims = Claims(self.hub.data)

    def is_disabled(self) -> bool:
        return False

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "")
        if method in WRITES and method != "UNLOCK":
            pairing_id = environ.get("scorekeeper.device", "")
            # PATH_INFO is below the share already (WsgiDAV resolved it); a Destination is a whole address
            targets: list[tuple[str, list[str] | None]] = [
                (environ.get("PATH_INFO", ""), [p for p in environ.get("PATH_INFO", "").split("/") if p])
            ]
            destination = environ.get("HTTP_DESTINATION")
            if destination:
                path = unquote(urlsplit(destination).path)
                targets.append((path, _parts(path.rstrip("/"), self.share)))
            for path, parts in targets:
                why = (
                    "outside the hub"
                    if parts is None
                    else refused_write(method, parts, pairing_id, self.claims)
                )
                if why is not None:
                    log.warning(
                        "hub: refused %s %s from %s (%s)", method, path, environ.get("REMOTE_ADDR", "?"), why
                    )
                    body = b"A device writes only its own folder.\n"
                    start_response(
                        "403 Forbidden",
                        [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
                    )
                    return [body]
        return self.next_app(environ, start_response)
