"""Ruck Zuck round entry: who went out (or the stock ran out), then each other player's hand as cards on a
1-49 + joker pad (cards in another hand greyed out) or as a typed penalty total; penalties shown live."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.match import Match
from scorekeeper.ui.components.fields import number_field, who_row
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import NumberPad, seat_chip, tag
from scorekeeper.ui.context import AppContext

STOCK = "stock"
JOKERS_IN_GAME = 2
Card = Any
"""A card as the pad gives it: a number 1..49 or the joker."""


@dataclass
class RuckZuckDraft:
    """What the form has collected (kept between redraws): who went out (a seat, STOCK or None: not said yet),
    per seat the cards left or, where `typed`, a typed penalty total; `seat`: the hand being entered."""

    seats: int
    out: int | str | None = None
    hands: list[list[Card]] = field(default_factory=list)
    totals: list[int | None] = field(default_factory=list)
    typed: list[bool] = field(default_factory=list)
    seat: int = 0

    def __post_init__(self) -> None:
        self.hands = self.hands or [[] for _ in range(self.seats)]
        self.totals = self.totals or [None] * self.seats
        self.typed = self.typed or [False] * self.seats

    @classmethod
    def start(cls, match: Match, edit: int | None) -> RuckZuckDraft:
        """Empty, or the round being edited."""
        draft = cls(len(match.players))
        if edit is None:
            return draft
        old = match.rounds[edit]
        draft.out = STOCK if old.get("out") is None else old["out"]
        for s, hand in enumerate(old["hands"]):
            if isinstance(hand, int):
                draft.totals[s], draft.typed[s] = hand, True
            else:
                draft.hands[s] = list(hand)
        return draft

    def in_play(self) -> list[int]:
        return [s for s in range(self.seats) if s != self.out]


class RuckZuckForm:
    """Who went out, a tab per hand, the hand being entered and the card pad, over a `RuckZuckDraft`."""

    def __init__(
        self, ctx: AppContext, match: Match, edit: int | None, draft: RuckZuckDraft, message: ft.Text
    ) -> None:
        self.ctx, self.match, self.edit, self.draft, self.message = ctx, match, edit, draft, message
        self.rules, self.names = match.rules, match.names
        self.joker = self.rules.JOKER
        self.dynamic = ft.Column(spacing=8 if ctx.narrow else 10)
        self.keys: list[Card] = [*range(1, 50), self.joker]
        # 42 px keys fit 8 to a row on a 390 px phone (7 at 44 px): the 50 keys take 7 rows instead of 8, so
        # the whole pad and the Save button fit a 390x844 screen without scrolling.
        self.pad = NumberPad(self.keys, self.add_card, prefix="card", size=42 if ctx.narrow else 48)
        self.penalty_line = ft.Text(size=18, weight=ft.FontWeight.BOLD)
        self.tabs_row = ft.Row(wrap=True, spacing=6, run_spacing=6)

    # ------------------------------------------------------------------ the hands
    def penalty_of(self, seat: int) -> int | None:
        draft = self.draft
        if seat == draft.out:
            return 0
        if draft.typed[seat]:
            return draft.totals[seat]
        try:
            return int(self.rules.penalty(draft.hands[seat]))
        except RuleError:
            return None

    def used(self) -> set[Card]:
        draft = self.draft
        cards = [c for s in draft.in_play() if not draft.typed[s] for c in draft.hands[s]]
        taken: set[Card] = {c for c in cards if c != self.joker}
        if cards.count(self.joker) >= JOKERS_IN_GAME:
            taken.add(self.joker)
        return taken

    def add_card(self, card: Card) -> None:
        draft, seat = self.draft, self.draft.seat
        if seat == draft.out or draft.typed[seat] or card in self.used():
            return
        draft.hands[seat].append(card)
        self.refresh()

    def remove_card(self, position: int) -> None:
        del self.draft.hands[self.draft.seat][position]
        self.refresh()

    def set_out(self, value: int | str) -> None:
        draft = self.draft
        draft.out = value
        if isinstance(value, int):
            draft.hands[value], draft.totals[value], draft.typed[value] = [], None, False
            if draft.seat == value:
                draft.seat = next((s for s in range(draft.seats) if s != value), 0)
        self.refresh()

    def set_seat(self, seat: int) -> None:
        self.draft.seat = seat
        self.refresh()

    def next_seat(self) -> None:
        order = self.draft.in_play()
        later = [s for s in order if s > self.draft.seat]
        self.draft.seat = (later or order)[0]
        self.refresh()

    def set_typed(self, on: bool) -> None:
        self.draft.typed[self.draft.seat] = on
        self.refresh()

    def typed_total(self, event: ft.Event[ft.TextField]) -> None:
        text = (event.control.value or "").strip()
        self.draft.totals[self.draft.seat] = int(text) if text.isdigit() else None
        self.tabs_row.controls = self.tabs()
        self.tabs_row.update()
        # The big line says the typed total too (it kept "Penalty: ?" while the tabs had the number).
        self.penalty_line.value = self.penalty_text(self.draft.seat)
        self.penalty_line.update()

    # ------------------------------------------------------------------ drawing
    def penalty_text(self, seat: int) -> str:
        penalty = self.penalty_of(seat)
        return self.ctx.t("Penalty: {n}", n="?" if penalty is None else penalty)

    def tabs(self) -> list[ft.Control]:
        def subtitle(seat: int) -> str:
            penalty = self.penalty_of(seat)
            return self.ctx.t("penalty {n}", n="?" if penalty is None else penalty)

        return [
            seat_chip(
                self.names[s],
                None,
                selected=s == self.draft.seat,
                on_click=partial(self.set_seat, s),
                identifier=f"hand-seat-{s}",
                subtitle=subtitle(s),
            )
            for s in self.draft.in_play()
        ]

    def modes_row(self, typed: bool) -> ft.Control:
        ctx = self.ctx
        cards = (ft.OutlinedButton if typed else ft.FilledButton)(
            ctx.t("Cards"), on_click=lambda _: self.set_typed(False)
        )
        total = (ft.FilledButton if typed else ft.OutlinedButton)(
            ctx.t("Total"), on_click=lambda _: self.set_typed(True)
        )
        following = ft.OutlinedButton(
            ctx.t("Next player"), icon=ft.Icons.ARROW_FORWARD, on_click=lambda _: self.next_seat()
        )
        return ft.Row(
            [tag("hand-mode-cards", cards), tag("hand-mode-total", total), tag("next-seat", following)],
            wrap=True,
        )

    def total_field(self, seat: int) -> ft.Control:
        total = self.draft.totals[seat]
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
            for i, card in enumerate(self.draft.hands[seat])
        ]
        if cards:
            return ft.Row(cards, wrap=True, spacing=4)
        return ft.Text(ctx.t("No cards: tap the numbers below."))

    def hand_part(self) -> list[ft.Control]:
        ctx, seat = self.ctx, self.draft.seat
        typed = self.draft.typed[seat]
        heading = (
            ctx.t("Penalty total of {name}", name=self.names[seat])
            if typed
            else ctx.t("Cards left in the hand of {name}", name=self.names[seat])
        )
        self.penalty_line.value = self.penalty_text(seat)
        return [
            tag("hand-heading", ft.Text(heading, weight=ft.FontWeight.BOLD)),
            self.modes_row(typed),
            self.total_field(seat) if typed else self.held_cards(seat),
            tag("penalty", self.penalty_line),
        ]

    def out_row(self) -> ft.Control:
        out = self.draft.out
        stock = seat_chip(
            self.ctx.t("Stock ran out"),
            None,
            selected=out == STOCK,
            on_click=lambda: self.set_out(STOCK),
            identifier="out-stock",
        )
        seats = range(self.draft.seats)
        return who_row(self.names, seats, lambda s: out == s, self.set_out, prefix="out", more=[stock])

    def refresh(self, *, send: bool = True) -> None:
        ctx, draft = self.ctx, self.draft
        self.tabs_row.controls = self.tabs()
        self.dynamic.controls = [
            ft.Text(ctx.t("Dealer: {name}", name=self.names[dealer_for(self.match, self.edit)])),
            ft.Text(ctx.t("Who went out?")),
            self.out_row(),
            self.tabs_row,
            *self.hand_part(),
        ]
        seat = draft.seat
        closed = draft.typed[seat] or seat == draft.out
        self.pad.refresh(disabled=set(self.keys) if closed else self.used())
        self.pad.control.visible = not draft.typed[seat]
        if send:
            self.message.visible = False
            for control in (self.dynamic, self.pad.control, self.message):
                control.update()

    # ------------------------------------------------------------------ the round
    def result(self) -> dict[str, Any] | str:
        draft, ctx = self.draft, self.ctx
        if draft.out is None:
            return ctx.t("Who went out? Choose a player or 'Stock ran out'.")
        hands: list[Any] = []
        for s in range(draft.seats):
            if s == draft.out:
                hands.append([])
            elif draft.typed[s]:
                if draft.totals[s] is None:
                    return ctx.t("Enter the penalty total of {name}.", name=self.names[s])
                hands.append(draft.totals[s])
            else:
                hands.append(list(draft.hands[s]))
        return {"hands": hands, "out": None if draft.out == STOCK else draft.out}

    def form(self) -> RoundForm:
        if self.draft.seat == self.draft.out:
            self.draft.seat = self.draft.in_play()[0]
        self.refresh(send=False)
        return RoundForm([self.dynamic, self.pad.control], self.result, draft=self.draft)


def build_form(
    ctx: AppContext, match: Match, edit: int | None, saved: object | None, message: ft.Text
) -> RoundForm:
    """The form over the draft kept from the last redraw (`saved`), or a new one."""
    draft = saved if isinstance(saved, RuckZuckDraft) else RuckZuckDraft.start(match, edit)
    return RuckZuckForm(ctx, match, edit, draft, message).form()
