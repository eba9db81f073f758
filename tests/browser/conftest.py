"""Real-browser fixtures: the app served in web mode on a free localhost port, driven by Debian chromium through
Playwright (never `playwright install`). Flutter draws on a canvas, so tests use the accessibility tree: controls
tagged with `ft.Semantics(identifier=...)` appear as `[flt-semantics-identifier=...]`.

Screenshots go to tests/browser/output/ (gitignored)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.bench.fronts import free_port, stop  # under xdist: the worker's own ports
from scorekeeper.bench.owner_harness import OWNER_TOKEN, OwnerBrowser, owner_env
from scorekeeper.bench.ui import CHROMIUM, FLAGS

# One place knows how to start Debian's Chromium here (the UI benchmark uses the same flags).
CHROMIUM_FLAGS = FLAGS
OUTPUT = Path(__file__).with_name("output")
ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def wait_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"the app did not answer at {url}")


def start_server(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    """The app in web mode, as `main.py --web` starts it, on 127.0.0.1:port; it takes `OWNER_TOKEN` as an
    owner link's token (see scorekeeper/bench/owner_harness.py), so the `chromium` fixture's contexts are owner
    devices and `chromium.new_context(owner=False)` gives a guest."""
    env = {
        **os.environ,
        "FLET_FORCE_WEB_SERVER": "1",
        "FLET_WEB_NO_CDN": "1",
        "PYTHONUNBUFFERED": "1",
        **owner_env(OWNER_TOKEN),
    }
    # Every tab of a test comes from 127.0.0.1, page after page: more than the cap per client lets one address
    # hold (a test that sets the variable itself, to test the cap, keeps its value).
    env.setdefault("SCOREKEEPER_SESSIONS_PER_CLIENT", "100000")
    code = f"from scorekeeper.ui.app import run; run(True, '127.0.0.1', {port}, {str(data_dir)!r})"
    log = open(data_dir.parent / f"server-{port}.log", "wb")  # noqa: SIM115  # closed with the process
    return subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )


def printed_owner_link(data_dir: Path, url: str, timeout: float = 15.0) -> str:
    """The owner link that the app serving `data_dir` at `url` printed when it started (read from its log, as a
    person reads it in the console); good once."""
    port = url.rstrip("/").rsplit(":", 1)[1]
    log = data_dir.parent / f"server-{port}.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if "owner link" in line and "#owner=" in line:
                return line.rsplit(" ", 1)[1]
        time.sleep(0.2)
    raise AssertionError(f"no owner link in {log}")


@contextmanager
def served(data_dir: Path) -> Iterator[str]:
    """The app serving `data_dir` on a free localhost port for the duration of the block; yields its URL."""
    port = free_port()
    with running(data_dir, port):
        yield f"http://127.0.0.1:{port}/"


@contextmanager
def running(data_dir: Path, port: int, timeout: float = 10) -> Iterator[subprocess.Popen[bytes]]:
    """The app serving `data_dir` on localhost `port`, answering, for the duration of the block; yields its
    process. Ended after the block (killed when it does not stop within `timeout` seconds)."""
    server = start_server(data_dir, port)
    try:
        wait_http(f"http://127.0.0.1:{port}/")
        yield server
    finally:
        stop(server, timeout)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test gets one more try when it fails. A real browser on a loaded CI machine paints late now and
    then (a frame after the 15 s a step may wait); a rules or store bug fails both tries, and a rerun is listed
    in the summary (`R`) rather than hidden. Tests outside the browser get no second try; `-p no:rerunfailures`
    turns the second try off."""
    if not items or not items[0].config.pluginmanager.hasplugin("rerunfailures"):
        return
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=2))


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("Debian chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        # The tests act as the host: every context is an owner device of the served app (owner=False: a guest).
        yield OwnerBrowser(browser, OWNER_TOKEN)
        browser.close()


def leftover_contexts(browser: Any, before: list[Any]) -> list[str]:
    """Close the contexts of `browser` opened since `before` (its `contexts` then) that are still open; say
    what each showed (its pages' URLs).

    The browser lives for the whole session, so a context that a test leaves open lives on into every later
    test. Its page then sits on a server that has stopped, where Flet's client shows its reconnect spinner
    ("Working...") for good: that renderer and the software GPU process keep drawing the animation, about half
    a core here, and every later browser test runs slower."""
    left = [context for context in browser.contexts if context not in before]
    shown = [", ".join(page.url for page in context.pages) or "no page" for context in left]
    for context in left:
        context.close()
    return shown


@pytest.fixture(autouse=True)
def every_context_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test on the browser closes every context it opened, also when it fails (a fixture: `yield` inside
    `try`/`finally`, or `browser_tabs`). One left open is closed here and the test fails with what it showed.
    Cheap: the browser's list of contexts is kept by Playwright on this side, no round trip."""
    if "chromium" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("chromium")
    before = list(browser.contexts)
    yield
    left = leftover_contexts(browser, before)
    if left:
        pytest.fail(f"the test left {len(left)} browser context(s) open (closed now): {left}", pytrace=False)


@pytest.fixture
def app_url(tmp_path: Path) -> Iterator[str]:
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url:
        yield url


class UI:
    """A browser tab on the app, with helpers that work on Flutter's accessibility tree."""

    def __init__(self, page, url: str, name: str) -> None:
        self.page = page
        self.url = url
        self.name = name
        self.taps = 0  # every tap a player would make (the tap-count targets are measured with this)
        # Frames on the app's websocket: a tap is done once the server's answer has arrived (see settle).
        self.sent = self.received = 0
        self.received_at_send: list[int] = []  # per frame sent: how many frames had been received then
        self.last_frame = time.monotonic()
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        socket.on("framesent", lambda _: self._frame(sent=True))
        socket.on("framereceived", lambda _: self._frame(sent=False))

    def _frame(self, *, sent: bool) -> None:
        if sent:
            self.sent += 1
            self.received_at_send.append(self.received)
        else:
            self.received += 1
        self.last_frame = time.monotonic()

    def settle(self, sent_before: int, timeout: float = 15.0, *, answered: bool = True) -> None:
        """Wait until the server has answered what the browser sent since `sent_before`, and all is quiet.

        Under load the answer to a tap takes far longer than the pause between taps, and a tap aimed at a
        control that the answer is about to replace would be lost. So: wait for the first frame sent (the event;
        none within 1.5 s: the control has no handler, nothing to wait for), then for a frame received after it
        (the server's answer), then until no frame has passed either way for 150 ms (answers come in parts).
        `answered=False` (typing: the browser reports the text, which the app may or may not answer): only wait
        until nothing has passed either way for 600 ms."""
        deadline = time.monotonic() + 1.5
        while self.sent == sent_before and time.monotonic() < deadline:
            self.page.wait_for_timeout(20)
        if self.sent == sent_before:
            return
        deadline = time.monotonic() + timeout
        if answered:
            while self.received <= self.received_at_send[sent_before] and time.monotonic() < deadline:
                self.page.wait_for_timeout(20)
        quiet = 0.15 if answered else 0.6
        while time.monotonic() - self.last_frame < quiet and time.monotonic() < deadline:
            self.page.wait_for_timeout(20)

    def open(self, route: str = "/", ready: str = "new-game") -> None:
        self.page.goto(self.url.rstrip("/") + route)
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        self.wait(ready, timeout=60_000)

    def node(self, identifier: str):
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]').first

    def wait(self, identifier: str, timeout: float = 15_000) -> None:
        """Wait until the control tagged `identifier` is on screen; if it never comes, fail with what the screen
        shows instead (and a screenshot in tests/browser/output/), so that a failure in CI can be read."""
        try:
            self.node(identifier).wait_for(state="attached", timeout=timeout)
        except Exception as error:  # Playwright's TimeoutError says only what it waited for
            raise AssertionError(f"{identifier!r} did not appear: {self.diagnosis()}") from error

    def diagnosis(self) -> str:
        """What the page shows now: its URL, the screen's text and a screenshot's path (for failure messages)."""
        OUTPUT.mkdir(exist_ok=True)
        picture = OUTPUT / f"failed-{self.name}-{int(time.time())}.png"
        try:
            self.page.screenshot(path=str(picture))
            text = self.all_text()[:1500]
            tags = self.page.evaluate(
                "[...document.querySelectorAll('[flt-semantics-identifier]')]"
                ".map(e => e.getAttribute('flt-semantics-identifier')).join(' ')"
            )
        except Exception as error:  # the page itself is gone: say so
            return f"the page cannot be read ({error})"
        return f"url {self.page.url}, {self.sent} frames sent, {self.received} received; screenshot {picture}; tags: {tags[:1500]}; screen says:\n{text}"

    def wait_focus(self, timeout: float = 15.0) -> None:
        """Wait until a text field has the keyboard focus (the app gives it back after a redraw)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            focused = self.page.evaluate("document.activeElement && document.activeElement.tagName")
            if focused in ("INPUT", "TEXTAREA"):
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"no text field has the focus: {self.diagnosis()}")

    def tap(self, identifier: str, *, count: bool = True, settle: bool = True) -> None:
        """Tap the control tagged `identifier` (scrolled into view first, as a player would) and wait for the
        app's answer (`settle=False`: don't, e.g. for focusing a text field, which sends nothing)."""
        target = self.node(identifier)
        target.wait_for(state="attached", timeout=15_000)
        inner = target.locator("[flt-tappable], [role=button], input, [role=switch]").first
        sent_before = self.sent
        (inner if inner.count() else target).click(timeout=15_000)
        if count:
            self.taps += 1
        if settle:
            self.settle(sent_before)
        self.page.wait_for_timeout(150)  # Flutter drops a click that follows the previous one too closely

    def fill(self, identifier: str, text: str) -> None:
        """Click a text field (it needs focus), select what is there and type `text`."""
        self.tap(identifier, count=False, settle=False)
        field = self.page.locator(f'[flt-semantics-identifier="{identifier}"] input, input').last
        field.wait_for(state="attached", timeout=10_000)
        sent_before = self.sent
        self.page.keyboard.press("Control+A")
        self.page.keyboard.type(text)
        self.settle(sent_before, answered=False)  # the server may redraw on a change (live totals)
        self.page.wait_for_timeout(150)

    def text_of(self, identifier: str) -> str:
        target = self.node(identifier)
        target.wait_for(state="attached", timeout=15_000)
        text = target.inner_text().strip()
        return text or (target.get_attribute("aria-label") or "")

    def all_text(self) -> str:
        return self.page.locator("flt-semantics-host").inner_text()

    def wait_text(self, text: str, timeout: float = 15_000) -> None:
        """Wait until `text` appears anywhere on screen (as the accessibility tree reports it)."""
        deadline = time.monotonic() + timeout / 1000
        while time.monotonic() < deadline:
            if text in self.all_text():
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"{text!r} not on screen: {self.diagnosis()}")

    def wait_total(self, seat: int, expected: int, within: float = 15) -> None:
        """Wait until the total of `seat` shows `expected` (`within` seconds: longer where it comes by sync)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            try:
                if self.text_of(f"total-{seat}") == str(expected):
                    return
            except Exception:
                pass
            self.page.wait_for_timeout(100)
        raise AssertionError(
            f"total of seat {seat} is {self.text_of(f'total-{seat}')!r}, expected {expected}"
        )

    def shot(self, screen: str) -> Path:
        """Screenshot at the current size, and at the other main size too (phone <-> desktop)."""
        OUTPUT.mkdir(exist_ok=True)
        paths = []
        original = self.page.viewport_size
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            self.resize(size)
            path = OUTPUT / f"{self.name}-{screen}-{label}.png"
            path.write_bytes(self.still())
            paths.append(path)
        self.resize(original)  # back at the test's size before the next tap
        return paths[0]

    def still(self, within: float = 2.0) -> bytes:
        """A screenshot once two taken in a row are the same (a page transition or the first frames after a resize
        have ended), or the last one after `within` seconds (a text cursor blinks for ever)."""
        deadline = time.monotonic() + within
        last = self.page.screenshot()
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(120)
            now = self.page.screenshot()
            if now == last:
                break
            last = now
        return last

    def resize(self, size: dict[str, int]) -> None:
        """Change the window size and wait for the app to lay out again (it redraws when the width class
        changes, which reaches it as an event)."""
        if self.page.viewport_size == size:
            return
        sent_before = self.sent
        self.page.set_viewport_size(size)
        self.page.wait_for_timeout(300)
        self.settle(sent_before)
        self.page.wait_for_timeout(400)


