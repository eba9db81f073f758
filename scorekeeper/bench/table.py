"""Live-table figures: a host, a board and up to 8 phones (headless browser contexts, loopback only) on one
served app: how long a phone takes from "Join" to its seat, and how long a move takes to reach every device.

`python -m scorekeeper.bench table --json` prints {"table": {...}}:
- `move_to_all_devices_ms_median` / `_p95`: from the moment the moving phone's page sends the tap to the server
  until every device (the host, which shows the board after the start, a separate board tablet and all phones,
  the mover too) has received the server's first frame after it. Both ends are taken in the pages (the
  browser's clock at the websocket), so the time the test driver needs to find and click a control, and to
  hear about frames, is not counted. Before each move every device has been quiet for `QUIET` seconds, so a
  frame after the tap is that move's and not a late one of the move before.
- `move_to_all_devices_ms_median_driver` / `_p95_driver`: the same moves timed as the driver sees them (from
  its click call until it has heard of every device's frame): an upper bound that includes the driver.
- `server_cpu_ms_per_move`: the server's CPU time (user + system) while the moves were made, per move: what a
  move costs the host whatever else the machine is doing (the times above grow with the machine's load).
- `join_to_seat_ms_median`, `server_rss_mb` (the server's resident memory at the end), which game and how many
  phones and devices were measured.
The game is the digital game with the most seats whose play panel is installed (Rage today), with as many
phones as it seats, at most 8; every seat is a phone (no computer player, so no computer pace is counted).
`tracked`: score keeping at the table, a Racko round of 4 phones (a 40-card deck) played `TRACKED_ROUNDS` times:
each phone enters its rack on the number pad and sends it; `part_to_all_devices_ms_median` / `_p95` time the
send until every device (host, board, the 4 phones) has received the server's frame after it.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper.bench.chromium import percentile, served_browser
from scorekeeper.games.contract import GameSpec
from scorekeeper.games.spec import GAMES
from scorekeeper.ui.registry import UIS

MOVES = 24
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
PHONES = 8
"""The most phones measured (one browser context each; 2 cores)."""
QUIET = 0.3
"""Seconds without a frame on any device before a move is made."""
CLOCK = """
(() => {
  // The page's own record of websocket traffic, in milliseconds since the epoch (comparable across pages).
  const now = () => performance.timeOrigin + performance.now();
  window.__frames = { sent: [], received: [] };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => window.__frames.received.push(now()));
    }
    send(data) {
      window.__frames.sent.push(now());
      return super.send(data);
    }
  };
})();
"""


def _game() -> tuple[str, int]:
    """The game with the most seats whose play panel is installed, and how many phones to join (at most
    `PHONES`): the busiest table the app can hold."""
    playable = [game for game in GAMES if _has_panel(game)]
    game = max(playable, key=lambda game: game.players[1])
    return game.key, min(game.players[1], PHONES)


def _has_panel(game: GameSpec) -> bool:
    """Whether the game can be played digitally (the UI registry has its play panel)."""
    screens = UIS.get(game)
    return screens is not None and screens.panel is not None


class Device:
    """One browser context on the app, with the times of the websocket frames it received."""

    def __init__(self, browser: Any, url: str, size: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=size)
        self.context.add_init_script(CLOCK)
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
        """The actions offered now (read in one go: the screen may change between two reads)."""
        found = self.page.eval_on_selector_all(
            "[flt-semantics-identifier^='act-']",
            "nodes => nodes.map(n => n.getAttribute('flt-semantics-identifier'))",
        )
        return sorted(found)

    def clock(self, kind: str, after: float) -> float | None:
        """The page's time (epoch ms) of its first websocket frame `kind` ("sent"/"received") after `after`."""
        return self.page.evaluate(
            f"window.__frames.{kind}.find(t => t > {after}) ?? null",
        )


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time the process has used so far (user + system), from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _quiet(devices: list[Device], seconds: float = QUIET, limit: float = 10.0) -> None:
    """Until no device has received a frame for `seconds` (at most `limit` seconds)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        last = max((d.frames[-1] for d in devices if d.frames), default=0.0)
        if time.perf_counter() - last >= seconds:
            return
        devices[0].page.wait_for_timeout(50)


def _move(phone: Device, devices: list[Device]) -> tuple[float, float] | None:
    """One move by `phone` (call when offered, else stock, else discard, else the first offered action): see
    `_measure` (None: nothing was offered, or a device heard nothing)."""
    offered = phone.acts()
    choice: str | None = next(
        (a for a in ('act-"call"', 'act-"stock"', 'act-"discard"') if a in offered), None
    )
    choice = choice or (offered[0] if offered else None)
    return None if choice is None else _measure(phone, choice, devices)


def _measure(phone: Device, identifier: str, devices: list[Device]) -> tuple[float, float] | None:
    """Tap `identifier` on `phone` once every device is quiet: the milliseconds until every device has received
    a frame after it, by the pages' clocks and by the driver's (None: the control went away, or a device heard
    nothing)."""
    _quiet(devices)
    counts = [len(device.frames) for device in devices]
    before = time.time() * 1000
    start = time.perf_counter()
    try:
        target = phone.node(identifier)
        inner = target.locator("[flt-tappable], [role=button]").first
        (inner if inner.count() else target).click(timeout=5_000)
    except Exception:  # the turn moved on meanwhile
        return None
    deadline = start + 15
    while time.perf_counter() < deadline and any(
        len(d.frames) <= n for d, n in zip(devices, counts, strict=True)
    ):
        phone.page.wait_for_timeout(2)
    if any(len(d.frames) <= n for d, n in zip(devices, counts, strict=True)):
        return None
    driver = (max(d.frames[n] for d, n in zip(devices, counts, strict=True)) - start) * 1000
    tapped = phone.clock("sent", before)
    if tapped is None:
        return None
    arrived = [d.clock("received", tapped) for d in devices]
    heard = [a for a in arrived if a is not None]
    if len(heard) < len(arrived):
        return None
    return max(heard) - tapped, driver


def _figures(times: list[float], suffix: str = "") -> dict[str, float | None]:
    return {
        f"move_to_all_devices_ms_median{suffix}": round(statistics.median(times), 1) if times else None,
        f"move_to_all_devices_ms_p95{suffix}": round(percentile(times, 0.95), 1) if times else None,
    }


def _open_table(
    browser: Any, url: str, game: str, players: int, *choices: str
) -> tuple[Device, Device, list[Device], list[float]]:
    """The host sets up a table of `game` (tapping `choices`, e.g. the mode), a board tablet opens it, a phone per
    seat joins, the host starts: (host, board, phones, join-to-seat times in ms)."""
    host = Device(browser, url, {"width": 1280, "height": 1200})  # the lobby of 8 seats and its start button
    host.open("/", "host-table")
    for identifier in (
        "host-table",
        f"table-game-{game}",
        f"table-players-{players}",
        *choices,
        "create-table",
    ):
        host.tap(identifier)
    host.wait("table-code")
    code = host.node("table-code").inner_text().strip() or host.node("table-code").get_attribute("aria-label")
    board = Device(browser, url, TABLET)
    board.open(f"/table/{code}/board", "table-code")
    joins: list[float] = []
    phones: list[Device] = []
    for seat in range(1, players + 1):
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
    return host, board, phones, joins


def _digital(browser: Any, url: str, app: Any, game: str, players: int) -> dict[str, Any]:
    """Moves of a digital round, each phone moving when it is its turn."""
    host, board, phones, joins = _open_table(browser, url, game, players)
    host.wait("board-turn")
    board.wait("board-turn")
    for phone in phones:
        phone.wait("turn-status")
    devices = [host, board, *phones]
    pages: list[float] = []
    driver: list[float] = []
    cpu_before = _cpu_seconds(app.pid)
    for _ in range(MOVES * 4):
        if len(pages) >= MOVES:
            break
        moved = False
        for phone in phones:
            took = _move(phone, devices)
            if took is not None:
                pages.append(took[0])
                driver.append(took[1])
                moved = True
                break
        if not moved:
            host.page.wait_for_timeout(200)
    cpu_after = _cpu_seconds(app.pid)
    cpu = None if cpu_before is None or cpu_after is None or not pages else (cpu_after - cpu_before)
    figures = {
        **_figures(pages),
        "server_cpu_ms_per_move": round(cpu * 1000 / len(pages), 1) if cpu is not None else None,
        **_figures(driver, "_driver"),
        "moves": len(pages),
        "devices": len(devices),
        "join_to_seat_ms_median": round(statistics.median(joins), 1),
    }
    for device in devices:
        device.context.close()
    return figures


TRACKED = next(
    game.key
    for game in GAMES
    if game.table_part and any(kind == "rack" for kind, _ in game.table_part.fields.values())
)
"""The game whose table part is a rack entered on the number pad (Racko): its phones tap the most per part."""
TRACKED_ROUNDS = 2
RACKS = (
    list(range(1, 11)),  # a Racko: this seat calls
    list(range(20, 10, -1)),
    [21, 23, 22, 25, 24, 27, 26, 29, 28, 30],
    list(range(40, 30, -1)),
)
"""The racks the phones enter, 4 players of a 40-card deck (seat 1 holds a Racko and calls)."""


def _tracked(browser: Any, url: str) -> dict[str, Any]:
    """Score keeping at the table: each phone enters its Racko rack on the pad (ten taps) and sends it; a sent
    part reaches every device (the board shows who is done, the last one saves the round). Timed: the send."""
    host, board, phones, _ = _open_table(browser, url, TRACKED, len(RACKS), "table-mode-keep")
    host.wait("board-parts")
    board.wait("board-parts")
    devices = [host, board, *phones]
    pages: list[float] = []
    driver: list[float] = []
    for _ in range(TRACKED_ROUNDS):
        for seat, (phone, rack) in enumerate(zip(phones, RACKS, strict=True)):
            phone.wait("slot-9", timeout=60_000)
            for card in rack:
                phone.tap(f"num-{card}")
            if seat == 0:
                phone.tap("part-called")
            took = _measure(phone, "part-submit", devices)
            if took is not None:
                pages.append(took[0])
                driver.append(took[1])
    heading = board.node("board-turn")
    shown = heading.inner_text() or heading.get_attribute("aria-label") or ""
    if f" {TRACKED_ROUNDS + 1}" not in shown:  # every round sent was saved: else the times are not of parts
        raise RuntimeError(
            f"the phones' parts did not save {TRACKED_ROUNDS} rounds; the board shows {shown!r}"
        )
    figures = {
        "game": TRACKED,
        "phones": len(phones),
        **{key.replace("move", "part"): value for key, value in _figures(pages).items()},
        **{key.replace("move", "part"): value for key, value in _figures(driver, "_driver").items()},
        "parts": len(pages),
    }
    for device in devices:
        device.context.close()
    return figures


def run(as_json: bool = False) -> dict[str, Any]:
    game, phones_wanted = _game()
    data_dir = tempfile.mkdtemp(prefix="scorekeeper-bench-table-")
    figures: dict[str, Any] = {"game": game, "phones": phones_wanted}
    with served_browser(data_dir) as (browser, url, app):
        figures.update(_digital(browser, url, app, game, phones_wanted))
        figures["tracked"] = _tracked(browser, url)
        figures["server_rss_mb"] = _rss_mb(app.pid)
    return {"table": figures}


if __name__ == "__main__":
    print(json.dumps(run(as_json=True)))
