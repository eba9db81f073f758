"""What every play panel shares: the automation surface and the context a panel is built from.

A control that performs an engine action carries the semantics identifier ``act-`` + the action as compact
JSON, and exists only while that action is legal for the seat at this device; a step of composing an action
(selecting a hand card, choosing a joker's colour) carries ``choose-<name>``. Tests and screen readers find
controls by these names, so they are part of the public surface (docs/ARCHITECTURE.md, "How the UI is built").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.games.base import Action
from scorekeeper.ui.components.keyed import KeyedParts
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def action_key(action: Action) -> str:
    """An action as compact JSON: ``"stock"``, ``3``, ``["place",16,16]``, ``["bid",2]``."""
    return json.dumps(action, separators=(",", ":"))


def act(control: ft.Control, action: Action, label: str | None = None) -> ft.Control:
    """`control` marked as performing `action`; `label` is what a screen reader says for it."""
    return ft.Semantics(
        content=control,
        identifier=f"act-{action_key(action)}",
        label=label,
        button=True,
        expand=control.expand,
    )


def choose(control: ft.Control, name: str, label: str | None = None) -> ft.Control:
    """`control` marked as one step of composing an action (``choose-<name>``)."""
    return ft.Semantics(
        content=control, identifier=f"choose-{name}", label=label, button=True, expand=control.expand
    )


@dataclass
class PanelContext:
    """What a game's play panel is built from. A panel is `build(pc) -> ft.Control` in
    `scorekeeper/ui/digital/<game key>_panel.py`, registered as the game's `GameUI.panel` in
    `scorekeeper.ui.registry`; it reads only the seat's view, never the state."""

    ctx: AppContext
    view: Any
    """The view of the seat at this device (the engine's `state.view(seat)`)."""
    legal: list[Action]
    """The actions this seat may take now (empty while it is not this seat's turn)."""
    act: Callable[[Action], None]
    """Perform an action for this seat (the session checks it, saves, and re-renders)."""
    names: Sequence[str]
    """Player names by seat."""
    ui: dict[str, Any] = field(default_factory=dict)
    """The panel's own scratch state between rebuilds within one turn (e.g. the selected hand card)."""
    refresh: Callable[[], None] = lambda: None
    """Rebuild the panel after changing `ui`."""
    last: tuple[int, Action] | None = None
    """The latest move of the round, (seat, action): the panel marks what it changed (a slot, the discard
    pile, a card in the trick, a field)."""
    width: float | None = None
    """How wide the screen draws the panel (None: as `cards.panel_width` estimates it from the window)."""
    hidden: bool = False
    """The table without anyone's hand: a computer player moves while several people pass the device, so
    everything public stays in view (trump, bids, the trick, the board, the piles) and no hand is drawn."""
    parts: KeyedParts | None = None
    """The `KeyedParts` of a panel drawn again on every move (a phone at a live table): a panel builds its
    parts through `part`, and a part whose inputs did not change is the control already on screen. None: every
    part is built (a panel drawn once)."""

    def part(self, role: str, inputs: Any, build: Callable[[], ft.Control]) -> ft.Control:
        """The panel's part `role`: kept while `inputs` (everything it shows and does, compared with ==) are
        the same as last time, else `build()` (see `KeyedParts.part`)."""
        if self.parts is None:
            return build()
        return self.parts.part(role, inputs, build)

    @property
    def you(self) -> int | None:
        """The seat spoken to as "you" on this panel (None on the table shown to everyone)."""
        return None if self.hidden else int(self.view.seat)


LAST_MOVE = ft.Colors.PRIMARY
"""The edge of what the latest move changed (the theme colour: amber already marks a selected card and
Rage's card taking the trick)."""
SWITCH_MS = 350


def fresh(control: ft.Control, key: str) -> ft.Control:
    """`control` that grows into place when `key` changes (a card that just arrived), briefly: Flutter's
    AnimatedSwitcher animates between children with different keys, so a computer's move can be followed."""
    control.key = key
    return ft.AnimatedSwitcher(
        content=control,
        transition=ft.AnimatedSwitcherTransition.SCALE,
        duration=SWITCH_MS,
        reverse_duration=0,
    )


def marked(control: ft.Control, mark: bool) -> ft.Control:
    """`control` edged and tagged `last-move` when the latest move changed it."""
    if not mark:
        return control
    edged = ft.Container(control, border=ft.Border.all(3, LAST_MOVE), border_radius=8, padding=2)
    return tag("last-move", edged)


def room(pc: PanelContext) -> float:
    """How wide the panel is drawn, in logical pixels."""
    from scorekeeper.ui.digital.cards import panel_width

    return pc.width if pc.width is not None else panel_width(pc.ctx)


def box(
    lines: list[ft.Control],
    *,
    width: float,
    height: float,
    radius: float,
    bgcolor: str | None = None,
    border: ft.Border | None = None,
) -> ft.Container:
    """A fixed-size tile with `lines` stacked tightly in its centre (a pile, a board field)."""
    return ft.Container(
        ft.Column(lines, spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        width=width,
        height=height,
        alignment=ft.Alignment.CENTER,
        bgcolor=bgcolor,
        border=border,
        border_radius=radius,
    )


def instruction_line(pc: PanelContext, your_turn: Callable[[], str]) -> ft.Control:
    """On this seat's turn, the panel's line ("play-status") saying what to do now (`your_turn()`, the game's
    own words); else the line is hidden: the screen's own status line above the panel already says whose turn
    it is or that the round is over, and a second line would only repeat it (word for word in German, Dutch and
    French). Hidden rather than left out, so the panel keeps its shape and a move sends only what changed."""
    acting = not pc.view.is_over and bool(pc.legal)
    line = tag("play-status", ft.Text(your_turn() if acting else "", weight=ft.FontWeight.BOLD))
    line.visible = acting
    return line
