"""The web server for `main.py --web`: Flet's own FastAPI app, made fit for a network.

Flet builds its FastAPI app in `flet_web.fastapi.app()` and serves it with uvicorn. We build the same app with
the same call (so the web client, websocket and static files are Flet's) and change only what a home network
needs:

- the websocket refuses a foreign `Origin` (a web page elsewhere must not drive the app from a visitor's
  browser); the same host on any port is fine, and a client that sends no Origin (not a browser) is let in;
- FastAPI's `/docs`, `/redoc` and `/openapi.json` are gone (nothing to document, nothing to advertise);
- responses carry no `Access-Control-Allow-Origin: *` (Flet adds it to every response);
- a frame the app sends after the browser has gone is dropped instead of raising: Flet's handler otherwise
  ends with that error before it marks the session disconnected, so the session (and all its screens) was
  never evicted - about 130 KB kept per closed tab;
- import files come over HTTP, into a private folder, through Flet's upload route behind `UploadGate` (a
  signed, one-time URL handed only to a session that may import; see uploads.py), not inside a websocket
  frame: a frame over uvicorn's limit (16 MiB, kept) closed the socket without a word;
- for a server on the internet (behind Caddy, nginx or a tunnel): forwarding headers are believed only from
  the proxies named as trusted, sessions per client are capped and a closed tab's session is let go after two
  minutes instead of an hour (proxies.py), every response carries security headers (headers.py), the public
  host name (`--public-url`) is one of ours, and the access log never shows a query string (where a token
  could be);
- a frame is packed without first being written out as text for a debug log nobody reads (`lean_frames`);
- the owner's sync hub, a WebDAV endpoint at `/sync/` for the paired devices (dav_hub.py), is routed before the
  same-origin guard (its own CORS lets a static build of another origin sync), and the static build, when one is
  built (`make static` into `dist/`, or `SCOREKEEPER_STATIC_DIR`), is served at `/app/` (`static_folder`), so a
  phone installs it from this server and syncs with the hub with no cross-origin request at all.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scorekeeper.server.dav_hub import Hub, HubRoutes
from scorekeeper.server.headers import SecurityHeaders
from scorekeeper.server.proxies import SessionCap, TrustedProxies, session_timeout
from scorekeeper.server.uploads import WEBSOCKET_FRAME_BYTES, UploadGate, Uploads, max_import_bytes

log = logging.getLogger(__name__)


PUBLIC_URL_ENV = "SCOREKEEPER_PUBLIC_URL"
"""The address visitors use (`--public-url`, e.g. https://games.example.org): its host name is accepted in the
Host and Origin headers, and the join address and QR code use it."""
SHUTDOWN_SECONDS = 5
"""At SIGTERM, how long uvicorn waits for the open connections' calls before it cancels them (systemd's
`TimeoutStopSec=10` in deploy/scorekeeper.service kills the process after ten)."""
DOC_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
STATIC_ENV = "SCOREKEEPER_STATIC_DIR"
"""The static build to serve at STATIC_PATH (default: `dist/` beside main.py, when `make static` built it)."""
STATIC_PATH = "/app"


def static_folder() -> Path | None:
    """The static build to serve at `/app/`: SCOREKEEPER_STATIC_DIR, else the `dist/` that `make static` builds
    beside main.py; None when that folder holds no built site (an index.html). Its pages use relative addresses
    (base `./`, static/build.py), so a sub-folder serves them as they are."""
    named = os.environ.get(STATIC_ENV, "").strip()
    folder = Path(named).expanduser() if named else Path(__file__).resolve().parents[2] / "dist"
    return folder if (folder / "index.html").is_file() else None


def ws_max_size() -> int:
    """uvicorn's own frame limit. Import files do not travel in a frame (a browser sends them over HTTP, see
    uploads.py), and a frame of hundreds of megabytes is only a way to fill the host's memory."""
    return WEBSOCKET_FRAME_BYTES


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _hostname(host_header: str) -> str:
    """The host part of a Host header ("[::1]:8550" -> "::1", "Box.local:80" -> "box.local")."""
    return (urlsplit(f"//{host_header}").hostname or "").lower()


