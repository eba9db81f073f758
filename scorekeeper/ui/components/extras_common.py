"""Small pieces shared by the history, statistics, rules and settings screens: choice pills, number and date
formats in the app's language, and the colours players are drawn in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import flet as ft
from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from scorekeeper.games.spec import KEYS
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import PLAYER_COLOURS, AppContext
from scorekeeper.ui.palette import legible

# Lines of a chart for players without a saved colour: the player palette, in order.
PALETTE: tuple[str, ...] = tuple(value for _, value in PLAYER_COLOURS)

GAME_ORDER: tuple[str, ...] = KEYS


def language(ctx: AppContext) -> str:
    return getattr(ctx.t, "language", "en") or "en"


def percent(ctx: AppContext, share: float | None) -> str:
    """A share 0..1 as a percentage in the app's language ("62.5%", "62,5 %"); a dash when unknown."""
    if share is None:
        return "–"
    # Rounded first so that the language's own pattern (with its spacing, "62,5 %") shows one decimal at most.
    return format_percent(round(share, 3), locale=language(ctx), decimal_quantization=False)


def decimal(ctx: AppContext, value: float | int | None) -> str:
    """A number with at most one decimal in the app's language; a dash when unknown."""
    if value is None:
        return "–"
    return format_decimal(round(value, 1), format="#,##0.#", locale=language(ctx))


def day(ctx: AppContext, iso: str | None) -> str:
    """The date of an ISO timestamp, written the way the app's language writes dates."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso[:10]
    return format_date(moment.date(), format="medium", locale=language(ctx))


def player_colours(ctx: AppContext) -> dict[str, str]:
    """Saved players' colours by player id (archived players included: old games still show them), as drawn
    (`palette.legible`)."""
    try:
        players = ctx.store.list_players(include_archived=True)
    except Exception:  # a store that cannot list players still lets the screens show games
        return {}
    return {p.id: legible(p.colour) for p in players if getattr(p, "colour", "")}


def colour_for(colours: dict[str, str], player: str, index: int) -> str:
    """A player's own colour, else one from the palette by position."""
    return colours.get(player) or PALETTE[index % len(PALETTE)]


def assign_colours(saved: dict[str, str], players: Sequence[str]) -> dict[str, str]:
    """A colour for each of `players`: their saved one, else the next palette colour nobody uses yet, so a
    player keeps one colour across every chart of a screen."""
    colours = dict(saved)
    free = [c for c in PALETTE if c.upper() not in {v.upper() for v in saved.values()}] or list(PALETTE)
    for index, player in enumerate(p for p in players if p not in saved):
        colours[player] = free[index % len(free)]
    return colours


def pills(
    options: Sequence[tuple[Any, str]],
    selected: Any,
    on_pick: Callable[[Any], None],
    *,
    prefix: str,
    compact: bool = False,
) -> ft.Control:
    """A wrapping row of choices, one of them selected (filled); each is a 44-px-high touch target.

    `compact`: one row that fits a 390-px phone (the game filter: four choices). The fill alone marks the
    choice (no check mark), padding and gaps are narrower. A row still too wide (long translations, large text)
    breaks into a second row: one scrolling sideways hid its last choices off the screen at 200 % text."""
    buttons: list[ft.Control] = []
    style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=12 if compact else 16, vertical=0))
    for value, label in options:
        chosen = value == selected
        if chosen:
            button: ft.Control = ft.FilledButton(
                label,
                icon=None if compact else ft.Icons.CHECK,
                on_click=lambda _, v=value: on_pick(v),
                height=44,
                style=style,
            )
        else:
            button = ft.OutlinedButton(label, on_click=lambda _, v=value: on_pick(v), height=44, style=style)
        buttons.append(tag(f"{prefix}-{value if value is not None else 'all'}", button))
    return ft.Row(buttons, wrap=True, spacing=6 if compact else 8, run_spacing=8)


def note(text: str, *, error: bool = False) -> ft.Control:
    """A framed message block (recovery notes, import results)."""
    return ft.Container(
        ft.Text(text, color=ft.Colors.ON_ERROR_CONTAINER if error else None),
        bgcolor=ft.Colors.ERROR_CONTAINER if error else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        padding=12,
        border_radius=8,
    )


def empty_state(icon: ft.IconData, text: str) -> ft.Control:
    """What a list shows when it has nothing to list."""
    return ft.Container(
        ft.Column(
            [ft.Icon(icon, size=48, color=ft.Colors.OUTLINE), ft.Text(text, text_align=ft.TextAlign.CENTER)],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            spacing=8,
        ),
        padding=32,
        alignment=ft.Alignment.CENTER,
    )
