"""Entering Racko racks: the ten slots (slot 5 first, as on the rack) over a pad of the deck's numbers in rows of
ten (numbers already placed this round greyed out). The round-entry screen enters every player's rack with it, a
phone at a live table its own.

A rack takes 10 taps (one per card; the next slot, and with several racks the next unfinished rack, opens by
itself). While a rack fills, its ascending count and direct runs so far are shown and highlighted (engine:
racko.live). On a desktop keyboard: type a card's number ("23"; Enter or a number that cannot grow ends it),
Backspace takes back, Tab / Shift+Tab go to the next / previous rack.

The state is a `RackState` (kept between redraws by the screen that owns it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.games.racko.live import rack_progress
from scorekeeper.games.racko.rules import SLOT_LABELS, SLOTS
from scorekeeper.ui.components.widgets import NumberPad, icon_button, tag
from scorekeeper.ui.context import AppContext

Rack = list[int | None]


@dataclass
class RackState:
    """The racks being entered: `racks` (one list of SLOTS cards or None per seat), `seat` (the rack being
    entered), `slot` (where the next card goes; None: the rack is full), `typed` (digits typed so far) and
    `cleared` (a cleared rack with its seat, so that the clear can be undone)."""

    racks: list[Rack] = field(default_factory=list)
    seat: int = 0
    slot: int | None = 0
    typed: str = ""
    cleared: tuple[int, Rack] | None = None


def blank(seats: int, first: int, racks: Sequence[Any] | None = None) -> RackState:
    """Empty racks (or the cards given per seat), rack `first` open at its first empty slot."""
    state = RackState(
        [
            [None] * SLOTS if not rack else [*list(rack)[:SLOTS], *[None] * (SLOTS - len(rack))]
            for rack in (racks or [None] * seats)
        ]
    )
    rack = state.racks[first]
    state.seat, state.slot = first, rack.index(None) if None in rack else None
    return state


class RackPad:
    """The slots and the number pad for the racks of `playing` (seat numbers); `on_change` redraws the owner,
    which shows `controls()` and `pad.control`, after every change."""

    def __init__(
        self,
        ctx: AppContext,
        state: RackState,
        deck: int,
        playing: list[int],
        names: Sequence[str],
        on_change: Callable[[], None],
    ) -> None:
        self.ctx, self.state, self.deck, self.playing, self.names = ctx, state, deck, playing, names
        self.on_change = on_change
        # Rows of ten: a number's place is the same on every device and the decades line up. On a 390 px phone
        # a key is 34 px wide; 38 px high keeps six rows, the slots and four players' chips above Save.
        self.pad = NumberPad(
            list(range(1, deck + 1)), self.pick, prefix="num", size=38 if ctx.narrow else 46, per_row=10
        )

    # ------------------------------------------------------------------ the racks
    def rack(self, seat: int | None = None) -> list[int | None]:
        return self.state.racks[self.state.seat if seat is None else seat]

    def used(self) -> set[int]:
        """The numbers placed in any rack of this round (each card is in one rack only)."""
        return {n for s in self.playing for n in self.state.racks[s] if n is not None}

    def complete(self, seat: int) -> bool:
        return all(n is not None for n in self.state.racks[seat])

    def pick(self, number: Any) -> None:
        """Put `number` into the selected slot (else the first empty one), then select the next empty slot."""
        state, rack = self.state, self.rack()
        slot = (
            state.slot if state.slot is not None else next((i for i, n in enumerate(rack) if n is None), None)
        )
        if slot is None or number in self.used():
            return
        rack[slot] = int(number)
        empty = [i for i, n in enumerate(rack) if n is None]
        state.slot = next((i for i in empty if i > slot), empty[0] if empty else None)
        if state.slot is None:  # this rack is full: open the next incomplete one
            later = [s for s in self.playing if not self.complete(s)]
            if later:
                after = [s for s in later if s > state.seat]
                state.seat = (after or later)[0]
                state.slot = self.rack().index(None)
        self.on_change()

    def set_seat(self, seat: int) -> None:
        rack = self.rack(seat)
        self.state.seat, self.state.slot = seat, rack.index(None) if None in rack else None
        self.on_change()

    def set_slot(self, slot: int) -> None:
        self.state.slot = slot
        self.on_change()

    def back_space(self) -> None:
        state, rack = self.state, self.rack()
        filled = [i for i, n in enumerate(rack) if n is not None]
        if filled:
            last = state.slot if state.slot in filled else filled[-1]
            rack[last] = None
            state.slot = last
        self.on_change()

    def clear_rack(self) -> None:
        state, seat = self.state, self.state.seat
        if any(n is not None for n in self.rack()):  # kept, so that the clear can be undone
            state.cleared = (seat, list(self.rack()))
        state.racks[seat] = [None] * SLOTS
        state.slot = 0
        self.on_change()

    def unclear_rack(self) -> None:
        state = self.state
        assert state.cleared is not None
        seat, rack = state.cleared
        state.cleared = None
        taken = {n for s in self.playing if s != seat for n in state.racks[s] if n is not None}
        state.racks[seat] = [n if n not in taken else None for n in rack]  # cards placed since stay put
        state.seat = seat
        state.slot = state.racks[seat].index(None) if None in state.racks[seat] else None
        self.on_change()

    def typed_key(self, key: str, shift: bool) -> bool:
        """Desktop keyboard: digits build a card number, Enter/Backspace/Tab as described in the module's
        docstring. Returns whether the key was used."""
        state, deck = self.state, self.deck
        buffer = state.typed
        if key.isdigit() and len(key) == 1:
            if not buffer and key == "0":  # no card 0 and no card starts with it
                return True
            buffer += key
            if int(buffer) * 10 > deck or len(buffer) >= len(str(deck)):  # no card can start with it: done
                self._typed_card(buffer)
            else:
                state.typed = buffer
                self.on_change()
            return True
        if key == "Enter" and buffer:
            self._typed_card(buffer)
            return True
        if key == "Backspace":
            if buffer:
                state.typed = buffer[:-1]
                self.on_change()
            else:
                self.back_space()
            return True
        if key == "Tab":
            playing = self.playing
            position = playing.index(state.seat) if state.seat in playing else 0
            self.set_seat(playing[(position + (-1 if shift else 1)) % len(playing)])
            return True
        return False

    def _typed_card(self, buffer: str) -> None:
        self.state.typed = ""
        if 1 <= int(buffer) <= self.deck:
            self.pick(int(buffer))
        else:
            self.on_change()

    # ------------------------------------------------------------------ drawing
    def summary(self, seat: int, *, live: bool = False) -> str:
        """Final figures of a full rack; for an unfinished one the card count, and with `live` the figures so
        far (the engine's rule for a partial rack: the count stops at the first drop or empty slot)."""
        ctx = self.ctx
        progress = rack_progress(self.state.racks[seat])
        count, run = progress.ascending_from_front, progress.longest_run
        if progress.complete:
            return ctx.t("ascending {count} · run {run}", count=count, run=run)
        if not live or not progress.filled:
            return ctx.t("{n}/10 cards", n=progress.filled)
        return ctx.t("{n}/10 cards · ascending {count} · run {run}", n=progress.filled, count=count, run=run)

    def slot_box(
        self, index: int, value: int | None, *, good: bool, in_run: bool, selected: bool
    ) -> ft.Control:
        # The ten slots share one row (slot 5 at the left, as on the rack), on a phone too.
        narrow = self.ctx.narrow
        return tag(
            f"slot-{index}",
            ft.Container(
                ft.Column(
                    [
                        ft.Text(str(SLOT_LABELS[index]), size=10 if narrow else 11),
                        ft.Text(
                            "–" if value is None else str(value),
                            size=18 if narrow else 22,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.TERTIARY if in_run else None,
                            italic=in_run,
                        ),
                    ],
                    spacing=0,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    tight=True,
                ),
                expand=True,
                height=46 if narrow else 58,
                alignment=ft.Alignment.CENTER,
                border_radius=8,
                bgcolor=ft.Colors.SECONDARY_CONTAINER if good else None,
                border=ft.Border.all(
                    3 if selected else 1, ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE_VARIANT
                ),
                on_click=lambda _, i=index: self.set_slot(i),
            ),
        )

    def controls(self) -> list[ft.Control]:
        """The rack being entered: whose it is and its figures so far, take back / clear, and its ten slots."""
        ctx, state = self.ctx, self.state
        seat, rack = state.seat, self.rack()
        progress = rack_progress(rack)  # live: highlights grow as the rack fills
        good, runs = set(progress.ascending_slots), progress.run_slots
        boxes = [
            self.slot_box(i, rack[i], good=i in good, in_run=i in runs, selected=i == state.slot)
            for i in range(SLOTS)
        ]
        typed = state.typed
        tools = ft.Row(
            [
                ft.Column(
                    [
                        ft.Text(
                            ctx.t("Rack of {name}, slot 5 first", name=self.names[seat]),
                            size=12,  # wraps: cut with "…" it lost the name at large text
                        ),
                        tag("rack-live", ft.Text(self.summary(seat, live=True), weight=ft.FontWeight.BOLD)),
                    ],
                    spacing=0,
                    tight=True,
                    expand=True,
                ),
                *(
                    [tag("rack-typed", ft.Text(typed + "…", size=18, weight=ft.FontWeight.BOLD))]
                    if typed
                    else []
                ),
                self._tool(
                    "rack-back", ft.Icons.BACKSPACE_OUTLINED, ctx.t("Remove last card"), self.back_space
                ),
                # Clearing removes ten cards at once: marked as destructive.
                self._tool(
                    "rack-clear", ft.Icons.DELETE_SWEEP, ctx.t("Clear rack"), self.clear_rack, ft.Colors.ERROR
                ),
            ]
        )
        cleared = state.cleared
        if cleared is not None and cleared[0] == seat and all(n is None for n in rack):
            tools.controls.append(
                self._tool("rack-unclear", ft.Icons.RESTORE, ctx.t("Undo clear rack"), self.unclear_rack)
            )
        return [tools, ft.Row(boxes, spacing=3 if ctx.narrow else 6)]

    @staticmethod
    def _tool(
        identifier: str, icon: ft.IconData, tip: str, action: Callable[[], None], colour: str | None = None
    ) -> ft.Control:
        return tag(identifier, icon_button(icon, tip, icon_color=colour, on_click=lambda _: action()))

    def refresh_pad(self, *, visible: bool = True) -> None:
        """Grey out the numbers already placed (call `pad.control.update()` afterwards)."""
        self.pad.refresh(disabled=self.used() if visible else set(range(1, self.deck + 1)))
        self.pad.control.visible = visible
