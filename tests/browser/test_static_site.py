"""The static web build (`make static`) on a phone: built into a temporary folder, served by `python -m
http.server` on loopback, opened in headless Chromium at 390 x 844. After the first load the server is stopped
and the network cut; the app comes back from its own service worker, a Racko round is kept with racks, and its
totals are still there after another reload (the data lives in the browser's IndexedDB).

Python runs inside the page's worker here, so there is no websocket whose frames tell when the app has answered
a tap (the `UI.settle` of the served app): `StaticUI` waits until the screen's text has stopped changing."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    PHONE,
    UI,
    add_players,
    free_port,
    new_game,
    start_new_game,
    wait_http,
)
from PIL import Image
from steps import acts, other_device_export, present, tap_act, wait_totals
from test_play_racko import rack_labels, seat_people, seat_two_people
from test_play_ruckzuck_rage import play_until, rage_step, ruckzuck_step
from test_store_photos import picture
from test_track_rage import disabled

from scorekeeper.exchange.transfer import import_json_text
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

FIRST_LOAD_S = 180  # Pyodide, the client and the app's archive on a loaded 2-core machine
ANNA = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  # a Racko with runs: may call under the 2-player rule
BEN = [11, 12, 13, 20, 14, 30, 31, 32, 40, 39]  # ascending 4 -> 20 points


class StaticUI(UI):
    """The UI helper for the static build: a tap is answered once the screen's text stays the same for 300 ms."""

    def settle(self, sent_before: int, timeout: float = 15.0, *, answered: bool = True) -> None:
        deadline = time.monotonic() + timeout
        last, since = self.all_text(), time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - since < 0.3:
            self.page.wait_for_timeout(50)
            now = self.all_text()
            if now != last:
                last, since = now, time.monotonic()

    def diagnosis(self) -> str:
        """As the served app's, plus what Python in the page printed (its errors land in the console)."""
        lines = [line for line in getattr(self, "console", []) if "WebGL" not in line]
        return super().diagnosis() + "\nconsole:\n" + "\n".join(lines[-40:])

    def start(self, route: str = "/", ready: str = "new-game", timeout: float = FIRST_LOAD_S) -> None:
        """Go to `route` (a hash route: the site is static) and wait for `ready`. Within the loaded app this
        only changes the address's fragment, and the app follows it."""
        self.page.goto(self.url + "#" + route)
        self.ready(ready, timeout)

    def reload(self, ready: str, timeout: float = FIRST_LOAD_S) -> None:
        self.page.reload()
        self.ready(ready, timeout)

    def ready(self, identifier: str, timeout: float) -> None:
        """Wait for `identifier`, turning on Flutter's accessibility tree first when the page is new."""
        selector = f'[flt-semantics-identifier="{identifier}"]'
        self.page.wait_for_function(
            f"document.querySelector('flt-semantics-placeholder') || document.querySelector('{selector}')",
            timeout=timeout * 1000,
        )
        self.page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
        self.wait(identifier, timeout=timeout * 1000)

    def open(self, route: str = "/", ready: str = "new-game") -> None:
        self.start(route, ready)

    def offline_copy_ready(self) -> None:
        """Wait until the site's service worker has cached the whole site and controls the page."""
        self.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        self.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)


@pytest.fixture(scope="module")
def site(static_site: Path) -> Path:
    return static_site


