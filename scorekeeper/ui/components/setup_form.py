"""The parts the set-up screens share (score keeping, digital play, shared table): the game buttons, the game's
options, the seat rows and rows of "pick one" buttons."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from functools import partial
from typing import Any, Protocol

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.options import GAME_OPTIONS, PLAYER_RANGE, OptionSpec, default_value
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext


def choice_button(identifier: str, selected: bool, text: str, on_click: Callable, **style: Any) -> ft.Control:
    """A tagged button, filled when it is the current choice and outlined otherwise."""
    return tag(
        identifier, (ft.FilledButton if selected else ft.OutlinedButton)(text, on_click=on_click, **style)
    )


def choice_row(
    prefix: str, choices: Iterable[tuple[Hashable, str]], current: Hashable, pick: Callable[[Any], None]
) -> ft.Row:
    """One button a choice (tagged `<prefix>-<key>`), the current one filled; tapping one calls `pick(key)`."""
    return ft.Row(
        [
            choice_button(f"{prefix}-{key}", key == current, text, lambda _, k=key: pick(k))
            for key, text in choices
        ],
        wrap=True,
    )


def game_buttons(ctx: AppContext, game: str, set_game: Callable[[str], None]) -> ft.Row:
    """A button a game; the chosen one is filled."""
    return ft.Row(
        [
            choice_button(
                f"game-{name}", name == game, game_title(ctx, name), lambda _, n=name: set_game(n), height=48
            )
            for name in PLAYER_RANGE
        ],
        wrap=True,
    )


class OptionChange(Protocol):
    """Told an option's new value; `redraw=False` while a number is being typed (the field keeps the focus)."""

    def __call__(self, value: Any, *, redraw: bool = True) -> None: ...


def option_control(ctx: AppContext, spec: OptionSpec, value: Any, on_change: OptionChange) -> ft.Control:
    """One game option: a switch, a row of choices or a number field, with its help text under it."""
    label, help_text = ctx.t(spec.label), ctx.t(spec.help)
    ident = f"option-{spec.name}"
    if spec.kind == "bool":
        control: ft.Control = ft.Switch(
            label=label, value=bool(value), on_change=lambda e: on_change(e.control.value)
        )
    elif spec.kind == "choice":
        choices = [(choice, ctx.t(text)) for choice, text in spec.choices]
        control = ft.Column([ft.Text(label), choice_row(ident, choices, value, on_change)], spacing=4)
    else:

        def typed(event: ft.Event[ft.TextField]) -> None:
            text = (event.control.value or "").strip()
            on_change(int(text) if text.isdigit() else text, redraw=False)

        control = ft.TextField(
            label=label,
            value="" if value is None else str(value),
            keyboard_type=ft.KeyboardType.NUMBER,
            width=200,
            on_change=typed,
        )
    return ft.Column([tag(ident, control), ft.Text(help_text, size=12, italic=True)], spacing=2)


def option_controls(
    ctx: AppContext, game: str, players: int, values: dict[str, Any], redraw: Callable[[], None]
) -> list[ft.Control]:
    """The options that apply to `game` at this many players. A change is stored in `values` and the screen
    drawn again, except while a number is being typed (the field would lose the focus)."""
    fields = GAME_OPTIONS[game]
    current = {**{f.name: default_value(f, players) for f in fields}, **values}
    redraw_screen = redraw

    def set_value(name: str, value: Any, *, redraw: bool = True) -> None:
        values[name] = value
        if redraw:
            redraw_screen()

    return [
        option_control(ctx, field, current.get(field.name), partial(set_value, field.name))
        for field in fields
        if field.applies(players, current)
    ]


def seat_row(
    ctx: AppContext,
    index: int,
    who: ft.Control,
    *,
    label_width: int,
    on_up: Callable[[], None],
    on_remove: Callable[[], None],
    remove_id: str,
    up_id: str | None = None,
) -> ft.Row:
    """One seat of the seating order: its number, who sits there, "move up" (not for the first) and "remove"."""
    up: ft.Control = icon_button(
        ft.Icons.ARROW_UPWARD, ctx.t("Move up"), on_click=lambda _: on_up(), disabled=index == 0
    )
    remove = icon_button(ft.Icons.CLOSE, ctx.t("Remove"), on_click=lambda _: on_remove())
    return ft.Row(
        [
            ft.Text(ctx.t("Seat {n}", n=index + 1), width=label_width),
            who,
            tag(up_id, up) if up_id else up,
            tag(remove_id, remove),
        ],
        spacing=4,
    )


def check_player_count(ctx: AppContext, game: str, count: int, low: int, high: int) -> None:
    """RuleError unless `count` players may play `game` (with the chosen options: `low` to `high`)."""
    if not low <= count <= high:
        raise RuleError(
            ctx.t("{game} is for {low} to {high} players.", game=game_title(ctx, game), low=low, high=high)
        )
