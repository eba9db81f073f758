"""What a game's host round form needs beyond its `PartShape` (`views.rounds.parts` draws it): a caller row's
answer naming no seat, one seat at a time behind tabs, a field or whole steps the game draws itself, what a new
draft holds besides the parts, where the message stands. A game says it in one `HostExtras`, registered as
`rounds.parts.form_with(extras)` in the UI registry."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft

if TYPE_CHECKING:
    from scorekeeper.model.match import Match
    from scorekeeper.ui.views.rounds.parts import PartsDraft, PartsForm


@dataclass(frozen=True)
class Nobody:
    """A caller row's answer that names no seat (Ruck Zuck: "Stock ran out"): its chip's `label` (tag
    `<field>-<key>`) and the `missing` message when the row is not answered at all. Such a row always has one
    answer: a second tap on a name keeps it."""

    label: str
    key: str
    missing: str


class HostField(Protocol):
    """A field a game draws itself on the host screen (one seat's at a time, behind the seat tabs)."""

    below: list[ft.Control]
    """Drawn under the form (a card pad), the same controls on every redraw."""

    def controls(self, seat: int) -> list[ft.Control]:
        """Seat `seat`'s field, drawn again on every change; also greys out what `below` must not offer."""
        ...

    def tab(self, seat: int) -> str:
        """What seat `seat`'s tab says under the name (its penalty so far)."""
        ...

    def missing(self, seat: int) -> str | None:
        """What is still to enter for seat `seat` before Save (None: nothing)."""
        ...

    def value(self, seat: int) -> Any:
        """Seat `seat`'s value as the rules take it."""
        ...


class HostSteps(Protocol):
    """A game that draws its steps itself on the host screen (Rage: the trump and the dealt line above, each
    seat's bid beside its keys, then tricks with "made it", +5/-5 cards and the live score; Racko: the caller
    row, the racks on a number pad or the quick form): the generic form keeps the parts, the steps and their
    buttons."""

    below: list[ft.Control]
    """Drawn under the form (Racko's number pad), the same controls on every redraw (sent with every change)."""

    def header(self) -> list[ft.Control]:
        """What stands above the step (instead of the dealer's line)."""
        ...

    def step(self, stage: int) -> list[ft.Control]:
        """Every seat's part of step `stage`, drawn again on every change."""
        ...

    def ready(self, stage: int) -> str | None:
        """What keeps step `stage` from being done (None: nothing), asked before the shape's check."""
        ...

    def result(self) -> dict[str, Any] | str:
        """The round result from the parts, or what is missing."""
        ...


@dataclass(frozen=True)
class HostExtras:
    """What a game's host round form needs beyond its `PartShape`."""

    nobody: Mapping[str, Nobody] = field(default_factory=dict)
    tabs: bool = False
    """One seat at a time behind a tab per seat (seats in seat order); the seat that said a caller field with a
    `nobody` answer (who went out) enters nothing else and has no tab."""
    fields: Mapping[str, Callable[[PartsForm], HostField]] = field(default_factory=dict)
    """Fields the game draws itself (made once per form, over the form)."""
    spacing: int = 6
    """The space between the form's lines on a tablet or desktop."""
    phone_spacing: int = 8
    """The space between the form's lines on a phone."""
    steps: Callable[[PartsForm], HostSteps] | None = None
    """A game that draws its steps itself (made once per form, over the form)."""
    next_label: str | None = None
    """The button that ends a step but the last (None: "Continue")."""
    back: tuple[str, str] | None = None
    """The button back to the step before: its label and tag (None: "Back", `step-back`)."""
    edit_last: bool = False
    """An edited round opens at its last step (Rage: the result, its bids stand)."""
    start: Callable[[PartsDraft, Match, int | None], None] | None = None
    """Fills a new draft's `more` (and parts) with what the game's own steps keep, given the match and the round
    edited (Racko: the racks on the pad, the callers, a quick-form round's counts and runs)."""
    places_message: bool = False
    """The game's steps place the message in the scrolling form themselves (Racko: above the number pad, so that
    no key is hidden under it), not the frame under the form."""


PLAIN = HostExtras()
"""A game without extras: the form exactly as its part shape says."""
