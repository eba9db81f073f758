"""The Rage play panel: trump and led colour, the current trick by seat, bids and tricks, the bidding pad,
the seat's hand, the joker's colour picker and the last trick on request (the tricks are drawn by
`rage_tricks`).

Bidding (RULES.md 3.2): one button per bid (`act-["bid",2]`); under the hook rule the dealer's forbidden bid
stays visible but disabled, with the reason. Playing: the hand is sorted by colour, the cards that may not
be played now (must follow the led colour) are dimmed; a playable card is one tap (`act-["play","r7"]`); a
joker first opens the colour picker (`choose-joker`), whose colours play it (`act-["play","W:g"]`).
The panel only reads the seat's view.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import flet as ft

from scorekeeper.games.base import Action
from scorekeeper.games.rage.cards import COLOURS, JOKER, NO_TRUMP, TRUMP_CHANGE
from scorekeeper.games.rage.view import RageView
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.digital import rage_tricks
from scorekeeper.ui.digital.cards import (
    RAGE_COLOURS,
    colour_chip,
    on_tap,
    panel_width,
    rage_card,
    rage_card_name,
)
from scorekeeper.ui.digital.kit import PanelContext, act, action_key, choose, instruction_line


def path(action: Action) -> list[str]:
    """The identifiers to tap, in order, to perform `action` on this panel (for tests and tooling)."""
    if action[0] == "play" and str(action[1]).startswith(f"{JOKER}:"):
        return ["choose-joker", f"act-{action_key(action)}"]
    return [f"act-{action_key(action)}"]


def build(pc: PanelContext) -> ft.Control:
    view: RageView = pc.view
    controls: list[ft.Control] = [instruction_line(pc, lambda: _your_turn(pc)), _trump(pc)]
    if not _side_by_side(pc):
        controls += [_scores(pc), rage_tricks.trick(pc)]
    else:  # a tablet uses the room: the table of bids beside the trick
        trick = ft.Container(rage_tricks.trick(pc), expand=True)
        row = ft.Row([_scores(pc), trick], spacing=32, vertical_alignment=ft.CrossAxisAlignment.START)
        controls.append(row)
    last = rage_tricks.last_trick(pc)
    if last is not None:
        controls.append(last)
    if view.phase == "bid" and pc.legal:
        controls.append(_bidding(pc))
    if not pc.hidden:
        controls.append(_hand(pc))
    if pc.ui.get("joker") and _joker_moves(pc.legal):
        controls.append(_joker_picker(pc))
    return ft.Column(controls, spacing=10)


def _side_by_side(pc: PanelContext) -> bool:
    """Whether the table of bids fits beside a whole trick (one place per seat), as on a tablet."""
    place = rage_tricks.card_width(pc) + 22
    return panel_width(pc.ctx) >= 260 + place * pc.view.options.players


def _perform(pc: PanelContext, action: Action) -> None:
    pc.ui.pop("joker", None)
    pc.act(action)


def _your_turn(pc: PanelContext) -> str:
    view: RageView = pc.view
    ctx = pc.ctx
    if view.phase == "bid":
        return ctx.t("Your bid: how many tricks will you take?")
    if view.led is not None:
        return ctx.t("Your turn: follow {colour} if you can.", colour=ctx.t(RAGE_COLOURS[view.led].name))
    return ctx.t("Your turn: play a card.")


def _trump(pc: PanelContext) -> ft.Control:
    """Trump and led colour, the round's hand size, and what the action cards did to this trick."""
    view: RageView = pc.view
    ctx = pc.ctx
    trump = view.trump
    trump_text = (
        ctx.t("Trump: {colour}", colour=ctx.t(RAGE_COLOURS[trump].name)) if trump else ctx.t("No trump")
    )
    parts: list[ft.Control] = [
        tag("trump", ft.Row([colour_chip(pc.ctx, trump), ft.Text(trump_text)], spacing=6, tight=True)),
    ]
    if view.led is not None:
        led = ctx.t("Led: {colour}", colour=ctx.t(RAGE_COLOURS[view.led].name))
        parts.append(tag("led", ft.Row([colour_chip(pc.ctx, view.led), ft.Text(led)], spacing=6, tight=True)))
    parts.append(
        ft.Text(
            ctx.t.plural(
                "{n} card each · dealer: {name}",
                "{n} cards each · dealer: {name}",
                view.hand_size,
                name=pc.names[view.dealer],
            ),
            size=13,
        )
    )
    rows: list[ft.Control] = [ft.Row(parts, wrap=True, spacing=14, run_spacing=6)]
    notes: list[str] = []
    if view.no_trump_in_trick:
        notes.append(ctx.t("A no-trump card was played: this trick has no trump."))
    elif trump is None and view.phase == "play":
        notes.append(ctx.t("No trump for the rest of the round."))
    if view.trump_change_in_trick:
        notes.append(
            ctx.t(
                "A trump-change card was played: the new trump is {colour}.",
                colour=ctx.t(RAGE_COLOURS[trump].name),
            )
            if trump and not view.no_trump_in_trick
            else ctx.t("A trump-change card was played.")
        )
    if trump is not None and _trump_just_turned(view):
        notes.append(ctx.t("A new trump was turned up: {colour}.", colour=ctx.t(RAGE_COLOURS[trump].name)))
    for note in notes:
        rows.append(
            tag(
                "new-trump" if note == notes[-1] and _trump_just_turned(view) else "trick-effect",
                ft.Container(
                    ft.Text(note, size=13),
                    bgcolor=ft.Colors.TERTIARY_CONTAINER,
                    padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                    border_radius=6,
                ),
            )
        )
    return ft.Column(rows, spacing=6)


