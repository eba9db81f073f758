"""What a game's host round form needs beyond its `PartShape` (`views.rounds.parts` draws it): a caller row's
answer naming no seat, one seat at a time behind tabs, a field or whole steps the game draws itself, what a new
draft holds besides the parts, where the message stands. A game says it in one `HostExtras`, registered as
`rounds.parts.form_with(extras)` in the UI registry.

Below `parts` (which draws the form): the form is known here, and to the games' fields and steps, only as
`HostForm`, and the draft it keeps (`PartsDraft`) is declared here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import flet as ft

from scorekeeper.games.contract import PartShape
from scorekeeper.model.match import Match
from scorekeeper.ui.components.part_fields import PartDraft
from scorekeeper.ui.context import AppContext


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


class HostForm(Protocol):
    """The host's round form as a game's own fields and steps see it (`parts.PartsForm`): the match and the
    round, the draft, the message line, and redrawing."""

    @property
    def ctx(self) -> AppContext: ...

    @property
    def match(self) -> Match: ...

    @property
    def shape(self) -> PartShape: ...

    @property
    def edit(self) -> int | None:
        """The round edited (None: a new round)."""

    @property
    def index(self) -> int:
        """The round's index."""

    @property
    def dealer(self) -> int: ...

    @property
    def order(self) -> list[int]:
        """The seats in playing order, from the dealer's left."""

    @property
    def draft(self) -> PartsDraft: ...

    @property
    def message(self) -> ft.Text: ...

    def refresh(self, *, send: bool = True) -> None:
        """Draw the step again (and send it, unless `send` is False)."""

    def in_play(self) -> list[int]:
        """The seats that enter parts (not the one whose caller answer named nobody)."""

    def next_seat(self) -> None:
        """Open the next seat's tab."""

    def redraw_tabs(self) -> None: ...


@dataclass(frozen=True)
class HostExtras:
    """What a game's host round form needs beyond its `PartShape`."""

    nobody: Mapping[str, Nobody] = field(default_factory=dict)
    tabs: bool = False
    """One seat at a time behind a tab per seat (seats in seat order); the seat that said a caller field with a
    `nobody` answer (who went out) enters nothing else and has no tab."""
    fields: Mapping[str, Callable[[HostForm], HostField]] = field(default_factory=dict)
    """Fields the game draws itself (made once per form, over the form)."""
    spacing: int = 6
    """The space between the form's lines on a tablet or desktop."""
    phone_spacing: int = 8
    """The space between the form's lines on a phone."""
    steps: Callable[[HostForm], HostSteps] | None = None
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


@dataclass
class PartsDraft:
    """What the form has collected (kept between redraws): the step shown, each seat's part so far, the caller
    fields answered with no seat, and the seat whose tab is open."""

    seats: list[PartDraft]
    step: int = 0
    nobody: set[str] = field(default_factory=set)
    seat: int = 0
    more: dict[str, Any] = field(default_factory=dict)
    """What a game's own steps keep besides the parts (Rage: the trump shown, the digits typed so far; Racko: the
    racks on the pad, the mode, the callers)."""

    @classmethod
    def start(
        cls, shape: PartShape, match: Match, edit: int | None, extras: HostExtras = PLAIN
    ) -> PartsDraft:
        """Empty parts, or the parts of the round being edited (`PartShape.split`) at the first step; then what
        the game's own steps keep (`HostExtras.start`)."""
        players = len(match.players)
        if edit is None or shape.split is None:
            draft = cls([PartDraft() for _ in range(players)])
        else:
            parts = shape.split(match.rounds[edit])
            nobody = {name for name in extras.nobody if not any(part.get(name) for part in parts)}
            step = len(shape.stages) - 1 if extras.edit_last else 0
            draft = cls([PartDraft(dict(part)) for part in parts], step, nobody=nobody)
        if extras.start is not None:
            extras.start(draft, match, edit)
        return draft
