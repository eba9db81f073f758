"""What every view gets: the page, the store, the translator, navigation and app-wide settings.

Views are plain functions `build(ctx, **params) -> ft.View`; they never keep global state. Everything a view
needs from the rest of the app goes through this object, so tests can build a view with a fake context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.games.messages import N_
from scorekeeper.server import permissions, rights
from scorekeeper.store import Store
from scorekeeper.ui.i18n import Translator
from scorekeeper.ui.session_state import SessionState

LANGUAGE_KEY = "scorekeeper.language"
"""Client-storage key of the app's language (assets/scorekeeper.js reads it as `flutter.` + this, JSON)."""

# Seat colours offered for players, as data: (English name, colour value). Each stands out 3:1 on the light and the
# dark background (tests/test_contrast.py): orange, purple, brown and yellow are the Material shades made legible
# (palette.legible), which also draws a colour saved before as it should be.
PLAYER_COLOURS: tuple[tuple[str, str], ...] = (
    (N_("Red"), "#E53935"),
    (N_("Blue"), "#1E88E5"),
    (N_("Green"), "#43A047"),
    (N_("Orange"), "#D57700"),
    (N_("Purple"), "#9736B1"),
    (N_("Teal"), "#00897B"),
    (N_("Pink"), "#D81B60"),
    (N_("Brown"), "#7A5C52"),
    (N_("Grey"), "#546E7A"),
    (N_("Yellow"), "#A48C22"),
)

DEFAULT_SETTINGS: dict[str, Any] = {"language": "en", "theme": "system"}