def _trump_just_turned(view: RageView) -> bool:
    """Whether the trump in force was turned up during the last trick (a trump-change card, or a no-trump
    card followed by a new trump) and no card of the next trick lies yet: the table says so once."""
    changed = any(card in (NO_TRUMP, TRUMP_CHANGE) for _, card in view.last_trick)
    return bool(view.trump) and not view.trick and view.phase == "play" and changed


def _scores(pc: PanelContext) -> ft.Control:
    """Per player: bid, tricks taken, cards left and the round's points so far."""
    view: RageView = pc.view
    ctx = pc.ctx
    header = [ctx.t("Player"), ctx.t("Bid"), ctx.t("Tricks"), ctx.t("Cards"), ctx.t("Points")]
    rows: list[ft.DataRow] = []
    for seat, name in enumerate(pc.names):
        on_turn = seat == view.current_player
        bid = view.bids[seat]
        cells = [
            name,
            "–" if bid is None else str(bid),
            str(view.tricks[seat]),
            str(view.hand_counts[seat]),
            str(view.round_points[seat]),
        ]
        rows.append(
            ft.DataRow(
                [
                    ft.DataCell(ft.Text(text, weight=ft.FontWeight.BOLD if on_turn else None, size=13))
                    for text in cells
                ],
                selected=on_turn,
            )
        )
    table = ft.DataTable(
        columns=[ft.DataColumn(label=ft.Text(h, size=12)) for h in header],
        rows=rows,
        column_spacing=12,
        horizontal_margin=4,
        data_row_min_height=28,
        data_row_max_height=32,
        heading_row_height=28,
    )
    if _side_by_side(pc):  # beside the trick, in a row that must not scroll sideways itself
        return tag("bids-tricks", table)
    return tag("bids-tricks", ft.Row([table], scroll=ft.ScrollMode.AUTO))


