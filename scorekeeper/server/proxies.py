"""Who the client is behind a reverse proxy or tunnel, and how many sessions one client may hold.

A proxy (Caddy, nginx) or a tunnel (Tailscale Funnel, Cloudflare Tunnel) on the same machine connects from a
loopback address, so without help every visitor looks like this computer. Proxies say who the visitor is in
`X-Forwarded-For`, but anyone can send that header, so it is believed only from the addresses named as trusted
proxies (`--trusted-proxy`, or `SCOREKEEPER_TRUSTED_PROXIES`, comma-separated addresses or networks such as
`127.0.0.1` or `10.0.0.0/8`). By default no address is trusted (uvicorn's own
default trusts 127.0.0.1: turned off in server.py, this middleware replaces it). With a trusted proxy the real
client's address is what the wrong-code guard, the session cap and the logs see; rights never come from an
address at all (see permissions.py). RFC 7239's `Forwarded` header is not read at all: Caddy and nginx pass a
visitor's own through by default (the files in deploy/ remove it), so `for=` there could be anyone's choice.

`SessionCap` limits the sessions one client address holds: Flet keeps a session for `session_timeout()`
seconds after its tab closed, so a client opening sockets in a loop would fill the host's memory. A socket counts
while it is open and, once it has registered a session, for the session timeout after it closed; one over
`SESSIONS_PER_CLIENT` is refused (close code 1013, "try again later") before it reaches Flet. A socket that sends
no REGISTER within `REGISTER_TIMEOUT` seconds, or something else first, is closed and its slot freed. Many people
behind one home router share an address, so the cap is generous; `SCOREKEEPER_SESSIONS_PER_CLIENT` changes it.
"""

from __future__ import annotations

import asyncio
import contextlib
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
REGISTER_ENV = "SCOREKEEPER_REGISTER_TIMEOUT"
SESSION_TIMEOUT = 120
"""Seconds Flet keeps a closed tab's session (Flet's default is an hour): a phone that lost its Wi-Fi for less
comes back to the same session; after that a reload brings it back to its seat by the token it keeps."""


REGISTER_TIMEOUT = 10.0
"""Seconds a websocket may stay open without sending Flet's REGISTER (a browser sends it at once): then the
server closes it (SCOREKEEPER_REGISTER_TIMEOUT changes it; tests use that)."""
GRACE = 10.0
"""Seconds Flet gets to end a registered socket's call by itself once the client is gone (it takes
milliseconds); then the call is cancelled."""


def register_timeout() -> float:
    """SCOREKEEPER_REGISTER_TIMEOUT when set, else REGISTER_TIMEOUT."""
    try:
        return max(0.1, float(os.environ.get(REGISTER_ENV, "") or REGISTER_TIMEOUT))
    except ValueError:
        return REGISTER_TIMEOUT


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


