"""The app's Material theme and its bundled emoji font."""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.palette import scheme

EMOJI_FAMILY = "Noto Color Emoji"
EMOJI_FONT = "fonts/NotoColorEmoji.ttf"
TEXT_STYLES = tuple(
    f"{size}_{grade}"
    for size in ("display", "headline", "title", "body", "label")
    for grade in ("large", "medium", "small")
)


def themed(seed: str, dark: bool = False) -> ft.Theme:
    """The app's theme, light or `dark`: every text style falls back to the bundled emoji font for glyphs Roboto lacks (the font
    itself goes to a native app once a name it shows has an emoji; a browser fetches it by its own fallback, see
    emoji_font.py).

    A text theme given to Flet replaces Material's instead of being merged into it, so each style must name its
    colour too (the scheme's own roles, which follow light or dark mode); without one, text in dark mode was drawn
    black on the dark background.

    Every role of the colour scheme is pinned (palette.py: the scheme Flutter derives from `seed`, written out), so
    that the colours drawn are the ones tests/test_contrast.py checks; the seed stays for anything Flet cannot
    pin."""
    return ft.Theme(
        color_scheme_seed=seed,
        color_scheme=scheme(dark),
        text_theme=_texts(ft.Colors.ON_SURFACE),
        primary_text_theme=_texts(ft.Colors.ON_PRIMARY),
    )


def _texts(colour: str) -> ft.TextTheme:
    style = ft.TextStyle(font_family_fallback=[EMOJI_FAMILY], color=colour)
    return ft.TextTheme(**{name: style for name in TEXT_STYLES})