@pytest.fixture
def ui(chromium, app_url: str, request) -> Iterator[UI]:
    with browser_tabs(chromium, app_url) as tab:  # closed even when the first page load fails
        helper = tab(request.node.name.removeprefix("test_"), PHONE)
        helper.open()
        yield helper


@contextmanager
def seeded_ui(
    chromium: Any, tmp_path: Path, language: str, seed: Callable[[Any], Any], name: str
) -> Iterator[Any]:
    """A phone-sized page on the app serving a fresh data folder that `seed(store)` filled, in `language`;
    yields (UI, what `seed` returned, the language's Translator)."""
    from scorekeeper.store import Store
    from scorekeeper.ui.i18n import Translator

    data = tmp_path / "data"
    data.mkdir()
    with Store.open(data) as store:
        seeded = seed(store)
        store.set_setting("language", language)
    with served(data) as url:
        context = chromium.new_context(viewport=PHONE)
        try:
            yield UI(context.new_page(), url, f"{name}-{language}"), seeded, Translator(language)
        finally:
            context.close()


@contextmanager
def browser_tabs(chromium: Any, url: str, **options: Any) -> Iterator[Callable[[str, dict[str, int]], UI]]:
    """`tab(name, size)` opens a page on `url` in a context of its own (a phone, the board); all are closed at
    the end of the block. Each is an owner device of a `served()` app; `owner=False`: a guest. `options` go to
    each context (e.g. `ignore_https_errors` for a test CA)."""
    contexts: list[Any] = []

    def tab(name: str, size: dict[str, int], *, owner: bool = True) -> UI:
        context = chromium.new_context(viewport=size, owner=owner, **options)
        contexts.append(context)
        return UI(context.new_page(), url, name)

    try:
        yield tab
    finally:
        for context in contexts:
            context.close()


