"""The app shell: opens the store, applies theme and language, and maps routes to views.

Routes (a view module exports `build(ctx, **params) -> ft.View`, params are the route's named parts plus the
query string):

    /                          home               /players              players
    /new                       new_game           /match/<id>           scoreboard
    /match/<id>/round          round_entry        /match/<id>/round/<index>   round_entry (edit)
    /match/<id>/board          scoreboard_mode    /match/<id>/end       game_end
    /history, /history/<match_id>   history       /stats  stats         /rules  rules   /settings  settings

View modules are imported when first shown, so one that is missing or broken only affects its own route.
"""

from __future__ import annotations

import errno
import importlib
import logging
import os
import re
import sys
import threading
import traceback
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import flet as ft

from scorekeeper.ui.context import DEFAULT_SETTINGS, AppContext, apply_theme
from scorekeeper.ui.i18n import Translator
from scorekeeper.ui.permissions import is_loopback

log = logging.getLogger(__name__)

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"

# (route pattern, view module under scorekeeper.ui.views): first match wins.
ROUTES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), module)
    for pattern, module in (
        (r"^/$", "home"),
        (r"^/players$", "players"),
        (r"^/new$", "new_game"),
        (r"^/match/(?P<match_id>[^/]+)$", "scoreboard"),
        (r"^/match/(?P<match_id>[^/]+)/round$", "round_entry"),
        (r"^/match/(?P<match_id>[^/]+)/round/(?P<index>\d+)$", "round_entry"),
        (r"^/match/(?P<match_id>[^/]+)/board$", "scoreboard_mode"),
        (r"^/match/(?P<match_id>[^/]+)/end$", "game_end"),
        (r"^/history$", "history"),
        (r"^/history/(?P<match_id>[^/]+)$", "history"),
        (r"^/stats$", "stats"),
        (r"^/rules$", "rules"),
        (r"^/settings$", "settings"),
    )
)


def resolve(route: str) -> tuple[str, dict[str, str]]:
    """The view module and parameters for a route such as "/match/ab12/round/3?x=1"; unknown routes go home."""
    path, _, query = (route or "/").partition("?")
    path = "/" + path.strip("/") if path.strip("/") else "/"
    for pattern, module in ROUTES:
        found = pattern.match(path)
        if found:
            params = dict(parse_qsl(query))
            params.update({k: v for k, v in found.groupdict().items() if v is not None})
            return module, params
    return "home", {}


def message_view(ctx: AppContext, route: str, title: str, text: str) -> ft.View:
    """A plain view with a message and a way home (for routes whose view is missing or failed)."""
    return ft.View(
        route=route,
        appbar=ft.AppBar(
            title=ft.Text(title),
            leading=ft.IconButton(ft.Icons.HOME, tooltip=ctx.t("Home"), on_click=lambda _: ctx.navigate("/")),
        ),
        controls=[ft.Text(text, selectable=True)],
        padding=16,
    )


def build_view(ctx: AppContext, route: str) -> ft.View:
    """Build the view for `route`; a missing module or an error while building gives a message view."""
    module_name, params = resolve(route)
    try:
        module = importlib.import_module(f"scorekeeper.ui.views.{module_name}")
    except ModuleNotFoundError as missing:
        log.warning("view %s not available: %s", module_name, missing)
        return message_view(ctx, route, ctx.t("Not available"), ctx.t("This screen is not available yet."))
    try:
        return module.build(ctx, **params)
    except Exception as failure:  # show it rather than leave a blank page; the log has the details
        log.error("view %s failed:\n%s", module_name, traceback.format_exc())
        return message_view(ctx, route, ctx.t("Something went wrong"), failure_text(ctx, failure))


def failure_text(ctx: AppContext, failure: BaseException | None) -> str:
    """What the player reads about an unexpected failure: the store's own (translated) message where there is
    one, plain words for a full disk, a folder without permission and a file nested too deeply."""
    if failure is None:
        return ctx.t("Something went wrong")
    if callable(getattr(failure, "translated", None)):
        return ctx.describe(failure)
    if isinstance(failure, OSError) and failure.errno in (errno.ENOSPC, errno.EDQUOT):
        return ctx.t("The disk is full, so the change was not saved. Free some space and try again.")
    if isinstance(failure, OSError) and failure.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ctx.t("The data folder cannot be written, so the change was not saved.")
    if isinstance(failure, RecursionError):
        return ctx.t("The data is nested too deeply to be read.")
    if isinstance(failure, PermissionError):
        return ctx.t("Only the host device can do this.")
    return ctx.t("Something went wrong: {error}", error=str(failure) or type(failure).__name__)