def serve(site: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_http(f"http://127.0.0.1:{port}/")
    return server


@pytest.fixture
def phone(chromium: Any, site: Path) -> Iterator[tuple[StaticUI, subprocess.Popen[bytes]]]:
    port = free_port()
    server = serve(site, port)
    context = chromium.new_context(viewport=PHONE, owner=False)
    try:
        ui = StaticUI(context.new_page(), f"http://127.0.0.1:{port}/", "static")
        foreign: list[str] = []
        own = (
            ui.url,
            "blob:" + ui.url,
        )  # a blob: address is the page's own memory (page.js inflates into one)
        ui.page.on("request", lambda r: None if r.url.startswith(own) else foreign.append(r.url))
        ui.foreign = foreign  # type: ignore[attr-defined]
        ui.console = []  # type: ignore[attr-defined]
        ui.page.on("console", lambda message: ui.console.append(f"[{message.type}] {message.text}"))  # type: ignore[attr-defined]
        yield ui, server
    finally:
        context.close()
        server.kill()
        server.wait(timeout=10)


def first_load_then_offline(ui: StaticUI, server: subprocess.Popen[bytes]) -> None:
    """The first load with the network on, until the offline copy is complete; then no server, no network, and
    the app loaded again from the service worker."""
    ui.start()
    ui.offline_copy_ready()
    server.kill()
    server.wait(timeout=10)
    ui.page.context.set_offline(True)
    ui.reload("new-game")


def enter_rack(ui: UI, rack: list[int]) -> None:
    for number in rack:
        ui.tap(f"num-{number}")


def keep_racko_round(ui: UI) -> None:
    """Two players, a Racko game, its first round entered with both racks (Anna called): totals 75 and 20."""
    new_game(ui, "racko", ["Anna", "Ben"], dealer_seat=0)
    enter_rack(ui, ANNA)
    enter_rack(ui, BEN)
    ui.tap("caller-0")
    ui.wait_text("This round (points): Anna +75, Ben +20")
    ui.tap("save-round")
    wait_totals(ui, 75, 20)


STARTED_FROM_SNAPSHOT = "scorekeeper: Python started from the saved interpreter"
"""What the worker's boot script (scorekeeper/static/boot.js) says when Python starts from the snapshot."""


def test_the_static_site_keeps_score_offline_after_its_first_load(
    phone: tuple[StaticUI, subprocess.Popen[bytes]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    ui, server = phone
    ui.start()
    ui.shot("static-home-online")
    ui.offline_copy_ready()
    assert ui.foreign == []  # type: ignore[attr-defined]  # nothing was asked of another origin
    # Python started from the build's snapshot, its gzipped files inflated by the page's scripts (first load)
    assert any(STARTED_FROM_SNAPSHOT in line for line in ui.console), ui.console  # type: ignore[attr-defined]

    # the network is gone: no server, and the browser offline
    server.kill()
    server.wait(timeout=10)
    ui.page.context.set_offline(True)
    ui.console.clear()  # type: ignore[attr-defined]
    ui.reload("new-game")
    ui.shot("static-home-offline")
    # ... and again, its files now answered inflated by the service worker
    assert any(STARTED_FROM_SNAPSHOT in line for line in ui.console), ui.console  # type: ignore[attr-defined]

    keep_racko_round(ui)  # offline
    ui.shot("static-racko-scoreboard")

    # a reload, still offline: the round is still there (IndexedDB)
    scoreboard = ui.page.url
    ui.reload("total-0")
    assert ui.page.url == scoreboard
    wait_totals(ui, 75, 20)
    ui.shot("static-racko-after-reload")

    # export through the browser's download; another device's export imported through its file chooser
    ui.open("/settings", ready="export-json")
    with ui.page.expect_download(timeout=30_000) as download:
        ui.tap("export-json")
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert "matches" in json.loads(exported) and "Anna" in exported
    # the same store format as a computer's: the browser's export opens in the served app's store
    with Store.open(tmp_path_factory.mktemp("computer")) as computer:
        assert import_json_text(computer, exported).matches_added == 1
        [summary] = computer.list_matches()
        played = computer.get_match(summary.id)
        assert played is not None and played.totals() == [75, 20]
    other = other_device_export(tmp_path_factory.mktemp("other-device"))
    with ui.page.expect_file_chooser(timeout=30_000) as chooser:
        ui.tap("import-file")
    chooser.value.set_files(str(other))
    ui.wait_text("Imported: 1 new game", timeout=60_000)
    ui.shot("static-imported")


def test_the_static_site_plays_a_rage_round_against_computer_players_offline(
    phone: tuple[StaticUI, subprocess.Popen[bytes]],
) -> None:
    """Against three computer players, who move on the page's event loop (the browser's Python has no
    threads)."""
    ui, server = phone
    first_load_then_offline(ui, server)
    ui.tap("play-rage")
    ui.wait("start-game")
    ui.tap("add-computer")  # you and two by default: a third
    ui.wait("seat-3-remove")
    ui.tap("pace-instant", count=False)
    ui.tap("start-game")
    ui.wait("play-panel", timeout=60_000)
    assert play_until(ui, "round-result", rage_step) > 0
    assert "Round 1 is over." in ui.all_text()
    ui.shot("static-rage-round-result")
    played = ui.all_text().split("Moves")[0]  # the round's result and the standings

    # a reload, still offline: the round and its result come back from IndexedDB
    ui.reload("round-result")
    assert ui.all_text().split("Moves")[0] == played
    ui.shot("static-rage-after-reload")


def test_the_static_site_plays_ruck_zuck_and_passes_and_plays_racko_and_rage_offline(
    phone: tuple[StaticUI, subprocess.Popen[bytes]],
) -> None:
    """A Ruck Zuck round against the default computer players to its result, then Racko for two people on one
    phone: the hand-over screen hides every card until `reveal`, the mover sees their own ten, draws and
    discards, and the next person's turn is hidden again; then Rage for three people, each bidding behind the
    hand-over screen; all offline."""
    ui, server = phone
    first_load_then_offline(ui, server)
    ui.tap("play-ruckzuck")
    ui.wait("start-game")
    ui.tap("pace-instant", count=False)
    ui.tap("start-game")
    ui.wait("play-panel", timeout=60_000)
    assert play_until(ui, "round-result", ruckzuck_step, timeout=600) > 0
    assert "Round 1 is over." in ui.all_text()
    ui.shot("static-ruckzuck-round-result")

    ui.start("/")
    seat_two_people(ui)
    ui.tap("start-game")
    ui.wait("reveal", timeout=60_000)
    assert not present(ui, "play-panel") and not acts(ui) and not rack_labels(ui)
    ui.shot("static-pass-and-play-hand-over")
    tap_act(ui, "reveal")
    ui.wait("play-panel")
    assert len(rack_labels(ui)) == 10
    tap_act(ui, 'act-"stock"')
    ui.page.wait_for_selector("[flt-semantics-identifier='act-\"discard\"']", state="attached")
    tap_act(ui, 'act-"discard"')
    ui.wait("reveal")  # the other person's turn: hidden again
    assert not present(ui, "play-panel") and not acts(ui) and not rack_labels(ui)

    # Rage for three people on one phone: each bids behind the hand-over screen
    ui.start("/")
    seat_people(ui, "rage", ["Ann", "Ben", "Cleo"])
    ui.tap("start-game")
    for _ in range(3):
        ui.wait("reveal", timeout=60_000)
        assert not present(ui, "play-panel") and not acts(ui)
        tap_act(ui, "reveal")
        ui.wait("play-panel")
        bids = [a for a in acts(ui) if a.startswith('act-["bid"')]
        assert bids, ui.all_text()[:800]
        tap_act(ui, bids[0])
    ui.wait("reveal", timeout=60_000)  # the first trick's leader: hidden again, every bid made
    assert not acts(ui)
    ui.shot("static-rage-pass-and-play")


def test_the_static_site_keeps_ruck_zuck_and_rage_and_tells_them_offline(
    phone: tuple[StaticUI, subprocess.Popen[bytes]],
) -> None:
    """Keeping score of the other two games offline: a whole Ruck Zuck game for two (a hand as cards, a typed
    total) and a Rage round (Amigo edition, the dealer's bid restricted, a +5 card) with a photo; then the
    history, the game's progression and the statistics as tables (the prebuilt client has no charts), and the
    players."""
    ui, server = phone
    first_load_then_offline(ui, server)
    ui.open("/players", ready="player-name")
    add_players(ui, "Anna", "Ben", "Cleo")
    keep_ruckzuck_game(ui)
    keep_rage_round(ui)
    add_turned_photo(ui)
    history_and_statistics_with_charts(ui)


def keep_ruckzuck_game(ui: StaticUI) -> None:
    """Anna and Ben, two rounds (everyone deals once): 120 as cards, then a typed 45; Anna wins."""
    start_new_game(ui, "ruckzuck", ["Anna", "Ben"], dealer_seat=1)  # two rounds: everyone deals once
    ui.tap("out-0")
    for card in ("3", "17", "J"):
        ui.tap(f"card-{card}")
    ui.wait_text("Penalty: 120")
    ui.tap("save-round")
    wait_totals(ui, 0, 120)
    ui.tap("enter-round")
    ui.tap("out-1")
    ui.tap("hand-seat-0")
    ui.tap("hand-mode-total")
    ui.fill("total-0", "45")
    ui.tap("save-round")
    ui.wait("play-again")
    ui.wait_text("Anna wins!")
    wait_totals(ui, 45, 120)
    ui.shot("static-ruckzuck-kept")


def keep_rage_round(ui: StaticUI) -> None:
    """Anna, Ben and Cleo, Amigo with the dealer's hook rule: Cleo may not bid 4; a +5 card for Anna."""
    start_new_game(
        ui, "rage", ["Anna", "Ben", "Cleo"], dealer_seat=2, options={"edition": "amigo", "hook_rule": "True"}
    )
    ui.tap("bid-0-3")
    ui.tap("bid-1-3")
    ui.wait_text("The dealer may not bid 4.")
    assert disabled(ui, "bid-2-4")
    ui.tap("bid-2-2")
    ui.tap("save-round")  # "Bids done"
    ui.wait("made-0")
    ui.tap("made-0")
    ui.tap("made-1")
    ui.tap("tricks-2-4")
    ui.tap("bonus-0-plus")
    ui.wait_text("Tricks: 10 of 10")
    ui.tap("save-round")
    wait_totals(ui, 3 + 10 + 5, 3 + 10, 4 - 5)  # Amigo: 10 for a bid made, -5 for one missed
    ui.shot("static-rage-kept")


def add_turned_photo(ui: StaticUI) -> None:
    """A phone's photo (stored turned, EXIF orientation 6) scaled by the browser itself: upright as thumbnail and
    full size, and still there after a reload (offline)."""
    with ui.page.expect_file_chooser(timeout=30_000) as chooser:
        ui.tap("photo-add")
    chooser.value.set_files(
        files={"name": "table.jpg", "mimeType": "image/jpeg", "buffer": picture(orientation=6)}
    )
    ui.wait("photo-0", timeout=60_000)
    assert not present(ui, "photo-keep-location")  # a canvas writes no EXIF: the location is never kept here
    assert red_above_blue(ui, "photo-0")
    ui.shot("static-rage-photo")
    ui.reload("photo-0")
    assert red_above_blue(ui, "photo-0")
    ui.tap("photo-0")
    ui.wait("photo-full")
    assert red_above_blue(ui, "photo-full")
    ui.shot("static-rage-photo-full")
    ui.tap("photo-close")


def history_and_statistics_with_charts(ui: StaticUI) -> None:
    """The history (the running Rage game, the finished Ruck Zuck game), that game's progression as a chart (Flet's
    canvas: the prebuilt client has no flet-charts) with its numbers folded under it, the statistics' share of wins
    as a chart and a table, and the players."""
    ui.open("/history", ready="history-game-all")
    ui.wait_text("Finished games: 1")
    ui.wait_text("Won by Anna")
    assert ui.page.locator("[flt-semantics-identifier^='history-continue-']").count() == 1  # the Rage game
    ui.shot("static-history")
    ui.tap("history-game-ruckzuck")
    ui.wait_text("Finished games: 1")
    [ruckzuck] = set(
        ui.page.evaluate(
            "[...document.querySelectorAll('[flt-semantics-identifier]')]"
            ".map(e => e.getAttribute('flt-semantics-identifier'))"
            ".filter(i => /^history-[0-9a-f]{32}$/.test(i))"
        )
    )
    ui.tap(ruckzuck)
    ui.wait("progression-chart")  # drawn on Flet's canvas here, by flet-charts in the served app
    ui.wait_text("Won by Anna")
    ui.tap("progression-numbers")
    ui.wait("progression-table")  # the totals after each round
    ui.shot("static-history-game")

    ui.open("/stats", ready="stats-game-all")
    ui.wait("win-share-table")
    ui.wait_text("Anna · wins: 1 (100%)")
    ui.wait("win-share-chart")
    ui.shot("static-stats")
    ui.open("/players", ready="player-name")
    for name in ("Anna", "Ben", "Cleo"):
        ui.wait(f"player-{name}")


def red_above_blue(ui: UI, identifier: str) -> bool:
    """Is the picture on screen at `identifier` red at its top and blue at its bottom (the test photo upright)?"""
    image = Image.open(io.BytesIO(ui.node(identifier).screenshot())).convert("RGB")
    width, height = image.size
    top, bottom = image.getpixel((width // 2, height // 5)), image.getpixel((width // 2, height * 4 // 5))
    return top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]


@contextmanager
def chromium_process(profile: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """Chromium as its own process group on a lasting profile, reachable over CDP: (process, CDP address).
    Ended (killed) after the block if the test has not killed it."""
    port = free_port()
    process = subprocess.Popen(
        [
            CHROMIUM,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--remote-debugging-port={port}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{address}/json/version", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield process, address
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def test_a_killed_browser_loses_no_acknowledged_save(chromium: Any, site: Path, tmp_path: Path) -> None:
    """The site is installable; a Racko round saved, the browser killed (SIGKILL, no shutdown), the server gone: a
    new browser on the same profile opens the site from its offline copy and the round is there."""
    port = free_port()
    server = serve(site, port)
    url = f"http://127.0.0.1:{port}/"
    profile = tmp_path / "profile"
    try:
        with chromium_process(profile) as (process, address):
            browser = chromium.browser_type.connect_over_cdp(address)
            page = browser.contexts[0].new_page()
            page.set_viewport_size(PHONE)
            ui = StaticUI(page, url, "static-kill")
            ui.start()
            ui.offline_copy_ready()
            # the site installs: Chromium finds no fault with its manifest and service worker (a real profile:
            # an incognito one is never installable)
            devtools = page.context.new_cdp_session(page)
            assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            assert devtools.send("Page.getAppManifest")["errors"] == []
            keep_racko_round(ui)
            scoreboard = page.url
            os.killpg(process.pid, signal.SIGKILL)  # the moment the totals are on screen
            process.wait(timeout=10)
    finally:
        server.kill()
        server.wait(timeout=10)
    with chromium_process(profile) as (process, address):
        browser = chromium.browser_type.connect_over_cdp(address)
        try:
            page = browser.contexts[0].new_page()
            page.set_viewport_size(PHONE)
            ui = StaticUI(page, url, "static-kill")
            page.goto(scoreboard)
            ui.ready("total-0", FIRST_LOAD_S)
            wait_totals(ui, 75, 20)
            ui.shot("static-racko-after-kill")
        finally:
            browser.close()
