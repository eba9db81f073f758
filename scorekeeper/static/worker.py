"""The app in the static web build: Python runs in a web worker of the browser (Pyodide), the data folder is the
browser's IndexedDB.

The worker of Flet's web client runs `scorekeeper.static.entry` (`flet.pythonModuleName`, set by
scorekeeper/static/build.py), which calls `start()` here.
Before the first screen, `DATA_DIR` is mounted as Emscripten's IDBFS and filled from IndexedDB
(`FS.syncfs(true)`): the store then opens the same files, in the same format, as on a computer. Every durable
write of the store (storage.atomic_write_bytes) asks `Flusher` to copy the folder back to IndexedDB
(`FS.syncfs(false)`); while one copy runs, later writes make one more copy after it, so the last write always
reaches IndexedDB. `HeldFrames` keeps the app's frames to the page while a copy runs: what the screen shows as
saved is in IndexedDB already, so a browser killed at any moment loses no save the player saw. Where the browser
has no IndexedDB (a private window of some browsers) the folder stays in memory, and the app says so.

Only `start()` and the functions it calls touch Pyodide's modules; the rest is plain Python, tested on the host.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

DATA_DIR = "/scorekeeper-data"
"""The store's folder inside the worker: an IDBFS mount (IndexedDB database named after it)."""
KEYS_DIR = "/scorekeeper-keys"
"""The sync password or device token (sync/credentials.py's file, `SCOREKEEPER_CONFIG`): an IDBFS mount of its
own, outside the data folder, so never in an export, a backup or the synced files; kept in this browser only
(clearing the site's data forgets it). `FS.syncfs` copies every mount, so the data's copies keep it too."""


class Flusher:
    """Copies the data folder to lasting storage after writes, one copy at a time, never losing the last write.

    `sync` starts a copy and calls back with an error text or None. A write while a copy runs marks the folder
    dirty: one more copy starts when the running one ends. `failed` keeps the last copy's error (None after a
    copy that worked), for the app to show. `settled` are called, with that error, whenever the last copy has
    ended and none follows: every write so far is then in lasting storage (or failed to get there)."""

    def __init__(self, sync: Callable[[Callable[[str | None], None]], None]) -> None:
        self._sync = sync
        self.running = False
        self.dirty = False
        self.copies = 0
        self.failed: str | None = None
        self.settled: list[Callable[[str | None], None]] = []

    def written(self, *_: object) -> None:
        """A write finished: copy now, or after the copy that runs."""
        if self.running:
            self.dirty = True
            return
        self._start()

    def _start(self) -> None:
        self.running = True
        self.dirty = False
        self._sync(self._done)

    def _done(self, error: str | None) -> None:
        self.running = False
        self.copies += 1
        self.failed = error
        if error is not None:
            log.warning("the browser did not keep the data: %s", error)
        if self.dirty:
            self._start()
            return
        for listener in list(self.settled):
            listener(error)


class HeldFrames:
    """The app's frames to the page, held while a write is on its way to lasting storage.

    A save is acknowledged by the screen that shows it. In the browser the store's write lands in the worker's
    memory first and reaches IndexedDB only when the flusher's copy ends; a frame sent in between could show a
    save that a browser killed at that moment would lose. So, while `flusher.running`, frames wait here, in
    order, and go out when the copies have settled; a frame sent when nothing is being copied goes out at once.
    A failed copy releases them too (the screen must not freeze) and is told to the player by the app. So does a
    copy that has not answered after `HOLD_LIMIT_S` (`later` schedules that check): the app goes on, unheld, until
    the copies settle again."""

    HOLD_LIMIT_S = 10.0

    def __init__(
        self,
        send: Callable[[Any], None],
        flusher: Flusher,
        later: Callable[[float, Callable[[], None]], object] | None = None,
    ) -> None:
        self._send = send
        self._flusher = flusher
        self._later = later
        self.waiting: list[Any] = []
        self.given_up = False
        self._holds = 0  # counts the holds, so that a check scheduled for an earlier one does nothing
        flusher.settled.append(self.release)

    def send(self, frame: Any) -> None:
        if (self._flusher.running and not self.given_up) or self.waiting:
            if not self.waiting and self._later is not None:
                self._holds += 1
                hold = self._holds
                self._later(self.HOLD_LIMIT_S, lambda: self._give_up(hold))
            self.waiting.append(frame)
            return
        self._send(frame)

    def release(self, _error: str | None = None) -> None:
        """Send what waited, oldest first (a copy that starts meanwhile holds the rest again)."""
        self.given_up = False
        while self.waiting and not self._flusher.running:
            self._send(self.waiting.pop(0))

    def _give_up(self, hold: int) -> None:
        if hold != self._holds or not self.waiting:
            return
        log.warning("IndexedDB has not answered for %s s: the screen goes on without it", self.HOLD_LIMIT_S)
        self.given_up = True
        while self.waiting:
            self._send(self.waiting.pop(0))


def _syncfs(fs: Any, populate: bool, done: Callable[[str | None], None]) -> None:
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]  # only in the browser

    def callback(error: Any = None) -> None:
        done(None if not error else str(error))  # success: JavaScript's null (pyodide's jsnull, falsy)

    fs.syncfs(populate, create_once_callable(callback))


