"""`python -m scorekeeper.bench static [--json]`: the static web build (`make static`) against the served app.

- `dist_mb`: the site's size (goal <= 40), `build_s`: how long `static_build.build` takes.
- `cold_start_s`: a new browser profile loads the site from loopback (`python -m http.server`) until home is on
  screen (Pyodide, the client and the app's archive all fetched; goal <= 3), median of `RUNS`.
- `warm_start_s`: a reload of the same profile with the network off, from the site's own service worker, until
  home is on screen (goal <= 1.5), median of `RUNS`; `..._runs_s` each run.
- `cold_splash_ms`, `warm_splash_ms`: until the page first drew something of its own (the splash with the app's
  icon, name and colours: the browser's first contentful paint; goal <= 300).
- `served_cold_start_s`, `served_warm_start_s`, `served_cold_splash_ms`: the same for the app served by Python
  (`main.py --web`), in the same run, the two builds in turn (its warm start: a reload with the browser's cache).
- `load_average_before`, `..._after`: the machine's load average (1, 5, 15 minutes) around the run.
- `save_to_scoreboard_ms_median`: tapping Save round (Racko, quick form) until the scoreboard shows the new
  total on screen, in the static build (goal <= 250); `save_to_total_in_tree_ms_median`: until the new total is
  in the accessibility tree. `served_...`: the same for the app served by Python, in the same run.
- `served_cold_start_s`: the same first load of the app served by Python (`main.py --web`), in the same run.
- `photo_4mb_s`: a phone's 4 MB photo (bench/photos.py) set on the file input "Add photo" opens, until its
  thumbnail is on the static build's scoreboard: Flet's client reads the file and hands its bytes to the worker,
  the browser's canvas scales it, the store keeps it, IndexedDB has it, the scoreboard is redrawn; median of
  PHOTO_RUNS. `host_photo_4mb_s`: the same photo scaled and stored
  by Pillow on this machine (`Store.photos.add`, as `bench store`), in the same run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.bench import ui
from scorekeeper.bench.owner_harness import OwnerBrowser
from scorekeeper.bench.photos import PHOTO_RUNS, measure_photo, phone_photo
from scorekeeper.static import build as static_build

RUNS = 3
SAVES = 5
LOAD_TIMEOUT_MS = 240_000


def _serve_site(site: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = ui._port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return process, ui.served(process, f"http://127.0.0.1:{port}/", 30)


def _home(page: Any) -> None:
    """Wait until home is on screen (turning on Flutter's accessibility tree on a new page)."""
    # a selector, not a function: the served app's Content-Security-Policy allows no script evaluated from text
    page.wait_for_selector(
        'flt-semantics-placeholder, [flt-semantics-identifier="new-game"]',
        state="attached",
        timeout=LOAD_TIMEOUT_MS,
    )
    page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
    page.wait_for_selector('[flt-semantics-identifier="new-game"]', state="attached", timeout=LOAD_TIMEOUT_MS)


FIRST_PAINT = "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: null}).startTime"
"""Milliseconds from the navigation until the page first drew something of its own (the splash, assets/index.html)."""


@dataclass
class Start:
    """One start of a build: seconds until home is in the accessibility tree, milliseconds until the splash."""

    home_s: float
    splash_ms: float | None


def _start(page: Any, load: Callable[[], Any]) -> Start:
    started = time.perf_counter()
    load()
    _home(page)
    return Start(time.perf_counter() - started, page.evaluate(FIRST_PAINT))


def _cold_and_warm(browser: Any, url: str, *, offline: bool = True) -> tuple[Start, Start]:
    """A first load in a new profile, then a reload of the same profile: for the static build with the network
    off (its service worker answers), for the served app with its server (the browser's cache)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        cold = _start(page, lambda: page.goto(url))
        if offline:
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=LOAD_TIMEOUT_MS)
            context.set_offline(True)
        return cold, _start(page, page.reload)
    finally:
        context.close()


def _median(values: list[float | None], digits: int) -> float | None:
    known = [value for value in values if value is not None]
    return round(statistics.median(known), digits) if known else None


def _tap(page: Any, identifier: str) -> None:
    target = page.locator(f'[flt-semantics-identifier="{identifier}"]').first
    target.wait_for(state="attached", timeout=30_000)
    inner = target.locator("[flt-tappable], [role=button], input").first
    (inner if inner.count() else target).click()
    page.wait_for_timeout(300)  # no websocket tells when Python answered: give it the time a person would


def _racko_game(page: Any, url: str) -> None:
    """Anna and Ben, a Racko game to 100,000 points, its round screen open (all through the app's screens)."""
    page.goto(url + "#/players")
    _home_then(page, "player-name")
    for name in ("Anna", "Ben"):
        _tap(page, "player-name")
        page.keyboard.press("Control+A")
        page.keyboard.type(name)
        page.wait_for_timeout(300)
        _tap(page, "add-player")
        page.wait_for_selector(
            f'[flt-semantics-identifier="player-{name}"]', state="attached", timeout=30_000
        )
    page.goto(url + "#/new")
    ui.settled(page, "start-game")
    for identifier in ("game-racko", "pick-Anna", "pick-Ben"):
        _tap(page, identifier)
    _tap(page, "option-target")
    page.keyboard.press("Control+A")
    page.keyboard.type("100000")
    page.wait_for_timeout(300)
    _tap(page, "dealer-1")
    _tap(page, "start-game")
    ui.settled(page, "save-round")


def _save_and_photo_times(browser: Any, url: str) -> tuple[list[float], list[float], list[float]]:
    """The save times, then the photo times on the same scoreboard, in one new profile."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        shown, in_tree = _save_times(page, url)
        return shown, in_tree, _photo_times(page, phone_photo())
    finally:
        context.close()


def _save_times(page: Any, url: str) -> tuple[list[float], list[float]]:
    """As `bench ui`'s save times, in the static build (data in IndexedDB, Python in the page's worker); ends on
    the scoreboard."""
    _racko_game(page, url)
    shown: list[float] = []
    in_tree: list[float] = []
    for round_number in range(1, SAVES + 1):
        ui.settled(page, "save-round")
        for identifier in ("mode-quick", "caller-0", "run-0-3", "count-1-3"):
            _tap(page, identifier)
        ui.entered(page, lambda identifier: _tap(page, identifier))
        save = page.locator('[flt-semantics-identifier="save-round"]').first
        save = save.locator("[flt-tappable], [role=button]").first
        page.evaluate(ui.FILM, ui.FILM_SECONDS)
        start = time.perf_counter()
        save.click()
        page.wait_for_function(ui.IN_TREE, arg=["total-0", str(75 * round_number)], timeout=30_000, polling=5)
        in_tree.append((time.perf_counter() - start) * 1000)
        page.wait_for_function("() => window.__film.done", timeout=30_000)
        on_screen = ui.shown_after_tap(page.evaluate("window.__film"))
        if on_screen is not None:
            shown.append(on_screen)
        if round_number < SAVES:
            _tap(page, "enter-round")
    return shown, in_tree


def _photo_times(page: Any, picture: bytes) -> list[float]:
    """Seconds from the picked file to its thumbnail on the scoreboard, PHOTO_RUNS photos in turn."""
    times = []
    for number in range(PHOTO_RUNS):
        with page.expect_file_chooser(timeout=30_000) as chooser:
            _tap(page, "photo-add")
        # timed from the file on the page's input: Playwright's own copy of the 4 MB into the browser is left out
        chooser.value.set_files(files={"name": "photo.jpg", "mimeType": "image/jpeg", "buffer": picture})
        start = time.perf_counter()
        page.wait_for_selector(
            f'[flt-semantics-identifier="photo-{number}"]', state="attached", timeout=LOAD_TIMEOUT_MS
        )
        times.append(time.perf_counter() - start)
    return times


def _home_then(page: Any, identifier: str) -> None:
    page.wait_for_function(
        "document.querySelector('flt-semantics-placeholder') || "
        f"document.querySelector('[flt-semantics-identifier=\"{identifier}\"]')",
        timeout=LOAD_TIMEOUT_MS,
    )
    page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
    page.wait_for_selector(
        f'[flt-semantics-identifier="{identifier}"]', state="attached", timeout=LOAD_TIMEOUT_MS
    )


def run(as_json: bool = False) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()  # the machine's load (1, 5, 15 minutes): the figures hold on a quiet one
    with tempfile.TemporaryDirectory(prefix="bench-static-") as folder:
        started = time.perf_counter()
        built = static_build.build(Path(folder) / "dist")
        build_s = time.perf_counter() - started
        host_photo = measure_photo(Path(folder))
        site, url = _serve_site(built.out)
        from scorekeeper.bench.save_spans import seed_match

        match_id = seed_match(str(Path(folder) / "data"))  # the served app's save is timed on this game
        served, served_url = ui._serve(ui.APP_PAGE, str(Path(folder) / "data"))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=ui.CHROMIUM, args=ui.FLAGS)
                try:
                    runs = []
                    served_runs = []
                    owner = OwnerBrowser(browser)  # the served app shows home to an owner device only
                    for _ in range(
                        RUNS
                    ):  # the builds in turn, so that a change of the machine's load hits both
                        runs.append(_cold_and_warm(browser, url))
                        served_runs.append(_cold_and_warm(owner, served_url, offline=False))
                    shown, in_tree, photo_times = _save_and_photo_times(browser, url)
                    served_shown, served_in_tree = ui._save_times(owner, served_url, match_id)
                finally:
                    browser.close()
        finally:
            for process in (site, served):
                process.terminate()
                process.wait(timeout=10)
    figures = {
        "dist_mb": built.megabytes,
        "dist_files": built.files,
        "build_s": round(build_s, 1),
        "cold_start_s": _median([cold.home_s for cold, _ in runs], 2),
        "warm_start_s": _median([warm.home_s for _, warm in runs], 2),
        "cold_splash_ms": _median([cold.splash_ms for cold, _ in runs], 0),
        "warm_splash_ms": _median([warm.splash_ms for _, warm in runs], 0),
        "cold_start_runs_s": [round(cold.home_s, 2) for cold, _ in runs],
        "warm_start_runs_s": [round(warm.home_s, 2) for _, warm in runs],
        "save_to_scoreboard_ms_median": round(statistics.median(shown), 1) if shown else None,
        "save_to_total_in_tree_ms_median": round(statistics.median(in_tree), 1),
        "saves": len(in_tree),
        "served_cold_start_s": _median([cold.home_s for cold, _ in served_runs], 2),
        "served_warm_start_s": _median([warm.home_s for _, warm in served_runs], 2),
        "served_cold_splash_ms": _median([cold.splash_ms for cold, _ in served_runs], 0),
        "served_save_to_scoreboard_ms_median": round(statistics.median(served_shown), 1)
        if served_shown
        else None,
        "served_save_to_total_in_tree_ms_median": round(statistics.median(served_in_tree), 1),
        "photo_4mb_s": round(statistics.median(photo_times), 3),
        "host_photo_4mb_s": host_photo["photo_4mb_s"],
        "runs": RUNS,
        "load_average_before": [round(value, 2) for value in load_before],
        "load_average_after": [round(value, 2) for value in os.getloadavg()],
    }
    return {"static": figures}
