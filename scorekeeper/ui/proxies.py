"""Who the client is behind a reverse proxy or tunnel, and how many sessions one client may hold.

A proxy (Caddy, nginx) or a tunnel (Tailscale Funnel, Cloudflare Tunnel) on the same machine connects from a
loopback address, so without help every visitor looks like this computer. Proxies say who the visitor is in
`X-Forwarded-For` or `Forwarded` (RFC 7239), but anyone can send those headers, so they are believed only from
the addresses named as trusted proxies (`--trusted-proxy`, or `SCOREKEEPER_TRUSTED_PROXIES`, comma-separated
addresses or networks such as `127.0.0.1` or `10.0.0.0/8`). By default no address is trusted (uvicorn's own
default trusts 127.0.0.1: turned off in server.py, this middleware replaces it). With a trusted proxy the real
client's address is what the wrong-code guard, the session cap and the logs see; rights never come from an
address at all (see permissions.py).

`SessionCap` limits the sessions one client address holds: Flet keeps a session for `session_timeout()`
seconds after its tab closed, so a client opening sockets in a loop would fill the host's memory. A socket counts
while it is open and for the session timeout after it closed; one over `SESSIONS_PER_CLIENT` is refused
(close code 1013, "try again later") before it reaches Flet. Many people behind one home router share an
address, so the cap is generous; `SCOREKEEPER_SESSIONS_PER_CLIENT` changes it.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

TRUSTED_ENV = "SCOREKEEPER_TRUSTED_PROXIES"
SESSIONS_ENV = "SCOREKEEPER_SESSIONS_PER_CLIENT"
TIMEOUT_ENV = "FLET_SESSION_TIMEOUT"
SESSIONS_PER_CLIENT = 60
SESSION_TIMEOUT = 120
"""Seconds Flet keeps a closed tab's session (Flet's default is an hour): a phone that lost its Wi-Fi for less
comes back to the same session; after that a reload brings it back to its seat by the token it keeps."""


def session_timeout() -> int:
    """FLET_SESSION_TIMEOUT when set (Flet reads it too), else SESSION_TIMEOUT."""
    try:
        return max(1, int(os.environ.get(TIMEOUT_ENV, "") or SESSION_TIMEOUT))
    except ValueError:
        return SESSION_TIMEOUT


def parse_networks(text: str | Iterable[str]) -> list[Network]:
    """Addresses and networks from "127.0.0.1, ::1, 10.0.0.0/8"; a bad entry raises ValueError naming it."""
    items = text.split(",") if isinstance(text, str) else list(text)
    networks = []
    for item in (part.strip() for part in items):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"not an address or network: {item!r}") from None
    return networks


def trusted_from_env() -> list[Network]:
    return parse_networks(os.environ.get(TRUSTED_ENV, ""))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address from a forwarded entry: `1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `"[::1]"`; None if not one."""
    value = text.strip().strip('"')
    if value.startswith("["):
        value = value[1 : value.find("]")] if "]" in value else ""
    elif value.count(":") == 1:  # IPv4 with a port (a bare IPv6 address has several colons)
        value = value.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(value.split("%", 1)[0])
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _in(address: Any, networks: list[Network]) -> bool:
    return address is not None and any(address.version == n.version and address in n for n in networks)


def _headers(scope: Scope, name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in scope.get("headers", ()) if key.lower() == name]


def _forwarded(scope: Scope) -> tuple[list[str], str | None]:
    """The `for=` entries (first hop first) and the last `proto=` of the Forwarded headers."""
    hops, proto = [], None
    for header in _headers(scope, b"forwarded"):
        for element in header.split(","):
            for pair in element.split(";"):
                key, _, value = pair.partition("=")
                key = key.strip().lower()
                if key == "for":
                    hops.append(value.strip())
                elif key == "proto":
                    proto = value.strip().strip('"').lower()
    return hops, proto


def real_client(scope: Scope, trusted: list[Network]) -> tuple[str, str | None] | None:
    """(client address, scheme or None) when the peer is a trusted proxy that named the client; else None.

    The chain of hops is read from the right (the hop nearest to us) and trusted proxies are skipped: the first
    address that is not a trusted proxy is the client. A hop that is not an address ("unknown", an obfuscated
    name) ends the walk there: nothing to its left can be checked."""
    peer = scope.get("client")
    if not trusted or not peer or not _in(_address(str(peer[0])), trusted):
        return None
    hops, proto = _forwarded(scope)
    if not hops:
        hops = [
            hop for value in _headers(scope, b"x-forwarded-for") for hop in value.split(",") if hop.strip()
        ]
        forwarded_proto = _headers(scope, b"x-forwarded-proto")
        proto = forwarded_proto[-1].split(",")[-1].strip().lower() if forwarded_proto else None
    client = None
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break
        client = address
        if not _in(address, trusted):
            break
    if client is None:
        return None
    return str(client), proto if proto in ("http", "https") else None


class TrustedProxies:
    """ASGI middleware: the real client's address (and scheme) from a trusted proxy's headers, in place in the
    scope (uvicorn's access log reads the same scope), for HTTP and websockets."""

    def __init__(self, app: ASGIApp, trusted: list[Network] | None = None) -> None:
        self.app = app
        self.trusted = trusted_from_env() if trusted is None else trusted

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            found = real_client(scope, self.trusted)
            if found is not None:
                address, proto = found
                scope["client"] = (address, 0)
                if proto is not None:
                    secure = proto == "https"
                    if scope["type"] == "websocket":
                        scope["scheme"] = "wss" if secure else "ws"
                    else:
                        scope["scheme"] = proto
        await self.app(scope, receive, send)


class SessionCap:
    """ASGI middleware: at most `limit` sessions per client address (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int | None = None,
        hold: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.limit = limit if limit is not None else int(os.environ.get(SESSIONS_ENV, SESSIONS_PER_CLIENT))
        self.hold = hold if hold is not None else float(session_timeout())
        self.clock = clock
        self.open: dict[str, int] = {}
        self.closed: dict[str, deque[float]] = {}

    def count(self, client: str) -> int:
        """Sockets of `client` open now, plus those closed within the hold time (Flet still keeps them)."""
        closed = self.closed.get(client)
        now = self.clock()
        while closed and now - closed[0] >= self.hold:
            closed.popleft()
        if closed is not None and not closed:
            del self.closed[client]
        return self.open.get(client, 0) + len(closed or ())

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        client = str(peer[0]) if peer else "?"
        if self.count(client) >= self.limit:
            log.warning("refused a session: %s holds %d (the cap per client)", client, self.limit)
            await send({"type": "websocket.close", "code": 1013})
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]
            self.closed.setdefault(client, deque()).append(self.clock())
