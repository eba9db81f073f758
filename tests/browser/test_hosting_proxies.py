"""The app on the internet, tested for real: the real Caddy from Debian's packages with the project's
`deploy/Caddyfile` (`tls internal`: https on loopback) and the real nginx with `deploy/nginx.conf` in front of
the app, and Chromium through them.

- Through Caddy (the app trusts it, `--public-url` is its https address): the lobby's join address is the public
  one; a phone joins over https, plays, reloads and is back in its seat, and no token is ever in its address;
  someone guessing codes is refused after too many, while another person behind the same address (Caddy's, to
  the app) still joins with the right code.
- A visitor without the owner token gets a guest's rights, through Caddy and through nginx without forwarding
  headers (the issue's case: every visitor arrives from 127.0.0.1 and used to be the host).
"""

from __future__ import annotations

import shutil
import ssl
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import DESKTOP, PHONE, UI, browser_tabs, free_port, running
from steps import present, screenshot
from test_table_screens import new_table, one_move, reopen, wait_says

from scorekeeper.bench.fronts import caddy, nginx
from scorekeeper.server.proxies import TRUSTED_ENV
from scorekeeper.server.web import PUBLIC_URL_ENV
from scorekeeper.table.codes import ALPHABET, LIMIT

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def needs(program: str) -> None:
    if shutil.which(program) is None and not Path(f"/usr/sbin/{program}").exists():
        pytest.skip(f"Debian's {program} is not installed (.ci/run installs it)")


@contextmanager
def app_on(tmp_path: Path, port: int) -> Iterator[str]:
    """The app (`run(web=True)`) on 127.0.0.1:`port` with a fresh data folder; yields its direct URL."""
    data = tmp_path / "data"
    data.mkdir()
    with running(data, port):
        yield f"http://127.0.0.1:{port}/"


def https_headers(url: str) -> dict[str, str]:
    """The response headers of `url` through Caddy (its internal CA is not in the trust store)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with urllib.request.urlopen(url, timeout=10, context=context) as answer:
        return {key.lower(): value for key, value in answer.headers.items()}


def play_moves(phone: UI, wanted: int, timeout: float = 120) -> int:
    """Make `wanted` moves at this phone's seat (its turns alternate with the computer player's)."""
    moves = 0
    deadline = time.monotonic() + timeout
    while moves < wanted and time.monotonic() < deadline:
        if one_move(phone):
            moves += 1
        else:
            phone.page.wait_for_timeout(300)
    return moves


def test_a_phone_plays_through_caddy_over_https_and_guessing_is_refused(
    chromium, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    needs("caddy")
    app_port, https_port = free_port(), free_port()
    public = f"https://127.0.0.1:{https_port}"
    monkeypatch.setenv(TRUSTED_ENV, "127.0.0.1")
    monkeypatch.setenv(PUBLIC_URL_ENV, public)
    with (
        app_on(tmp_path, app_port) as direct,
        caddy(app_port, tmp_path, port=https_port),
        browser_tabs(chromium, direct) as host_tab,
        browser_tabs(chromium, public + "/", ignore_https_errors=True) as tab,
    ):
        host = host_tab("https-host", DESKTOP)
        code = new_table(host, "racko", 2)
        assert f"{public}/join/{code}" in host.text_of("join-address")  # the public address, also in the QR
        host.tap("computer-2")

        phone = tab("https-phone", PHONE, owner=False)
        console: list[str] = []
        phone.page.on("console", lambda message: console.append(message.text))
        phone.open(f"/join/{code}", ready="join-name")
        phone.fill("join-name", "Anna")
        phone.tap("take-seat-1")
        phone.tap("join-submit")
        phone.wait("seat-waiting")
        host.tap("start-table")
        phone.wait("turn-status", timeout=30_000)
        assert play_moves(phone, 2) == 2
        screenshot(phone, "hosting-caddy-phone", PHONE, pause=600)

        blocked = [line for line in console if "Content Security Policy" in line and "rive" not in line]
        assert not blocked, blocked  # the policy lets Flet's page work (it refuses only the Rive CDN script)
        headers = https_headers(public + f"/join/{code}")
        assert headers["strict-transport-security"].startswith("max-age=")  # https, said by the trusted proxy
        assert "frame-ancestors 'none'" in headers["content-security-policy"]

        reopen(phone, "turn-status")  # a reload over https: back in the seat by the token in its storage
        assert phone.page.url.startswith(public) and phone.page.url.endswith(f"/table/{code}/seat")
        assert play_moves(phone, 1) == 1
        assert "token" not in phone.page.url.lower()

        guesser = tab("https-guesser", PHONE, owner=False)
        guesser.open("/join", ready="join-code")
        for n in range(LIMIT + 1):
            guesser.fill("join-code", "CCCC" + ALPHABET[n // len(ALPHABET)] + ALPHABET[n % len(ALPHABET)])
            guesser.tap("join-code-submit")
        guesser.fill("join-code", code)
        guesser.tap("join-code-submit")
        wait_says(guesser, "Too many wrong codes")
        screenshot(guesser, "hosting-caddy-guesser", PHONE, pause=600)

        neighbour = tab(
            "https-neighbour", PHONE, owner=False
        )  # the same address to the app (Caddy's), another person
        neighbour.open(f"/join/{code}", ready="join-name")
        assert not present(neighbour, "join-error") or "Too many" not in neighbour.text_of("join-error")

        guest_has_guest_rights(neighbour)  # a visitor without the owner token is a guest, over Caddy too


def guest_has_guest_rights(visitor: UI) -> None:
    """Settings as a visitor sees them: its language and theme, and how to become a member; no path, export,
    import, backups, nor where the data lives."""
    visitor.open("/settings", ready="visitor-note")
    for hidden in ("data-dir", "data-where", "export-json", "import-file", "back-up-now", "guests-allowed"):
        assert not present(visitor, hidden), hidden


def test_a_visitor_through_nginx_without_forwarding_headers_is_a_guest(chromium, tmp_path: Path) -> None:
    """The issue's reproduction: nginx on 127.0.0.1 in front of the app, sending no X-Forwarded-For; the visitor
    (to the app a loopback client) saw the data folder, exported everything and deleted games."""
    needs("nginx")
    app_port = free_port()
    with (
        app_on(tmp_path, app_port),
        nginx(app_port, tmp_path, forwarding=False) as through,
        browser_tabs(chromium, through) as tab,
    ):
        visitor = tab("nginx-visitor", PHONE, owner=False)
        guest_has_guest_rights(visitor)
        screenshot(visitor, "hosting-nginx-visitor", PHONE, pause=600)
