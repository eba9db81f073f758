"""The web server on the internet: forwarding headers believed only from named proxies, the real
client's address in the logs, no query string in the log, sessions capped per client and let go within minutes,
security headers, the public host name accepted and used for the join address. Real servers on localhost where
the behaviour is the server's; pure functions where it is a rule."""

from __future__ import annotations

import base64
import hashlib
import re
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import main as entry
from scorekeeper.server import proxies, table_runtime
from scorekeeper.server import web as server
from scorekeeper.server.headers import content_security_policy, script_hashes
from scorekeeper.server.proxies import SessionCap, parse_networks, real_client
from tests.browser.conftest import served
from tests.run_alone import run_alone

LOOPBACK = parse_networks("127.0.0.1,::1")


def scope(peer: str, *headers: tuple[str, str]) -> dict[str, Any]:
    return {
        "type": "http",
        "client": (peer, 50000),
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
    }


# ---------------------------------------------------------------------- whose headers are believed
@pytest.mark.parametrize(
    ("trusted", "peer", "headers", "expected"),
    [
        ("", "127.0.0.1", [("X-Forwarded-For", "198.51.100.7")], None),  # none trusted by default
        ("127.0.0.1", "127.0.0.1", [("X-Forwarded-For", "198.51.100.7")], ("198.51.100.7", None)),
        ("127.0.0.1", "192.0.2.1", [("X-Forwarded-For", "198.51.100.7")], None),  # a visitor's own header
        ("127.0.0.1", "127.0.0.1", [], None),  # a trusted proxy that names nobody: its own address
        # a client's forged entry on the left is skipped: the first untrusted hop from the right is the client
        (
            "127.0.0.1, 10.0.0.0/8",
            "127.0.0.1",
            [("X-Forwarded-For", "6.6.6.6, 198.51.100.7, 10.1.2.3")],
            ("198.51.100.7", None),
        ),
        (
            "127.0.0.1",
            "127.0.0.1",
            [("X-Forwarded-For", "198.51.100.7"), ("X-Forwarded-Proto", "https")],
            ("198.51.100.7", "https"),
        ),
        # RFC 7239's Forwarded is not read (issue 40: proxies pass a visitor's own through)
        ("::1", "::1", [("Forwarded", 'for="[2001:db8::7]:4711";proto=https')], None),
        ("127.0.0.1", "127.0.0.1", [("Forwarded", "for=192.0.2.60;proto=http, for=unknown")], None),
        ("127.0.0.1", "127.0.0.1", [("X-Forwarded-For", "203.0.113.5:61000")], ("203.0.113.5", None)),
    ],
)
def test_forwarding_headers_are_believed_only_from_trusted_proxies(
    trusted: str, peer: str, headers: list[tuple[str, str]], expected: tuple[str, str | None] | None
) -> None:
    assert real_client(scope(peer, *headers), parse_networks(trusted)) == expected


