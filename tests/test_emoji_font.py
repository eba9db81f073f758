"""The colour emoji font goes to a native app only once a name it may show has an emoji (scorekeeper/ui/emoji_font.py):
a device whose names have none starts without it; a saved player, a phone at the table with an emoji in the
name, or an emoji typed into a name field brings it, before the screen that shows the name. A browser is never
sent it: Flutter's own fallback fetches it there. (That the emoji is then drawn in colour in a browser is the
browser tests `test_emoji_in_a_name_is_drawn_in_colour` and
`test_an_emoji_typed_into_a_name_field_is_drawn_in_colour_before_it_is_saved`.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_table_speed import deliver
from test_table_ui import app as opened_app
from test_table_ui import fresh_host, host_table, join  # noqa: F401  (fresh_host: the autouse fixture)

from scorekeeper.ui.emoji_font import has_emoji
from scorekeeper.ui.theme import EMOJI_FAMILY, EMOJI_FONT
from tests.test_ui_core_harness import App

FONT = {EMOJI_FAMILY: EMOJI_FONT}


def font_sent(app: App, since: int = 0) -> bool:
    return any(EMOJI_FONT.encode() in message for message in app.connection.sent[since:])


@pytest.mark.parametrize(
    ("name", "emoji"),
    [
        *[("Oma 👵", True), ("🦄", True), ("Sonne ☀", True), ("Stern ⭐", True), ("🇳🇱 Sanne", True)],
        *[
            ("Anna", False),
            ("Zoë", False),
            ("李", False),
            ("Jean-Luc", False),
            ("5 €", False),
            ("O'Neil", False),
        ],
    ],
)
def test_a_name_has_an_emoji_when_it_has_a_character_only_the_emoji_font_draws(
    name: str, emoji: bool
) -> None:
    assert has_emoji(name) is emoji


def test_a_device_whose_names_have_no_emoji_is_not_sent_the_font(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    app.start_match("racko", ["Anna", "Ben", "Zoë"], 0)
    for route in ("/", "/players", "/history"):
        app.go(route)
    assert not app.page.fonts
    assert not font_sent(app)


def test_a_player_with_an_emoji_brings_the_font_with_the_screen_that_lists_them(tmp_path: Path) -> None:
    app = App(tmp_path / "data")
    app.go("/players")
    app.type_text("player-name", "Anna")
    app.tap("add-player")
    assert not app.page.fonts
    app.store.add_player("Oma 👵")  # saved elsewhere (another tab, an import): nothing was typed here
    count = len(app.connection.sent)
    app.go("/players")
    assert app.page.fonts == FONT
    assert font_sent(app, count)  # in the same update as the list with the new name
    assert "Oma 👵" in app.screen_text()
    count = len(app.connection.sent)
    app.go("/")
    assert app.page.fonts == FONT and not font_sent(app, count)  # sent once per device


def test_a_device_opened_over_names_with_an_emoji_gets_the_font_with_its_first_screen(tmp_path: Path) -> None:
    first = App(tmp_path / "data")
    first.store.add_player("🦄 Mia")
    first.store.close()
    app = App(tmp_path / "data")
    assert app.page.fonts == FONT
    assert font_sent(app)


def native_join(tmp_path: Path, code: str, name: str, seat: int) -> App:
    """A phone running the app natively (not in a browser) takes seat `seat` as `name`."""
    phone = opened_app(tmp_path, f"native-{name}", web=False)
    phone.go(f"/join/{code}")
    phone.type_text("join-name", name)
    phone.tap(f"take-seat-{seat}")
    phone.tap("join-submit")
    return phone


def test_a_native_phone_at_the_table_gets_the_font_when_a_name_with_an_emoji_joins(tmp_path: Path) -> None:
    _, code = host_table(tmp_path, 3)
    anna = native_join(tmp_path, code, "Anna", 1)
    assert not anna.page.fonts
    join(tmp_path, code, "🦄 Mia", 2)
    deliver(anna, code)
    assert anna.page.fonts == FONT
    assert anna.find("seat-joined").value == "At the table: Anna, 🦄 Mia"


def test_a_browser_is_never_sent_the_font_its_own_fallback_fetches_it(tmp_path: Path) -> None:
    """In a browser, Flutter's font fallback fetches the bundled font itself when it lays out an emoji
    (assets/scorekeeper.js points it there): sending it too made Flutter sometimes draw no emoji at all."""
    web = opened_app(tmp_path, "browser")  # opened before any name has an emoji
    _, code = host_table(tmp_path, 3)
    anna = join(tmp_path, code, "Anna", 1)  # a browser
    join(tmp_path, code, "🦄 Mia", 2)
    deliver(anna, code)
    assert anna.find("seat-joined").value == "At the table: Anna, 🦄 Mia"
    web.store.add_player("Oma 👵")
    web.go("/players")
    assert web.find("player-name").on_change is None  # no event per keystroke: nothing to ask for
    assert not anna.page.fonts and not font_sent(anna) and not web.page.fonts and not font_sent(web)


def opened_at(app: App, where: str) -> str:
    """Opens the screen with the name field `where` and returns the field's tag."""
    if where == "players":
        app.go("/players")
        return "player-name"
    if where == "rename":
        app.store.add_player("Anna")
        app.go("/players")
        app.tap("rename-Anna")
        return "rename-name"
    if where == "new-game":
        app.go("/new")
        app.tap("game-racko")
        return "new-player-name"
    app.go("/")
    app.tap("play-racko")  # play against the computer: the seats' form
    return "new-player-name"


@pytest.mark.parametrize("where", ["players", "rename", "new-game", "play"])
def test_typing_an_emoji_into_a_name_field_brings_the_font_before_the_name_is_saved(
    tmp_path: Path, where: str
) -> None:
    """A native app (the harness's default) without the font draws the emoji only if the system has an emoji
    font (often as an empty box), until the name was saved and the screen drawn again."""
    app = App(tmp_path / "data")
    field = opened_at(app, where)
    app.type_text(field, "Oma")
    assert not app.page.fonts
    count = len(app.connection.sent)
    app.type_text(field, "Oma 👵")
    assert app.page.fonts == FONT and font_sent(app, count)
    assert "Oma 👵" not in [player.name for player in app.store.list_players()]  # not saved: only typed
    count = len(app.connection.sent)
    app.type_text(field, "Oma 👵👵")
    assert not font_sent(app, count)  # once per device


def test_a_native_phone_typing_an_emoji_into_its_name_at_the_table_gets_the_font_before_it_joins(
    tmp_path: Path,
) -> None:
    _, code = host_table(tmp_path, 3)
    phone = App(tmp_path / "data", width=390)
    phone.go(f"/join/{code}")
    phone.type_text("join-name", "🦄 Mia")
    assert phone.page.fonts == FONT and font_sent(phone)


def test_a_device_that_has_the_font_sends_no_event_per_keystroke(tmp_path: Path) -> None:
    first = App(tmp_path / "data")
    first.store.add_player("🦄 Mia")
    first.store.close()
    app = App(tmp_path / "data")
    app.go("/players")
    assert app.find("player-name").on_change is None