@dataclass
class AppContext:
    """The app as views see it.

    `t("English text {n}", n=3)` translates; `navigate("/match/abc")` changes the route (and the browser URL);
    `notify(text)` / `error(text)` show a snack bar; `settings` holds the saved settings (language, theme, ...)
    and `update_settings(**changes)` saves them and re-renders with the new language/theme.
    """

    page: ft.Page
    store: Store
    t: Translator = field(default_factory=Translator)
    settings: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_SETTINGS))
    data_dir: str | None = None
    route: str = "/"
    # Set by the app shell: how to change route, and how to re-render the current route.
    _navigate: Callable[..., None] | None = None
    _rerender: Callable[[], None] | None = None
    # The current view's primary action, run when Enter is pressed on a desktop keyboard (None = nothing).
    on_enter: Callable[[], None] | None = None
    on_escape: Callable[[], None] | None = None
    # Keys for the current view (desktop keyboard: digits on a number pad, Tab between players): gets the key's
    # name ("2", "Enter", "Backspace", "Tab"; `shift` held) and returns True when it used the key.
    on_key: Callable[[str, bool], bool] | None = None
    # What this session keeps between screens: form drafts, play sessions, table seats, services (typed fields).
    session: SessionState = field(default_factory=SessionState)
    # Undo: the last change made on a scoreboard, as (match id, description, match dict before the change).
    undo: tuple[str, str, dict[str, Any]] | None = None
    # The width from the latest resize event (the page's own width may lag behind it).
    resized_width: float | None = None
    # The screen-awake service while the app is open (None where the platform has none).
    wakelock: Any = None
    # Benchmark hook: called after a route's view is on screen (the app sends it to the client first).
    on_rendered: Callable[[str], None] | None = None
    # A guest session: not the owner's (see rights.py, permissions.py and owner.py), and whether it has entered
    # the owner's PIN.
    guest: bool = False
    unlocked: str = ""
    """The `permissions.pin_fingerprint` of the PIN this member session entered ("" none): a changed PIN ends it."""
    # The owner device this served session proved to be (owner.py), and whether that device is still signed in.
    owner_device: str | None = None
    owner_active: Callable[[], bool] | None = None
    # The member device this served session proved to be (owner.py), and whether it is still paired.
    member_device: str | None = None
    member_active: Callable[[], bool] | None = None
    # Served as a web app (the data then lives on the computer running the server, not in the browser).
    served: bool = False

    def navigate(self, route: str, *, instant: bool = False) -> None:
        """Show the view for `route` (also pushes it to the browser history in web mode). `instant`: in place of
        the screen on show, without the page transition (the scoreboard after "Save round" shows its new total at
        once, see `Shell.show`)."""
        if self._navigate is not None:
            self._navigate(route, instant=instant)

    def rerender(self) -> None:
        """Build the current route's view again (after a language/theme change or an undo)."""
        if self._rerender is not None:
            self._rerender()

    def browser_storage(self) -> ft.SharedPreferences:
        """The device's client storage (kept referenced: Flet drops services nobody references)."""
        service = self.session.prefs
        if service is None:
            service = self.session.prefs = ft.SharedPreferences()
        return service

    def remember_language(self) -> None:
        """Tell the browser the app's language: the page's own script says "connection lost" while no Python
        answers, and must say it in the language the app is shown in, not the browser's."""
        if not self.served:
            return
        try:
            self.page.run_task(self.browser_storage().set, LANGUAGE_KEY, self.t.language)
        except Exception:  # no client storage (in-process tests): nothing to tell
            pass

    def notify(self, text: str, *, error: bool = False) -> None:
        """A short message at the bottom of the screen; `text` should already be translated."""
        colour = ft.Colors.ERROR if error else None
        bar = ft.SnackBar(
            ft.Text(text, color=ft.Colors.ON_ERROR if error else None),
            bgcolor=colour,
            duration=ft.Duration(seconds=4),
        )
        try:
            self.page.show_dialog(bar)
        except Exception:  # a page already closed: nothing left to tell
            pass

    def close_dialog(self, dialog: ft.DialogControl) -> None:
        """Close this dialog. Not `page.pop_dialog()`: that closes the newest *open* dialog, and a snack bar
        shown earlier counts as open until its dismissal comes back, and would be closed instead."""
        dialog.open = False
        try:
            dialog.update()
        except Exception:  # not on a page (any more): nothing to close on screen
            pass

    def error(self, text: str) -> None:
        """Show an error message (already translated) in a red snack bar."""
        self.notify(text, error=True)

    def describe(self, error: object) -> str:
        """An error (or a store recovery message) in the player's language.

        Rule and store errors keep their English template and fields, so they are translated here; any other
        exception (or plain text) is shown as it is.
        """
        translated = getattr(error, "translated", None)
        if callable(translated):
            try:
                return str(translated(self.t))
            except (KeyError, IndexError, ValueError):  # a translation with a broken field: English is better
                pass
        return str(error)

    def saved_settings(self) -> dict[str, Any]:
        """The settings as saved now (the owner's choices apply to sessions already connected); none where
        they cannot be read (the safe answer for a guest)."""
        try:
            saved = self.store.settings()
        except Exception:
            saved = None
        return saved if isinstance(saved, dict) else {}

    def may(self, action: str) -> bool:
        """May this session do `action` (one of permissions.HOST_ONLY, or anything else: yes)?

        The owner always; a member what the owner allows members (read from the store each time); a visitor
        nothing of the whole data set."""
        role = self.role()
        if role == rights.OWNER:
            return True
        if role == rights.VISITOR:
            return action not in permissions.HOST_ONLY
        return permissions.allowed(action, guest=True, settings=self.saved_settings(), unlocked=self.unlocked)

    def role(self) -> str:
        """This session's role now (rights.py): the owner; a member device still paired, or anyone while the
        owner lets every visitor be a member; else a visitor. Only a served session is ever less than the
        owner (the desktop window is the owner's own app)."""
        if self.still_owner():
            return rights.OWNER
        if self.member_device is not None and self.member_active is not None and not self.member_active():
            self.member_device = None  # unpaired in Settings (here or on another device)
            self.member_active = None
        if self.member_device is not None or permissions.everyone_member(self.saved_settings()):
            return rights.MEMBER
        return rights.VISITOR

    def still_owner(self) -> bool:
        """Whether this session has the owner's rights now: an owner device signed out in Settings (here or on
        another device) makes its sessions guests from their next check on."""
        if not self.guest and self.owner_active is not None and not self.owner_active():
            self.guest = True
            self.owner_device = None
            self.owner_active = None
        return not self.guest

    @property
    def read_only(self) -> bool:
        """The store could only be opened for reading (e.g. an unwritable folder): views say so."""
        return bool(getattr(self.store, "read_only", False))

    def update_settings(self, **changes: Any) -> None:
        """Save changed settings, apply language/theme at once and re-render the current view.

        Nothing changes in memory unless every write succeeded (a failed write raises and the screen keeps
        showing the settings that are really saved). A guest's language and theme stay in its own session."""
        if self.may(permissions.SETTINGS):
            if len(changes) > 1 and hasattr(self.store, "update_settings"):
                self.store.update_settings(dict(changes))  # one write: all saved or none
            else:
                for key, value in changes.items():
                    self.store.set_setting(key, value)
        elif set(changes) - {"language", "theme"}:
            raise PermissionError("only the host device can change the settings")
        self.settings.update(changes)
        if "language" in changes:
            self.t = Translator(str(changes["language"]))
            self.remember_language()
        apply_theme(self.page, str(self.settings.get("theme", "system")))
        self.rerender()

    @property
    def width(self) -> float:
        """The window width in logical pixels (390 on a phone), for views that lay out by size."""
        width = self.resized_width or getattr(self.page, "width", None)
        return float(width) if width else 1024.0

    @property
    def narrow(self) -> bool:
        """A phone-sized window: views stack vertically and use one column."""
        return self.width < 600


THEMES: dict[str, ft.ThemeMode] = {
    "light": ft.ThemeMode.LIGHT,
    "dark": ft.ThemeMode.DARK,
    "system": ft.ThemeMode.SYSTEM,
}


def apply_theme(page: ft.Page, theme: str) -> None:
    """Set the page's light/dark mode from the setting ("light", "dark" or "system")."""
    page.theme_mode = THEMES.get(theme, ft.ThemeMode.SYSTEM)
