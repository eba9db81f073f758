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
    """The app's theme: every text style falls back to the bundled emoji font for glyphs Roboto lacks."""
    style = ft.TextStyle(font_family_fallback=[EMOJI_FAMILY])
    texts = ft.TextTheme(**{name: style for name in TEXT_STYLES})
    return ft.Theme(color_scheme_seed=seed, text_theme=texts, primary_text_theme=texts)