def open_store(data_dir: str | None) -> Any:
    """Open the data store in `data_dir` (None: SCOREKEEPER_DATA or the platform's default folder)."""
    from scorekeeper.store import Store

    return Store.open(data_dir)


class SharedStore:
    """One store per process, opened by the first session and shared by all later ones.

    Every browser session used to open its own store (its lock file and caches), and nothing closed them when
    the session ended: a file descriptor and ~1 MB leaked per session. The store serialises writes itself
    (one lock per folder for all threads), so sessions can share it. A failed open is not kept: the next
    session tries again (and shows the reason)."""

    def __init__(self, data_dir: str | None) -> None:
        self.data_dir = data_dir
        self._lock = threading.Lock()
        self._store: Any = None

    def get(self) -> Any:
        with self._lock:
            if self._store is None:
                self._store = open_store(self.data_dir)
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


def load_settings(store: Any) -> dict[str, Any]:
    """Saved settings merged over the defaults."""
    settings = dict(DEFAULT_SETTINGS)
    try:
        saved = store.settings()
    except Exception:  # settings are a convenience: a store without them still serves games
        saved = None
    if isinstance(saved, dict):
        settings.update(saved)
    return settings


def width_class(width: float) -> int:
    """0 phone, 1 tablet, 2 desktop wider than the content column."""
    return 0 if width < 600 else 1 if width < 924 else 2


class Shell:
    """Keeps the page showing the view of the current route."""

    def __init__(self, page: ft.Page, ctx: AppContext) -> None:
        self.page = page
        self.ctx = ctx
        self.lock = threading.RLock()
        self.shown: str | None = None
        self.size = width_class(ctx.width)

    def show(self, route: str) -> None:
        """Render `route` now (server side), then tell the browser so its URL and history follow."""
        with self.lock:
            self.ctx.route = route
            self.ctx.on_enter = None
            self.ctx.on_escape = None
            self.ctx.on_key = None
            try:  # a view follows match changes only while it is shown
                self.page.pubsub.unsubscribe_all()
            except Exception:
                pass
            view = build_view(self.ctx, route)
            if self.ctx.read_only:
                view.controls.insert(0, read_only_banner(self.ctx))
            self.shown = route
            self.page.views.clear()
            self.page.views.append(view)
            self.page.title = self.ctx.t("Scorekeeper")
            self.page.update()
        if self.ctx.on_rendered is not None:
            self.ctx.on_rendered(route)

    def navigate(self, route: str) -> None:
        self.show(route)
        if self.page.route != route:
            self.page.route = route
            try:
                self.page.run_task(self.page.push_route, route)
            except Exception:  # no event loop (in-process tests): the view is shown all the same
                pass

    def rerender(self) -> None:
        self.show(self.ctx.route)

    def on_route_change(self, event: ft.RouteChangeEvent) -> None:
        # The browser's back/forward buttons and typed URLs arrive here; our own navigate() calls come back too.
        if event.route != self.shown:
            self.show(event.route)

    def on_resize(self, event: Any) -> None:
        # Layouts differ by width class (phone / tablet / wide desktop): rebuild only when the class changes.
        width = getattr(event, "width", None)
        if width:
            self.ctx.resized_width = float(width)
        size = width_class(self.ctx.width)
        if size != self.size:
            self.size = size
            self.rerender()

    def on_connect(self, _: Any) -> None:
        # A reloaded browser tab re-attaches to its session (Flet keeps it for a while): show what is stored
        # now, not the screen as it was left (e.g. one that had just been refused with a conflict).
        self.rerender()

    def report(self, _message: str) -> None:
        """The error boundary of every event handler (Flet calls this from inside its `except`, where the
        failure is still at hand): the translated message in a snack bar, the screen stays usable and the log
        keeps the traceback. Replaces Flet's red "Error running app" screen."""
        failure = sys.exc_info()[1]
        log.error("an event handler failed on %s", self.ctx.route, exc_info=failure)
        self.ctx.error(failure_text(self.ctx, failure))
        try:
            self.page.update()
        except Exception:  # the page is gone: nothing left to tell
            pass

    def on_keyboard(self, event: ft.KeyboardEvent) -> None:
        key = str(event.key or "").removeprefix("Numpad ").removeprefix("Digit ")
        if self.ctx.on_key is not None and self.ctx.on_key(key, bool(event.shift)):
            return
        if key == "Enter" and self.ctx.on_enter is not None:
            self.ctx.on_enter()
        elif event.key == "Escape" and self.ctx.on_escape is not None:
            self.ctx.on_escape()


