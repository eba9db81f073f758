"""The web server as a network sees it: a real server (`run(web=True)`) on localhost,
asked with plain HTTP and websocket clients."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from scorekeeper.exchange.import_check import MAX_IMPORT_BYTES
from scorekeeper.server.web import origin_allowed, ws_max_size
from tests.browser.conftest import served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("server") / "data"
    data.mkdir()
    with served(data) as url:
        yield url.rstrip("/")


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_no_api_documentation(server: str) -> None:
    status, _, _ = get(server + "/openapi.json")
    assert status == 404
    for path in ("/docs", "/redoc"):
        status, _, body = get(server + path)
        # The web client's own page may answer any path (Flutter routes), but no API documentation.
        assert (
            b"swagger" not in body.lower() and b"redoc" not in body.lower() and b"openapi" not in body.lower()
        )


@pytest.mark.parametrize("path", ["/", "/main.dart.js", "/manifest.json"])
def test_no_wildcard_cors(server: str, path: str) -> None:
    status, headers, _ = get(server + path)
    assert status == 200
    assert headers.get("access-control-allow-origin") is None


def ws_url(server: str) -> str:
    return server.replace("http://", "ws://") + "/ws"


def test_foreign_origin_refused(server: str) -> None:
    with pytest.raises(InvalidStatus) as refused, connect(ws_url(server), origin="http://evil.example"):
        pass
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize("origin", ["same", "http://127.0.0.1:1234", None])
def test_same_host_any_port_accepted(server: str, origin: str | None) -> None:
    chosen = server if origin == "same" else origin
    with connect(ws_url(server), **({"origin": chosen} if chosen else {})) as socket:
        assert socket.protocol.state.name == "OPEN"


@pytest.mark.parametrize(
    ("origin", "host", "ok"),
    [
        ("http://192.168.1.5:8550", "192.168.1.5:8550", True),
        ("https://box.local", "Box.local:8550", True),
        ("https://game-night", "game-night:8550", True),  # listed in SCOREKEEPER_HOSTS below
        ("http://[::1]:9", "[::1]:8550", True),
        ("http://evil.example", "127.0.0.1:8550", False),
        ("null", "127.0.0.1:8550", False),
        ("http://127.0.0.1.evil.example", "127.0.0.1:8550", False),
        ("http://127.0.0.1", None, False),
        ("http://localhost:3000", "localhost:8550", True),
        ("http://evil.example:8550", "evil.example:8550", False),  # DNS rebinding: a foreign name for us
    ],
)
def test_origin_rule(origin: str, host: str | None, ok: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("socket.gethostname", lambda: "Box")
    monkeypatch.setenv("SCOREKEEPER_HOSTS", "game-night")
    assert origin_allowed(origin, host) is ok


def test_websocket_frames_keep_uvicorns_limit(server: str) -> None:
    """Import files no longer travel in a websocket frame (a browser sends them over HTTP: test_ui_upload.py), so
    frames keep uvicorn's 16 MiB limit (it was raised to the import limit before): a frame of hundreds of
    megabytes closes the socket instead of filling the host's memory."""
    assert ws_max_size() == 16 * 1024 * 1024 < MAX_IMPORT_BYTES
    big = b"\x02" + b"x" * (20 * 1024 * 1024)  # a packet type Flet skips, just its size
    with connect(ws_url(server), max_size=None) as socket:
        socket.send(big)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # "message too big"
