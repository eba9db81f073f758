"""What every round-entry form is built on: the `RoundForm` a game's form hands the round-entry frame
(`ui/views/rounds/entry.py`), and the dealer of the round being entered. Apart from the frame, so that the forms
(registered in `scorekeeper.ui.registry`) and the frame that looks them up there import no cycle."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.model.match import Match


@dataclass
class RoundForm:
    """What a game's form hands back to the frame."""

    controls: list[ft.Control]
    result: Callable[[], dict[str, Any] | str]  # the round result, or a message when something is missing
    save_label: str | None = None
    extra_bottom: list[ft.Control] = field(default_factory=list)
    primary: Callable[[], None] | None = None  # the main button does this instead of saving (Rage: bids done)
    # The form shows the message itself (Racko: above the number pad, so that no key is hidden under it).
    places_message: bool = False
    draft: object = None
    """The form's typed draft (what is entered so far): kept for the next redraw of this round's screen."""


def dealer_for(match: Match, edit: int | None) -> int:
    """The dealer of the round being entered (or edited)."""
    return match.dealer_of(edit if edit is not None else match.round_index)


def personalise(message: str, names: list[str]) -> str:
    """Engine messages name seats "Player 2"; at the table people want the name they entered."""

    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else found.group(0)

    return re.sub(r"\bPlayer (\d+)\b", name, message)
