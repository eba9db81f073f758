"""Small controls shared by the tracking screens: tagged controls, number pads, choice rows, counters."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any, Protocol

import flet as ft

from scorekeeper.ui.palette import legible

TAP = 44  # the smallest comfortable touch target in logical pixels
COMPACT = ft.ButtonStyle(padding=ft.Padding.all(0), shape=ft.RoundedRectangleBorder(radius=8))


def icon_button(icon: ft.IconData, label: str, **options: Any) -> ft.IconButton:
    """An icon-only button that a screen reader names `label` (its tooltip too). Why the icon carries it: on the
    web Flutter puts an IconButton's tooltip on a node around the button, and the tappable button node itself,
    the one a screen reader focuses, stays unnamed; the icon's own label lands inside the button's node."""
    return ft.IconButton(ft.Icon(icon, semantics_label=label), tooltip=label, **options)


def revealable(field: ft.TextField, show: str, hide: str) -> ft.TextField:
    """`field` (a password) with an eye button named `show` ("Show password") or `hide` that shows or hides what
    was typed. Why not Flet's `can_reveal_password`: its eye button has no name a screen reader can say."""
    field.password, field.can_reveal_password = True, False

    def flip(_: ft.Event[ft.IconButton]) -> None:
        field.password = not field.password
        field.suffix_icon = eye()
        field.update()

    def eye() -> ft.IconButton:
        if field.password:
            return icon_button(ft.Icons.VISIBILITY, show, on_click=flip)
        return icon_button(ft.Icons.VISIBILITY_OFF, hide, on_click=flip)

    field.suffix_icon = eye()
    return field


def labelled_switch(identifier: str, switch: ft.Switch, text: str) -> ft.Control:
    """A switch with its label as text beside it, wrapping on a phone (a switch's own label stays on one line and
    is cut off there), merged into one node, so that a screen reader names the switch by that text."""
    return ft.MergeSemantics(content=ft.Row([tag(identifier, switch), ft.Text(text, expand=True)]))


def tag(identifier: str, control: ft.Control, *, label: str | None = None) -> ft.Control:
    """Give `control` a stable id that browser tests (and screen readers' tooling) can find; `label` names an
    icon-only button for screen readers (a tooltip alone gives it no accessible name in the browser)."""
    # The wrapper takes the control's place in a Row/Column, so it must also take its share of the space.
    if isinstance(control, ft.Container) and control.on_click is not None:
        # A tappable Container has no semantics node of its own: its tap would merge into the identifier's node,
        # and when such a merged node is updated in parts (under load, after a list of chips grew) Flutter's
        # web engine drops its `flt-semantics-identifier` for good. A button node of its own keeps them apart,
        # as Flet's buttons do themselves.
        control = ft.Semantics(content=control, container=True, button=True, expand=control.expand)
    return ft.Semantics(
        content=control,
        identifier=identifier,
        expand=control.expand,
        label=label,
        button=True if label else None,
    )


@ft.control
class PadButton(ft.Button):
    """A Button that keeps its style object while the style stays the same. Why: Flet's Button makes a new style
    object from its colours on every update, which Flet's diff cannot tell from a changed one, so every update of
    a number pad sent the style of each of its keys again (some 10 KB for the rack pad's 50 keys)."""

    def before_update(self) -> None:
        kept = self._internals.get("style")
        super().before_update()
        if kept is not None and self._internals.get("style") == kept:
            self._internals["style"] = kept


def pad_button(
    label: str,
    on_click: Callable[[], None],
    *,
    size: int = TAP,
    selected: bool = False,
    disabled: bool = False,
) -> ft.Button:
    """A square button for a number pad; `selected` shows it filled."""
    return PadButton(
        label,
        on_click=lambda _: on_click(),
        width=size,
        height=size,
        style=COMPACT,
        bgcolor=ft.Colors.PRIMARY if selected else None,
        color=ft.Colors.ON_PRIMARY if selected else None,
        disabled=disabled,
    )


