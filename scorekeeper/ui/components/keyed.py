"""Parts of a screen keyed by their role, each built again only when what it shows has changed.

Why: the screens of a live table redraw on every move, on every device at once. Flet sends each device the diff
of its new control tree against the one on screen. A part that is the very control already on screen costs
nothing to diff and sends nothing (it is isolated: the update does not even walk into it); a part built again
under its role's key is reconciled with the one on screen (Flet's keyed diff sends the fields that changed, and
freezes the new controls: see `changes_itself`). `TableScreen` draws a table's screen from such parts.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import flet as ft


class KeyedParts:
    """The parts last shown on one screen, by role, with the inputs each was built from."""

    def __init__(self) -> None:
        self._shown: dict[str, tuple[Any, ft.Control]] = {}
        self.built: Counter[str] = Counter()
        """How often each role was built (tests count rebuilds instead of timing them)."""

    def part(
        self, role: str, inputs: Any, build: Callable[[], ft.Control], *, changes_itself: bool = False
    ) -> ft.Control:
        """The part for `role`: the one on screen while `inputs` equal those it was built from, else `build()`,
        keyed by `role`. `inputs` must hold everything the part shows (compared with ==, kept as given, so pass
        values that are not changed in place afterwards).

        `changes_itself`: the part's own controls are changed in place after it is drawn (a tap on a number pad
        greys the number out). Flet freezes a control it reconciles into the one on screen under the same key,
        and a frozen control refuses every change; such a part is therefore keyed anew each time it is built,
        so it replaces the one on screen instead."""
        shown = self._shown.get(role)
        if shown is not None and shown[0] == inputs:
            # Isolated (Flet: "excluded from parent-driven update traversal"): the screen's update does not walk
            # into a part that did not change. Walking it would send again every button style inside it, as
            # Flet's buttons make a new style object on each update (the rack pad: some 5 KB per redraw). A
            # kept part that changes itself (a tap on the rack pad) updates its own controls.
            control = shown[1]
            control._isolated = True  # type: ignore[attr-defined]  # Flet's own flag, not in its typed API
            return control
        control = build()
        control.key = f"{role}-{self.built[role]}" if changes_itself else role
        self._shown[role] = (inputs, control)
        self.built[role] += 1
        return control

    def walk(self, role: str) -> None:
        """The part on screen for `role` was changed in place: the screen's next update walks into it again
        (it is isolated again the next time it is kept)."""
        self._shown[role][1]._isolated = False  # type: ignore[attr-defined]  # Flet's flag (see `part`)

    def forget(self) -> None:
        """Build every part again next time (e.g. when the whole screen was replaced)."""
        self._shown.clear()


DRAWING = threading.RLock()
"""Held while a table screen (a seat screen, a board) draws a change and sends it. Why: after a move every
device's redraw runs on a thread of Flet's pool at the same moment; side by side they only take turns at the
interpreter and fight over the lock Flet takes for every new control's id, so each of them finished late. One
at a time, the first devices get their frame early and the last no later. It also keeps a phone's own tap and
a change from elsewhere from drawing the same screen at once."""


class TableScreen:
    """A screen of a live table (a phone's seat, a board): its parts by role in `body`, drawn again when the
    table's `version` moved on since the last drawing, and only the parts whose inputs changed (`shown`)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.body = ft.Column(spacing=10)
        self.shown = KeyedParts()
        self.drawn = -1
        """The table's version last drawn: a change this screen has already drawn is not drawn again."""

    def parts(self) -> list[ft.Control]:
        """The screen's parts for the table as it is now (built through `self.shown`)."""
        raise NotImplementedError

    def render(self, update: bool = True) -> None:
        """Draw the screen; with `update`, send the change (one screen at a time, see `DRAWING`)."""
        if not update:  # building the screen (the app's own lock is held: never wait for DRAWING there)
            self._draw()
            return
        with DRAWING:
            self._draw()
            try:
                self.body.update()
            except Exception:  # the page has gone
                pass

    def changed(self) -> None:
        """The table changed (pubsub): draw it, unless this screen has drawn that version already."""
        with DRAWING:
            if self.table.version != self.drawn:
                self.render()

    def _draw(self) -> None:
        self.drawn = self.table.version
        self.body.controls = self.parts()
