"""What the browser benchmarks share: the app served on loopback with a headless Chromium, and percentiles."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scorekeeper.bench import ui
from scorekeeper.bench.owner_harness import OwnerBrowser


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@contextmanager
def served_browser(
    data_dir: str, page: str | None = None
) -> Iterator[tuple[Any, str, subprocess.Popen[bytes]]]:
    """(browser, url, server process): the app (`page`, by default `ui.APP_PAGE`) served from `data_dir` and a
    headless Chromium; the browser is closed and the server stopped afterwards, also after an error."""
    from playwright.sync_api import sync_playwright

    app, url = ui._serve(page or ui.APP_PAGE, data_dir)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=ui.CHROMIUM, args=ui.FLAGS)
            try:  # every context an owner device unless opened with owner=False (owner_harness.py)
                yield OwnerBrowser(browser), url, app
            finally:
                browser.close()
    finally:
        app.terminate()
        app.wait(timeout=10)
