"""Routes to screens. A screen's view module exports `build(ctx, **params) -> ft.View`, params are the route's
named parts plus the query string:

    /                          home               /players              players
    /new                       new_game           /match/<id>           scoreboard
    /match/<id>/round          round_entry        /match/<id>/round/<index>   round_entry (edit)
    /match/<id>/board          scoreboard_mode    /match/<id>/end       game_end
    /history, /history/<match_id>   history       /stats  stats         /rules  rules   /settings  settings
    /stats/players             stats_players (statistics by player and period)
    /nights, /night/<match_id>      game_night (the game nights, the one holding that match)
    /play/new                  play_setup         /play/<saved_id>      play (a digital game)
    /table/new, /table/<code>  table_lobby (host)  /table/<code>/board  table_board
    /table/<code>/seat         table_seat (phone)  /join, /join/<code>  table_join

The names above are screens (`SCREENS` gives each one's module). View modules are imported when first shown, so
one that is missing or broken only affects its own route.
"""

from __future__ import annotations

import errno
import importlib
import inspect
import logging
import re
import traceback
from collections.abc import Callable
from urllib.parse import parse_qsl

import flet as ft

from scorekeeper.ui.components.widgets import icon_button
from scorekeeper.ui.context import AppContext

log = logging.getLogger(__name__)

# (route pattern, screen): first match wins. A screen is named once here and in the rights table
# (`scorekeeper.server.rights`); `SCREENS` says which module under scorekeeper.ui.views builds it.
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
        (r"^/nights$", "game_night"),
        (r"^/night/(?P<match_id>[^/]+)$", "game_night"),
        (r"^/stats$", "stats"),
        (r"^/stats/players$", "stats_players"),
        (r"^/rules$", "rules"),
        (r"^/settings$", "settings"),
        (r"^/play/new$", "play_setup"),
        (r"^/play/(?P<saved_id>[^/]+)$", "play"),
        (r"^/table/new$", "table_lobby"),
        (r"^/table/(?P<code>[^/]+)$", "table_lobby"),
        (r"^/table/(?P<code>[^/]+)/board$", "table_board"),
        (r"^/table/(?P<code>[^/]+)/seat$", "table_seat"),
        (r"^/join$", "table_join"),
        (r"^/join/(?P<code>[^/]+)$", "table_join"),
    )
)


SCREENS: dict[str, str] = {
    "home": "home",
    "players": "players",
    "new_game": "match.new_game",
    "scoreboard": "match.scoreboard",
    "round_entry": "rounds.entry",
    "scoreboard_mode": "match.scoreboard_mode",
    "game_end": "match.game_end",
    "history": "history",
    "game_night": "game_night",
    "stats": "stats.screen",
    "stats_players": "stats.players",
    "rules": "rulebook",
    "settings": "settings.screen",
    "play_setup": "digital.setup",
    "play": "digital.game",
    "table_lobby": "table.lobby",
    "table_board": "table.board",
    "table_seat": "table.seat",
    "table_join": "table.join",
}
"""Screen -> its view module under scorekeeper.ui.views (grouped by feature: match, rounds, digital, table,
settings, stats)."""


def canonical(route: str) -> str:
    """The one spelling of `route` that the app shows and the browser's address carries: leading and trailing
    slashes trimmed to one ("//table/new/" is "/table/new"), the query kept; a route no screen has (other case,
    doubled inner slashes, dot segments) is home ("/"). Rights are checked on the screen this resolves to
    (`rights.may_view`), so no spelling reaches a screen its session may not see."""
    path, _, query = (route or "/").partition("?")
    path = "/" + path.strip("/") if path.strip("/") else "/"
    if any(pattern.match(path) for pattern, _ in ROUTES):
        return f"{path}?{query}" if query else path
    return "/"


def resolve(route: str) -> tuple[str, dict[str, str]]:
    """The view module and parameters for a route such as "/match/ab12/round/3?x=1"; unknown routes go home."""
    path, _, query = canonical(route).partition("?")
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
            leading=icon_button(ft.Icons.HOME, ctx.t("Home"), on_click=lambda _: ctx.navigate("/")),
        ),
        controls=[ft.Text(text, selectable=True)],
        padding=16,
    )


def build_view(ctx: AppContext, route: str) -> ft.View:
    """Build the view for `route`; a missing module or an error while building gives a message view."""
    from scorekeeper.ui.components.host_needed import host_needed

    module_name, params = resolve(route)
    if module_name.startswith("table_") and host_needed():  # the static web build: no host to hold a table
        return message_view(
            ctx,
            route,
            ctx.t("Not available"),
            ctx.t(
                "Hosting a table needs the app served by a computer: run `make table` there and open "
                "the address it prints."
            ),
        )
    try:
        module = importlib.import_module(f"scorekeeper.ui.views.{SCREENS[module_name]}")
    except ModuleNotFoundError as missing:
        log.warning("view %s not available: %s", module_name, missing)
        return message_view(ctx, route, ctx.t("Not available"), ctx.t("This screen is not available yet."))
    try:
        return module.build(ctx, **declared(module.build, params))
    except Exception as failure:  # show it rather than leave a blank page; the log has the details
        log.error("view %s failed:\n%s", module_name, traceback.format_exc())
        return message_view(ctx, route, ctx.t("Something went wrong"), failure_text(ctx, failure))


def declared(build: Callable[..., ft.View], params: dict[str, str]) -> dict[str, str]:
    """The parameters a view's `build` names after its context, of `params` (the route's named parts and its
    query): any other key is dropped before the screen is built. A query key the screen does not take would
    otherwise reach it as an argument (`/settings?ctx=1` gave `build` a second `ctx` and failed it), or end in
    its `**_` unread at best."""
    try:
        signature = inspect.signature(build)
    except (TypeError, ValueError):  # not introspectable: only the route's own parts are safe to pass
        return {}
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    names = [name for name, parameter in signature.parameters.items() if parameter.kind in kinds]
    wanted = set(names[1:])  # the first is the context
    return {key: value for key, value in params.items() if key in wanted}


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
    if ctx.guest:  # the owner reads what failed; anyone else learns nothing about the code from it
        return ctx.t("Something went wrong")
    return ctx.t("Something went wrong: {error}", error=str(failure) or type(failure).__name__)
