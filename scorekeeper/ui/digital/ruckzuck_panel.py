"""The Ruck Zuck play panel: the board, the seat's hand, draw / end turn, the others' hand sizes, the stock.

A turn (RULES.md 2.2): tap a hand card (`choose-card-<card>`), its legal fields light up on the board; tap
one to place it there (`act-["place",17,17]`), or, where a joker lies on the card's own field, to swap it
(`act-["swap",17]`; the joker taken back is selected at once, since it must be placed next). "Draw" when
nothing was placed this turn, "End turn" after placing. The panel only reads the seat's view.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import Action
from scorekeeper.games.ruckzuck import board
from scorekeeper.games.ruckzuck.play import DRAW, END, PLACE, SWAP, RuckZuckView
from scorekeeper.games.ruckzuck.rules import JOKER
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.digital.cards import (
    FIELD_INK,
    RZ_FILL,
    RZ_INK,
    RZ_JOKER_INK,
    SELECTED,
    STOCK_FILL,
    on_tap,
    ruckzuck_card,
)
from scorekeeper.ui.digital.kit import PanelContext, act, action_key, choose, instruction_line, room
from scorekeeper.ui.digital.kit import fresh as grown

SIDE_TINT = {"red": "#FFCDD2", "blue": "#BBDEFB"}
"""The board's colour per side, as printed."""
TARGET = "#66BB6A"
GAP = 2
MIN_FIELD = 40.0
"""The smallest field a finger hits reliably; a narrower panel turns the board on its side."""
TURNED_FIELD = 44.0


def field_size(width: float) -> float:
    """A field's side when 13 fields share `width` (at most 72 px)."""
    return min(72.0, (width - GAP * (board.COLUMNS - 1)) / board.COLUMNS)


def card_of(action: Action) -> Any:
    """The hand card an action plays: the placed card, or the number card of a joker swap."""
    return action[1]


def field_of(action: Action) -> int | str:
    """The field an action ends on: the placement's field, or the swapped joker's number field."""
    return action[2] if action[0] == PLACE else action[1]


def path(action: Action) -> list[str]:
    """The identifiers to tap, in order, to perform `action` on this panel (for tests and tooling)."""
    if action in (DRAW, END):
        return [f"act-{action_key(action)}"]
    return [f"choose-card-{card_of(action)}", f"act-{action_key(action)}"]


def _by_card(legal: list[Action]) -> dict[Any, list[Action]]:
    found: dict[Any, list[Action]] = {}
    for action in legal:
        if isinstance(action, list | tuple) and action[0] in (PLACE, SWAP):
            found.setdefault(card_of(action), []).append(list(action))
    return found


def selection(pc: PanelContext) -> Any:
    """The selected hand card, if it still has a move; a joker taken back by a swap is selected by itself."""
    moves = _by_card(pc.legal)
    view: RuckZuckView = pc.view
    if view.joker_pending and JOKER in moves:
        return JOKER
    chosen = pc.ui.get("selected")
    return chosen if chosen in moves else None


def build(pc: PanelContext) -> ft.Control:
    view: RuckZuckView = pc.view
    ctx = pc.ctx
    moves = _by_card(pc.legal)
    chosen = selection(pc)
    targets = {field_of(a): a for a in moves.get(chosen, [])}

    def perform(action: Action) -> None:
        pc.ui.pop("selected", None)
        pc.act(action)

    def pick(card: Any) -> None:
        pc.ui["selected"] = None if pc.ui.get("selected") == card else card
        pc.refresh()

    cell = field_size(room(pc))
    controls: list[ft.Control] = [instruction_line(pc, lambda: _your_turn(pc, chosen)), _table(pc)]
    if cell >= MIN_FIELD:
        controls.append(_board(pc, cell, targets, perform))
        if not pc.hidden:
            controls.append(_hand(pc, moves, chosen, pick))
    else:  # a phone: the board turned on its side (13 rows of 4), the hand beside it
        turned = _board(pc, TURNED_FIELD, targets, perform, turned=True)
        beside: list[ft.Control] = [turned]
        if not pc.hidden:
            beside.append(ft.Container(_hand(pc, moves, chosen, pick), expand=True))
        controls.append(ft.Row(beside, spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))
    buttons = []
    for a in pc.legal:
        if a in (DRAW, END):
            text = (
                ctx.t("Draw a card")
                if a == DRAW
                else ctx.t("End the round")
                if view.last_draw
                else ctx.t("End turn")
            )
            buttons.append(act(ft.Button(text, on_click=lambda _, a=a: perform(a)), a, label=text))
    if buttons:
        controls.append(ft.Row(buttons, wrap=True, spacing=8))
    return ft.Column(controls, spacing=10)