def real_client(scope: Scope, trusted: list[Network]) -> tuple[str, str | None] | None:
    """(client address, scheme or None) when the peer is a trusted proxy that named the client; else None.

    The chain of hops is read from the right (the hop nearest to us) and trusted proxies are skipped: the first
    address that is not a trusted proxy is the client. A hop that is not an address ("unknown", an obfuscated
    name) ends the walk there: nothing to its left can be checked."""
    peer = scope.get("client")
    if not trusted or not peer or not _in(_address(str(peer[0])), trusted):
        return None
    # Only X-Forwarded-For: the header the proxies in deploy/ set (nginx) or replace (Caddy). A `Forwarded`
    # header is ignored: both pass a visitor's own through unless told to drop it, and it used to win.
    hops = [hop for value in _headers(scope, b"x-forwarded-for") for hop in value.split(",") if hop.strip()]
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
    """ASGI middleware: at most `limit` sessions per client address (see the module docstring).

    The count follows the socket itself, at the ASGI level (`websocket.disconnect` received, `websocket.close`
    sent), not the end of Flet's call: Flet 1.0.5's handler ends only once a session exists, so a socket that
    closed (or sent a malformed frame) before REGISTER left its call pending for ever and its slot taken. Here
    such a call is cancelled as soon as its socket is gone, a first frame that is no REGISTER closes the
    socket, and a socket that has not registered within `register_timeout()` seconds is closed by the server.
    A socket that never registered made no session: its slot is free at once (a registered one counts for the
    session timeout after it closed, see `count`)."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int | None = None,
        hold: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        register_within: float | None = None,
    ) -> None:
        self.app = app
        self.limit = limit if limit is not None else int(os.environ.get(SESSIONS_ENV, SESSIONS_PER_CLIENT))
        self.hold = hold if hold is not None else float(session_timeout())
        self.clock = clock
        self.register_within = register_timeout() if register_within is None else register_within
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
        socket = _Socket(receive, send, lambda kept: self._release(client, kept))
        call = asyncio.ensure_future(self.app(scope, socket.receive, socket.send))
        try:
            await self._watch(call, socket)
        finally:
            # a call that ended by itself had a session (Flet's does only then); one cancelled here had none
            socket.release(kept=socket.registered.is_set() or call.done())
            if not call.done():
                call.cancel()
            await asyncio.wait({call})
        failure = None if call.cancelled() else call.exception()
        if failure is not None:
            raise failure

    def _release(self, client: str, kept: bool) -> None:
        """One socket of `client` is gone; `kept`: Flet keeps its session for the hold time, so it still counts."""
        self.open[client] -= 1
        if not self.open[client]:
            del self.open[client]
        if kept:
            self.closed.setdefault(client, deque()).append(self.clock())

    async def _watch(self, call: asyncio.Future[Any], socket: _Socket) -> None:
        """Until the app's call ends by itself, or should be ended: the socket gone or closed before REGISTER,
        no REGISTER in time, or (registered) `GRACE` seconds after the socket is gone."""
        registered: asyncio.Future[Any] = asyncio.ensure_future(socket.registered.wait())
        ended: asyncio.Future[Any] = asyncio.ensure_future(socket.ended.wait())
        first: set[asyncio.Future[Any]] = {call, registered, ended}
        try:
            await asyncio.wait(first, timeout=self.register_within, return_when=asyncio.FIRST_COMPLETED)
            if call.done():
                return
            if not socket.registered.is_set() or socket.refused:
                if not socket.ended.is_set() or socket.refused:  # no REGISTER in time, or not one: close it
                    log.info(
                        "closed a websocket that sent no REGISTER (%s)",
                        "not one" if socket.refused else "late",
                    )
                    with contextlib.suppress(Exception):
                        await socket.close(1008)
                return
            then: set[asyncio.Future[Any]] = {call, ended}
            await asyncio.wait(then, return_when=asyncio.FIRST_COMPLETED)
            if call.done():
                return
            socket.release(kept=True)  # gone: Flet ends a registered call by itself; it gets a while to do so
            await asyncio.wait({call}, timeout=GRACE)
        finally:
            registered.cancel()
            ended.cancel()


REGISTER_FIELDS = frozenset({"session_id", "page_name", "page"})


def is_register(frame: bytes | None) -> bool:
    """Whether a websocket frame is Flet's REGISTER (`0x00` + msgpack `[1, {"session_id", "page_name",
    "page"}]`), the first frame a client sends. Any other field would fail in Flet (whose error names it in the
    log) before a session exists."""
    if not frame or frame[:1] != b"\x00":
        return False
    import msgpack

    try:
        message = msgpack.unpackb(frame[1:])
    except Exception:
        return False
    if not (isinstance(message, list) and len(message) == 2 and message[0] == 1):
        return False
    body = message[1]
    return isinstance(body, dict) and set(body) <= REGISTER_FIELDS and isinstance(body.get("page"), dict)


class _Socket:
    """One websocket as `SessionCap` watches it: its ASGI `receive` and `send`, seen on the way."""

    def __init__(self, receive: Any, send: Any, on_release: Callable[[bool], None]) -> None:
        self._receive, self._send, self._on_release = receive, send, on_release
        self.registered = asyncio.Event()
        self.ended = asyncio.Event()  # the client is gone, the socket was closed, or it sent no REGISTER
        self.refused = False
        self.released = False

    def release(self, kept: bool) -> None:
        """Give the slot back, once (`kept`: the socket's session lives on for a while)."""
        if not self.released:
            self.released = True
            self._on_release(kept)

    async def receive(self) -> Any:
        message = await self._receive()
        kind = message.get("type")
        if kind == "websocket.disconnect":
            self.ended.set()
        elif kind == "websocket.receive" and not self.registered.is_set():
            if not is_register(message.get("bytes")):
                self.refused = True  # Flet would fail on it and wait for ever: never handed on
                self.ended.set()
                await asyncio.Event().wait()  # until SessionCap cancels the call
            self.registered.set()
        return message

    async def send(self, message: Any) -> None:
        if message.get("type") == "websocket.close":
            self.ended.set()
        await self._send(message)

    async def close(self, code: int) -> None:
        self.ended.set()
        await self._send({"type": "websocket.close", "code": code})
