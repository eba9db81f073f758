"""The live table's TV board, lobby and connection in a real browser (loopback only):

- the board of a digital Racko, Rage and Ruck Zuck table fills a 1080p screen with large cards and big type;
- the lobby's QR code is never made again when a phone joins (it blinked), the "10" seat button stays on one line
  at 1440 px, and the board shows the QR code before the start;
- a page load asks nothing of any host but the app's own (Flet's client fetched rive_native.js from a CDN);
- while the host is down, the page says the connection is lost and being retried, and the notice goes when the
  host is back.

Screenshots go to tests/browser/output/."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import msgpack
import pytest
from conftest import UI, browser_tabs, served, start_server, wait_http
from PIL import Image
from steps import computer_tables, screenshot
from test_table_screens import wait_says

from scorekeeper.store import Store

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV = {"width": 1920, "height": 1080}
TABLET = {"width": 1024, "height": 768}
DESKTOP_1440 = {"width": 1440, "height": 900}
TABLES = (("racko", 3, "board-discard"), ("rage", 4, "board-trick"), ("ruckzuck", 3, "board-grid"))


def seeded_tables(data: Path) -> dict[str, str]:
    """A digital table per game (computer players, some moves made), saved in `data`: game -> code."""
    return computer_tables(data, [(game, players) for game, players, _ in TABLES])


LEAVES = """() => [...document.querySelectorAll('flt-semantics')]
  .filter(n => !n.querySelector('flt-semantics'))
  .map(n => { const r = n.getBoundingClientRect();
              return {id: n.getAttribute('flt-semantics-identifier'), text: n.textContent,
                      x: r.x, y: r.y, w: r.width, h: r.height}; })
  .filter(n => n.w > 0 && n.h > 0)"""


def leaves(ui: UI) -> list[dict[str, Any]]:
    """The innermost nodes of the accessibility tree, with their boxes on screen."""
    return ui.page.evaluate(LEAVES)


def box_of(ui: UI, identifier: str) -> dict[str, float]:
    found = ui.node(identifier).bounding_box()
    assert found is not None, identifier
    return found


def test_the_tv_board_is_a_table_view_that_fills_a_1080p_screen(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    codes = seeded_tables(data)
    with served(data) as url, browser_tabs(chromium, url) as tab:
        for game, _, table_part in TABLES:
            board = tab(f"board-{game}", TV)
            board.open(f"/table/{codes[game]}/board", ready=table_part)
            board.wait("board-score-0")
            board.page.wait_for_timeout(600)
            nodes = leaves(board)
            left = min(n["x"] for n in nodes)
            right = max(n["x"] + n["w"] for n in nodes)
            top = min(n["y"] for n in nodes)
            bottom = max(n["y"] + n["h"] for n in nodes)
            # the content spans the screen, not its upper-left third
            assert (right - left) >= 0.85 * TV["width"], (game, left, right)
            assert (bottom - top) >= 0.8 * TV["height"], (game, top, bottom)
            # what lies on the table is large: a quarter of the screen's height at least
            assert box_of(board, table_part)["height"] >= 0.25 * TV["height"], game
            # big scores, and no line of text under 24 px (a line is about 1.4 times its type size)
            assert box_of(board, "board-score-0")["height"] >= 56, game
            lines = [n for n in nodes if n["text"].strip() and "\n" not in n["text"]]
            small = [(n["text"], n["h"]) for n in lines if n["h"] < 24 * 1.35]
            assert not small, (game, small)
            assert board.node("board-seat-0").count()  # a panel per player
            screenshot(board, f"tv-board-{game}-tv", TV, pause=600)
            screenshot(board, f"tv-board-{game}-tablet", TABLET, pause=900)
            board.page.context.close()


def ink_rows(picture: bytes, box: dict[str, float]) -> int:
    """How many pixel rows inside a button's middle (its outline left out) hold dark text."""
    image = Image.open(io.BytesIO(picture)).convert("L")
    x0, x1 = int(box["x"] + box["width"] * 0.3), int(box["x"] + box["width"] * 0.7)
    y0, y1 = int(box["y"] + 4), int(box["y"] + box["height"] - 4)
    return sum(any(image.getpixel((x, y)) < 160 for x in range(x0, x1)) for y in range(y0, y1))


def image_frames(frames: list[Any]) -> list[Any]:
    """The frames (server -> browser) that create an image control."""

    def has_image(value: Any) -> bool:
        if isinstance(value, dict):
            return value.get("_c") == "Image" or any(has_image(v) for v in value.values())
        if isinstance(value, list):
            return any(has_image(v) for v in value)
        return False

    return [
        frame
        for frame in frames
        if isinstance(frame, bytes)
        and has_image(list(msgpack.Unpacker(io.BytesIO(frame), strict_map_key=False)))
    ]


