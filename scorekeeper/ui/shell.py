"""The shell around the views: keeps the page showing the current route's view, rebuilds it when the width
class changes, answers keys, and turns a failing event handler into a message instead of a red error screen.
"""

from __future__ import annotations

import logging
import sys
import threading
import weakref
from typing import Any

import flet as ft

from scorekeeper.games.messages import Capitalized
from scorekeeper.server import owner_session as owner
from scorekeeper.server import rights
from scorekeeper.spans import span
from scorekeeper.ui import emoji_font
from scorekeeper.ui.components import photos
from scorekeeper.ui.components.layout import lead_in
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.routes import build_view, canonical, failure_text, resolve

log = logging.getLogger(__name__)


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
        # The addresses a view opened another one for (`follow`) in this session, and the address pushed last.
        self.followed: set[str] = set()
        self.pushed: str | None = None
        # The role the screen on show was drawn for (None: not asked, a screen every visitor may see), and the
        # dialogs closed when their screen was left or the role changed: no event of theirs is handled again.
        self.role_shown: str | None = None
        self.asked_role: str | None = None
        self.stale: weakref.WeakSet[Any] = weakref.WeakSet()

    def show(self, route: str, *, instant: bool = False) -> None:
        """Render `route` now (server side), then tell the browser so its URL and history follow. `instant` (or
        the same route built again): the view replaces the one on screen without a page transition (see
        `page_identity`)."""
        asked, route = route, self.permitted(route)
        with self.lock:
            if route != asked:  # another spelling, or a screen this session may not see: the address follows
                self.page.route = route
                self.push(route)
            self.leave_if_gone(route)
            self.ctx.route = route
            self.ctx.on_enter = None
            self.ctx.on_escape = None
            self.ctx.on_key = None
            try:  # a view follows match changes only while it is shown
                self.page.pubsub.unsubscribe_all()
            except Exception:
                pass
            emoji_font.offer(self.ctx)  # before the first screen that shows such a name goes out
            with span("view.build"):
                view = build_view(self.ctx, route)
            if self.ctx.route != route:  # the view opened another address (see `follow`)
                route = self.follow(route, self.ctx.route)
            if self.ctx.read_only:
                view.controls.insert(0, read_only_banner(self.ctx))
            notice = owner.notice(self.ctx)
            if notice is not None:
                lead_in(view, notice)
            again, self.shown = route == self.shown, route
            place(self.page.views, view, route, instant=instant, again=again, keep=not self.dialog_pending())
            self.page.title = self.ctx.t("Scorekeeper")
            with span("view.patch"):  # Flet's diff against what the browser has, and sending it
                self.page.update()
        if self.ctx.on_rendered is not None:
            self.ctx.on_rendered(route)

    def permitted(self, route: str) -> str:
        """The route to show for `route`: its one spelling (`routes.canonical`), if this session's role may see
        the screen it resolves to (`rights.may_view`); else where the role goes instead (a device signed out
        meanwhile is refused from this screen on)."""
        route = canonical(route)
        module = resolve(route)[0]
        self.asked_role = None
        self.ctx.still_owner()  # a device signed out meanwhile is a guest from here on (views ask ctx.guest)
        # A screen every visitor may see needs no role: the seats and boards of a live table ask this before
        # every tap, and the role reads the owner's settings from the data folder.
        if rights.may_view(rights.VISITOR, module):
            return route
        role = self.asked_role = self.ctx.role()
        if rights.may_view(role, module):
            return route
        log.info("refused %.200r to a %s", route, role)
        return rights.refused_route(role)

    def may_act(self) -> bool:
        """Whether the screen on show is still one this session may see (asked before every event its controls
        send: a device signed out or unpaired since the screen was drawn is refused at once, and sent on)."""
        return self.ctx.route == self.permitted(self.ctx.route)

    def leave_if_gone(self, route: str) -> None:
        """Before `route` is drawn: when it is another screen than the one on show, or the session's role
        changed since that was drawn, what the screen left behind is closed or disowned (`leave`)."""
        role, shown = self.asked_role, self.shown
        changed = role is not None and self.role_shown is not None and role != self.role_shown
        if role is not None:
            self.role_shown = role
        if shown is not None and (changed or screen_of(route) != screen_of(shown)):
            self.leave(None if changed else route)

    def leave(self, route: str | None) -> None:
        """Close the dialogs of the screen left and disown its services, so none of their controls acts again
        (`owns`): a dialog opened before the device was unpaired, or the photo picker of a scoreboard, would
        otherwise still be answered. The dialogs close with the next screen's patch; their dismissal, when it
        comes back, only takes them off the page. `route`: the screen going on show (None: the role changed,
        so nothing is kept for another screen of the same match)."""
        try:
            dialogs = list(self.page._dialogs.controls)
        except AttributeError:
            dialogs = []
        for dialog in dialogs:
            if not isinstance(dialog, ft.SnackBar):  # a message has no action to outlive its screen
                dialog.open = False
                self.stale.add(dialog)
        photos.disown(self.ctx, route)

    def owns(self, control: Any, event_name: str) -> bool:
        """Does `control` (an event's target) belong to what this session may see now: the screen on show, a
        dialog opened on it, or a service not disowned? A control of a screen left (kept alive by a handler
        that refers to it), a dialog closed when its screen was left or the role changed (`leave`), a service
        taken off the page: no."""
        page = self.page
        path: list[Any] = []
        node = control
        while node is not None and node is not page:
            path.append(node)
            node = node.parent
        if node is not page:
            return False  # not on the page any more: nothing the browser shows
        if not path:
            return True  # the page itself
        part = path[-1]
        if any(part is view for view in page.views):
            return True
        dialogs: Any = getattr(page, "_dialogs", None)
        if part is dialogs:
            if len(path) < 2 or not any(path[-2] is dialog for dialog in dialogs.controls):
                return False
            dialog = path[-2]
            # a closed dialog's own dismissal still passes: Flet then takes it off the page
            return dialog not in self.stale or (control is dialog and event_name == "dismiss")
        if part is getattr(page, "_services", None):
            services = getattr(part, "_services", [])
            return len(path) >= 2 and any(path[-2] is service for service in services)
        return True  # another part of the page itself (its app bar, its overlay)

    def follow(self, asked: str, route: str) -> str:
        """The screen built for `asked` shows `route` (an older duplicate's `/play/<id>` opens the game its match
        resumes): the browser's address follows, so a bookmark, a shared link or a reload carry the game on
        screen, not one set aside. Flet 1.0.5 can only push a route (`Page.push_route`: its client adds a
        history entry for a new address; there is no way to replace one), so Back returns to `asked`, which shows
        the same game again. Pushed the first time `asked` is followed in this session only: pushed again, the
        entry would be the one Back returns from, and Back would never get past it."""
        self.page.route = route  # goes out with this screen's patch, as in `navigate`
        if asked not in self.followed:
            self.followed.add(asked)
            self.push(route)
        return route

    def push(self, route: str) -> None:
        """Tell the browser the address on screen (a new history entry)."""
        self.pushed = route
        try:
            self.page.run_task(self.page.push_route, route)
        except Exception:  # a page without a live session (no connection): the view is shown all the same
            pass

    def dialog_pending(self) -> bool:
        """A dialog is open, or closed but its dismissal has not come back from the browser yet. The browser
        shows it as a route over the screen it was opened on: a round screen opened over that scoreboard
        meanwhile would leave the dialog under it, and it came back with the scoreboard. Then screens are
        replaced."""
        try:
            dialogs = self.page._dialogs.controls  # Flet keeps them until the browser reports them dismissed
        except AttributeError:
            return False
        return any(not isinstance(dialog, ft.SnackBar) for dialog in dialogs)

    def navigate(self, route: str, *, instant: bool = False) -> None:
        with self.lock:  # `pushed` is this navigation's: Flet runs event handlers on several threads
            previous, self.pushed = self.page.route, None
            # The page's route goes out in the screen's own patch: set after it, it went out only with the
            # update Flet sends when the browser reports the route change (one more message after every save).
            self.page.route = route
            try:
                self.show(route, instant=instant)
            except BaseException:
                self.page.route = previous  # the screen on show is still the old one
                raise
            shown = self.page.route  # `route`, or the address the view opened instead (`follow`)
            if previous != shown and self.pushed != shown:  # (not twice when `follow` pushed it already)
                self.push(shown)

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
        # now, not the screen as it was left (e.g. one that had just been refused with a conflict). A session
        # whose browser could not be asked who it is (owner.UNKNOWN) asks again first: the reload answers.
        if self.ctx.session.unknown_device:
            try:
                self.page.run_task(self.identify_again)
                return
            except Exception:  # no event loop (in-process use): shown as it is
                pass
        self.rerender()

    async def identify_again(self) -> None:
        """Ask the browser again who it is; recognised as more than a visitor, the page goes where it was first
        loaded at (it was sent to the join page meanwhile)."""
        await owner.identify(self.ctx)
        if self.ctx.role() == rights.VISITOR:
            self.page.run_thread(self.rerender)
        else:
            self.page.run_thread(self.navigate, self.ctx.session.entry_route)

    def report(self, message: str) -> None:
        """The error boundary of every event handler (Flet calls this from inside its `except`, where the
        failure is still at hand): the translated message in a snack bar, the screen stays usable and the log
        keeps the traceback. Replaces Flet's red "Error running app" screen."""
        failure = sys.exc_info()[1]
        log.error("an event handler failed on %.200r", self.ctx.route, exc_info=failure)
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


