"""Text and icons meet WCAG AA contrast in the light and the dark theme (issue 52, "Everyone at the table").

The colours the app draws are known in Python (scorekeeper/ui/palette.py: the scheme Flutter derives from the
seed, pinned role by role in theme.py; the app's own colours). Each pair the screens put together is checked:
4.5:1 for text, 3:1 for large text, icons, marks and outlines. A colour used in scorekeeper/ui that no pair here
covers fails too, so a new one is checked before it ships."""

from __future__ import annotations

import re
from pathlib import Path

import flet as ft
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.ui import palette
from scorekeeper.ui.context import PLAYER_COLOURS
from scorekeeper.ui.digital import cards, racko_board, ruckzuck_board, ruckzuck_panel
from scorekeeper.ui.palette import LARGE, TEXT, contrast, legible, over, role, tint
from scorekeeper.ui.theme import themed

UI = Path(__file__).resolve().parents[1] / "scorekeeper" / "ui"
THEMES = pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
SURFACES = (
    "surface",
    "surface_container_lowest",
    "surface_container_low",
    "surface_container",
    "surface_container_high",
    "surface_container_highest",
)

# (foreground role, background role, least ratio): what the screens and Material's controls put together.
SCHEME_PAIRS: tuple[tuple[str, str, float], ...] = (
    *(
        (fore, back, TEXT)
        for back in SURFACES
        for fore in ("on_surface", "on_surface_variant", "primary", "error")
    ),
    *(("outline", back, LARGE) for back in SURFACES),  # outlined buttons and fields, icons in OUTLINE
    *(("tertiary", back, TEXT) for back in SURFACES),  # a Racko run's numbers, a conflict's icon
    ("on_primary", "primary", TEXT),
    ("on_primary_container", "primary_container", TEXT),
    ("primary", "primary_container", LARGE),  # an icon on a selected card
    ("on_secondary", "secondary", TEXT),
    ("on_secondary_container", "secondary_container", TEXT),
    ("on_tertiary", "tertiary", TEXT),
    ("on_tertiary_container", "tertiary_container", TEXT),
    ("on_error", "error", TEXT),
    ("on_error_container", "error_container", TEXT),
    ("on_inverse_surface", "inverse_surface", TEXT),  # snack bars
    ("inverse_primary", "inverse_surface", TEXT),  # a snack bar's action
    ("on_surface", "secondary_container", TEXT),  # a selected chip or segment
    ("on_surface", "primary_container", TEXT),  # the leader's line on the scoreboard
)

FOREGROUND_ROLES = {fore for fore, _, _ in SCHEME_PAIRS}
"""The roles checked as text or icon colours: a screen that colours text or an icon with another fails below."""
BACKGROUND_ROLES = {back for _, back, _ in SCHEME_PAIRS}
"""The roles checked as what text stands on."""


@THEMES
@pytest.mark.parametrize(
    ("fore", "back", "least"), SCHEME_PAIRS, ids=[f"{f}-on-{b}" for f, b, _ in SCHEME_PAIRS]
)
def test_scheme_roles_meet_aa(dark: bool, fore: str, back: str, least: float) -> None:
    roles = palette.DARK if dark else palette.LIGHT
    ratio = contrast(roles[fore], roles[back])
    assert ratio >= least, f"{fore} {roles[fore]} on {back} {roles[back]}: {ratio:.2f}:1 < {least}:1"


def test_the_pinned_scheme_is_the_one_flutter_derives_from_the_seed() -> None:
    """palette.py's constants are Material's tonal-spot scheme of the seed (2021 spec, as Flutter's
    `ColorScheme.fromSeed`), derived again here with the materialyoucolor library."""
    hct = pytest.importorskip("materialyoucolor.hct")
    tonal = pytest.importorskip("materialyoucolor.scheme.scheme_tonal_spot")
    dynamic = pytest.importorskip("materialyoucolor.dynamiccolor.material_dynamic_colors")
    colours = dynamic.MaterialDynamicColors(spec="2021")
    for dark, roles in ((False, palette.LIGHT), (True, palette.DARK)):
        derived = tonal.SchemeTonalSpot(
            hct.Hct.from_int(0xFF000000 | int(palette.SEED[1:], 16)), dark, 0.0, "2021"
        )
        for name, value in roles.items():
            method = {"on_inverse_surface": "inverseOnSurface"}.get(name) or re.sub(
                r"_(\w)", lambda m: m.group(1).upper(), name
            )
            argb = getattr(colours, method).get_argb(derived)
            assert value == f"#{argb & 0xFFFFFF:06X}", (dark, name)


def test_the_themes_pin_every_role_and_keep_the_text_colours() -> None:
    for dark, roles in ((False, palette.LIGHT), (True, palette.DARK)):
        theme = themed(ft.Colors.INDIGO, dark=dark)
        assert theme.color_scheme is not None
        assert {name: getattr(theme.color_scheme, name) for name in roles} == roles
        assert theme.text_theme is not None and theme.text_theme.body_medium is not None
        assert theme.text_theme.body_medium.color == ft.Colors.ON_SURFACE  # see theme.py: dark text on dark
        assert theme.text_theme.body_medium.font_family_fallback  # the emoji font stays


def test_every_scheme_colour_the_screens_give_text_or_icons_is_checked() -> None:
    """`color=` / `icon_color=` with a scheme role anywhere in scorekeeper/ui names a role checked above."""
    used = set()
    for path in UI.rglob("*.py"):
        used |= set(
            re.findall(r"\b(?:icon_)?colou?r=ft\.Colors\.([A-Z_]+)\b", path.read_text(encoding="utf-8"))
        )
    # white: the pie's labels on a player's colour (the charts), whose ink palette.ink_on chooses
    unchecked = {name.lower() for name in used} - FOREGROUND_ROLES - {"white"}
    assert not unchecked, f"text or icons in scheme roles no pair checks: {sorted(unchecked)}"