def add_players(ui: UI, *names: str) -> None:
    """Create saved players on the Players screen."""
    ui.wait("player-name")
    for name in names:
        ui.fill("player-name", name)
        ui.tap("add-player", count=False)
        ui.wait(f"player-{name}")


def new_game(
    ui: UI, game: str, players: list[str], dealer_seat: int, options: dict[str, str] | None = None
) -> None:
    """From home: players, then the New game screen: game, seats in order, first dealer, start."""
    ui.open("/players", ready="player-name")
    add_players(ui, *players)
    start_new_game(ui, game, players, dealer_seat, options)


def start_new_game(
    ui: UI, game: str, players: list[str], dealer_seat: int, options: dict[str, str] | None = None
) -> None:
    """The New game screen with the players saved already: game, seats in order, first dealer, start."""
    ui.open("/new", ready="start-game")
    ui.tap(f"game-{game}", count=False)
    for name in players:
        ui.tap(f"pick-{name}", count=False)
    for option, value in (options or {}).items():
        if value.isdigit():
            ui.fill(f"option-{option}", value)
        else:
            ui.tap(f"option-{option}-{value}", count=False)
    ui.tap(f"dealer-{dealer_seat + 1}", count=False)
    ui.tap("start-game", count=False)
    ui.wait("save-round")
    # The round screen zooms in over the New game screen, whose nodes stay in the page until it has gone: a
    # screenshot taken before shows the New game screen.
    ui.node("start-game").wait_for(state="detached", timeout=15_000)