async def mount_storage() -> tuple[Flusher | None, str | None]:
    """Mount IDBFS at DATA_DIR and load what the browser kept. Returns the flusher, or None and why the data
    stays in memory only."""
    import pyodide_js  # type: ignore[import-not-found]  # Pyodide's own module, only in the browser
    from js import Object  # type: ignore[import-not-found]

    fs = pyodide_js.FS
    try:
        fs.mkdirTree(DATA_DIR)
        fs.mount(fs.filesystems.IDBFS, Object.new(), DATA_DIR)
    except Exception as error:
        return None, f"IndexedDB cannot be used here ({error})"
    mount_keys(fs, Object)
    loaded: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    def filled(problem: str | None) -> None:
        if not loaded.done():
            loaded.set_result(problem)

    _syncfs(fs, True, filled)
    problem = await loaded
    if problem is not None:
        return None, f"IndexedDB did not answer ({problem})"
    return Flusher(lambda done: _syncfs(fs, False, done)), None


_early: asyncio.Future[tuple[Flusher | None, str | None]] | None = None


def mount_early() -> None:
    """Start mounting the browser's storage at once. The boot script (boot.js) calls this as soon as Python is
    up, from the build's snapshot, while Flutter's client still loads: filling the folder from IndexedDB then
    overlaps the client's start instead of following it."""
    global _early
    _early = asyncio.ensure_future(mount_storage())


async def mounted() -> tuple[Flusher | None, str | None]:
    """The storage the app opens: the early mount's, or a mount made now."""
    if _early is not None:
        return await _early
    return await mount_storage()


def mount_keys(fs: Any, new_object: Any) -> None:
    """KEYS_DIR as an IDBFS mount for the sync credentials (filled by the same `syncfs` as the data)."""
    import os

    from scorekeeper.sync.credentials import ENV_CONFIG

    try:
        fs.mkdirTree(KEYS_DIR)
        fs.mount(fs.filesystems.IDBFS, new_object.new(), KEYS_DIR)
    except Exception as error:  # the password is then kept for this tab only
        log.warning("the sync credentials stay in this tab only: %s", error)
    os.environ[ENV_CONFIG] = KEYS_DIR


def browser_main(mount: Callable[[], Awaitable[tuple[Flusher | None, str | None]]]) -> Callable[[Any], Any]:
    """The Flet `main` of the static build: storage first, then the app on DATA_DIR."""

    async def main(page: Any) -> None:
        from scorekeeper.store import storage
        from scorekeeper.ui.app import make_main
        from scorekeeper.ui.components.host_needed import copy_failure_teller, tell_storage

        flusher, problem = await mount()
        if flusher is not None:
            storage.WRITTEN.append(flusher.written)
            hold_frames(page, flusher, asyncio.get_running_loop().call_later)
        else:
            log.warning("the data stays in this tab only: %s", problem)
        make_main(DATA_DIR)(page)
        ctx = getattr(page, "data", None)
        if ctx is not None:
            if flusher is not None:
                flusher.settled.append(copy_failure_teller(ctx))
            start_sync(ctx)
            await tell_storage(ctx, problem)

    return main


def start_sync(ctx: Any) -> None:
    """The browser syncs by itself while Settings names a server (sync_runtime's runner is then a task on this
    event loop, sync/fetch_runner.py): at start, a few seconds after a save, on "Sync now", when back online."""
    from scorekeeper.server import sync_runtime

    settings = getattr(ctx, "settings", None)
    if sync_runtime.saved_target(settings) is None:
        return  # Settings starts it when a server is chosen
    app_sync = sync_runtime.for_store(ctx.store)
    try:
        app_sync.remember(ctx.page.pubsub)
    except Exception:  # a page without pubsub
        pass
    app_sync.apply(settings)


def hold_frames(page: Any, flusher: Flusher, later: Callable[[float, Callable[[], None]], object]) -> None:
    """Put `HeldFrames` between the session's connection and the page (Flet's Pyodide connection posts every
    frame, protocol and data channel alike, through its `send_callback`)."""
    connection = page.session.connection
    connection.send_callback = HeldFrames(connection.send_callback, flusher, later).send


LIBRARIES_ZIP = "libraries.zip"
"""The app's pure-Python libraries but Babel and msgpack, zipped by the static build (unpacking hundreds of
files at every start costs more than importing from a zip)."""


def fresh_state() -> None:
    """Undo what the build machine left in a snapshot's interpreter (scorekeeper/static/snapshot.py): `random`
    was seeded when the build imported it (every phone would shuffle the same decks), and `time` read the build
    machine's time zone. Harmless in an interpreter started afresh."""
    import random
    import time

    random.seed()
    if hasattr(time, "tzset"):
        time.tzset()


def start() -> None:
    """Run the app in the browser (Flet's Pyodide connection: the page talks to this worker)."""
    import os
    import sys

    fresh_state()
    libraries = os.path.abspath(LIBRARIES_ZIP)
    if os.path.exists(libraries) and libraries not in sys.path:  # a snapshot's interpreter has it already
        sys.path.insert(1, libraries)
    import flet as ft

    logging.basicConfig(level=logging.INFO)
    ft.run(browser_main(mounted))