def test_every_scheme_background_the_screens_use_is_checked() -> None:
    """`bgcolor=` with a scheme role anywhere in scorekeeper/ui names a role some text is checked on."""
    used = set()
    for path in UI.rglob("*.py"):
        used |= set(re.findall(r"\bbgcolor=ft\.Colors\.([A-Z_]+)\b", path.read_text(encoding="utf-8")))
    unchecked = {name.lower() for name in used} - BACKGROUND_ROLES
    assert not unchecked, f"backgrounds in scheme roles no pair checks: {sorted(unchecked)}"


@THEMES
def test_a_chip_without_a_colour_is_tinted_legibly(dark: bool) -> None:
    """A selected seat chip of a player without a colour is tinted with the primary colour (widgets.seat_chip)."""
    chip = tint(role("primary", dark), 0.22, role("surface", dark))
    assert contrast(role("on_surface", dark), chip) >= TEXT


# --- the app's own colours --------------------------------------------------------------------------------------


@THEMES
@pytest.mark.parametrize(("name", "colour"), PLAYER_COLOURS, ids=[name for name, _ in PLAYER_COLOURS])
def test_player_colours_stand_out_on_both_themes(dark: bool, name: str, colour: str) -> None:
    """A player's colour mark (scoreboard bar, dot, chart line) 3:1 on the background; a chip tinted with it keeps
    its text readable; a label on the colour (a pie's) 4.5:1 in `ink_on`'s colour."""
    surface = role("surface", dark)
    shown = legible(colour)
    assert shown == colour, f"{name}: offer the legible {shown} instead of {colour}"
    assert contrast(shown, surface) >= LARGE, (name, shown, contrast(shown, surface))
    chip = tint(shown, 0.22, surface)  # a selected seat chip (components/widgets.seat_chip)
    assert contrast(role("on_surface", dark), chip) >= TEXT, (name, chip)
    assert contrast(palette.ink_on(shown), shown) >= TEXT, (name, shown)


@given(st.from_regex(r"#[0-9A-F]{6}", fullmatch=True))
def test_any_saved_colour_is_drawn_legibly(colour: str) -> None:
    """A colour saved before the palette changed, or by another app, is drawn as `legible` makes it: 3:1 on both
    backgrounds, and a label on it 4.5:1."""
    shown = legible(colour)
    for dark in (False, True):
        assert contrast(shown, role("surface", dark)) >= LARGE, (colour, shown, dark)
    assert contrast(palette.ink_on(shown), shown) >= TEXT, (colour, shown)


@THEMES
def test_the_trophy_stands_out(dark: bool) -> None:
    assert contrast(palette.TROPHY, role("surface", dark)) >= LARGE


# The digital cards and boards are drawn in fixed colours of their own (the same in both themes): their faces.
CARD_FACES: tuple[tuple[str, str, str, float], ...] = (
    *((f"rage {c.name}", c.ink, c.fill, TEXT) for c in cards.RAGE_COLOURS.values()),
    ("rage action card", cards.ACTION_INK, cards.ACTION_FILL, TEXT),
    ("ruck zuck card", cards.RZ_INK, cards.RZ_FILL, TEXT),
    ("ruck zuck joker", cards.RZ_JOKER_INK, cards.RZ_FILL, LARGE),  # a star icon
    ("racko card", racko_board.INK, racko_board.FILL, TEXT),
    ("face-down pile", palette.WHITE, cards.PILE_FILL, TEXT),
    *(
        (f"empty field ({side})", over(cards.FIELD_INK, tinted), tinted, TEXT)
        for side, tinted in (*ruckzuck_board.SIDE_TINT.items(), *ruckzuck_panel.SIDE_TINT.items())
    ),
    ("field to place on", over(cards.FIELD_INK, ruckzuck_panel.TARGET), ruckzuck_panel.TARGET, TEXT),
    ("ruck zuck stock", palette.WHITE, cards.STOCK_FILL, LARGE),  # a symbol
)


@pytest.mark.parametrize(("what", "ink", "fill", "least"), CARD_FACES, ids=[face[0] for face in CARD_FACES])
def test_card_faces_meet_aa(what: str, ink: str, fill: str, least: float) -> None:
    ratio = contrast(ink, fill)
    assert ratio >= least, f"{what}: {ink} on {fill} is {ratio:.2f}:1 < {least}:1"


HEX = re.compile(r"[\"'](#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?)[\"']")
DECORATION = {"#40000000", "#55000000", "#30000000", "#99000000", "#66000000", "#CFD8DC", "#FFB300"}
"""Hex colours of borders only (a card's edge, a selected card's amber frame): the card's face is checked."""


def test_every_hex_colour_in_the_screens_is_checked() -> None:
    """A hex colour written in scorekeeper/ui is a player colour, a card face's above, or a border."""
    checked = (
        {colour.upper() for _, colour in PLAYER_COLOURS}
        | DECORATION
        | {palette.WHITE, palette.BLACK, palette.AMBER}
    )
    for _, ink, fill, _ in CARD_FACES:
        checked |= {ink.upper(), fill.upper()}
    checked |= {c.upper() for c in (cards.FIELD_INK, ruckzuck_panel.TARGET)}
    checked |= {palette.SEED, *palette.LIGHT.values(), *palette.DARK.values()}
    found = {}
    for path in UI.rglob("*.py"):
        for colour in HEX.findall(path.read_text(encoding="utf-8")):
            found.setdefault(colour.upper(), path.relative_to(UI))
    unchecked = {colour: str(where) for colour, where in found.items() if colour not in checked}
    assert not unchecked, f"hex colours no test checks: {unchecked}"
