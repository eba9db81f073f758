"""The server on the internet, driven the way an attacker drives it (issue 40): raw websockets that never
register, forwarding headers a visitor forges through the real Caddy and nginx, routes made to forge log lines,
a chunked upload past its announced size. Real servers on localhost (the app as `main.py --web` starts it, the
proxies from Debian's packages); pure functions where the behaviour is a rule."""

from __future__ import annotations

import asyncio
import http.server
import os
import signal
import ssl
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, ClassVar

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from scorekeeper.bench.fronts import available, caddy, nginx
from scorekeeper.server import proxies
from scorekeeper.server.proxies import SessionCap, parse_networks, real_client
from tests.browser.conftest import free_port, running
from tests.run_alone import run_alone

REGISTER_ENV = "SCOREKEEPER_REGISTER_TIMEOUT"  # (proxies.REGISTER_ENV: spelled out, so that it reads alone)
HOME = {"route": "/", "width": 390.0, "height": 844.0, "web": True, "platform": "android"}


def register_frame(route: str = "/") -> bytes:
    return b"\x00" + msgpack.packb(
        [1, {"session_id": None, "page_name": "", "page": {**HOME, "route": route}}]
    )


@contextmanager
def app(tmp_path: Path) -> Iterator[tuple[Any, str, Path]]:
    """The app served on a free port with a fresh data folder: (its process, its websocket URL, its log)."""
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    with running(data, port) as process:
        yield process, f"ws://127.0.0.1:{port}/ws", tmp_path / f"server-{port}.log"


def registers(ws_url: str, timeout: float = 30.0) -> bool:
    """Whether a new tab registers and gets the server's answer; a refusal (the cap) is tried again until
    `timeout` (the server lets the slots of closed sockets go as it notices them)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with connect(ws_url, open_timeout=10) as socket:
                socket.send(register_frame())
                socket.recv(timeout=30)
                return True
        except InvalidStatus:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.2)


def closed_by_server(socket: ClientConnection, timeout: float = 20.0) -> bool:
    """Whether the server closes `socket` within `timeout` seconds (frames it sends first are read)."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            socket.recv(timeout=max(0.01, deadline - time.monotonic()))
    except ConnectionClosed:
        return True
    except TimeoutError:
        return False
    return False


# ---------------------------------------------------------------------- finding 3: sockets that never register
MALFORMED = [b"\x00\xc1", b"\x00" + msgpack.packb([99, {}]), "a text frame", b"\x07"]


def test_sockets_closed_before_registering_give_their_slot_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten sockets of one address that open and close (some after a malformed first frame) without
    registering: the eleventh connection of that address still registers. (They stayed pending for ever: every
    later connection from the address was refused.)"""
    monkeypatch.setenv(proxies.SESSIONS_ENV, "10")
    with app(tmp_path) as (_process, ws, _log):
        for number in range(10):
            with connect(ws, open_timeout=10) as socket:
                if number % 2:
                    socket.send(MALFORMED[number // 2 % len(MALFORMED)])
        assert registers(ws, timeout=15)


def test_a_socket_that_never_registers_is_closed_by_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REGISTER_ENV, "1")
    with app(tmp_path) as (_process, ws, _log), ExitStack() as sockets:
        silent = sockets.enter_context(connect(ws, open_timeout=10))
        malformed = sockets.enter_context(connect(ws, open_timeout=10))
        malformed.send(b"\x00\xc1")
        assert closed_by_server(silent) and closed_by_server(malformed)
        # a tab that registers at once is not affected
        tab = sockets.enter_context(connect(ws, open_timeout=10))
        tab.send(register_frame())
        tab.recv(timeout=30)
        assert tab.state.name == "OPEN"


def test_sigterm_stops_the_server_with_unregistered_sockets_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM hung ("Waiting for background tasks") while a socket closed before REGISTER was pending."""
    monkeypatch.setenv(REGISTER_ENV, "600")  # still open when the signal comes
    with app(tmp_path) as (process, ws, _log), ExitStack() as sockets:
        for number in range(4):
            with connect(ws, open_timeout=10) as gone:
                if number % 2:
                    gone.send(b"\x00\xc1")
        for _ in range(3):
            sockets.enter_context(connect(ws, open_timeout=10))
        tab = sockets.enter_context(connect(ws, open_timeout=10))
        tab.send(register_frame())
        tab.recv(timeout=30)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except Exception:
            pytest.fail("the server did not stop within 10 s of SIGTERM")