def _your_turn(pc: PanelContext, chosen: Any) -> str:
    view: RuckZuckView = pc.view
    ctx = pc.ctx
    if view.joker_pending:
        return ctx.t("Place the joker you took back: tap a green field.")
    if chosen is not None:
        return ctx.t("Tap a green field to place the card, or another card.")
    if view.last_draw:
        return ctx.t("You drew the last card: place what you can, then end the round.")
    if not _by_card(pc.legal):
        return (
            ctx.t("None of your cards fits now: end your turn.")
            if view.placed_this_turn or view.last_draw
            else ctx.t("None of your cards fits yet: draw a card.")
        )
    if view.placed_this_turn:
        return ctx.t("Place more cards or end your turn.")
    return ctx.t("Your turn: tap a card to place it, or draw a card.")


def _table(pc: PanelContext) -> ft.Control:
    """Everyone's hand size (the player on turn marked) and the stock."""
    view: RuckZuckView = pc.view
    ctx = pc.ctx
    chips: list[ft.Control] = []
    for seat, size in enumerate(view.hand_sizes):
        on_turn = seat == view.current_player
        text = ctx.t.plural("{name}: {n} card", "{name}: {n} cards", size, name=pc.names[seat])
        chips.append(
            tag(
                f"seat-{seat}",
                ft.Container(
                    ft.Text(text, weight=ft.FontWeight.BOLD if on_turn else None, size=13),
                    padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                    border_radius=12,
                    border=ft.Border.all(
                        2 if on_turn else 1, ft.Colors.PRIMARY if on_turn else ft.Colors.OUTLINE
                    ),
                ),
            )
        )
    chips.append(
        tag("stock", ft.Text(ctx.t.plural("Stock: {n} card", "Stock: {n} cards", view.stock_size), size=13)),
    )
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


def placed_by_others(view: RuckZuckView) -> set[Any]:
    """The fields the others placed on (or swapped a joker on) since this seat's last move: shown edged, so
    the seat sees at a glance what changed while it waited."""
    fields: set[Any] = set()
    for seat, action in reversed(view.history):
        if seat == view.seat:
            break
        if isinstance(action, tuple) and action[0] in (PLACE, SWAP):
            fields.add(field_of(action))
    return fields


def final_board(pc: PanelContext) -> ft.Control:
    """The board as the round ended, nothing to tap (for the round result)."""
    cell = field_size(room(pc))
    if cell >= MIN_FIELD:
        return _board(pc, cell, {}, lambda _: None)
    return _board(pc, TURNED_FIELD, {}, lambda _: None, turned=True)


def _board(
    pc: PanelContext, cell: float, targets: dict[Any, Action], perform: Any, *, turned: bool = False
) -> ft.Control:
    """The 4 x 13 fields; `turned`: on its side, a row per column of the board (field 1 top left, as printed,
    field 13 bottom left), fields `cell` px wide."""
    view: RuckZuckView = pc.view
    ctx = pc.ctx
    side = view.options.side
    changed = placed_by_others(view)
    last = pc.last[1] if pc.last is not None else None
    latest = field_of(last) if isinstance(last, list | tuple) and last[0] in (PLACE, SWAP) else None
    lines = (
        [[row * board.COLUMNS + column for row in range(board.ROWS)] for column in range(board.COLUMNS)]
        if turned
        else [[row * board.COLUMNS + column for column in range(board.COLUMNS)] for row in range(board.ROWS)]
    )
    rows: list[ft.Control] = []
    for line in lines:
        cells: list[ft.Control] = []
        for position in line:
            label = board.label(position, side)
            card = view.board[position]
            action = targets.get(label)
            cells.append(
                _field(
                    pc,
                    label,
                    card,
                    cell,
                    side,
                    action,
                    perform,
                    fresh=label in changed,
                    latest=label == latest,
                )
            )
        rows.append(ft.Row(cells, spacing=GAP))
    grid: ft.Control = ft.Column(rows, spacing=GAP, tight=True)
    if turned:  # the fields share this width (they expand), so it fixes their size
        grid = ft.Container(grid, width=cell * board.ROWS + GAP * (board.ROWS - 1))
    return ft.Semantics(
        content=grid,
        identifier="board",
        label=ctx.t("Board, red side") if side == "red" else ctx.t("Board, blue side"),
    )


