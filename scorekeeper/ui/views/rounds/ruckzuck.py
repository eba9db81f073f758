"""Ruck Zuck's host round entry: the form built from its part shape (`views.rounds.parts`: who went out or the stock
ran out, a tab per hand) with the one piece that is Ruck Zuck's own, the hand: its cards on a 1-49 + joker pad
(cards in another hand greyed out) or a typed penalty total, the penalty shown live."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.messages import N_
from scorekeeper.ui.components.fields import number_field
from scorekeeper.ui.components.widgets import NumberPad, tag
from scorekeeper.ui.views.rounds.host import HostExtras, HostForm, Nobody

JOKERS_IN_GAME = 2
Card = Any
"""A card as the pad gives it: a number 1..49 or the joker."""


class HandField:
    """A seat's hand (`HostField`): kept in the seat's draft as `hand` (the cards), `total` (a typed penalty
    total) and `typed` (which of the two counts)."""

    def __init__(self, form: HostForm) -> None:
        self.form, self.ctx = form, form.ctx
        self.rules, self.names = form.match.rules, form.match.names
        self.joker = self.rules.JOKER
        self.keys: list[Card] = [*range(1, 50), self.joker]
        # 42 px keys fit 8 to a row on a 390 px phone (7 at 44 px): the 50 keys take 7 rows instead of 8, so
        # the whole pad and the Save button fit a 390x844 screen without scrolling.
        self.pad = NumberPad(self.keys, self.add_card, prefix="card", size=42 if self.ctx.narrow else 48)
        self.penalty_line = ft.Text(size=18, weight=ft.FontWeight.BOLD)
        self.below: list[ft.Control] = [self.pad.control]

    # ------------------------------------------------------------------ the hands
    def seat(self, seat: int) -> dict[str, Any]:
        """Seat `seat`'s hand in the draft (a saved round's typed total becomes the total shown)."""
        values = self.form.draft.seats[seat].values
        if isinstance(values.get("hand"), int):
            values["total"], values["typed"], values["hand"] = values["hand"], True, []
        values.setdefault("hand", [])
        return values

    def out(self, seat: int) -> bool:
        return seat not in self.form.in_play()

    def penalty_of(self, seat: int) -> int | None:
        values = self.seat(seat)
        if self.out(seat):
            return 0
        if values.get("typed"):
            total: int | None = values.get("total")
            return total
        try:
            return int(self.rules.penalty(values["hand"]))
        except RuleError:
            return None

    def used(self) -> set[Card]:
        cards = [
            c for s in self.form.in_play() if not self.seat(s).get("typed") for c in self.seat(s)["hand"]
        ]
        taken: set[Card] = {c for c in cards if c != self.joker}
        if cards.count(self.joker) >= JOKERS_IN_GAME:
            taken.add(self.joker)
        return taken

    def add_card(self, card: Card) -> None:
        seat = self.form.draft.seat
        if self.out(seat) or self.seat(seat).get("typed") or card in self.used():
            return
        self.seat(seat)["hand"].append(card)
        self.form.refresh()

    def remove_card(self, position: int) -> None:
        del self.seat(self.form.draft.seat)["hand"][position]
        self.form.refresh()

    def set_typed(self, on: bool) -> None:
        self.seat(self.form.draft.seat)["typed"] = on
        self.form.refresh()

    def typed_total(self, event: ft.Event[ft.TextField]) -> None:
        text = (event.control.value or "").strip()
        seat = self.form.draft.seat
        self.seat(seat)["total"] = int(text) if text.isdigit() else None
        self.form.redraw_tabs()  # not the whole form: the field keeps the focus
        self.penalty_line.value = self.penalty_text(seat)
        self.penalty_line.update()

    # ------------------------------------------------------------------ HostField
    def tab(self, seat: int) -> str:
        penalty = self.penalty_of(seat)
        return self.ctx.t("penalty {n}", n="?" if penalty is None else penalty)

    def missing(self, seat: int) -> str | None:
        values = self.seat(seat)
        if values.get("typed") and values.get("total") is None:
            return self.ctx.t("Enter the penalty total of {name}.", name=self.names[seat])
        return None

    def value(self, seat: int) -> Any:
        values = self.seat(seat)
        if self.out(seat):
            return []
        return values.get("total") if values.get("typed") else list(values["hand"])

    def controls(self, seat: int) -> list[ft.Control]:
        ctx, typed = self.ctx, bool(self.seat(seat).get("typed"))
        heading = (
            ctx.t("Penalty total of {name}", name=self.names[seat])
            if typed
            else ctx.t("Cards left in the hand of {name}", name=self.names[seat])
        )
        self.penalty_line.value = self.penalty_text(seat)
        closed = typed or self.out(seat)
        self.pad.refresh(disabled=set(self.keys) if closed else self.used())
        self.pad.control.visible = not typed
        return [
            tag("hand-heading", ft.Text(heading, weight=ft.FontWeight.BOLD)),
            self.modes_row(typed),
            self.total_field(seat) if typed else self.held_cards(seat),
            tag("penalty", self.penalty_line),
        ]

    # ------------------------------------------------------------------ drawing
    def penalty_text(self, seat: int) -> str:
        penalty = self.penalty_of(seat)
        return self.ctx.t("Penalty: {n}", n="?" if penalty is None else penalty)

    def modes_row(self, typed: bool) -> ft.Control:
        ctx = self.ctx
        cards = (ft.OutlinedButton if typed else ft.FilledButton)(
            ctx.t("Cards"), on_click=lambda _: self.set_typed(False)
        )
        total = (ft.FilledButton if typed else ft.OutlinedButton)(
            ctx.t("Total"), on_click=lambda _: self.set_typed(True)
        )
        following = ft.OutlinedButton(
            ctx.t("Next player"), icon=ft.Icons.ARROW_FORWARD, on_click=lambda _: self.form.next_seat()
        )
        return ft.Row(
            [tag("hand-mode-cards", cards), tag("hand-mode-total", total), tag("next-seat", following)],
            wrap=True,
        )

    def total_field(self, seat: int) -> ft.Control:
        total = self.seat(seat).get("total")
        field_ = number_field(
            self.ctx.t("Penalty total"),
            "" if total is None else str(total),
            self.typed_total,
            width=200,
            autofocus=True,  # total mode is for typing: the field has the focus at once
        )
        return tag(f"total-{seat}", field_)

    def held_cards(self, seat: int) -> ft.Control:
        ctx = self.ctx
        cards = [
            tag(
                f"held-{i}",
                ft.Chip(
                    label=ft.Text(ctx.t("Joker") if card == self.joker else str(card)),
                    on_delete=lambda _, i=i: self.remove_card(i),
                ),
            )
            for i, card in enumerate(self.seat(seat)["hand"])
        ]
        if cards:
            return ft.Row(cards, wrap=True, spacing=4)
        return ft.Text(ctx.t("No cards: tap the numbers below."))


HOST = HostExtras(
    nobody={
        "out": Nobody(N_("Stock ran out"), "stock", N_("Who went out? Choose a player or 'Stock ran out'."))
    },
    tabs=True,
    fields={"hand": HandField},
    spacing=10,
)
"""What Ruck Zuck's host form has beyond its part shape."""
