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

import importlib
import logging
import os
import re
import threading
import traceback
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import flet as ft

from scorekeeper.ui.context import DEFAULT_SETTINGS, AppContext, apply_theme
from scorekeeper.ui.i18n import Translator

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
        return message_view(ctx, route, ctx.t("Something went wrong"), str(failure))


def open_store(data_dir: str | None) -> Any:
    """Open the data store in `data_dir` (None: SCOREKEEPER_DATA or the platform's default folder)."""
    from scorekeeper.store import Store

    return Store.open(data_dir)


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


def make_main(data_dir: str | None = None, store: Any = None):
    """The `main(page)` for ft.run, bound to a data folder (or an already opened store, for tests)."""

    def main(page: ft.Page) -> None:
        try:
            opened = store if store is not None else open_store(data_dir)
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
    """Start the app: a desktop window, or (web=True) a local web server opened in the browser."""
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    ft.run(
        make_main(data_dir),
        host=host,
        port=port or 0,
        view=ft.AppView.WEB_BROWSER if web else ft.AppView.FLET_APP,
        assets_dir=str(ASSETS_DIR),
        no_cdn=True,
    )
