"""The tricks on the Rage play panel: the trick being played, by seat in playing order from the leader, and the
last finished trick on request.

Each seat's place shows its name above its card (an empty place while it has not played); the card taking the
trick so far is marked (public: the cards and the trump are on the table), and the card of the round's latest
move is edged. The last trick is shown at once when the latest card completed it, otherwise behind a button
("Show the last trick"), with who took it.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.rage.rules import trick_winner
from scorekeeper.games.rage.view import RageView
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.digital.cards import rage_card, rage_card_name
from scorekeeper.ui.digital.kit import PanelContext, fresh, marked


def card_width(pc: PanelContext) -> float:
    """The width of a card on the panel, in the tricks and in the hand (smaller on a phone)."""
    return 46.0 if pc.ctx.narrow else 68.0


def _played(
    pc: PanelContext, seat: int, card: str | None, *, winner: bool = False, latest: bool = False
) -> ft.Control:
    """One seat's place in a trick: its name above its card (or an empty place); `latest`: the card of the
    round's latest move, edged (and grown into place as it arrives)."""
    ctx = pc.ctx
    width = card_width(pc)
    if card is None:
        face: ft.Control = ft.Container(
            width=width,
            height=width * 1.4,
            border_radius=width * 0.15,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        )
        spoken = ctx.t("{name}: not played yet", name=pc.names[seat])
    else:
        face = fresh(rage_card(pc.ctx, card, width=width, selected=winner), f"{seat}-{card}")
        spoken = ctx.t("{name}: {card}", name=pc.names[seat], card=rage_card_name(pc.ctx, card))
    name = ft.Text(pc.names[seat], size=12, no_wrap=True, width=width + 16, text_align=ft.TextAlign.CENTER)
    place = ft.Semantics(
        content=ft.Column(
            [name, face], spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER
        ),
        label=spoken,
    )
    return marked(place, latest)  # around the place's node, which keeps its words


def trick(pc: PanelContext) -> ft.Control:
    """The current trick by seat, in playing order from the leader; seats still to play are empty."""
    view: RageView = pc.view
    ctx = pc.ctx
    players = view.options.players
    played = dict(view.trick)
    order = [(view.leader + k) % players for k in range(players)]
    # the card taking the trick so far (public: the cards and the trump are on the table)
    ahead = view.trick[trick_winner([c for _, c in view.trick], view.trump)][0] if view.trick else None
    latest = view.trick[-1][0] if view.trick and _just_played(pc) else None
    places = [
        _played(pc, seat, played.get(seat), winner=seat == ahead, latest=seat == latest) for seat in order
    ]
    parts: list[ft.Control] = [
        ft.Text(ctx.t("This trick"), size=13),
        ft.Row(places, wrap=True, spacing=6, run_spacing=6),
    ]
    if ahead is not None:
        taking = (
            ctx.t("You are taking the trick so far.")
            if ahead == pc.you
            else ctx.t("{name} is taking the trick so far.", name=pc.names[ahead])
        )
        parts.append(ft.Text(taking, size=13))
    return tag("trick", ft.Column(parts, spacing=4))


def last_trick(pc: PanelContext) -> ft.Control | None:
    """A button that shows the last finished trick and who took it (hidden again by a second tap)."""
    view: RageView = pc.view
    ctx = pc.ctx
    if not view.last_trick:
        return None
    completed = not view.trick and _just_played(pc)  # the latest card completed it: shown at once
    shown = bool(pc.ui.get("show_last", completed))

    def toggle(_: Any) -> None:
        pc.ui["show_last"] = not shown
        pc.refresh()

    button = tag(
        "last-trick",
        ft.TextButton(
            ctx.t("Hide the last trick") if shown else ctx.t("Show the last trick"), on_click=toggle
        ),
    )
    if not shown:
        return button
    winner = view.last_winner
    final = view.last_trick[-1][0] if completed else None
    places = [
        _played(pc, seat, card, winner=seat == winner, latest=seat == final) for seat, card in view.last_trick
    ]
    caption = (
        ""
        if winner is None
        else ctx.t("You took the last trick.")
        if winner == pc.you
        else ctx.t("{name} took the last trick.", name=pc.names[winner])
    )
    return ft.Column(
        [button, tag("last-trick-cards", ft.Row(places, wrap=True, spacing=6)), ft.Text(caption, size=13)],
        spacing=4,
    )


def _just_played(pc: PanelContext) -> bool:
    """Whether the round's latest move played a card."""
    return pc.last is not None and isinstance(pc.last[1], list | tuple) and pc.last[1][0] == "play"