class NumberPad:
    """A grid of number keys; keys can be greyed out (used elsewhere) or marked as selected."""

    def __init__(
        self,
        keys: Sequence[Hashable],
        on_pick: Callable[[Hashable], None],
        *,
        prefix: str = "pad",
        size: int = TAP,
        labels: dict[Hashable, str] | None = None,
        per_row: int | None = None,
    ) -> None:
        """`per_row`: fixed rows of that many keys sharing the width (a number keeps its place on every
        device: 23 is always third in the third row); otherwise square keys of `size` wrap."""
        self.on_pick = on_pick
        self.buttons: dict[Hashable, ft.Button] = {}
        tagged: list[ft.Control] = []
        for key in keys:
            label = (labels or {}).get(key, str(key))
            button = pad_button(label, partial(self.on_pick, key), size=size)
            if per_row:
                button.width, button.expand = None, True
            self.buttons[key] = button
            tagged.append(tag(f"{prefix}-{key}", button))
        if per_row:
            rows = [tagged[i : i + per_row] for i in range(0, len(tagged), per_row)]
            for row in rows:  # a short last row keeps the key width of the full ones
                row.extend(ft.Container(expand=True) for _ in range(per_row - len(row)))
            self.control: ft.Control = ft.Column(
                [ft.Row(row, spacing=3) for row in rows], spacing=3, tight=True
            )
        else:
            self.control = ft.Row(tagged, wrap=True, spacing=4, run_spacing=4)

    def refresh(
        self, *, disabled: AbstractSet[Hashable] = frozenset(), selected: AbstractSet[Hashable] = frozenset()
    ) -> None:
        """Grey out `disabled` keys and fill `selected` ones (call `control.update()` afterwards)."""
        for key, button in self.buttons.items():
            button.disabled = key in disabled
            chosen = key in selected
            button.bgcolor = ft.Colors.PRIMARY if chosen else None
            button.color = ft.Colors.ON_PRIMARY if chosen else None


class ChoiceRow:
    """One-tap choice among a few values (e.g. bids 0..10): a row of pad buttons, one selected."""

    def __init__(
        self,
        values: Sequence[Hashable],
        on_pick: Callable[[Hashable], None],
        *,
        prefix: str,
        size: int = TAP,
        labels: dict[Hashable, str] | None = None,
    ) -> None:
        self.pad = NumberPad(values, on_pick, prefix=prefix, size=size, labels=labels)
        self.control = self.pad.control

    def refresh(self, value: Hashable | None, *, disabled: AbstractSet[Hashable] = frozenset()) -> None:
        self.pad.refresh(disabled=disabled, selected={value} if value is not None else set())


