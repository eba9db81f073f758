"""The bundled colour emoji font goes to a device only once a name it may show has an emoji.

Why: the app's own texts have no emoji; only names typed by people do ("Oma 👵"). Sent with the page, the font
(3.7 MB of colour bitmaps) held back a browser's first screen by a third of a second or more, on every device,
also where no name has an emoji.

In a browser the app sends nothing: Flutter's own font fallback fetches the font the moment it lays out an emoji
that no loaded font has (a name in a list, or one being typed), and `assets/scorekeeper.js` answers its request
for Noto Color Emoji from Google Fonts with the bundled file, so it works offline too. Sending the font as well
(`page.fonts`) made Flutter sometimes draw no emoji at all until a reload (about one page load in four here): two
fonts of the same family arriving at once.

A native app (desktop, phone) has no such fallback: there a session asks for the font when the names it may show
(the players kept in the store and the seats of the live tables) have one, before the screen that shows them
goes out, and a name field asks for it as soon as an emoji is typed into it; from then on the session keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import flet as ft

from scorekeeper.ui.context import AppContext
from scorekeeper.ui.theme import EMOJI_FAMILY, EMOJI_FONT

EMOJI = re.compile("[\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
"""The blocks of the emoji the font draws and Roboto does not: technical symbols (⌚), miscellaneous symbols
and dingbats (☀ ✌), stars and squares (⭐ ⬛), and the emoji planes (🃏 🦄 👵, flags, faces, people)."""


def has_emoji(text: str) -> bool:
    return EMOJI.search(text) is not None


def names_shown(ctx: AppContext) -> Iterator[str]:
    """Every name a screen of this app may show: the players (archived ones too: their games are listed) and
    whoever sits at a live table of this process (a phone's own name at its seat)."""
    from scorekeeper.table.host import HOST

    for player in ctx.store.list_players(include_archived=True):
        yield player.name
    for table in list(HOST.tables.values()):
        try:
            names = table.names()
        except Exception:  # a table changing on another thread right now: its names count at the next screen
            continue
        yield from names


def wanted(ctx: AppContext, more: Iterable[str] = ()) -> bool:
    """Does this session still need the font for the names it may show (and `more`)?"""
    if ctx.session.emoji_font or ctx.page.web:
        return False
    return any(map(has_emoji, more)) or any(map(has_emoji, names_shown(ctx)))


def offer(ctx: AppContext) -> None:
    """Ask a native app for the font when a name it may show has an emoji; it goes out with the next update."""
    if wanted(ctx):
        _ask(ctx)


def _ask(ctx: AppContext) -> None:
    ctx.session.emoji_font = True
    ctx.page.fonts = {EMOJI_FAMILY: EMOJI_FONT}


def watch(ctx: AppContext, field: ft.TextField) -> ft.TextField:
    """In a native app, `field` (where a name is typed) asks for the font the moment its text has an emoji, so
    the emoji is drawn in colour while it is typed. In a browser it is returned as it is (Flutter's fallback
    fetches the font there). The field has no change handler of its own."""
    if ctx.session.emoji_font or ctx.page.web:
        return field  # no event per keystroke where nothing is left to ask for
    assert field.on_change is None, "a name field with its own change handler"

    def changed(_: ft.Event[ft.TextField]) -> None:
        if not ctx.session.emoji_font and has_emoji(field.value or ""):
            _ask(ctx)
            ctx.page.update()

    field.on_change = changed
    return field