def test_a_bad_trusted_proxy_is_refused_at_start() -> None:
    with pytest.raises(SystemExit):
        entry.parse_args(["--web", "--trusted-proxy", "my-proxy"])
    with pytest.raises(SystemExit):
        entry.parse_args(["--web", "--public-url", "games.example.org"])
    args = entry.parse_args(["--web", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"])
    assert args.trusted_proxy == ["127.0.0.1", "10.0.0.0/8"]


def access_log(data: Path, port: int) -> str:
    return (data.parent / f"server-{port}.log").read_text(errors="replace")


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()


def logged_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, trusted: str | None) -> str:
    """The access log's line for a request sent from loopback with X-Forwarded-For 198.51.100.7."""
    monkeypatch.setenv("SCOREKEEPER_LOG_LEVEL", "info")
    if trusted is None:
        monkeypatch.delenv(proxies.TRUSTED_ENV, raising=False)
    else:
        monkeypatch.setenv(proxies.TRUSTED_ENV, trusted)
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url:
        get(url + "join/ABCDEF?token=s3cret-token", **{"X-Forwarded-For": "198.51.100.7"})
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        deadline = time.monotonic() + 10
        while "/join/ABCDEF" not in access_log(data, port) and time.monotonic() < deadline:
            time.sleep(0.1)
        return next(line for line in access_log(data, port).splitlines() if "/join/ABCDEF" in line)


def test_by_default_no_proxy_is_believed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn believed X-Forwarded-For from 127.0.0.1 by default: any local proxy or tunnel could name any
    client. Now the log shows the proxy's own address unless the proxy is named."""
    line = logged_client(tmp_path, monkeypatch, None)
    assert "198.51.100.7" not in line and "127.0.0.1" in line
    assert "s3cret" not in line  # a token in a query string never reaches the log


def test_with_a_trusted_proxy_the_log_shows_the_real_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = logged_client(tmp_path, monkeypatch, "127.0.0.1")
    assert "198.51.100.7" in line and "s3cret" not in line


# ---------------------------------------------------------------------- sessions
def test_a_closed_tabs_session_is_let_go_within_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flet keeps a closed tab's session an hour by default (~140 KB each); the server asks for two minutes."""
    import flet_web.fastapi as flet_fastapi

    monkeypatch.delenv("FLET_SESSION_TIMEOUT", raising=False)
    seen: dict[str, Any] = {}
    real = flet_fastapi.app

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(flet_fastapi, "app", spy)
    server.build_app(lambda page: None, str(Path(__file__).parents[1] / "assets"))
    assert seen.get("session_timeout_seconds", 3600) <= 300


def test_sessions_per_client_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(proxies.SESSIONS_ENV, "3")
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url:
        ws = url.replace("http://", "ws://") + "ws"
        with ExitStack() as held:  # three sessions open while the fourth knocks
            for _ in range(3):
                held.enter_context(connect(ws))
            with pytest.raises(InvalidStatus), connect(ws):
                pass


def test_a_closed_socket_still_counts_while_flet_keeps_its_session() -> None:
    clock = [0.0]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        return None

    refused: list[Any] = []

    async def send(message: Any) -> None:
        refused.append(message)

    cap = SessionCap(app, limit=2, hold=120, clock=lambda: clock[0])
    socket = {"type": "websocket", "client": ("198.51.100.7", 1)}
    for _ in range(2):
        run_alone(cap(dict(socket), None, send))
    run_alone(cap(dict(socket), None, send))
    assert refused == [{"type": "websocket.close", "code": 1013}]
    run_alone(cap({"type": "websocket", "client": ("198.51.100.8", 1)}, None, send))
    assert len(refused) == 1  # another client is not affected
    clock[0] = 121
    run_alone(cap(dict(socket), None, send))
    assert len(refused) == 1


# ---------------------------------------------------------------------- headers and the public name
def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url:
        status, headers, page = get(url)
        _, script_headers, _ = get(url + "flutter_bootstrap.js")
    assert status == 200
    for answer in (headers, script_headers):
        assert answer["x-content-type-options"] == "nosniff"
        assert answer["x-frame-options"] == "DENY"
        assert answer["referrer-policy"] == "no-referrer"
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    inline = re.findall(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page, re.DOTALL)
    assert inline  # Flet's config and the font override
    for body in inline:
        assert "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    assert int(headers["content-length"]) == len(page)


def test_the_policy_hashes_each_inline_script() -> None:
    html = b"<script>a()</script><script src='x.js'></script><SCRIPT type='module'>b()</SCRIPT>"
    assert len(script_hashes(html)) == 2
    assert all(source in content_security_policy(html) for source in script_hashes(html))


def test_the_public_host_name_is_accepted_and_used_for_joining(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_HOSTS", raising=False)
    assert not server.origin_allowed("https://games.example.org", "games.example.org")
    monkeypatch.setenv(server.PUBLIC_URL_ENV, "https://games.example.org")
    monkeypatch.setenv(table_runtime.URL_ENV, "http://127.0.0.1:8550")  # what run() sets for the LAN
    assert server.origin_allowed("https://games.example.org", "games.example.org")
    assert not server.origin_allowed("https://evil.example", "games.example.org")
    assert table_runtime.join_url(None, "ACDEFG") == "https://games.example.org/join/ACDEFG"


def test_public_url_option_reaches_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(server.PUBLIC_URL_ENV, "")  # restored afterwards, whatever apply_hosting sets
    monkeypatch.setenv(proxies.TRUSTED_ENV, "")
    args = entry.parse_args(["--web", "--public-url", "https://games.example.org/", "--trusted-proxy", "::1"])
    entry.apply_hosting(args)
    import os

    assert os.environ[server.PUBLIC_URL_ENV] == "https://games.example.org"
    assert os.environ[proxies.TRUSTED_ENV] == "::1"


def test_the_printed_owner_link_uses_the_public_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Behind a proxy the owner opens the printed link from their own device, at the public address."""
    from scorekeeper.ui.app import announce_owner_link

    monkeypatch.setenv(server.PUBLIC_URL_ENV, "https://games.example.org")
    local = announce_owner_link(str(tmp_path / "data"), "127.0.0.1", 8550)
    printed = capsys.readouterr().out
    assert "https://games.example.org/#owner=" in printed
    assert local.startswith("http://127.0.0.1:8550/#owner=")  # the browser the server opens itself


def test_a_not_modified_page_keeps_its_cached_policy() -> None:
    """A 304 has no body to hash: a policy sent with it would replace the cached page's, without the hashes of
    its inline scripts, and the page would not start. So none is sent, nor a length."""
    from scorekeeper.server.headers import SecurityHeaders

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send(
            {"type": "http.response.start", "status": 304, "headers": [(b"content-type", b"text/html")]}
        )
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    run_alone(SecurityHeaders(app)({"type": "http", "method": "GET", "scheme": "http"}, None, send))
    names = [name for name, _ in sent[0]["headers"]]
    assert b"content-security-policy" not in names and b"content-length" not in names
    assert b"x-frame-options" in names