def host_allowed(hostname: str) -> bool:
    """A name the app may be reached by: an IP address, localhost, this computer's own name (also as
    `<name>.local`), or one listed in SCOREKEEPER_HOSTS (comma-separated). Any other name in the Host header
    is a DNS-rebinding attempt: a foreign page whose name was pointed at this computer after it loaded."""
    import ipaddress
    import socket

    try:
        ipaddress.ip_address(hostname)
        return True
    except ValueError:
        pass
    own = socket.gethostname().lower()
    extra = {
        name.strip().lower() for name in os.environ.get("SCOREKEEPER_HOSTS", "").split(",") if name.strip()
    }
    public = urlsplit(os.environ.get(PUBLIC_URL_ENV, "")).hostname
    if public:
        extra.add(public.lower())
    return hostname in {"localhost", own, f"{own}.local", own.split(".")[0] + ".local", *extra}


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """Same host (any port, http or https) as the one the browser asked for, and that host is one of this
    computer's (see host_allowed); no Origin: not a browser."""
    if origin is None:
        return True
    if not host or not host_allowed(_hostname(host)):
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # "null" (a sandboxed or file page) and anything odd
    return parts.hostname.lower() == _hostname(host)


class SameOriginGuard:
    """ASGI middleware: refuses cross-origin websockets and drops wildcard CORS headers from responses."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            origin, host = _header(scope, b"origin"), _header(scope, b"host")
            if not origin_allowed(origin, host):
                log.warning("refused a websocket from origin %r (host %r)", origin, host)
                await send({"type": "websocket.close", "code": 1008})  # before accept: uvicorn answers 403
                return
            await self.app(scope, receive, _SendAfterClose(send))
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_without_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    (key, value)
                    for key, value in message.get("headers", [])
                    if key.lower() != b"access-control-allow-origin"
                ]
            await send(message)

        await self.app(scope, receive, send_without_cors)


class _SendAfterClose:
    """A websocket `send` that drops frames once the client is gone (see the module docstring)."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.gone = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "websocket.send" and self.gone:
            return
        try:
            await self.send(message)
        except Exception as failure:
            from uvicorn.protocols.utils import ClientDisconnected

            if message["type"] != "websocket.send" or not isinstance(failure, (ClientDisconnected, OSError)):
                raise
            self.gone = True


def _drop_docs(app: Any) -> None:
    """Remove FastAPI's generated documentation routes from `app` (they are added in its constructor)."""
    app.router.routes[:] = [
        route for route in app.router.routes if getattr(route, "path", None) not in DOC_PATHS
    ]
    app.openapi_url = app.docs_url = app.redoc_url = None


def lean_frames() -> None:
    """Flet 1.0.5's `FletApp.send_message` formats every outgoing message as text for a debug log line (an
    f-string, so even with the log off): the whole dataclass tree of every control in the patch, written out
    and thrown away. At a live table that was about a tenth of the server's time per move. The same method
    without that line: the same bytes on the wire (flet is pinned exactly, see pyproject.toml)."""
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack
    from flet_web.fastapi.flet_app import FletApp

    if getattr(FletApp.send_message, "lean", False):
        return
    encode = configure_encode_object_for_msgpack(BaseControl)

    def send_message(self: Any, message: Any) -> None:
        body = msgpack.packb([message.action, message.body], default=encode)
        self._FletApp__send_queue.put_nowait(b"\x00" + body)

    send_message.lean = True  # type: ignore[attr-defined]
    FletApp.send_message = send_message


def build_app(
    main: Callable[[Any], Any],
    assets_dir: str,
    on_startup: Callable[[], None] | None = None,
    uploads: Uploads | None = None,
    data_dir: Path | None = None,
) -> Any:
    """The ASGI app: Flet's app mounted at "/" (as `flet run --web` mounts it), hardened as described above.
    With `uploads`, Flet's upload route writes into their folder, behind `UploadGate` (see uploads.py); with
    `data_dir`, the sync hub of that data folder answers at `/sync/` (while the owner has it on)."""
    import flet_web.fastapi as flet_fastapi

    lean_frames()
    upload_options: dict[str, Any] = {}
    if uploads is not None:
        upload_options = {
            "upload_dir": str(uploads.folder),
            "secret_key": uploads.secret,
            "max_upload_size": max_import_bytes(),
        }
    inner = flet_fastapi.app(
        main, assets_dir=assets_dir, no_cdn=True, session_timeout_seconds=session_timeout(), **upload_options
    )
    _drop_docs(inner)
    outer = flet_fastapi.FastAPI(
        docs_url=None, redoc_url=None, openapi_url=None, on_startup=[on_startup] if on_startup else None
    )
    site = static_folder()
    if site is not None:
        from scorekeeper.server.static_site import PrecompressedFiles

        outer.mount(STATIC_PATH, PrecompressedFiles(directory=site, html=True))
    outer.mount("/", inner)
    app: ASGIApp = outer
    if uploads is not None:
        app = UploadGate(outer, uploads, origin_allowed)
    app = SameOriginGuard(app)
    if data_dir is not None:
        app = HubRoutes(app, Hub(data_dir))
    return TrustedProxies(SessionCap(SecurityHeaders(app)))


