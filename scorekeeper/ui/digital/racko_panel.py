"""Racko at the device: the rack (slot 5 nearest the player), the stock and the discard pile, the drawn card,
the live ascending count and runs, "Rack-O!" when the rack may call, the others' known cards and scores.

A move is one tap per engine action: the stock or the discard pile, then a slot (or "Discard" for a card from
the stock). During a Blitz deal each dealt card goes into a tapped empty slot. Every tappable control carries
the action's `act-` identifier and exists only while that action is legal.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.racko.live import rack_progress
from scorekeeper.games.racko.rules import SLOT_LABELS, SLOTS
from scorekeeper.ui.digital.kit import PanelContext, act, fresh, marked, room

CARD_WIDTH = 64


def card(
    value: int | None, *, deck: int, size: int = 20, good: bool = False, run: bool = False
) -> ft.Control:
    """A Racko card drawn with controls: the number, and a bar whose length shows how high it is."""
    if value is None:
        return ft.Container(
            ft.Text("–", size=size),
            width=CARD_WIDTH,
            height=size * 1.8,
            alignment=ft.Alignment.CENTER,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=6,
        )
    return ft.Container(
        ft.Column(
            [
                ft.Text(
                    str(value),
                    size=size,
                    weight=ft.FontWeight.BOLD,
                    italic=run,
                    color=ft.Colors.TERTIARY if run else ft.Colors.ON_SURFACE,
                ),
                ft.Container(
                    height=4,
                    width=max(4, (CARD_WIDTH - 12) * value / deck),
                    bgcolor=ft.Colors.PRIMARY,
                    border_radius=2,
                ),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.START,
        ),
        width=CARD_WIDTH,
        padding=ft.Padding.symmetric(horizontal=6, vertical=2),
        bgcolor=ft.Colors.SECONDARY_CONTAINER if good else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(1, ft.Colors.OUTLINE),
        border_radius=6,
    )


def _tappable(pc: PanelContext, control: ft.Container, action: Any, label: str) -> ft.Control:
    """`control` performing `action` when legal (else shown as it is, with its name for screen readers)."""
    if action in pc.legal:
        control.on_click = lambda _: pc.act(action)
        control.ink = True
        return act(control, action, label)
    return ft.Semantics(content=control, label=label)


def _piles(pc: PanelContext, deck: int) -> list[ft.Control]:
    """The stock, the discard pile, the card this device's player drew and, for a card from the stock, Discard."""
    t, view = pc.ctx.t, pc.view
    # As large as its two lines: a fixed 76 x 64 tile cut the count off at 200 % text.
    stock = ft.Container(
        ft.Column(
            [
                ft.Text(t("Stock"), size=12, color=ft.Colors.ON_PRIMARY),
                ft.Text(
                    str(view.stock_count), size=22, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_PRIMARY
                ),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=ft.Padding.symmetric(horizontal=14, vertical=8),
        bgcolor=ft.Colors.PRIMARY,
        border_radius=8,
    )
    top = view.discard_top
    pile = ft.Container(
        ft.Column(
            [
                ft.Text(t("Discard pile"), size=12),
                fresh(card(top, deck=deck, size=20), f"pile-{top}"),
            ],
            spacing=2,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=4,
        border_radius=8,
    )
    piles: list[ft.Control] = [
        _tappable(pc, stock, "stock", t("Stock: {n} cards", n=view.stock_count)),
        marked(
            _tappable(
                pc,
                pile,
                "discard_pile",
                t("Discard pile: {card}", card=top) if top is not None else t("The discard pile is empty"),
            ),
            _discarded_by_other(pc),
        ),
    ]
    if view.drawn is not None and view.current_player == pc.you:
        piles.append(
            ft.Column(
                [
                    ft.Text(t("Your card"), size=12),
                    ft.Container(
                        card(view.drawn, deck=deck, size=24),
                        border=ft.Border.all(3, ft.Colors.PRIMARY),
                        border_radius=8,
                    ),
                ],
                spacing=2,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if "discard" in pc.legal:
        piles.append(
            act(
                ft.OutlinedButton(
                    t("Discard"), icon=ft.Icons.DELETE_OUTLINE, on_click=lambda _: pc.act("discard")
                ),
                "discard",
                t("Discard the card"),
            )
        )
    return piles


def _rack_rows(pc: PanelContext, rack: list[int | None], deck: int, progress: Any) -> list[ft.Control]:
    """The rack: slot 50 at the top, slot 5 at the bottom, nearest the player; a card's place in its row tells
    its value, ascending cards and runs marked."""
    t = pc.ctx.t
    good = set(progress.ascending_slots) if progress else set()
    runs = progress.run_slots if progress else frozenset()
    # Slot label (28) and gaps (12) and padding (4) before the card, and the highest card ends at the panel's
    # right edge (the window's width would run it off the panel).
    width = min(room(pc), 560) - 50
    rows: list[ft.Control] = []
    size = 16 if pc.ctx.narrow else 18
    for index in reversed(range(len(rack))):
        value = rack[index]
        label = (
            t("Slot {slot}: {card}", slot=SLOT_LABELS[index], card=value)
            if value is not None
            else t("Slot {slot}: empty", slot=SLOT_LABELS[index])
        )
        shift = 0 if value is None else (width - CARD_WIDTH) * (value - 1) / max(deck - 1, 1)
        row = ft.Container(
            ft.Row(
                [
                    ft.Text(str(SLOT_LABELS[index]), width=28, size=12, text_align=ft.TextAlign.RIGHT),
                    ft.Container(width=max(0.0, shift)),
                    # the card's own node carries the slot's name: screen readers (and tests) read the rack
                    # from these, also where the row around them is a button
                    marked(
                        ft.Semantics(
                            content=fresh(
                                card(value, deck=deck, size=size, good=index in good, run=index in runs),
                                f"slot-{index}-{value}",
                            ),
                            identifier=f"rack-card-{SLOT_LABELS[index]}",
                            label=label,
                        ),
                        pc.last == (pc.you, index),
                    ),
                ],
                spacing=6,
            ),
            padding=ft.Padding.symmetric(vertical=1, horizontal=2),
            border_radius=6,
        )
        rows.append(_tappable(pc, row, index, label))
    return rows


def _call_row(pc: PanelContext) -> ft.Control:
    """Rack-O! or wait, while the rack may call."""
    t = pc.ctx.t
    return ft.Row(
        [
            act(
                ft.FilledButton(t("Rack-O!"), on_click=lambda _: pc.act("call"), height=52),
                "call",
                t("Call Racko"),
            ),
            act(
                ft.OutlinedButton(t("Wait"), on_click=lambda _: pc.act("wait"), height=52),
                "wait",
                t("Wait"),
            ),
        ],
        spacing=12,
    )


def build(pc: PanelContext) -> ft.Control:
    """The panel, part by part (`pc.part`): on a phone at a live table another player's move draws again only
    the piles and the others' lines; the rack (most of the panel) stays the control on screen until this seat's
    own cards or moves change."""
    t = pc.ctx.t
    view = pc.view
    deck = int(view.deck_size)
    rack: list[int | None] = list(view.rack)
    progress = rack_progress(rack) if len(rack) == SLOTS else None
    shown_drawn = view.drawn if view.drawn is not None and view.current_player == pc.you else None
    pile_moves = tuple(a for a in ("stock", "discard_pile", "discard") if a in pc.legal)
    pile_inputs = (view.stock_count, view.discard_top, shown_drawn, deck, _discarded_by_other(pc), pile_moves)
    parts: list[ft.Control] = [
        pc.part(
            "racko-piles",
            pile_inputs,
            lambda: ft.Row(
                _piles(pc, deck), wrap=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.END
            ),
        )
    ]
    instruction = _instruction(pc, view)
    if instruction:
        parts.append(pc.part("racko-instruction", instruction, lambda: tag_text("instruction", instruction)))
    if "call" in pc.legal:
        parts.append(pc.part("racko-call", True, lambda: _call_row(pc)))
    if not pc.hidden:
        slots = tuple(a for a in pc.legal if isinstance(a, int) and not isinstance(a, bool))
        own_last = pc.last if pc.last is not None and pc.last[0] == pc.you else None
        rack_inputs = (tuple(rack), slots, deck, room(pc), pc.ctx.narrow, own_last)
        parts.append(
            pc.part(
                "racko-rack",
                rack_inputs,
                lambda: ft.Column(_rack_rows(pc, rack, deck, progress), spacing=2),
            )
        )
    if progress is not None and progress.filled and not pc.hidden:
        summary = t(
            "ascending {count} · run {run}", count=progress.ascending_from_front, run=progress.longest_run
        )
        parts.append(pc.part("racko-summary", summary, lambda: tag_text("rack-summary", summary, bold=True)))
    if view.options.two_player_rule:
        parts.append(
            ft.Text(t("2-player rule: Racko needs at least 3 consecutive numbers."), size=12, italic=True)
        )
    parts.append(pc.part("racko-others", _others_inputs(pc, view), lambda: _others(pc, view)))
    return ft.Column(parts, spacing=8)


def _others_inputs(pc: PanelContext, view: Any) -> tuple[Any, ...]:
    """What `_others` shows: names, scores, the cards each was seen taking, who is out."""
    known = tuple(tuple(cards) for cards in view.known)
    out = tuple(getattr(view, "players_out", ()))
    return (tuple(pc.names), tuple(view.match_scores), known, out, pc.you)


def _discarded_by_other(pc: PanelContext) -> bool:
    """Whether the latest move was another seat's that put a card on the discard pile (discarding the drawn
    card, or exchanging a card of its rack)."""
    if pc.last is None or pc.last[0] == pc.you or str(pc.view.phase).startswith("blitz"):
        return False
    action = pc.last[1]
    return action == "discard" or (isinstance(action, int) and not isinstance(action, bool))


def tag_text(identifier: str, text: str, *, bold: bool = False) -> ft.Control:
    return ft.Semantics(
        content=ft.Text(text, weight=ft.FontWeight.BOLD if bold else None), identifier=identifier
    )


def _instruction(pc: PanelContext, view: Any) -> str:
    t = pc.ctx.t
    if not pc.legal:
        return ""
    phase = view.phase
    if phase == "draw":
        if "discard_pile" in pc.legal:
            return t("Take the top card of the stock or of the discard pile.")
        return t("Take the top card of the stock.")
    if phase == "place":
        if "discard" in pc.legal:
            return t("Tap a slot to exchange {card}, or discard it.", card=view.drawn)
        return t("Tap a slot to exchange {card}.", card=view.drawn)
    if phase == "blitz_place":
        return t("Blitz deal: put {card} into an empty slot.", card=view.drawn)
    if phase in ("call", "blitz_call"):
        return t("Your rack may call Racko: call now or wait.")
    return ""


def _others(pc: PanelContext, view: Any) -> ft.Control:
    """Everyone's score, and the cards each opponent was seen taking from the discard pile."""
    t = pc.ctx.t
    scores = view.match_scores
    lines: list[ft.Control] = []
    for seat, name in enumerate(pc.names):
        score = scores[seat] if seat < len(scores) else 0
        texts: list[ft.Control] = [
            ft.Text(name, weight=ft.FontWeight.BOLD, expand=True),
            ft.Text(t("{points} points", points=score)),
        ]
        row: list[ft.Control] = [ft.Row(texts)]
        known = view.known[seat] if seat < len(view.known) else ()
        if seat != pc.you and known:
            row.append(ft.Text(t("Took from the pile: {cards}", cards=", ".join(map(str, known))), size=12))
        if seat in getattr(view, "players_out", ()):
            row.append(ft.Text(t("out of chips"), size=12))
        lines.append(ft.Semantics(content=ft.Column(row, spacing=0), identifier=f"player-{seat}"))
    return ft.Column(lines, spacing=4)