def test_the_lobby_keeps_its_qr_code_and_the_board_shows_it_before_the_start(
    chromium, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        host = tab("host", DESKTOP_1440)
        frames: list[Any] = []
        host.page.on(
            "websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(frame))
        )
        host.open("/table/new", ready="table-game-rage")
        host.tap("table-game-rage")
        host.page.wait_for_timeout(400)
        picture = host.page.screenshot()
        one, ten = (box_of(host, f"table-players-{n}") for n in (9, 10))
        # "10" on one line, as tall as "9" (it wrapped to "1" over "0": twice as tall)
        assert ink_rows(picture, ten) <= ink_rows(picture, one) + 3, (
            ink_rows(picture, ten),
            ink_rows(picture, one),
        )
        host.tap("table-players-3")
        host.tap("create-table")
        host.wait("table-qr")
        code = host.text_of("table-code")
        board = tab("board", TV)
        board.open(f"/table/{code}/board", ready="board-qr")
        assert box_of(board, "board-qr")["height"] >= 0.4 * TV["height"]
        screenshot(board, "tv-board-join-tv", TV, pause=600)
        host.page.wait_for_timeout(500)
        before = len(frames)
        qr = box_of(host, "table-qr")
        phone = tab("Anna", {"width": 390, "height": 844})
        phone.open(f"/join/{code}", ready="join-name")
        phone.fill("join-name", "Anna")
        phone.tap("take-seat-1")
        blank = 0
        phone.tap("join-submit", settle=False)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:  # the redraw after the join: the QR code never goes blank
            shot = Image.open(io.BytesIO(host.page.screenshot(clip=qr))).convert("L")
            blank += shot.getextrema()[0] > 100
        wait_says(host, "Anna")
        wait_says(board, "Anna")
        assert blank == 0
        assert image_frames(frames[before:]) == []  # the image control is kept, not made again
        screenshot(host, "lobby-1440", DESKTOP_1440, pause=600)
        screenshot(host, "lobby-phone", {"width": 390, "height": 844}, pause=900)


def test_a_page_load_asks_no_host_but_the_apps_own(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    codes = seeded_tables(data)
    with served(data) as url, browser_tabs(chromium, url) as tab:
        page = tab("offline", TV)
        asked: list[str] = []
        page.page.on("request", lambda request: asked.append(request.url))
        page.open("/", ready="new-game")
        page.open(f"/table/{codes['rage']}/board", ready="board-trick")
        page.page.wait_for_timeout(2000)  # the client loads its plugins' scripts after the first frame
        hosts = {
            urlparse(address).hostname
            for address in asked
            if urlparse(address).scheme in ("http", "https", "ws", "wss")
        }
        assert hosts == {"127.0.0.1"}, sorted(a for a in asked if urlparse(a).hostname != "127.0.0.1")


def test_the_page_says_when_the_host_is_lost_and_when_it_is_back(chromium, tmp_path: Path) -> None:
    from conftest import free_port

    data = tmp_path / "data"
    data.mkdir()
    store = Store.open(data)
    store.set_setting("language", "de")  # the browser asks for English: the app's language wins
    store.close()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = start_server(data, port)
    try:
        wait_http(url)
        with browser_tabs(chromium, url) as tab:
            page = tab("lost", TV)
            page.open("/", ready="new-game")
            notice = page.page.locator("#sk-connection")
            assert notice.count() == 0
            server.terminate()
            server.wait(timeout=10)
            notice.wait_for(state="attached", timeout=20_000)
            assert "Verbindung zum Gastgeber ist unterbrochen" in notice.inner_text()
            assert "Neuer Versuch" in notice.inner_text()
            page.page.screenshot(path=str(Path(__file__).with_name("output") / "host-lost-tv.png"))
            server = start_server(data, port)
            wait_http(url)
            notice.wait_for(state="detached", timeout=60_000)  # connected again: the notice goes
            # Flet's client, reconnected to a restarted server, answers no call to its storage, so the app
            # cannot tell that this browser is an owner device: it says so, and a reload brings the rights back
            page.wait("device-unknown", timeout=30_000)
            page.page.screenshot(path=str(Path(__file__).with_name("output") / "host-back-tv.png"))
            page.page.reload()
            page.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
            page.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
            page.wait("new-game", timeout=60_000)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except Exception:
            server.kill()
