"""Cards drawn with Flet controls (no image files), shared by the play panels.

A card is a rounded rectangle with its face; a dimmed card cannot be played now, a selected one is raised by
a thick border. Rage's six colours also carry a symbol each (heart, drop, leaf, sun, flame, diamond), so a
player who cannot tell red from green still tells the cards apart; screen readers get the card's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from scorekeeper.games.messages import N_
from scorekeeper.games.rage.cards import (
    BONUS,
    JOKER,
    MINUS,
    NO_TRUMP,
    TRUMP_CHANGE,
    colour_of,
    describe,
    value_of,
)
from scorekeeper.ui.context import AppContext


@dataclass(frozen=True)
class RageColour:
    name: str
    """English colour name (a message id)."""
    fill: str
    ink: str
    """Text colour on the fill."""
    icon: ft.IconData
    """The colour-blind symbol."""


RAGE_COLOURS: dict[str, RageColour] = {
    "r": RageColour(N_("red"), "#D32F2F", "#FFFFFF", ft.Icons.FAVORITE),
    "b": RageColour(N_("blue"), "#1976D2", "#FFFFFF", ft.Icons.WATER_DROP),
    "g": RageColour(N_("green"), "#2E7D32", "#FFFFFF", ft.Icons.ECO),
    "y": RageColour(N_("yellow"), "#FDD835", "#212121", ft.Icons.WB_SUNNY),
    "o": RageColour(N_("orange"), "#FB8C00", "#212121", ft.Icons.LOCAL_FIRE_DEPARTMENT),
    "v": RageColour(N_("violet"), "#8E24AA", "#FFFFFF", ft.Icons.DIAMOND),
}
"""The six Rage colours: name, card colour, text colour, symbol (every text colour 4.5:1 on its card:
tests/test_contrast.py; hence red, blue and green a shade darker than the player colours of those names)."""

ACTION_FACES: dict[str, tuple[str, ft.IconData | None]] = {
    JOKER: ("W", ft.Icons.STAR),
    NO_TRUMP: ("NT", ft.Icons.BLOCK),
    TRUMP_CHANGE: ("TC", ft.Icons.SWAP_HORIZ),
    BONUS: ("+5", None),
    MINUS: ("-5", None),
}
"""Action cards: the short face text and a symbol."""

ACTION_FILL = "#263238"
SELECTED = "#FFB300"
"""The border of a selected card (amber: visible on every card colour and on the dark action cards)."""
ACTION_INK = "#FFFFFF"


def panel_width(ctx: AppContext) -> float:
    """About how wide the panel is drawn: the window less the margins on a phone; from 900 px on, the play
    screen gives the table three fifths and the move log the rest. Only font and symbol sizes follow this;
    the board's fields share the real width equally."""
    width = ctx.width
    return width - 28 if width < 900 else (width - 72) * 0.6


def rage_card_name(ctx: AppContext, card: str) -> str:
    """A Rage card in words for the player ("red 7", "joker (green)", "no-trump")."""
    name = describe(card)
    translated = getattr(name, "translated", None)
    return translated(ctx.t) if callable(translated) else str(name)


def colour_chip(ctx: AppContext, letter: str | None, *, size: float = 28) -> ft.Control:
    """A round chip showing a Rage colour with its symbol (None: a struck-out chip for "no trump")."""
    if letter is None:
        return ft.Container(
            ft.Icon(ft.Icons.BLOCK, size=size * 0.7, color=ft.Colors.ON_SURFACE_VARIANT),
            width=size,
            height=size,
            alignment=ft.Alignment.CENTER,
        )
    spec = RAGE_COLOURS[letter]
    return ft.Container(
        ft.Icon(spec.icon, size=size * 0.6, color=spec.ink),
        width=size,
        height=size,
        border_radius=size / 2,
        bgcolor=spec.fill,
        alignment=ft.Alignment.CENTER,
        tooltip=ctx.t(spec.name),
    )


