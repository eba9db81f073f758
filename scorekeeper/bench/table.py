"""Live-table figures: a host, a board and up to 8 phones (headless browser contexts, loopback only) on one
served app: how long a phone takes from "Join" to its seat, and how long a move takes to reach every device.

`python -m scorekeeper.bench table --json` prints {"table": {...}}: `move_to_all_devices_ms_median` / `_p95`
(from the click on a phone until every other phone and the board have received the server's first frame after
it), `join_to_seat_ms_median`, `server_rss_mb` (the server's resident memory at the end), and which game and
how many phones were measured. The game is the digital game with the most seats whose play panel is installed
(Rage today), with as many phones as it seats, at most 8. Score keeping at the table (tracked rounds) is not measured yet.
"""

from __future__ import annotations

import importlib
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper.bench.ui import APP_PAGE, CHROMIUM, FLAGS, _serve
from scorekeeper.games.spec import GAMES

MOVES = 24
PHONE = {"width": 390, "height": 844}
PHONES = 8
"""The most phones measured (one browser context each; 2 cores)."""


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _game() -> tuple[str, int]:
    """The game with the most seats whose play panel is installed, and how many phones to join (at most
    `PHONES`): the busiest table the app can hold."""
    playable = [game for game in GAMES if _has_panel(game.key)]
    game = max(playable, key=lambda game: game.players[1])
    return game.key, min(game.players[1], PHONES)


def _has_panel(key: str) -> bool:
    try:
        importlib.import_module(f"scorekeeper.ui.play.{key}_panel")
    except ModuleNotFoundError:
        return False
    return True


class Device:
    """One browser context on the app, with the times of the websocket frames it received."""

    def __init__(self, browser: Any, url: str, size: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=size)
        self.page = self.context.new_page()
        self.url = url
        self.frames: list[float] = []
        self.page.on(
            "websocket", lambda ws: ws.on("framereceived", lambda _: self.frames.append(time.perf_counter()))
        )

    def open(self, route: str, ready: str) -> None:
        self.page.goto(self.url.rstrip("/") + route)
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        self.wait(ready)

    def node(self, identifier: str) -> Any:
        return self.page.locator(f"[flt-semantics-identifier='{identifier}']").first

    def wait(self, identifier: str, timeout: float = 60_000) -> None:
        self.node(identifier).wait_for(state="attached", timeout=timeout)

    def tap(self, identifier: str) -> None:
        target = self.node(identifier)
        target.wait_for(state="attached", timeout=30_000)
        inner = target.locator("[flt-tappable], [role=button], input").first
        (inner if inner.count() else target).click(timeout=30_000)
        self.page.wait_for_timeout(250)

    def acts(self) -> list[str]:
        nodes = self.page.locator("[flt-semantics-identifier^='act-']")
        return sorted(
            nodes.nth(i).get_attribute("flt-semantics-identifier") or "" for i in range(nodes.count())
        )


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _move(phone: Device, others: list[Device]) -> float | None:
    """One move by `phone` (call when offered, else stock, else discard, else the first offered action): the
    milliseconds until every other device has received a frame after the click (None: nothing was offered)."""
    offered = phone.acts()
    choice = next((a for a in ('act-"call"', 'act-"stock"', 'act-"discard"') if a in offered), None)
    choice = choice or (offered[0] if offered else None)
    if choice is None:
        return None
    counts = [len(device.frames) for device in others]
    start = time.perf_counter()
    try:
        phone.node(choice).click(timeout=5_000)
    except Exception:  # the turn moved on meanwhile
        return None
    deadline = start + 15
    while time.perf_counter() < deadline and any(
        len(d.frames) <= n for d, n in zip(others, counts, strict=True)
    ):
        phone.page.wait_for_timeout(2)
    if any(len(d.frames) <= n for d, n in zip(others, counts, strict=True)):
        return None
    arrived = max(d.frames[n] for d, n in zip(others, counts, strict=True))
    phone.page.wait_for_timeout(300)  # quiet before the next move
    return (arrived - start) * 1000


def run(as_json: bool = False) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    game, phones_wanted = _game()
    data_dir = tempfile.mkdtemp(prefix="scorekeeper-bench-table-")
    app, url = _serve(APP_PAGE, data_dir)
    figures: dict[str, Any] = {"game": game, "phones": phones_wanted}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            host = Device(browser, url, {"width": 1280, "height": 800})
            host.open("/", "host-table")
            host.tap("host-table")
            host.tap(f"table-game-{game}")
            host.tap(f"table-players-{phones_wanted}")
            host.tap("create-table")
            host.wait("table-code")
            code = host.node("table-code").inner_text().strip() or host.node("table-code").get_attribute(
                "aria-label"
            )
            joins: list[float] = []
            phones: list[Device] = []
            for seat in range(1, phones_wanted + 1):
                phone = Device(browser, url, PHONE)
                phone.open(f"/join/{code}", "join-name")
                phone.tap(f"take-seat-{seat}")
                name = phone.node("join-name").locator("input").first
                name.click()
                phone.page.keyboard.type(f"P{seat}")
                phone.page.wait_for_timeout(300)
                start = time.perf_counter()
                phone.tap("join-submit")
                phone.wait("seat-waiting")
                joins.append((time.perf_counter() - start) * 1000)
                phones.append(phone)
            host.tap("start-table")
            host.wait("board-turn")
            for phone in phones:
                phone.wait("turn-status")
            times: list[float] = []
            for _ in range(MOVES * 4):
                if len(times) >= MOVES:
                    break
                moved = False
                for index, phone in enumerate(phones):
                    took = _move(phone, [host, *phones[:index], *phones[index + 1 :]])
                    if took is not None:
                        times.append(took)
                        moved = True
                        break
                if not moved:
                    host.page.wait_for_timeout(200)
            figures.update(
                {
                    "move_to_all_devices_ms_median": round(statistics.median(times), 1) if times else None,
                    "move_to_all_devices_ms_p95": round(_percentile(times, 0.95), 1) if times else None,
                    "moves": len(times),
                    "join_to_seat_ms_median": round(statistics.median(joins), 1),
                    "server_rss_mb": _rss_mb(app.pid),
                }
            )
            browser.close()
    finally:
        app.terminate()
        app.wait(timeout=10)
    return {"table": figures}


if __name__ == "__main__":
    print(json.dumps(run(as_json=True)))
