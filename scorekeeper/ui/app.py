"""The app: opens the store (one per process, shared by the sessions), applies theme and language, and starts
each session's shell (`shell.Shell`), which maps routes to views (`routes`). `run` starts a desktop window or
the local web server.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.server import owner_session as owner
from scorekeeper.store import Store
from scorekeeper.ui import registry
from scorekeeper.ui.context import DEFAULT_SETTINGS, AppContext, apply_theme
from scorekeeper.ui.i18n import Translator
from scorekeeper.ui.shell import Shell, install_error_boundary
from scorekeeper.ui.theme import themed

log = logging.getLogger(__name__)

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"


def open_store(data_dir: str | None) -> Store:
    """Open the data store in `data_dir` (None: SCOREKEEPER_DATA or the platform's default folder)."""
    return Store.open(data_dir)


class SharedStore:
    """One store per process, opened by the first session and shared by all later ones.

    A store per browser session would hold its own lock file and caches, and nothing closes them when a
    session ends: a file descriptor and ~1 MB would leak per session. The store serialises writes itself
    (one lock per folder for all threads), so sessions can share it. A failed open is not kept: the next
    session tries again (and shows the reason)."""

    def __init__(self, data_dir: str | None) -> None:
        self.data_dir = data_dir
        self._lock = threading.Lock()
        self._store: Store | None = None

    def get(self) -> Store:
        with self._lock:
            if self._store is None:
                self._store = open_store(self.data_dir)
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


def load_settings(store: Store) -> dict[str, Any]:
    """Saved settings merged over the defaults."""
    settings = dict(DEFAULT_SETTINGS)
    try:
        saved = store.settings()
    except Exception:  # settings are a convenience: a store without them still serves games
        saved = None
    if isinstance(saved, dict):
        settings.update(saved)
    return settings


def make_main(
    data_dir: str | None = None,
    store: Store | None = None,
    *,
    served: bool = False,
    shared: SharedStore | None = None,
) -> Callable[[ft.Page], None]:
    """The `main(page)` for ft.run, bound to a data folder (or an already opened store, for tests).

    All sessions of the process share one store (see SharedStore). Every game has its screens (the UI
    registry), or the app does not start: MissingUI names the game."""
    registry.check()
    shared = shared or SharedStore(data_dir)

    def main(page: ft.Page) -> None:
        try:
            opened = store if store is not None else shared.get()
        except Exception as failure:  # e.g. data written by a newer version: say so, touch nothing
            page.views.clear()
            page.views.append(
                ft.View(route="/", controls=[ft.Text(str(failure), selectable=True)], padding=24)
            )
            page.update()
            return
        settings = load_settings(opened)
        if not in_browser_build():  # sync runs on threads and talks HTTP: the static build has neither
            start_sync(opened, page, settings)
        # Served (a browser): a guest until its browser proves to be an owner device (owner.py), whatever its
        # address. The desktop window, and the static web build (Python runs in the browser, the data is the
        # browser's own: nothing is served), are the owner's own app.
        web = (served or bool(getattr(page, "web", False))) and not in_browser_build()
        ctx = AppContext(
            page=page,
            store=opened,
            t=Translator(str(settings.get("language", "en"))),
            settings=settings,
            data_dir=data_dir,
            guest=web,
            served=web,
        )
        page.title = ctx.t("Scorekeeper")
        page.theme = themed(ft.Colors.INDIGO)
        page.dark_theme = themed(ft.Colors.INDIGO, dark=True)
        apply_theme(page, str(settings.get("theme", "system")))
        shell = Shell(page, ctx)
        ctx._navigate = shell.navigate
        ctx._rerender = shell.rerender
        page.on_route_change = shell.on_route_change
        page.on_keyboard_event = shell.on_keyboard
        page.on_resize = shell.on_resize
        page.on_connect = shell.on_connect
        install_error_boundary(page, shell)
        page.data = ctx  # lets tests and the benchmark reach the context
        # Flet sets the address when it makes the session; a resumed session's registration may overwrite it
        ctx.session.address = getattr(page, "client_ip", None) or None
        route = ctx.session.entry_route = page.route or "/"
        if web and loop_running(page):
            page.run_task(identify_then_show, ctx, shell, route)
        else:  # in-process use (tests): no browser storage to ask, a guest
            show_first(ctx, shell, route)

    return main


def sync_from_start(shared: SharedStore) -> None:
    """Served: the sync (the owner's hub folder, or the target Settings names) runs from the server's start, not
    from its first screen, so a phone's game reaches this data folder with no browser open here. A store that
    cannot be opened is left to the first screen, which says why."""
    from scorekeeper.server import sync_runtime

    try:
        store = shared.get()
    except Exception:
        return
    settings = load_settings(store)
    target = sync_runtime.saved_target(settings) or sync_runtime.hub_target(store)
    if target is not None and not getattr(store, "read_only", False):
        sync_runtime.for_store(store).apply(settings)


def start_sync(store: Any, page: ft.Page, settings: dict[str, Any]) -> None:
    """Sync runs for the process while Settings names a target (started by the first session; every session
    lends its pubsub client to tell the screens what a sync brought)."""
    from scorekeeper.server import sync_runtime
    from scorekeeper.sync import credentials

    credentials.use_page(page)  # a packaged phone app keeps the password in the phone's secure store
    target = sync_runtime.saved_target(settings) or sync_runtime.hub_target(store)  # (the hub: dav_hub.py)
    wanted = target is not None and not getattr(store, "read_only", False)
    app_sync = sync_runtime.for_store(store) if wanted else sync_runtime.running_for(store)
    if app_sync is None:
        return  # nothing to sync (Settings makes the sync when a target is chosen)
    try:
        app_sync.remember(page.pubsub)
    except Exception:  # a page without pubsub (built outside Flet)
        pass
    if wanted:  # (a read-only store: nothing a sync brings could be saved)
        app_sync.apply(settings)


def in_browser_build() -> bool:
    """The static web build: Python itself runs in the browser (Pyodide)."""
    import sys

    return sys.platform == "emscripten"


def loop_running(page: ft.Page) -> bool:
    """Whether the session's event loop runs (a real server; the in-process test harness has none)."""
    loop = getattr(getattr(getattr(page, "session", None), "connection", None), "loop", None)
    return bool(loop is not None and loop.is_running())


async def identify_then_show(ctx: AppContext, shell: Shell, route: str) -> None:
    """Ask the browser's storage whether this is an owner device, then show the first screen (off the event
    loop: building a view reads the store)."""
    await owner.identify(ctx)
    ctx.remember_language()
    ctx.page.run_thread(show_first, ctx, shell, route)


def show_first(ctx: AppContext, shell: Shell, route: str) -> None:
    """The first screen, then keeping the screen awake: the browser loads its wake-lock script after the screen
    is on its way, not while the first screen waits."""
    shell.show(route)
    ctx.wakelock = keep_awake(ctx.page)
    try:
        ctx.page.update()  # sends the wake-lock service before the task that enables it calls it
    except Exception:  # a page already closed
        pass


def keep_awake(page: ft.Page) -> Any:
    """Keep the screen on while the app is open (a game night); None where the platform can't.

    The caller keeps the returned service referenced: Flet drops services nobody references.
    """
    try:
        lock = ft.Wakelock()
        page.run_task(_enable, lock)
        return lock
    except Exception:
        log.info("keeping the screen awake is not available here")
        return None


async def _enable(lock: Any) -> None:
    """Ask the page to keep the screen on. A page that reconnected to a restarted server answers no service
    call, so Flet's call times out (after 10 s) with an exception: the screen then just follows its own
    settings, which is no error (it was logged as one, with a traceback)."""
    try:
        await lock.enable()
    except Exception as error:
        log.info("the screen could not be kept awake: %s", error)


def main(page: ft.Page) -> None:
    """Entry for `flet run`: the default data folder (or SCOREKEEPER_DATA)."""
    make_main(os.environ.get("SCOREKEEPER_DATA"))(page)


def announce_owner_link(
    data_dir: str | None, host: str | None, port: int, *, open_browser: bool = True
) -> str | None:
    """Print the owner link (a fresh one-time token at every start) and, at the first start with owner devices,
    what changed; returns the link for the browser the server opens itself (a token of its own, so the printed
    one still works, good for two minutes), or None when no browser is opened (no token is minted for
    a browser that never comes)."""
    from scorekeeper.server import owner_devices as owners
    from scorekeeper.store.paths import resolve_data_dir

    shown = "127.0.0.1" if host in (None, "", "0.0.0.0", "::", "*") else host
    base = f"http://{shown}:{port}"
    try:
        first_time = not owners.devices_of(resolve_data_dir(data_dir)).existed
    except OSError:
        first_time = False
    # behind a proxy or tunnel the owner opens the printed link at the public address (--public-url)
    public = os.environ.get("SCOREKEEPER_PUBLIC_URL") or base
    for line in owner.console_lines(public, owners.LINKS.mint(), first_time=first_time):
        print(line, flush=True)
    if not open_browser:
        return None
    return owner.owner_link(base, owners.LINKS.mint(120))  # the browser opens within seconds


def run(web: bool = False, host: str | None = None, port: int = 0, data_dir: str | None = None) -> None:
    """Start the app: a desktop window, or (web=True) a local web server opened in the browser (see server.py
    for what the server changes from Flet's defaults)."""
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    if web:
        # the address phones join a live table at (main.py --table sets the LAN address first)
        os.environ.setdefault("SCOREKEEPER_TABLE_URL", f"http://{host or '127.0.0.1'}:{port or 8550}")
        from scorekeeper.server import uploads
        from scorekeeper.server.web import serve
        from scorekeeper.store.paths import resolve_data_dir

        try:  # a browser sends an import file over HTTP into the data folder (see uploads.py)
            upload_folder = uploads.configure(data_dir)
        except OSError as error:  # an unwritable data folder: imports travel over the websocket instead
            log.warning("uploads are off: %s", error)
            upload_folder = None
        open_browser = not os.environ.get("FLET_FORCE_WEB_SERVER")
        opened = announce_owner_link(data_dir, host, port or 8550, open_browser=open_browser)
        shared = SharedStore(data_dir)
        serve(
            make_main(data_dir, served=True, shared=shared),
            host or "127.0.0.1",
            port or 8550,
            str(ASSETS_DIR),
            open_browser=open_browser,
            uploads=upload_folder,
            open_url=opened,
            data_dir=resolve_data_dir(data_dir),  # the sync hub's (server/dav_hub.py)
            on_start=lambda: threading.Thread(target=sync_from_start, args=(shared,), daemon=True).start(),
        )
        return
    ft.run(
        make_main(data_dir),
        host=host,
        port=port or 0,
        view=ft.AppView.FLET_APP,
        assets_dir=str(ASSETS_DIR),
        no_cdn=True,
    )
