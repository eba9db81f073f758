"""UI benchmark: first paint of the app against a bare Flet page (same machine, same run), and the time from
tapping "Save round" to the updated total on the scoreboard. Real headless chromium through Playwright, the
app served in web mode on localhost (as the browser tests do).

`python -m scorekeeper.bench ui --json` -> {"ui": {first_paint_ms_app, first_paint_ms_bare, first_paint_ratio,
save_to_scoreboard_ms_median, ...}}. "First paint" = from navigation until the first screen's content is in the
page (Flutter's accessibility tree reports it), measured the same way for both pages. "Save to scoreboard" = from
the tap on Save round (its pointerdown) until the screen shows the scoreboard as it stays: the top of Flutter's
canvas is filmed at every animation frame (`FILM`), so a page transition still bringing the scoreboard in does not
count as shown (Flutter's accessibility tree has the new total at the start of a transition already; that time is
`save_to_total_in_tree_ms_median`). Where the server's part of a save goes: `save_server_ms` and
`save_server_spans_ms` (see save_spans.py; always this checkout's, in process); `save_client_ms_median` is the
rest of the median (round trip, Flutter's patch and frame).

Scale: home and history painted from a store of 10,000 matches (half in progress, half finished) against an
empty store (`home_paint_ratio_10k`, `history_paint_ratio_10k`; the goal is at most 1.3).
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from scorekeeper.bench.owner_harness import OwnerBrowser, owner_env
from scorekeeper.bench.save_spans import bench_photo, evening_of, seed_match

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
APP_ENV = "SCOREKEEPER_BENCH_APP"
"""A checkout of another version (e.g. `git worktree add /tmp/base REV`) whose app the benchmark serves and
measures in the same way, for a before/after in one run; unset: this checkout's."""
BARE_PAGE = """
import sys
import flet as ft

def main(page: ft.Page) -> None:
    page.add(ft.Semantics(content=ft.Text("ready"), identifier="ready"))

ft.run(main, host="127.0.0.1", port=int(sys.argv[1]), view=ft.AppView.WEB_BROWSER, no_cdn=True)
"""
APP_PAGE = (
    "import sys; from scorekeeper.ui.app import run; run(True, '127.0.0.1', int(sys.argv[1]), sys.argv[2])"
)
PAINT_RUNS = 7
"""Loads per page and per figure: one load varies by a third (1.0 to 1.6 s for the same page), so the median
of three could move a ratio by 0.3."""
SAVES = 7
SCALE_MATCHES = 10_000
PAINT_TIMEOUT_MS = 180_000


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(code: str, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _port()
    app = Path(os.environ.get(APP_ENV) or ROOT)
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1", "FLET_WEB_NO_CDN": "1", **owner_env()}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(app), env.get("PYTHONPATH")]))
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(port), *args],
        cwd=app,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    return process, served(process, url, 60)


def served(process: subprocess.Popen[bytes], url: str, seconds: float) -> str:
    """`url` once it answers; the process killed and RuntimeError when it does not within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"server did not start at {url}")


def _first_paint(browser: Any, url: str, ready: str) -> float:
    """Milliseconds from navigation until the element tagged `ready` is in the accessibility tree."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=PAINT_TIMEOUT_MS)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector(
        f'[flt-semantics-identifier="{ready}"]', state="attached", timeout=PAINT_TIMEOUT_MS
    )
    elapsed = (time.perf_counter() - start) * 1000
    context.close()
    return elapsed


def stamp_after(start: str, minutes: int) -> str:
    """The ISO time `minutes` after `start` (a stamp of the store)."""
    return (datetime.fromisoformat(start) + timedelta(minutes=minutes)).isoformat(timespec="seconds")


