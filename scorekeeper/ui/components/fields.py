"""The fields a round is entered with, written once for the host's round-entry screens and a phone's part at a
score-keeping table (`views.table.part_form`): a count picked with one tap among a few numbers (bids, tricks, a
Racko quick count), a yes/no switch, a typed number and the label-beside-keys line of a tablet or desktop. The
Racko rack is `components.rack_pad`, shared the same way. The question a round asks once rather than per seat
(who called Racko, who went out) is one row of the seats' names (`who_row`).

A count field never shows a value the rules bar as chosen (the hook rule: a dealer's bid picked before the
others bid and forbidden since); it greys the barred values out instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.ui.components.widgets import TAP, ChoiceRow, seat_chip

ELLIPSIS: dict[str, Any] = {"max_lines": 3, "overflow": ft.TextOverflow.ELLIPSIS}
"""A name in a fixed-width column: up to three lines (one cut a long name short at 200 % text), then "…"."""
NAME_WIDTH = 150
"""Tablet/desktop: the width of the name column beside each player's keys."""


class CountField:
    """One-tap choice of a count among `values` (tags `<prefix>-<n>`); `on_pick` gets the value tapped."""

    def __init__(
        self, values: Sequence[int], on_pick: Callable[[Any], None], *, prefix: str, size: int = TAP
    ) -> None:
        self.row = ChoiceRow(list(values), on_pick, prefix=prefix, size=size)
        self.control = self.row.control

    def show(self, value: Any, barred: set[int] | frozenset[int] = frozenset()) -> int | None:
        """Draw `value` as chosen, the `barred` values greyed out; returns what is shown as chosen (None for a
        value the rules bar now or for no value)."""
        chosen = value if isinstance(value, int) and value not in barred else None
        self.row.refresh(chosen, disabled=set(barred))
        return chosen


def yes_switch(label: str, value: bool, on_change: Callable[[bool], None]) -> ft.Switch:
    """A yes/no answer ("I called Racko", "Blitz-Racko right after the deal")."""
    return ft.Switch(label=label, value=value, on_change=lambda e: on_change(bool(e.control.value)))


def number_field(label: str, value: str, on_change: Callable[[Any], None], **style: Any) -> ft.TextField:
    """A typed number (a Ruck Zuck penalty total, a phone's count without a small limit, its cards as numbers
    separated by spaces): the number keyboard on a phone; `on_change` gets the change event."""
    return ft.TextField(
        label=label, value=value, on_change=on_change, keyboard_type=ft.KeyboardType.NUMBER, **style
    )


def beside(label: str, keys: ft.Control) -> ft.Control:
    """Tablet/desktop: a player's name in a fixed column beside their keys (the keys take the rest)."""
    keys.expand = True
    return ft.Row(
        [ft.Text(label, weight=ft.FontWeight.BOLD, width=NAME_WIDTH, **ELLIPSIS), keys],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def who_row(
    names: Sequence[str],
    seats: Sequence[int],
    chosen: Callable[[int], bool],
    on_pick: Callable[[int], None],
    *,
    prefix: str,
    colours: Sequence[str | None] | None = None,
    icon: ft.IconData | None = None,
    compact: bool = False,
    spacing: int = 6,
    more: Sequence[ft.Control] = (),
) -> ft.Row:
    """One row of the names of `seats` (tags `<prefix>-<seat>`) for what one seat (or a few) says per round:
    who called Racko, who went out. A tap on a name calls `on_pick` with its seat; `more` follows the names
    (Ruck Zuck's "Stock ran out")."""
    chips = [
        seat_chip(
            names[s],
            colours[s] if colours else None,
            selected=chosen(s),
            on_click=partial(on_pick, s),
            identifier=f"{prefix}-{s}",
            icon=icon,
            compact=compact,
        )
        for s in seats
    ]
    return ft.Row([*chips, *more], wrap=True, spacing=spacing, run_spacing=spacing)