def _bidding(pc: PanelContext) -> ft.Control:
    """0..hand size; the forbidden dealer bid disabled, with the reason below."""
    view: RageView = pc.view
    ctx = pc.ctx
    legal = {a[1] for a in pc.legal if a[0] == "bid"}
    size = 44 if pc.ctx.narrow else 52
    buttons: list[ft.Control] = []
    for n in range(view.hand_size + 1):
        button = ft.Button(
            str(n),
            width=size,
            height=size,
            style=ft.ButtonStyle(padding=ft.Padding.all(0), shape=ft.RoundedRectangleBorder(radius=8)),
            disabled=n not in legal,
            on_click=lambda _, n=n: _perform(pc, ["bid", n]),
        )
        if n in legal:
            buttons.append(act(button, ["bid", n], label=ctx.t("Bid {n}", n=n)))
        else:
            buttons.append(tag("bid-forbidden", button))
    parts: list[ft.Control] = [ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)]
    if view.forbidden_bid is not None:
        parts.append(
            tag(
                "forbidden-reason",
                ft.Text(
                    ctx.t.plural(
                        "As the dealer you may not bid {bid}: all bids would add up to the {n} card in hand.",
                        "As the dealer you may not bid {bid}: all bids would add up to the {n} cards in hand.",
                        view.hand_size,
                        bid=view.forbidden_bid,
                    ),
                    size=13,
                    color=ft.Colors.ERROR,
                ),
            )
        )
    return tag("bidding", ft.Column(parts, spacing=6))


def _joker_moves(legal: list[Action]) -> list[Action]:
    return [a for a in legal if a[0] == "play" and str(a[1]).startswith(f"{JOKER}:")]


def _hand(pc: PanelContext) -> ft.Control:
    """The hand sorted by colour; identical action cards shown once with a count; unplayable cards dimmed
    while this seat is to play a card."""
    view: RageView = pc.view
    ctx = pc.ctx
    playable = {a[1] for a in pc.legal if a[0] == "play"}
    jokers = bool(_joker_moves(pc.legal))
    playing = view.phase == "play" and bool(pc.legal)
    counts = Counter(view.hand)
    width = rage_tricks.card_width(pc)
    cards: list[ft.Control] = []
    for card in dict.fromkeys(view.hand):
        name = rage_card_name(pc.ctx, card)
        if card == JOKER and jokers:
            face = rage_card(
                pc.ctx,
                card,
                width=width,
                count=counts[card],
                selected=bool(pc.ui.get("joker")),
                on_click=lambda _: _toggle_joker(pc),
            )
            cards.append(choose(face, "joker", label=ctx.t("Play the joker: choose its colour")))
        elif card in playable:
            face = rage_card(
                pc.ctx,
                card,
                width=width,
                count=counts[card],
                on_click=on_tap(partial(_perform, pc, ["play", card])),
            )
            cards.append(act(face, ["play", card], label=ctx.t("Play {card}", card=name)))
        else:
            face = rage_card(pc.ctx, card, width=width, count=counts[card], dim=playing)
            cards.append(ft.Semantics(content=face, identifier=f"hand-{card}", label=name))
    title = ft.Text(ctx.t.plural("Your hand ({n} card)", "Your hand ({n} cards)", len(view.hand)), size=13)
    return tag("hand", ft.Column([title, ft.Row(cards, wrap=True, spacing=4, run_spacing=4)], spacing=4))


def _toggle_joker(pc: PanelContext) -> None:
    pc.ui["joker"] = not pc.ui.get("joker")
    pc.refresh()


def _joker_picker(pc: PanelContext) -> ft.Control:
    """The six colours, each with its symbol and name, playing the joker as that colour."""
    ctx = pc.ctx
    legal = {a[1] for a in _joker_moves(pc.legal)}
    buttons: list[ft.Control] = []
    for letter in COLOURS:
        card = f"{JOKER}:{letter}"
        if card not in legal:
            continue
        spec = RAGE_COLOURS[letter]
        colour = ctx.t(spec.name)
        button = ft.Container(
            ft.Row(
                [ft.Icon(spec.icon, size=18, color=spec.ink), ft.Text(colour, color=spec.ink)],
                spacing=4,
                tight=True,
            ),
            bgcolor=spec.fill,
            padding=ft.Padding.symmetric(horizontal=10, vertical=8),
            border_radius=8,
            on_click=lambda _, c=card: _perform(pc, ["play", c]),
            ink=True,
        )
        buttons.append(act(button, ["play", card], label=ctx.t("Play the joker as {colour}", colour=colour)))
    return tag(
        "joker-colours",
        ft.Column(
            [
                ft.Text(ctx.t("The joker counts as:"), size=13),
                ft.Row(buttons, wrap=True, spacing=6, run_spacing=6),
            ],
            spacing=4,
        ),
    )
