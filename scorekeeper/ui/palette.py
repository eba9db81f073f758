"""The app's colours, known in Python: the Material 3 colour scheme of both themes, the WCAG contrast they are
checked by (tests/test_contrast.py), and the rules that make a colour of the app's own (a player's, a chart's, a
trophy's) legible on both themes.

The scheme is the one Flutter derives from the app's seed colour (Material's indigo) with `ColorScheme.fromSeed`
(the "tonal spot" variant, the 2021 colour spec of material_color_utilities), written out once as constants and
given to Flet role by role (theme.py), so that what is drawn is what this module says. The figures come from the
`materialyoucolor` library (a dev dependency; tests/test_contrast.py derives them again and compares).

Contrast (WCAG 2.2): text needs 4.5:1 against what is behind it (3:1 from 24 px, or 18.66 px bold); icons,
marks and a control's outline 3:1."""

from __future__ import annotations

from functools import cache

import flet as ft

SEED = "#3F51B5"
"""Material's indigo 500 (`ft.Colors.INDIGO`), the seed of both schemes."""

TEXT = 4.5
"""The least contrast for text (WCAG AA)."""
LARGE = 3.0
"""The least contrast for large text, icons, marks and outlines (WCAG AA)."""

LIGHT: dict[str, str] = {
    "primary": "#515B92",
    "on_primary": "#FFFFFF",
    "primary_container": "#DEE0FF",
    "on_primary_container": "#394379",
    "secondary": "#5B5D72",
    "on_secondary": "#FFFFFF",
    "secondary_container": "#E0E1F9",
    "on_secondary_container": "#434659",
    "tertiary": "#77536D",
    "on_tertiary": "#FFFFFF",
    "tertiary_container": "#FFD7F1",
    "on_tertiary_container": "#5D3C55",
    "error": "#BA1A1A",
    "on_error": "#FFFFFF",
    "error_container": "#FFDAD6",
    "on_error_container": "#93000A",
    "surface": "#FBF8FF",
    "on_surface": "#1B1B21",
    "on_surface_variant": "#46464F",
    "outline": "#767680",
    "outline_variant": "#C7C5D0",
    "shadow": "#000000",
    "scrim": "#000000",
    "inverse_surface": "#303036",
    "on_inverse_surface": "#F2EFF7",
    "inverse_primary": "#BAC3FF",
    "surface_tint": "#515B92",
    "on_primary_fixed": "#0B154B",
    "on_secondary_fixed": "#181A2C",
    "on_tertiary_fixed": "#2D1228",
    "on_primary_fixed_variant": "#394379",
    "on_secondary_fixed_variant": "#434659",
    "on_tertiary_fixed_variant": "#5D3C55",
    "primary_fixed": "#DEE0FF",
    "secondary_fixed": "#E0E1F9",
    "tertiary_fixed": "#FFD7F1",
    "primary_fixed_dim": "#BAC3FF",
    "secondary_fixed_dim": "#C3C5DD",
    "surface_bright": "#FBF8FF",
    "surface_container": "#EFEDF4",
    "surface_container_high": "#E9E7EF",
    "surface_container_highest": "#E4E1E9",
    "surface_container_low": "#F5F2FA",
    "surface_container_lowest": "#FFFFFF",
    "surface_dim": "#DBD9E0",
    "tertiary_fixed_dim": "#E6BAD7",
}
"""The light theme's scheme: each `ft.ColorScheme` field's colour."""

DARK: dict[str, str] = {
    "primary": "#BAC3FF",
    "on_primary": "#222C61",
    "primary_container": "#394379",
    "on_primary_container": "#DEE0FF",
    "secondary": "#C3C5DD",
    "on_secondary": "#2D2F42",
    "secondary_container": "#434659",
    "on_secondary_container": "#E0E1F9",
    "tertiary": "#E6BAD7",
    "on_tertiary": "#44263D",
    "tertiary_container": "#5D3C55",
    "on_tertiary_container": "#FFD7F1",
    "error": "#FFB4AB",
    "on_error": "#690005",
    "error_container": "#93000A",
    "on_error_container": "#FFDAD6",
    "surface": "#121318",
    "on_surface": "#E4E1E9",
    "on_surface_variant": "#C7C5D0",
    "outline": "#90909A",
    "outline_variant": "#46464F",
    "shadow": "#000000",
    "scrim": "#000000",
    "inverse_surface": "#E4E1E9",
    "on_inverse_surface": "#303036",
    "inverse_primary": "#515B92",
    "surface_tint": "#BAC3FF",
    "on_primary_fixed": "#0B154B",
    "on_secondary_fixed": "#181A2C",
    "on_tertiary_fixed": "#2D1228",
    "on_primary_fixed_variant": "#394379",
    "on_secondary_fixed_variant": "#434659",
    "on_tertiary_fixed_variant": "#5D3C55",
    "primary_fixed": "#DEE0FF",
    "secondary_fixed": "#E0E1F9",
    "tertiary_fixed": "#FFD7F1",
    "primary_fixed_dim": "#BAC3FF",
    "secondary_fixed_dim": "#C3C5DD",
    "surface_bright": "#39393F",
    "surface_container": "#1F1F25",
    "surface_container_high": "#29292F",
    "surface_container_highest": "#34343A",
    "surface_container_low": "#1B1B21",
    "surface_container_lowest": "#0D0E13",
    "surface_dim": "#121318",
    "tertiary_fixed_dim": "#E6BAD7",
}
"""The dark theme's scheme."""