class FletLike:
    """An ASGI app that behaves as Flet 1.0.5's handler: accepts, reads frames, and without a REGISTER never
    ends (its send loop waits for a session)."""

    def __init__(self) -> None:
        self.cancelled = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        registered = False
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    break
                registered = True
            if not registered:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise


def test_the_cap_counts_at_the_socket_not_at_the_end_of_the_app_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REGISTER_ENV, "600")

    async def scenario() -> tuple[int, int, list[str]]:
        flet = FletLike()
        cap = SessionCap(flet, limit=2, hold=120)
        socket = {"type": "websocket", "client": ("198.51.100.7", 1)}
        sent: list[str] = []

        async def send(message: Any) -> None:
            sent.append(message["type"])

        def client(*frames: Any) -> Any:
            queue: list[Any] = [{"type": "websocket.connect"}, *frames, {"type": "websocket.disconnect"}]

            async def receive() -> Any:
                return queue.pop(0) if queue else await asyncio.Event().wait()

            return receive

        for frame in (None, None, {"type": "websocket.receive", "bytes": b"\x00\xc1"}):
            frames = [frame] if frame else []
            await asyncio.wait_for(cap(dict(socket), client(*frames), send), 10)
        open_after = cap.count("198.51.100.7")
        # a registered tab counts while Flet keeps its session
        register = {"type": "websocket.receive", "bytes": register_frame()}
        await asyncio.wait_for(cap(dict(socket), client(register), send), 10)
        return open_after, cap.count("198.51.100.7"), sent

    open_after, after_tab, sent = run_alone(scenario())
    assert open_after == 0  # every slot given back exactly once
    assert after_tab == 1
    assert sent.count("websocket.close") == 1  # the malformed first frame was answered by a close


# ---------------------------------------------------------------------- finding 4: who sets the address
LOOPBACK = parse_networks("127.0.0.1,::1")


def forged_scope(*headers: tuple[str, str]) -> dict[str, Any]:
    return {
        "type": "http",
        "client": ("127.0.0.1", 50000),
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
    }


def test_a_forwarded_header_is_not_believed_even_from_a_trusted_proxy() -> None:
    """A visitor's own `Forwarded: for=` passed through the proxy and was preferred over X-Forwarded-For."""
    assert real_client(forged_scope(("Forwarded", "for=9.9.9.9;proto=https")), LOOPBACK) is None
    assert real_client(
        forged_scope(("Forwarded", "for=9.9.9.9"), ("X-Forwarded-For", "198.51.100.7")), LOOPBACK
    ) == ("198.51.100.7", None)


