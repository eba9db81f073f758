"""What a session keeps for a match's photos (`ctx.session.photos`) and who may change them: the rights are
asked when a handler runs (`may_change`), and the picker and an upload on its way are disowned when the session
leaves the match's screens or its role changes (`disown`, called by the shell). See photos.py."""

from __future__ import annotations

from typing import Any

from scorekeeper.model.evening import with_photos
from scorekeeper.server import rights, uploads
from scorekeeper.ui.components.match_io import announce
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.session_state import PhotoState


def state_of(ctx: AppContext) -> PhotoState:
    state = ctx.session.photos
    if state is None:
        state = ctx.session.photos = PhotoState()
    return state


def may_change(ctx: AppContext) -> bool:
    """May this session change a match's photos now? Only while its role may see the scoreboard: asked when the
    change is made (a worker thread, a dialog's second tap), not when its screen was drawn."""
    return rights.may_view(ctx.role(), "scoreboard")


def refused(ctx: AppContext) -> str:
    """What a session that may no longer change the match reads."""
    return ctx.t("This device may no longer change this game. Nothing was changed.")


def disown(ctx: AppContext, route: str | None = None) -> None:
    """The session leaves the match's screens (`route`: the one it goes to; None: its role changed): the photo
    on its way is given up (its upload slot discarded) and the picker taken off the page, so neither a late
    result nor an upload reaches a match this session no longer shows. Another screen of the same match (its
    round screen, its board) keeps both."""
    state = ctx.session.photos
    if state is None:
        return
    if route is not None and state.match_id and same_match(route, state.match_id):
        return
    pending, picker = state.pending, state.picker
    state.pending, state.picker = None, None
    store = uploads.active()
    if pending is not None and store is not None:
        store.discard(pending.slot)
    if picker is None:
        return
    registry = getattr(ctx.page, "_services", None)
    services = getattr(registry, "_services", None)
    if isinstance(services, list):  # off the page: the browser drops it with the next patch
        services[:] = [service for service in services if service is not picker]


def same_match(route: str, match_id: str) -> bool:
    """Is `route` one of the screens of the match `match_id` (its scoreboard, a round, its board, its end)?"""
    path = route.partition("?")[0].rstrip("/")
    return path == f"/match/{match_id}" or path.startswith(f"/match/{match_id}/")


def change_photos(ctx: AppContext, match_id: str, change: Any, why: str) -> str | None:
    """Change the match's list of photo ids through the store (undoable); the message for the player, or None.
    Refused when the session may no longer change the match (`may_change`)."""
    if not may_change(ctx):
        return refused(ctx)
    try:
        ctx.store.change_match(match_id, with_photos(change), why)
    except Exception as error:  # refused or not written: say why, nothing changed
        return ctx.t("Could not save: {error}", error=ctx.describe(error))
    announce(ctx, match_id)
    return None
