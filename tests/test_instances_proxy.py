"""The routing for several instances, run in the real proxies from Debian's packages: Caddy and nginx with the
configuration `scorekeeper.table.routing` writes, in front of two stand-ins for the app's instances on loopback
(each answers every request with its number, so the test sees where the proxy sent it). What is tested is the
proxy's part: a code's pages go to the instance that made the code and set the cookie naming it, the websocket
follows the cookie, everything else goes to instance 1."""

from __future__ import annotations

import re
import threading
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from scorekeeper.bench.fronts import NGINX_FRAME, available, caddy_running, free_port, nginx_running
from scorekeeper.table import routing
from scorekeeper.table.codes import Instance, new_code


class _Numbered(BaseHTTPRequestHandler):
    number = 0

    def do_GET(self) -> None:
        body = f"instance {self.number}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@contextmanager
def stand_ins(count: int) -> Iterator[list[int]]:
    """`count` HTTP servers on loopback, the K-th answering "instance K"; yields their ports."""
    servers = [
        ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (_Numbered,), {"number": n + 1}))
        for n in range(count)
    ]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield [int(server.server_address[1]) for server in servers]
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def through_caddy(ports: list[int], workdir: Path) -> AbstractContextManager[str]:
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    text = routing.caddyfile(len(ports), ports).replace("{$SCOREKEEPER_SITE:games.example.org}", site)
    return caddy_running("{\n\tadmin off\n\tauto_https off\n}\n" + text, workdir, site + "/")


def through_nginx(ports: list[int], workdir: Path) -> AbstractContextManager[str]:
    port = free_port()
    site = routing.nginx_site(len(ports), ports, listen=f"127.0.0.1:{port}")
    return nginx_running(lambda folder: NGINX_FRAME.format(folder=folder, site=site), workdir, port)


def ask(url: str, cookie: str | None = None) -> tuple[str, str]:
    """(the body, the Set-Cookie header) of a GET."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read().decode(), answer.headers.get("Set-Cookie") or ""


@pytest.mark.parametrize(("proxy", "through"), [("caddy", through_caddy), ("nginx", through_nginx)])
def test_the_proxy_sends_a_code_to_its_instance(
    tmp_path: Path, proxy: str, through: Callable[[list[int], Path], AbstractContextManager[str]]
) -> None:
    if not available(proxy):
        pytest.skip(f"Debian's {proxy} is not installed (.ci/run installs it)")
    with stand_ins(2) as ports, through(ports, tmp_path) as url:
        for number in (1, 2):
            code = new_code(instance=Instance(number, 2))
            for path in (
                f"join/{code}",
                f"table/{code}",
                f"table/{code.lower()}/seat",
                f"table/{code}/board",
            ):
                body, cookie = ask(url + path)
                assert body == f"instance {number}", path
                assert re.match(rf"{routing.COOKIE}={number};", cookie), (path, cookie)
            # the page's websocket carries no code: the cookie the code's page set takes it there
            assert ask(url + "ws", f"other=1; {routing.COOKIE}={number}")[0] == f"instance {number}"
        assert ask(url + "ws")[0] == "instance 1"  # no cookie: home, history, settings opened first
        for path in ("", "history", "table/new", "join/ABC"):
            body, cookie = ask(url + path)
            assert body == "instance 1" and routing.COOKIE not in cookie, path


def test_the_deploy_files_are_what_the_routing_writes() -> None:
    deploy = Path(__file__).resolve().parents[1] / "deploy"
    assert (deploy / "Caddyfile.instances").read_text() == routing.caddyfile(2)
    assert (deploy / "nginx.instances.conf").read_text() == routing.nginx_site(2)