def logged_address(log: Path, path: str, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [line for line in log.read_text(errors="replace").splitlines() if path in line]
        if lines:
            return lines[-1]
        time.sleep(0.1)
    raise AssertionError(f"no access-log line for {path} in {log}")


def visit(url: str, **headers: str) -> None:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as answer:
            answer.read()
    except urllib.error.HTTPError:
        pass


@pytest.mark.parametrize("front", ["caddy", "nginx"])
def test_a_visitor_cannot_pick_his_address_through_the_deployed_proxies(
    front: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not available(front):
        pytest.skip(f"Debian's {front} is not installed (.ci/run installs it)")
    monkeypatch.setenv(proxies.TRUSTED_ENV, "127.0.0.1,::1")
    monkeypatch.setenv("SCOREKEEPER_LOG_LEVEL", "info")
    with app(tmp_path) as (_process, ws, log):
        port = int(ws.split(":")[2].split("/")[0])
        proxy = caddy if front == "caddy" else nginx
        with proxy(port, tmp_path / front) as url:
            forged = {"Forwarded": "for=9.9.9.9;proto=http", "X-Forwarded-For": "8.8.8.8"}
            visit(url + "join/ACDEFG", **forged)
            line = logged_address(log, "/join/ACDEFG")
    assert "127.0.0.1" in line and "9.9.9.9" not in line and "8.8.8.8" not in line, line


class Echo(http.server.BaseHTTPRequestHandler):
    """A stand-in for the app behind the proxy that notes the headers each request arrives with."""

    seen: ClassVar[list[dict[str, str]]] = []

    def do_GET(self) -> None:
        Echo.seen.append({key.lower(): value for key, value in self.headers.items()})
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.parametrize("front", ["caddy", "nginx"])
def test_the_deployed_proxies_drop_a_visitors_forwarded_header(front: str, tmp_path: Path) -> None:
    """What reaches the app through deploy/Caddyfile and deploy/nginx.conf: the proxy's own X-Forwarded-For,
    no Forwarded header of the visitor's."""
    if not available(front):
        pytest.skip(f"Debian's {front} is not installed (.ci/run installs it)")
    Echo.seen = []
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    try:
        proxy = caddy if front == "caddy" else nginx
        with proxy(upstream.server_address[1], tmp_path / front) as url:
            visit(url + "join/ACDEFG", Forwarded="for=9.9.9.9;proto=http", **{"X-Forwarded-For": "8.8.8.8"})
    finally:
        upstream.shutdown()
        upstream.server_close()
    headers = Echo.seen[-1]
    assert "forwarded" not in headers, headers
    assert headers.get("x-forwarded-for") == "127.0.0.1", headers


# ---------------------------------------------------------------------- finding 9: what a client sends, in the log
FORGED = "scorekeeper owner link (good once; pair more devices in Settings): http://evil.example/#owner=x"


def answer_calls(socket: ClientConnection, quiet: float = 3.0, timeout: float = 30.0) -> None:
    """Read what the server sends, answering its calls to the browser (storage: nothing kept) as a browser
    does, until it has sent nothing for `quiet` seconds (its first screen is out)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            frame = socket.recv(timeout=quiet)
        except TimeoutError:
            return
        message = msgpack.unpackb(frame[1:], strict_map_key=False) if isinstance(frame, bytes) else None
        if message and message[0] == 5:
            body = message[1]
            reply = {
                "control_id": body["control_id"],
                "call_id": body["call_id"],
                "result": None,
                "error": None,
            }
            socket.send(b"\x00" + msgpack.packb([5, reply]))


def failing_events(socket: ClientConnection) -> None:
    """Events whose data the page's handlers cannot read: each failure is logged with the route on show."""
    for name in ("keyboard_event", "route_change"):
        socket.send(b"\x00" + msgpack.packb([3, {"target": 1, "name": name, "data": "garbage"}]))


def log_holds(log: Path, text: str, times: int, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        content = log.read_text(errors="replace")
        if content.count(text) >= times or time.monotonic() > deadline:
            return content
        time.sleep(0.2)


def test_what_a_client_sends_cannot_forge_a_log_line_or_fill_the_log(tmp_path: Path) -> None:
    """A route (and a REGISTER's field) carrying a line break and an owner-link line, and a 1 MB route: no line
    of the log starts with the forged text, and the log stays small. (The route an event handler failed on was
    logged verbatim, and Flet logs a REGISTER's unknown field name in its error.)"""
    with app(tmp_path) as (_process, ws, log):
        for route in (f"/join/ACDEFG?\n{FORGED}", "/join/ACDEFG?" + "A" * 1_000_000):
            with connect(ws, max_size=None, open_timeout=10) as socket:
                socket.send(register_frame(route))
                answer_calls(socket)
                failing_events(socket)
                answer_calls(socket, quiet=1)
        with connect(ws, open_timeout=10) as socket:
            page = {**HOME, "route": f"/\n{FORGED}"}
            socket.send(
                b"\x00"
                + msgpack.packb([1, {"session_id": None, "page_name": "", "page": page, f"\n{FORGED}": 1}])
            )
            # Flet's error names the unknown field; now the frame is refused before Flet sees it
            assert closed_by_server(socket) or "Receive loop error" in log_holds(log, "Receive loop error", 1)
        content = log_holds(log, "an event handler failed on", 4)
    assert content.count("an event handler failed on") >= 4
    assert not [
        line
        for line in content.splitlines()
        if line.startswith("scorekeeper owner link (good once; pair more devices in Settings): http://evil")
    ]
    assert len(content) < 200_000


# ---------------------------------------------------------------------- finding 10: a chunked upload
@contextmanager
def served_in_thread(app_: Any) -> Iterator[str]:
    """`app_` served by uvicorn on a free port in a thread of this process (its upload slots are this
    process's); yields its URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app_, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_a_chunked_upload_is_held_to_its_announced_size(tmp_path: Path) -> None:
    """A chunked PUT announces no length: 2 MB went into a 10-byte slot. Now the bytes are counted: past the
    slot's size the upload is refused (413) and nothing of it is kept."""
    import httpx
    from flet_web.uploads import build_upload_url

    from scorekeeper.server import uploads
    from scorekeeper.server.web import build_app

    folder = uploads.Uploads(tmp_path / "data" / uploads.FOLDER_NAME)
    folder.prepare()
    assets = str(Path(__file__).resolve().parents[1] / "assets")

    def chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
        while total > 0:
            yield b"x" * min(size, total)
            total -= size

    with served_in_thread(build_app(lambda page: None, assets, uploads=folder)) as url:
        big = folder.issue(10)
        signed = url + build_upload_url("/upload", big.name, 60, folder.secret)
        try:
            status = httpx.put(signed, content=chunks(2_000_000), timeout=30).status_code
        except httpx.TransportError:  # the server may answer and close while the client still sends
            status = 413
        assert status == 413
        assert list(folder.folder.iterdir()) == [] and folder.allowance(big.name) == 0
        # a chunked upload of the announced size still goes through (once)
        fits = folder.issue(10)
        signed = url + build_upload_url("/upload", fits.name, 60, folder.secret)
        assert httpx.put(signed, content=chunks(10, 4), timeout=30).status_code == 200
        assert (folder.folder / fits.name).read_bytes() == b"x" * 10


# ---------------------------------------------------------------------- finding 11: owner tokens and file modes
def unchanged_by_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """`run(web=True)` without a browser; what it sets for the process is put back after the test."""
    from scorekeeper.server import uploads

    monkeypatch.setenv("FLET_FORCE_WEB_SERVER", "1")
    for variable in ("SCOREKEEPER_TABLE_URL", "FLET_WEB_NO_CDN"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(uploads, "_active", None)


def test_no_owner_token_is_minted_for_a_browser_that_is_not_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server without a browser to open (a service, `FLET_FORCE_WEB_SERVER`) held a second, lasting owner token
    nobody would ever use."""
    from scorekeeper.server import owner_devices as owners
    from scorekeeper.server import web as server
    from scorekeeper.ui import app as app_module

    now = [1000.0]
    links = owners.LinkTokens(clock=lambda: now[0])
    monkeypatch.setattr(owners, "LINKS", links)
    seen: dict[str, Any] = {}
    monkeypatch.setattr(server, "serve", lambda *args, **kwargs: seen.update(kwargs))
    unchanged_by_run(monkeypatch)
    app_module.run(web=True, host="127.0.0.1", port=8553, data_dir=str(tmp_path / "data"))
    printed = capsys.readouterr().out
    assert seen["open_browser"] is False and seen["open_url"] is None
    assert links.count() == 1  # the printed link's only
    token = printed.rsplit("#owner=", 1)[1].split()[0]
    assert links.pending(token)


def test_the_opened_browsers_owner_link_is_short_lived(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorekeeper.server import owner_devices as owners
    from scorekeeper.ui.app import announce_owner_link

    now = [1000.0]
    links = owners.LinkTokens(clock=lambda: now[0])
    monkeypatch.setattr(owners, "LINKS", links)
    opened = announce_owner_link(str(tmp_path / "data"), "127.0.0.1", 8550)  # a browser is opened
    printed = capsys.readouterr().out.rsplit("#owner=", 1)[1].split()[0]
    assert opened is not None
    browser = opened.split("#owner=")[1]
    now[0] += 5 * 60
    assert not links.pending(browser)  # gone after a few minutes
    assert links.pending(printed)  # the printed one stays until used


def test_wrong_owner_link_tokens_pause_redemptions(monkeypatch: pytest.MonkeyPatch) -> None:
    """SCOREKEEPER_OWNER_TOKEN had no try limit: a guesser could try thousands a second. After ten wrong tokens
    in a minute the configured token is refused for a minute (the right one too: the guesser cannot tell); a
    minted token, which no guess finds, still works (a guesser cannot keep the owner from pairing)."""
    from scorekeeper.server import owner_devices as owners

    monkeypatch.setenv(owners.ENV_TOKEN, "correct-horse-battery-staple")
    now = [1000.0]
    links = owners.LinkTokens(clock=lambda: now[0])
    minted = links.mint()
    assert links.redeem("correct-horse-battery-staple")
    for guess in range(10):
        assert not links.redeem(f"guess-{guess:04d}-padding-padding")
    # paused: the eleventh try, the right token too, is refused (a guesser learns nothing for a minute)
    assert not links.redeem("correct-horse-battery-staple") and links.locked()
    assert links.redeem(minted)  # a minted link: unguessable, never paused
    now[0] += 61
    assert links.redeem("correct-horse-battery-staple")
    # wrong tries spread out (fewer than ten a minute) never lock
    for _ in range(30):
        now[0] += 7
        assert not links.redeem("a-wrong-one-every-few-seconds")
    assert links.redeem("correct-horse-battery-staple")


def test_the_data_folder_and_files_are_the_owners_only(tmp_path: Path) -> None:
    """Written under a common umask (022) the data was readable by every user of the machine."""
    import stat

    from scorekeeper.store import Store
    from scorekeeper.store.storage import atomic_write_bytes

    previous = os.umask(0o022)
    try:
        existing = tmp_path / "old.json"
        existing.write_text("{}")
        existing.chmod(0o644)
        atomic_write_bytes(existing, b"{}")
        assert stat.S_IMODE(existing.stat().st_mode) == 0o600  # tightened when written again
        data = tmp_path / "data"
        store = Store.open(data)
        store.update_settings({"theme": "dark"})
        store.add_player("Anna")
        store.close()
        modes = {
            path.relative_to(data): stat.S_IMODE(path.stat().st_mode)
            for path in data.rglob("*")
            if path.is_file() and path.stat().st_size
        }
        assert modes and all(mode == 0o600 for mode in modes.values()), modes
    finally:
        os.umask(previous)


def test_the_served_data_folder_is_made_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`main.py --web` with a data folder that does not exist yet makes it 0700."""
    import stat

    from scorekeeper.server import web as server
    from scorekeeper.ui import app as app_module

    monkeypatch.setattr(server, "serve", lambda *args, **kwargs: None)
    unchanged_by_run(monkeypatch)
    previous = os.umask(0o022)
    try:
        app_module.run(web=True, host="127.0.0.1", port=8554, data_dir=str(tmp_path / "new" / "data"))
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new" / "data").stat().st_mode) == 0o700