def _field(
    pc: PanelContext,
    label: Any,
    card: Any,
    cell: float,
    side: str,
    action: Action | None,
    perform: Any,
    *,
    fresh: bool = False,
    latest: bool = False,
) -> ft.Control:
    """One field; `fresh`: placed by another player since this seat's last move (edged); `latest`: the
    round's latest placement (its card grows into place, tagged `last-move`)."""
    view: RuckZuckView = pc.view
    ctx = pc.ctx
    small = cell * 0.4
    if label == board.STOCK_FIELD:
        # a symbol, not the count: a number here would read like a card on the board
        face: ft.Control = ft.Icon(ft.Icons.LAYERS, size=cell * 0.6, color="#FFFFFF")
        fill: str = STOCK_FILL
        name = ctx.t.plural("Stock: {n} card", "Stock: {n} cards", view.stock_size)
    elif card is None:
        face = ft.Text(str(label), size=small, color=FIELD_INK, no_wrap=True)
        fill = SIDE_TINT[side]
        name = ctx.t("Field {field}: empty", field=label)
    elif card == JOKER:
        face = ft.Icon(ft.Icons.STAR, size=cell * 0.55, color=RZ_JOKER_INK)
        fill = RZ_FILL
        name = ctx.t("Field {field}: joker", field=label)
    else:
        face = ft.Text(str(card), size=small * 1.1, weight=ft.FontWeight.BOLD, color=RZ_INK, no_wrap=True)
        fill = RZ_FILL
        name = ctx.t("Field {field}: {card}", field=label, card=card)
    if action is not None:
        border = ft.Border.all(3, ft.Colors.ON_SURFACE)
    elif card is not None and fresh:  # placed by another player since this seat's last move
        border = ft.Border.all(3, SELECTED)
    elif card is not None:  # a card lies here: a card's edge, so it stands out from the printed board
        border = ft.Border.all(1.5, "#99000000")
    else:
        border = ft.Border.all(0.5, "#30000000")
    if card is not None:
        face = grown(face, f"{label}-{card}")
    box = ft.Container(
        face,
        expand=1,  # 13 equal square fields across whatever width the play screen gives the panel
        aspect_ratio=1,
        bgcolor=TARGET if action is not None else fill,
        border_radius=4,
        border=border,
        alignment=ft.Alignment.CENTER,
    )
    if action is None:
        field = ft.Semantics(content=box, identifier=f"field-{label}", label=name, expand=1)
        return tag("last-move", field) if latest else field  # around the field's node, which keeps its name
    box.on_click = lambda _: perform(action)
    box.ink = True
    if action[0] == SWAP:
        spoken = ctx.t("Swap {card} for the joker on field {card}", card=action[1])
    elif action[1] == JOKER:
        spoken = ctx.t("Place the joker on field {field}", field=label)
    else:
        spoken = ctx.t("Place {card} on field {card}", card=action[1])
    return act(box, action, label=spoken)


def _hand(pc: PanelContext, moves: dict[Any, list[Action]], chosen: Any, pick: Any) -> ft.Control:
    """The hand sorted (numbers ascending, jokers last); identical jokers shown once with a count."""
    view: RuckZuckView = pc.view
    ctx = pc.ctx
    width = 44.0 if pc.ctx.narrow else 56.0
    counts = Counter(view.hand)
    cards: list[ft.Control] = []
    for card in dict.fromkeys(view.hand):
        playable = card in moves
        name = ctx.t("Joker") if card == JOKER else str(card)
        face = ruckzuck_card(
            card,
            width=width,
            dim=bool(pc.legal) and not playable,
            selected=card == chosen,
            count=counts[card],
            on_click=on_tap(partial(pick, card)) if playable else None,
            tooltip=name,
        )
        if playable:
            cards.append(choose(face, f"card-{card}", label=ctx.t("Select {card}", card=name)))
        else:
            cards.append(ft.Semantics(content=face, identifier=f"hand-{card}", label=name))
    title = ft.Text(ctx.t.plural("Your hand ({n} card)", "Your hand ({n} cards)", len(view.hand)), size=13)
    return tag("hand", ft.Column([title, ft.Row(cards, wrap=True, spacing=6, run_spacing=6)], spacing=4))