def seed_many(data_dir: str, count: int = SCALE_MATCHES) -> None:
    """`count` two-player Racko games, every other one finished (one round past the target), each with notes, a
    place, a photo of its own and time played (issue 42: the lists must paint as fast with them), written as the
    store writes them but without an fsync each and with one index rebuild at the end (the next open): a
    benchmark store is thrown away, and saving 10,000 games one by one would take minutes."""
    from unittest import mock

    from scorekeeper.games.racko.spec import SPEC as RACKO
    from scorekeeper.model.match import Match
    from scorekeeper.store import Store
    from scorekeeper.store.match_file import MATCH_KIND, match_tables
    from scorekeeper.store.photos import new_photo_id
    from scorekeeper.store.storage import write_envelope

    store = Store.open(data_dir)
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    photo = bench_photo(store)  # one made as the app makes one; each match has its own copy under its own id
    files = store.photos.path(photo).read_bytes(), store.photos.thumb_path(photo).read_bytes()
    with mock.patch("os.fsync"):
        for number in range(count):
            match = Match.new(RACKO.key, {"players": 2, "target": 50}, ids, names=["Anna", "Ben"])
            if number % 2:
                match = match.with_round(
                    {"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False}
                )
            copy = new_photo_id()
            store.photos.path(copy).write_bytes(files[0])
            store.photos.thumb_path(copy).write_bytes(files[1])
            # notes, a place, a photo and time played on every game: 40 minutes so far, or in all when finished
            played = [[stamp_after(match.created, -40), None if number % 2 == 0 else match.created]]
            match = dataclasses.replace(evening_of(store, match, number, copy), clock=played)
            data = {**match.to_dict(), "version": 1}
            write_envelope(store.layout.match(match.id), MATCH_KIND, match_tables(data), keep_backup=False)
        store.close()
        Store.open(data_dir).close()  # rebuilds the index from the files


def _scale_figures(browser: Any, empty_url: str, big_url: str) -> dict[str, Any]:
    """Home and history painted from the empty and the 10k store, alternating (median of PAINT_RUNS)."""
    figures: dict[str, Any] = {"scale_matches": SCALE_MATCHES}
    for name, route, ready in (("home", "", "new-game"), ("history", "history", "history-game-all")):
        empty_ms, big_ms = [], []
        _first_paint(browser, big_url + route, ready)  # the server's first read of the index is not a paint
        for _ in range(PAINT_RUNS):
            empty_ms.append(_first_paint(browser, empty_url + route, ready))
            big_ms.append(_first_paint(browser, big_url + route, ready))
        empty, big = statistics.median(empty_ms), statistics.median(big_ms)
        figures[f"{name}_paint_ms_empty"] = round(empty, 1)
        figures[f"{name}_paint_ms_10k"] = round(big, 1)
        figures[f"{name}_paint_ratio_10k"] = round(big / empty, 3)
    return figures


def _save_times(browser: Any, url: str, match_id: str) -> tuple[list[float], list[float]]:
    """Milliseconds from tapping Save round to the scoreboard showing the new total on screen, and to the new
    total in the accessibility tree, per round."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(SOCKET_WATCH)
    page = context.new_page()
    page.goto(url.rstrip("/") + f"/match/{match_id}/round")
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    times: list[float] = []
    in_tree: list[float] = []
    sockets.clear()

    def node(identifier: str) -> Any:
        return page.locator(f'[flt-semantics-identifier="{identifier}"]').first

    def tap(identifier: str) -> None:
        target = node(identifier)
        target.wait_for(state="attached", timeout=30_000)
        inner = target.locator("[flt-tappable], [role=button]").first
        (inner if inner.count() else target).click()
        page.wait_for_timeout(150)  # Flutter drops a click that follows the previous one too closely

    for round_number in range(1, SAVES + 1):
        settled(page, "save-round")
        tap("mode-quick")
        tap("caller-0")
        tap("count-1-3")
        entered(page, tap)
        expected = str(75 * round_number)
        save = node("save-round").locator("[flt-tappable], [role=button]").first
        page.evaluate(FILM, FILM_SECONDS)
        start = time.perf_counter()
        save.click()
        page.wait_for_function(IN_TREE, arg=["total-0", expected], timeout=30_000, polling=5)
        in_tree.append((time.perf_counter() - start) * 1000)
        page.wait_for_function("() => window.__film.done", timeout=30_000)
        film = page.evaluate("window.__film")
        shown = shown_after_tap(film)
        if shown is not None:
            times.append(shown)
        socket = socket_times(film)
        if socket is not None:
            sockets.append(socket)
        tap("enter-round")
    context.close()
    return times, in_tree


SOCKET_WATCH = """(() => {
    // Installed before the app loads (Flutter binds the socket's methods when it starts): the socket's
    // traffic after the filmed tap, i.e. when the tap's event leaves and when the answer (the patch) comes.
    const Socket = window.WebSocket;
    const send = Socket.prototype.send;
    Socket.prototype.send = function (data) {
        const film = window.__film;
        if (film && film.tap !== null) film.sent.push(performance.now());
        if (!this.__watched) {
            this.__watched = true;
            this.addEventListener('message', () => {
                const f = window.__film;
                if (f && f.tap !== null) f.received.push(performance.now());
            });
        }
        return send.call(this, data);
    };
})()"""

sockets: list[tuple[float, float]] = []
"""`socket_times` of each save of the last `_save_times`."""

FILM = """seconds => {
    // Films the top of the screen (the app bar, the status and the standings: nothing there moves once a screen
    // has settled; the pointer rests on the bottom button, whose hover glow would) at every animation frame: a
    // small copy of Flutter's canvas, hashed. The tap's time is the pointerdown's. Read back from window.__film.
    const film = window.__film = {tap: null, frames: [], done: false, sent: [], received: []};
    addEventListener('pointerdown', () => { if (film.tap === null) film.tap = performance.now(); }, {capture: true});

    const small = document.createElement('canvas');
    small.width = 130;
    small.height = 100;
    const g = small.getContext('2d', {willReadFrequently: true});
    const find = root => {
        for (const e of root.querySelectorAll('*')) {
            if (e.tagName === 'CANVAS') return e;
            const inner = e.shadowRoot && find(e.shadowRoot);
            if (inner) return inner;
        }
        return null;
    };
    let canvas = null;
    const started = performance.now();
    const step = () => {
        if (!canvas || !canvas.isConnected) canvas = find(document);
        let hash = 0;
        if (canvas) {
            g.clearRect(0, 0, small.width, small.height);
            g.drawImage(canvas, 0, 0, 390, 300, 0, 0, small.width, small.height);
            const d = g.getImageData(0, 0, small.width, small.height).data;
            for (let i = 0; i < d.length; i++) hash = (hash * 31 + d[i]) | 0;
        }
        film.frames.push([performance.now(), hash]);
        if (performance.now() - started < seconds * 1000) requestAnimationFrame(step);
        else film.done = true;
    };
    requestAnimationFrame(step);
}"""
"""Started before the tap on Save; the scoreboard is shown from the first frame that looks like the last one."""
FILM_SECONDS = 2.5  # long enough for any page transition (Material's take 300 ms) to end on a busy machine

IN_TREE = """([id, value]) => {
    const el = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    return el && (el.innerText.trim() === value || el.getAttribute('aria-label') === value);
}"""
"""The new total is in the accessibility tree (Flutter puts it there before a page transition shows it)."""


def socket_times(film: dict[str, Any]) -> tuple[float, float] | None:
    """(tap -> the first message sent after it, that message -> the first one received after it), in ms: the
    browser's part before the server hears of the tap, and the round trip with the server's part."""
    tap, sent = film["tap"], film.get("sent") or []
    if tap is None or not sent:
        return None
    answers = [t for t in film.get("received") or [] if t >= sent[0]]
    if not answers:
        return None
    return sent[0] - tap, answers[0] - sent[0]


def shown_after_tap(film: dict[str, Any]) -> float | None:
    """Milliseconds from the tap to the first frame from which the filmed screen no longer changes."""
    frames, tap = film["frames"], film["tap"]
    if tap is None or not frames:
        return None
    last = frames[-1][1]
    first = len(frames) - 1
    while first > 0 and frames[first - 1][1] == last:
        first -= 1
    return max(0.0, frames[first][0] - tap)


def settled(page: Any, identifier: str) -> None:
    """Wait until one screen shows `identifier`: while a screen leaves, its nodes stay in the page (on a busy
    machine for seconds), and taps on them are lost (then the round was saved empty and the bench stopped)."""
    page.wait_for_function(
        'id => document.querySelectorAll(`[flt-semantics-identifier="${id}"]`).length === 1',
        arg=identifier,
        timeout=30_000,
    )


def entered(page: Any, tap: Any) -> None:
    """Wait until the form shows the round's points (Anna called: +75). On a busy machine Flutter may drop the
    tap on the caller that follows the switch to the quick form; then it is tapped again (untimed)."""
    for _ in range(3):
        try:
            page.get_by_text("Anna +75").first.wait_for(state="attached", timeout=5_000)
            return
        except Exception:  # Playwright's TimeoutError
            tap("caller-0")


def client_figures(shown_ms: float) -> dict[str, float]:
    """The browser's side of the median save: tap to the event sent (Flutter recognising the tap), event sent to
    the answer received (network and the server), answer to the scoreboard shown (Flutter's patch and frames:
    the rest of the median)."""
    if not sockets:
        return {}
    tap_to_send = statistics.median(s[0] for s in sockets)
    round_trip = statistics.median(s[1] for s in sockets)
    return {
        "save_tap_to_send_ms_median": round(tap_to_send, 1),
        "save_round_trip_ms_median": round(round_trip, 1),
        "save_answer_to_shown_ms_median": round(shown_ms - tap_to_send - round_trip, 1),
    }


def run(as_json: bool = False) -> dict[str, Any]:
    """Figures as {"ui": {...}}; prints nothing (the bench entry point prints)."""
    from playwright.sync_api import sync_playwright

    data_dir = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    match_id = seed_match(data_dir)
    empty_dir = tempfile.mkdtemp(prefix="scorekeeper-bench-empty-")
    big_dir = tempfile.mkdtemp(prefix="scorekeeper-bench-10k-")
    seed_many(big_dir)
    bare, bare_url = _serve(BARE_PAGE)
    app, app_url = _serve(APP_PAGE, data_dir)
    empty, empty_url = _serve(APP_PAGE, empty_dir)
    big, big_url = _serve(APP_PAGE, big_dir)
    try:
        with sync_playwright() as playwright:
            # the host's own browser: an owner device (owner_harness.py)
            browser = OwnerBrowser(playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS))
            # Alternate the two pages so that warm-up and machine load affect both alike.
            bare_ms, app_ms = [], []
            for _ in range(PAINT_RUNS):
                bare_ms.append(_first_paint(browser, bare_url, "ready"))
                app_ms.append(_first_paint(browser, app_url, "new-game"))
            saves, saves_in_tree = _save_times(browser, app_url, match_id)
            scale = _scale_figures(browser, empty_url, big_url)
            browser.close()
    finally:
        for process in (bare, app, empty, big):
            process.terminate()
            process.wait(timeout=10)
    from scorekeeper.bench.save_spans import measure as save_spans

    server = save_spans()  # this checkout's, in process (also when APP_ENV serves another one)
    first_app, first_bare = statistics.median(app_ms), statistics.median(bare_ms)
    figures = {
        "first_paint_ms_app": round(first_app, 1),
        "first_paint_ms_bare": round(first_bare, 1),
        "first_paint_ratio": round(first_app / first_bare, 3),
        "save_to_scoreboard_ms_median": round(statistics.median(saves), 1),
        "save_to_scoreboard_ms_all": [round(t, 1) for t in saves],
        "save_to_total_in_tree_ms_median": round(statistics.median(saves_in_tree), 1),
        **server,
        **client_figures(statistics.median(saves)),
        "paint_runs": PAINT_RUNS,
        **scale,
    }
    return {"ui": figures}  # the bench entry point prints (plain or --json)


if __name__ == "__main__":
    print(json.dumps(run(as_json=True)))