def place(
    views: list[ft.View], view: ft.View, route: str, *, instant: bool, again: bool, keep: bool = True
) -> None:
    """Put `view` (built for `route`) on screen. A scoreboard stays on the page under the round screen of its
    match: after a round is saved it comes back reconciled with itself (same key), so the browser gets only what
    changed (the totals, the new round's row) instead of a whole new screen, and under the round screen's page
    identity, so it shows at once. Back from the round screen it is the page under it again (the browser's
    usual back transition). `again`: the same route built again. `keep=False` (a dialog pending, see
    `Shell.dialog_pending`): the screen replaces whatever is there."""
    top = views[-1].route if views else None
    base = views[0] if views and keep else None
    if base is not None and view.key is not None and base.key == view.key:
        back = len(views) > 1 and not instant
        view.route = base.route if back else page_identity(route, top, instant=True)
        views[:] = [view]  # the same screen built again: Flet sends the difference
    elif base is not None and len(views) == 1 and goes_over(base, route):
        view.route = page_identity(route, top, instant=False)
        views[:] = [base, view]
    elif base is not None and len(views) == 2 and again:
        view.route = page_identity(route, top, instant=True)
        views[:] = [base, view]  # the round screen built again over its scoreboard
    else:
        view.route = page_identity(route, top, instant=instant or again)
        views[:] = [view]


