"""Parts of a screen keyed by their role, each built again only when what it shows has changed.

Why: the screens of a live table redraw on every move, on every device at once. Flet sends each device the diff
of its new control tree against the one on screen. A part that is the very control already on screen costs
nothing to diff and sends nothing; a part built again under the key of the one on screen is diffed field by
field (Flet's keyed reconciliation), so only the changed fields go out instead of a freshly registered tree.
"""

from __future__ import annotations

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

    def part(self, role: str, inputs: Any, build: Callable[[], ft.Control]) -> ft.Control:
        """The part for `role`: the one on screen while `inputs` equal those it was built from, else `build()`,
        keyed by `role`. `inputs` must hold everything the part shows (compared with ==, kept as given, so pass
        values that are not changed in place afterwards)."""
        shown = self._shown.get(role)
        if shown is not None and shown[0] == inputs:
            return shown[1]
        control = build()
        control.key = role
        self._shown[role] = (inputs, control)
        self.built[role] += 1
        return control

    def forget(self) -> None:
        """Build every part again next time (e.g. when the whole screen was replaced)."""
        self._shown.clear()