class Counter:
    """A small "- n +" stepper for counts like Rage's +5 cards; stays within low..high."""

    def __init__(
        self, label: str, on_change: Callable[[int], None], *, prefix: str, low: int = 0, high: int = 9
    ) -> None:
        self.value = low
        self.low, self.high = low, high
        self.on_change = on_change
        self.text = ft.Text("0", width=24, text_align=ft.TextAlign.CENTER, weight=ft.FontWeight.BOLD)
        self.minus = icon_button(ft.Icons.REMOVE, f"{label} -1", on_click=lambda _: self.step(-1))
        self.plus = icon_button(ft.Icons.ADD, f"{label} +1", on_click=lambda _: self.step(1))
        self.control = ft.Row(
            [ft.Text(label), tag(f"{prefix}-minus", self.minus), self.text, tag(f"{prefix}-plus", self.plus)],
            spacing=0,
            tight=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    def step(self, delta: int) -> None:
        self.set(self.value + delta)
        self.on_change(self.value)

    def set(self, value: int) -> None:
        self.value = max(self.low, min(self.high, value))
        self.text.value = str(self.value)
        self.minus.disabled = self.value <= self.low
        self.plus.disabled = self.value >= self.high


def seat_chip(
    name: str,
    colour: str | None,
    *,
    selected: bool = False,
    on_click: Callable[[], None] | None = None,
    identifier: str | None = None,
    subtitle: str | None = None,
    disabled: bool = False,
    icon: ft.IconData | None = None,
    compact: bool = False,
) -> ft.Control:
    """A player's name with their colour (a selected chip is tinted with it, as the scoreboard's bars are);
    tappable when `on_click` is given; `icon` replaces the colour dot. The colour is drawn legibly on both themes
    (`palette.legible`); a long name wraps rather than ending in "…" (large text on a phone)."""
    colour = legible(colour) if colour else None
    marker: ft.Control = (
        ft.Icon(icon, size=18, color=colour or ft.Colors.OUTLINE)
        if icon is not None
        else ft.Container(width=12, height=12, border_radius=6, bgcolor=colour or ft.Colors.OUTLINE)
    )
    texts: list[ft.Control] = [ft.Text(name, weight=ft.FontWeight.BOLD if selected else None)]
    if subtitle:
        texts.append(ft.Text(subtitle, size=12))
    tint = colour or ft.Colors.PRIMARY
    chip = ft.Container(
        # the names may wrap (a loose flex child: as wide as the name, at most what is left of the row)
        ft.Row(
            [marker, ft.Column(texts, spacing=0, tight=True, expand=True, expand_loose=True)],
            spacing=6,
            tight=True,
        ),
        padding=ft.Padding.symmetric(horizontal=10 if compact else 12, vertical=4 if compact else 8),
        border_radius=20,
        border=ft.Border.all(2 if selected else 1, tint if selected else ft.Colors.OUTLINE_VARIANT),
        bgcolor=ft.Colors.with_opacity(0.22, tint) if selected else None,
        on_click=(lambda _: on_click()) if on_click and not disabled else None,
        ink=on_click is not None,
        opacity=0.4 if disabled else 1.0,
    )
    return tag(identifier, chip) if identifier else chip


def seat_tab(
    name: str,
    colour: str | None,
    *,
    selected: bool,
    on_click: Callable[[], None],
    identifier: str,
    subtitle: str,
) -> ft.Control:
    """A tab for one player's part of a form (a Racko rack): square, underlined in the player's colour when
    open, so it never looks like the round chips of a choice such as "Who called Racko?"."""
    tint = colour or ft.Colors.PRIMARY
    tab = ft.Container(
        ft.Column(
            [
                ft.Text(name, weight=ft.FontWeight.BOLD if selected else None),  # wraps (large text)
                ft.Text(subtitle, size=11),
            ],
            spacing=0,
            tight=True,
        ),
        padding=ft.Padding.only(left=8, right=8, top=4, bottom=2),
        border_radius=ft.BorderRadius.only(top_left=6, top_right=6),
        border=ft.Border.only(bottom=ft.BorderSide(4 if selected else 1, tint)),
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if selected else None,
        on_click=lambda _: on_click(),
        ink=True,
    )
    return tag(identifier, tab)


def primary_button(text: str, on_click: Callable[[], None], *, identifier: str | None = None) -> ft.Control:
    """The screen's main action (Save round, Start game): wide and tall enough for a thumb."""
    button = ft.FilledButton(text, on_click=lambda _: on_click(), height=52, expand=True)
    return tag(identifier, button) if identifier else button


class Typing(Protocol):
    typing: bool  # a player was just added: the name field takes the focus back


def name_entry(label: str, draft: Typing, on_submit: Callable[[], None]) -> ft.TextField:
    """The field a new player's name is typed in. The screen is drawn again after each added player; the field
    then takes the focus back, once (not at every later redraw), so that names can be typed one after another
    (name, Enter, name, Enter, ...)."""
    typing, draft.typing = draft.typing, False
    return ft.TextField(label=label, expand=True, on_submit=lambda _: on_submit(), autofocus=typing)
