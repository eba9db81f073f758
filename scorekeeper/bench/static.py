"""`python -m scorekeeper.bench static [--json]`: the static web build (`make static`) against the served app.

- `dist_mb`: the site's size (goal <= 40), `build_s`: how long `static_build.build` takes.
- `cold_start_s`: a new browser profile loads the site from loopback (`python -m http.server`) until home is on
  screen (Pyodide, the client and the app's archive all fetched; goal <= 8), median of `RUNS`.
- `warm_start_s`: a reload of the same profile with the network off, from the site's own service worker, until
  home is on screen (goal <= 4), median of `RUNS`.
- `served_cold_start_s`: the same first load of the app served by Python (`main.py --web`), in the same run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from scorekeeper import static_build
from scorekeeper.bench import ui
from scorekeeper.bench.owner_harness import OwnerBrowser

RUNS = 3
LOAD_TIMEOUT_MS = 240_000


def _serve_site(site: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = ui._port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return process, url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"http.server did not start at {url}")


def _home(page: Any) -> None:
    """Wait until home is on screen (turning on Flutter's accessibility tree on a new page)."""
    page.wait_for_function(
        "document.querySelector('flt-semantics-placeholder') || "
        "document.querySelector('[flt-semantics-identifier=\"new-game\"]')",
        timeout=LOAD_TIMEOUT_MS,
    )
    page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
    page.wait_for_selector('[flt-semantics-identifier="new-game"]', state="attached", timeout=LOAD_TIMEOUT_MS)


def _cold_and_warm(browser: Any, url: str) -> tuple[float, float]:
    """Seconds of a first load in a new profile, then of a reload with the network off (service worker)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url)
        _home(page)
        cold = time.perf_counter() - start
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=LOAD_TIMEOUT_MS)
        context.set_offline(True)
        start = time.perf_counter()
        page.reload()
        _home(page)
        warm = time.perf_counter() - start
        return cold, warm
    finally:
        context.close()


def run(as_json: bool = False) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-static-") as folder:
        started = time.perf_counter()
        built = static_build.build(Path(folder) / "dist")
        build_s = time.perf_counter() - started
        site, url = _serve_site(built.out)
        served, served_url = ui._serve(ui.APP_PAGE, str(Path(folder) / "data"))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=ui.CHROMIUM, args=ui.FLAGS)
                try:
                    runs = [_cold_and_warm(browser, url) for _ in range(RUNS)]
                    owner = OwnerBrowser(browser)  # the served app shows home to an owner device only
                    served_runs = [ui._first_paint(owner, served_url, "new-game") / 1000 for _ in range(RUNS)]
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
        "cold_start_s": round(statistics.median(cold for cold, _ in runs), 2),
        "warm_start_s": round(statistics.median(warm for _, warm in runs), 2),
        "served_cold_start_s": round(statistics.median(served_runs), 2),
        "runs": RUNS,
    }
    return {"static": figures}
