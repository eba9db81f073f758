"""The app's Material theme and its bundled emoji font."""

from __future__ import annotations

import flet as ft

EMOJI_FAMILY = "Noto Color Emoji"
EMOJI_FONT = "fonts/NotoColorEmoji.ttf"
TEXT_STYLES = tuple(
    f"{size}_{grade}"
    for size in ("display", "headline", "title", "body", "label")
    for grade in ("large", "medium", "small")
)


def themed(seed: str) -> ft.Theme:
    """The app's theme: every text style falls back to the bundled emoji font for glyphs Roboto lacks (the font
    itself goes to a native app once a name it shows has an emoji; a browser fetches it by its own fallback, see
    emoji_font.py).

    A text theme given to Flet replaces Material's instead of being merged into it, so each style must name its
    colour too (the scheme's own roles, which follow light or dark mode); without one, text in dark mode was drawn
    black on the dark background."""
    return ft.Theme(
        color_scheme_seed=seed,
        text_theme=_texts(ft.Colors.ON_SURFACE),
        primary_text_theme=_texts(ft.Colors.ON_PRIMARY),
    )


def _texts(colour: str) -> ft.TextTheme:
    style = ft.TextStyle(font_family_fallback=[EMOJI_FAMILY], color=colour)
    return ft.TextTheme(**{name: style for name in TEXT_STYLES})