WHITE = "#FFFFFF"
BLACK = "#000000"


def scheme(dark: bool) -> ft.ColorScheme:
    """The colour scheme of the dark or the light theme, every role pinned."""
    return ft.ColorScheme(**(DARK if dark else LIGHT))


def role(colour: str, dark: bool) -> str:
    """The "#RRGGBB" that `colour` is drawn in: a scheme role (`ft.Colors.ON_SURFACE` or its name) in that theme,
    or a hex colour as it is."""
    if colour.startswith("#"):
        return colour.upper()
    roles = DARK if dark else LIGHT
    key = colour if colour in roles else ft.Colors(colour).name.lower()
    return roles[key]


def _rgb(colour: str) -> tuple[float, float, float, float]:
    """Red, green, blue and alpha (0..1) of "#RRGGBB" or "#AARRGGBB" (Flutter's order)."""
    digits = colour.lstrip("#")
    alpha = int(digits[:2], 16) / 255 if len(digits) == 8 else 1.0
    digits = digits[-6:]
    red, green, blue = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return red, green, blue, alpha


def _hex(red: float, green: float, blue: float) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02X}" for c in (red, green, blue))


def over(colour: str, below: str) -> str:
    """`colour` (with its alpha, "#AARRGGBB") drawn over the opaque `below`: the colour seen."""
    red, green, blue, alpha = _rgb(colour)
    under = _rgb(below)
    return _hex(*(alpha * c + (1 - alpha) * u for c, u in zip((red, green, blue), under[:3], strict=True)))


def tint(colour: str, opacity: float, below: str) -> str:
    """`colour` at `opacity` over `below` (as `ft.Colors.with_opacity` draws it)."""
    red, green, blue, _ = _rgb(colour)
    alpha = f"{round(opacity * 255):02X}"
    return over("#" + alpha + _hex(red, green, blue)[1:], below)


def luminance(colour: str) -> float:
    """WCAG's relative luminance of an opaque colour (0 black .. 1 white)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue, _ = _rgb(colour)
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two opaque colours (1 .. 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _fits(colour: str) -> bool:
    """A mark in this colour stands out 3:1 on both themes' backgrounds (a little more, for rounding)."""
    return all(contrast(colour, roles["surface"]) >= LARGE + 0.05 for roles in (LIGHT, DARK))


@cache
def legible(colour: str) -> str:
    """`colour` as the app draws a player's (or a chart's, a trophy's) colour: itself when a mark in it stands out
    3:1 on the light and the dark background alike, else mixed with black (too light: yellow, orange) or with white
    (too dark: brown, purple) just enough. One value for both themes, so a player keeps one colour whichever the
    device shows; a saved colour ("#FDD835") is kept as it was saved and drawn this way."""
    if not colour.startswith("#") or _fits(colour):
        return colour.upper() if colour.startswith("#") else colour
    red, green, blue, _ = _rgb(colour)
    # too light for the light background: towards black; else (too dark for the dark one) towards white
    towards = 0.0 if contrast(colour, LIGHT["surface"]) < LARGE + 0.05 else 1.0
    for step in range(1, 101):
        share = step / 100
        mixed = _hex(*(c + (towards - c) * share for c in (red, green, blue)))
        if _fits(mixed):
            return mixed
    return BLACK if towards == 0.0 else WHITE  # not reached: grey passes half way


def ink_on(fill: str) -> str:
    """White or black, whichever reads better on `fill` (text on a player's colour: a pie's labels)."""
    return WHITE if contrast(WHITE, fill) >= contrast(BLACK, fill) else BLACK


AMBER = "#FFC107"
"""Material's amber (`ft.Colors.AMBER`)."""
TROPHY = legible(AMBER)
"""The game end's trophy: Material's amber, darkened until it stands out on both themes."""