def serve(
    main: Callable[[Any], Any],
    host: str,
    port: int,
    assets_dir: str,
    *,
    open_browser: bool,
    uploads: Uploads | None = None,
    open_url: str | None = None,
    data_dir: Path | None = None,
    on_start: Callable[[], None] | None = None,
) -> None:
    """Serve the app with uvicorn until interrupted; opens the default browser on it (on `open_url`, the owner
    link, when given) when asked; `on_start` is called once the server is up."""
    import uvicorn

    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    url_host = "127.0.0.1" if host in ("", "0.0.0.0", "::", "*") else host
    url = f"http://{url_host}:{port}"

    def started() -> None:
        if on_start is not None:
            on_start()
        if open_browser:
            try:
                webbrowser.open(open_url or url)
            except Exception:  # no browser to open: the URL is printed by main.py
                log.info("no browser to open %s", url)

    config = uvicorn.Config(
        build_app(main, assets_dir, started, uploads, data_dir),
        host=host,
        port=port,
        ws="websockets-sansio",  # what Flet uses
        ws_max_size=ws_max_size(),
        log_level=os.environ.get("SCOREKEEPER_LOG_LEVEL", "warning").lower(),
        proxy_headers=False,  # uvicorn would believe 127.0.0.1: TrustedProxies believes only the named ones
        # at SIGTERM, a call still running after this long is cancelled (uvicorn waits for ever by default)
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    logging.getLogger("uvicorn.access").addFilter(without_query)
    safe_logging()
    uvicorn.Server(config).run()


def without_query(record: logging.LogRecord) -> bool:
    """An access-log filter: the path without its query string (a token or code there stays out of the log)."""
    args = record.args
    if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and "?" in args[2]:
        record.args = (*args[:2], args[2].split("?", 1)[0] + "?…", *args[3:])
    return True


LOG_LINE_CHARS = 1000
"""A log line longer than this is cut (a route, a frame's field or an exception message can be megabytes)."""
LOG_RECORD_LINES = 200
"""A record of more lines (a traceback) keeps its first ones."""
CONTINUATION = "    "
_CONTROL = re.compile(r"\x1b\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f]")


def _escaped(match: re.Match[str]) -> str:
    text = match.group()
    return text if len(text) > 1 else f"\\x{ord(text):02x}"  # a colour code of uvicorn's stays


def safe_log_text(text: str) -> str:
    """A log record as written: every line after the first indented (so no text a client sent, a route or a
    field of a frame, can start a line of its own and pass for another record, such as a forged "scorekeeper
    owner link"), control characters escaped, each line cut to LOG_LINE_CHARS and the record to
    LOG_RECORD_LINES lines (a megabyte route wrote megabytes of log, twice)."""
    lines = text.splitlines() or [""]
    if len(lines) > LOG_RECORD_LINES:
        lines = [*lines[: LOG_RECORD_LINES - 1], f"… ({len(lines) - LOG_RECORD_LINES + 1} more lines)"]
    kept = []
    for line in lines:
        line = _CONTROL.sub(_escaped, line)
        if len(line) > LOG_LINE_CHARS:
            line = f"{line[:LOG_LINE_CHARS]}… ({len(line)} characters)"
        kept.append(line)
    return f"\n{CONTINUATION}".join(kept)


class SafeLines(logging.Formatter):
    """A formatter around another one whose output goes through `safe_log_text`."""

    def __init__(self, inner: logging.Formatter | None = None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter("%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return safe_log_text(self.inner.format(record))


def safe_logging() -> None:
    """Every log record of the server goes through `SafeLines`: uvicorn's handlers (its messages, the access
    log, tracebacks of the app) and, for the app's and Flet's loggers, a handler on the root logger in place of
    Python's last resort (the same: warnings and errors, the bare message, to stderr). Flet logs what a client
    sent in its messages (a REGISTER's unknown field, `Receive loop error: ...`), the app the route an event
    handler failed on."""
    root = logging.getLogger()
    if not root.handlers:
        fallback = logging.StreamHandler(sys.stderr)
        fallback.setLevel(logging.WARNING)
        root.addHandler(fallback)
    for name in ("", "uvicorn", "uvicorn.error", "uvicorn.access"):
        for handler in logging.getLogger(name).handlers:
            if not isinstance(handler.formatter, SafeLines):
                handler.setFormatter(SafeLines(handler.formatter))