def goes_over(under: ft.View, route: str) -> bool:
    """Does the screen of `route` (a round of a match) open over `under` (that match's scoreboard)?"""
    above, params = resolve(route)
    return above == "round_entry" and under.key == f"scoreboard:{params.get('match_id')}"


def page_identity(route: str, on_screen: str | None, *, instant: bool) -> str:
    """The `View.route` a new view gets: the browser's navigator keys its pages by it (Flet's page URL is
    `page.route`, not this). A view under the key of the page on screen replaces that page's content at once;
    under another key it is a new page, which slides (zooms) in with the theme's page transition. `instant`
    keeps the key on screen; otherwise the route itself, made different from the key on screen (that key may be
    this route's, taken over by an instant replacement before)."""
    if on_screen is None:
        return route
    if instant:
        return on_screen
    return route if route != on_screen else f"{route}#"


def read_only_banner(ctx: AppContext) -> ft.Control:
    """Shown above every screen while the store could only be opened for reading."""
    reason = getattr(ctx.store, "read_only_reason", None)
    lines = [ctx.t("Read only: the games are shown, but nothing can be saved.")]
    if reason:  # a reason the store words to go inside a sentence; here it is a line of its own
        lines.append(ctx.describe(Capitalized("{what}", what=reason)))
    lines.append(
        ctx.t(
            "To save again, make the data folder writable (or free some space) and restart the app, "
            "or start it with another data folder."
        )
    )
    return ft.Semantics(
        content=ft.Container(
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
    """Route Flet's per-session crash report (every failing event handler ends there) to `shell.report`, and
    check the session's rights before every event a control sends (`guard_events`)."""
    try:
        session = page.session
    except Exception:  # a page without a session (built outside Flet): nothing to hook
        return
    # Flet has no hook for this: its Session.error method is replaced for this session (mypy refuses
    # assigning to a method).
    session.error = shell.report  # type: ignore[method-assign]
    guard_events(page, session, shell)


def guard_events(page: ft.Page, session: Any, shell: Shell) -> None:
    """Every event a control sends is handled only while the screen on show is one the session may see
    (`Shell.may_act`); otherwise it is dropped and the screen shown again, which sends the session where its
    role goes. The page's own events (route changes, resizes, the connection) pass: they show screens through
    `Shell.show`, which checks the same rights. Flet has no hook for this either: the session's dispatch is
    wrapped for this session."""
    # Everything held weakly: the session must not keep itself or its page alive in a cycle (freed late, a page
    # past its session's end was still taken as the current page by services made in the next session).
    dispatch = type(session).dispatch_event
    own_session, held = weakref.ref(session), weakref.ref(shell)
    page_id = page._i

    async def checked(control_id: int, event_name: str, event_data: Any) -> None:
        target, current = own_session(), held()
        if target is None:
            return
        if current is not None and control_id != page_id:
            if not current.may_act():
                log.warning(
                    "dropped %.40r on a screen %s may not see any more", event_name, current.ctx.role()
                )
                current.page.run_thread(current.rerender)
                return
            control = event_target(target, control_id)
            if control is None or not current.owns(control, str(event_name)):
                log.warning("dropped %.40r on a control of a screen left", event_name)
                return
        await dispatch(target, control_id, event_name, event_data)

    session.dispatch_event = checked


def event_target(session: Any, control_id: int) -> Any:
    """The control Flet's dispatch would hand an event for `control_id` to (its own lookup: the one on the
    page under that id, else whatever its index still holds; `None`: none)."""
    resolve_control = getattr(session, "_Session__resolve_event_control", None)  # Flet 1.0.5's own lookup
    if resolve_control is not None:
        return resolve_control(control_id)
    return session.index.get(control_id)


def screen_of(route: str) -> str:
    """The screen a route shows, for telling whether a new route leaves it: the route without its query."""
    return canonical(route).partition("?")[0]