def rage_card(
    ctx: AppContext,
    card: str,
    *,
    width: float = 48,
    dim: bool = False,
    selected: bool = False,
    count: int = 1,
    on_click: Callable[[ft.Event[ft.Container]], None] | None = None,
) -> ft.Container:
    """A Rage card face: number cards in their colour with value and symbol; a played joker in its named
    colour; action cards dark with their short name. `count` > 1 shows "×2" for identical cards."""
    height = width * 1.4
    letter = colour_of(card)
    value = value_of(card)
    if card in ACTION_FACES:  # a joker in hand, or an action card
        face, icon = ACTION_FACES[card]
        fill, ink = ACTION_FILL, ACTION_INK
    else:
        assert letter is not None
        spec = RAGE_COLOURS[letter]
        fill, ink, icon = spec.fill, spec.ink, spec.icon
        face = "W" if value is not None and value > 15 else str(value)
    parts: list[ft.Control] = [
        ft.Text(face, size=width * 0.4, weight=ft.FontWeight.BOLD, color=ink, no_wrap=True),
    ]
    if icon is not None:
        parts.append(ft.Icon(icon, size=width * 0.32, color=ink))
    if count > 1:
        parts.append(ft.Text(f"×{count}", size=width * 0.22, color=ink, no_wrap=True))
    return _card_face(
        parts,
        width=width,
        height=height,
        fill=fill,
        border=ft.Border.all(4 if selected else 1, SELECTED if selected else "#40000000"),
        opacity=0.35 if dim else 1.0,
        on_click=on_click,
        tooltip=rage_card_name(ctx, card),
    )


RZ_FILL = "#FFF8E1"
RZ_INK = "#212121"
RZ_JOKER_INK = "#C62828"
FIELD_INK = "#A6000000"
"""An empty Ruck Zuck field's printed number: 65 % black, 4.5:1 and more on both sides' tints and on the green of a
field to place on (50 % read 3.7:1)."""
STOCK_FILL = "#607D8B"
"""The Ruck Zuck stock, a white symbol on it (3:1 and more; the lighter #90A4AE gave 2.6:1)."""
PILE_FILL = "#455A64"
"""A face-down pile, its count in white."""


def ruckzuck_card(
    card: int | str,
    *,
    width: float = 44,
    dim: bool = False,
    selected: bool = False,
    count: int = 1,
    on_click: Callable[[ft.Event[ft.Container]], None] | None = None,
    tooltip: str | None = None,
) -> ft.Container:
    """A Ruck Zuck hand card: a cream card with its number, the joker with a star."""
    joker = card == "J"
    parts: list[ft.Control] = [
        ft.Icon(ft.Icons.STAR, size=width * 0.45, color=RZ_JOKER_INK)
        if joker
        else ft.Text(str(card), size=width * 0.42, weight=ft.FontWeight.BOLD, color=RZ_INK, no_wrap=True)
    ]
    if count > 1:
        parts.append(ft.Text(f"×{count}", size=width * 0.24, color=RZ_INK, no_wrap=True))
    return _card_face(
        parts,
        width=width,
        height=width * 1.4,
        fill=RZ_FILL,
        border=ft.Border.all(4 if selected else 1, ft.Colors.PRIMARY if selected else "#55000000"),
        opacity=0.4 if dim else 1.0,
        on_click=on_click,
        tooltip=tooltip,
    )


def on_tap(action: Callable[[], None]) -> Callable[[ft.Event[ft.Container]], None]:
    """A card's click handler that does `action` (the click event itself is not needed)."""
    return lambda _: action()


def _card_face(
    parts: list[ft.Control],
    *,
    width: float,
    height: float,
    fill: str,
    border: ft.Border,
    opacity: float,
    on_click: Callable[[ft.Event[ft.Container]], None] | None,
    tooltip: str | None,
) -> ft.Container:
    """A card: `parts` stacked in the middle of a rounded, filled box that is tappable when `on_click` is set."""
    return ft.Container(
        ft.Column(
            parts,
            spacing=0,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            tight=True,
        ),
        width=width,
        height=height,
        bgcolor=fill,
        border_radius=width * 0.15,
        border=border,
        alignment=ft.Alignment.CENTER,
        opacity=opacity,
        on_click=on_click,
        ink=on_click is not None,
        tooltip=tooltip,
    )