EMOJI_FAMILY = "Noto Color Emoji"
EMOJI_FONT = "fonts/NotoColorEmoji.ttf"
TEXT_STYLES = tuple(
    f"{size}_{grade}"
    for size in ("display", "headline", "title", "body", "label")
    for grade in ("large", "medium", "small")
)


def themed(seed: str) -> ft.Theme:
    """The app's theme: every text style falls back to the bundled emoji font for glyphs Roboto lacks."""
    style = ft.TextStyle(font_family_fallback=[EMOJI_FAMILY])
    texts = ft.TextTheme(**{name: style for name in TEXT_STYLES})
    return ft.Theme(color_scheme_seed=seed, text_theme=texts, primary_text_theme=texts)


def read_only_banner(ctx: AppContext) -> ft.Control:
    """Shown above every screen while the store could only be opened for reading."""
    reason = getattr(ctx.store, "read_only_reason", None)
    lines = [ctx.t("Read only: the games are shown, but nothing can be saved.")]
    if reason:
        lines.append(ctx.describe(reason))
    lines.append(
        ctx.t(
            "To save again, make the data folder writable (or free some space) and restart the app, "
            "or start it with another data folder."
        )
    )
    return ft.Semantics(
        ft.Container(
            ft.Row(
                [
                    ft.Icon(ft.Icons.LOCK_OUTLINE, color=ft.Colors.ON_ERROR_CONTAINER),
                    ft.Text("\n".join(lines), color=ft.Colors.ON_ERROR_CONTAINER, expand=True),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            padding=12,
            border_radius=8,
        ),
        identifier="read-only-banner",
    )


def install_error_boundary(page: ft.Page, shell: Shell) -> None:
    """Route Flet's per-session crash report (every failing event handler ends there) to `shell.report`."""
    try:
        session = page.session
    except Exception:  # a page without a session (built outside Flet): nothing to hook
        return
    session.error = shell.report


def make_main(data_dir: str | None = None, store: Any = None, *, served: bool = False):
    """The `main(page)` for ft.run, bound to a data folder (or an already opened store, for tests).

    All sessions of the process share one store (see SharedStore)."""
    shared = SharedStore(data_dir)

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
        ctx = AppContext(
            page=page,
            store=opened,
            t=Translator(str(settings.get("language", "en"))),
            settings=settings,
            data_dir=data_dir,
            guest=not is_loopback(getattr(page, "client_ip", None)),
            served=served or bool(getattr(page, "web", False)),
        )
        page.title = ctx.t("Scorekeeper")
        page.fonts = {EMOJI_FAMILY: EMOJI_FONT}
        page.theme = themed(ft.Colors.INDIGO)
        page.dark_theme = themed(ft.Colors.INDIGO)
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
        ctx.wakelock = keep_awake(page)
        shell.show(page.route or "/")

    return main


def keep_awake(page: ft.Page) -> Any:
    """Keep the screen on while the app is open (a game night); None where the platform can't.

    The caller keeps the returned service referenced: Flet drops services nobody references.
    """
    try:
        lock = ft.Wakelock()
        page.run_task(lock.enable)
        return lock
    except Exception:
        log.info("keeping the screen awake is not available here")
        return None


def main(page: ft.Page) -> None:
    """Entry for `flet run`: the default data folder (or SCOREKEEPER_DATA)."""
    make_main(os.environ.get("SCOREKEEPER_DATA"))(page)


def run(web: bool = False, host: str | None = None, port: int = 0, data_dir: str | None = None) -> None:
    """Start the app: a desktop window, or (web=True) a local web server opened in the browser (see server.py
    for what the server changes from Flet's defaults)."""
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    if web:
        from scorekeeper.ui.server import serve

        serve(
            make_main(data_dir, served=True),
            host or "127.0.0.1",
            port or 8550,
            str(ASSETS_DIR),
            open_browser=not os.environ.get("FLET_FORCE_WEB_SERVER"),
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
