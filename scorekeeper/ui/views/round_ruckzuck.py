"""Ruck Zuck round entry: who went out (or the stock ran out), then each other player's hand as cards on a
1-49 + joker pad (cards in another hand greyed out) or as a typed penalty total; penalties shown live."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.match import Match
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import NumberPad, seat_chip, tag
from scorekeeper.ui.context import AppContext

STOCK = "stock"
JOKERS_IN_GAME = 2


def build_form(
    ctx: AppContext, match: Match, edit: int | None, draft: dict[str, Any], message: ft.Text
) -> RoundForm:
    rules = match.rules
    joker = rules.JOKER
    seats = len(match.players)
    names = match.names
    if not draft:
        draft.update(
            out=None, hands=[[] for _ in range(seats)], totals=[None] * seats, typed=[False] * seats, seat=0
        )
        if edit is not None:
            old = match.rounds[edit]
            draft["out"] = STOCK if old.get("out") is None else old["out"]
            for s, hand in enumerate(old["hands"]):
                if isinstance(hand, int):
                    draft["totals"][s], draft["typed"][s] = hand, True
                else:
                    draft["hands"][s] = list(hand)
    dynamic = ft.Column(spacing=8 if ctx.narrow else 10)
    keys: list[Any] = [*range(1, 50), joker]
    # 42 px keys fit 8 to a row on a 390 px phone (7 at 44 px): the 50 keys take 7 rows instead of 8, so the
    # whole pad and the Save button fit a 390x844 screen without scrolling.
    pad = NumberPad(keys, lambda k: add_card(k), prefix="card", size=42 if ctx.narrow else 48)

    def in_play() -> list[int]:
        return [s for s in range(seats) if s != draft["out"]]

    def penalty_of(seat: int) -> int | None:
        if seat == draft["out"]:
            return 0
        if draft["typed"][seat]:
            return draft["totals"][seat]
        try:
            return rules.penalty(draft["hands"][seat])
        except RuleError:
            return None

    def used() -> set[Any]:
        cards = [c for s in in_play() if not draft["typed"][s] for c in draft["hands"][s]]
        taken: set[Any] = {c for c in cards if c != joker}
        if cards.count(joker) >= JOKERS_IN_GAME:
            taken.add(joker)
        return taken

    def add_card(card: Any) -> None:
        seat = draft["seat"]
        if seat == draft["out"] or draft["typed"][seat] or card in used():
            return
        draft["hands"][seat].append(card)
        refresh()

    def remove_card(position: int) -> None:
        del draft["hands"][draft["seat"]][position]
        refresh()

    def set_out(value: Any) -> None:
        draft["out"] = value
        if isinstance(value, int):
            draft["hands"][value], draft["totals"][value], draft["typed"][value] = [], None, False
            if draft["seat"] == value:
                draft["seat"] = next((s for s in range(seats) if s != value), 0)
        refresh()

    def set_seat(seat: int) -> None:
        draft["seat"] = seat
        refresh()

    def next_seat() -> None:
        order = in_play()
        later = [s for s in order if s > draft["seat"]]
        draft["seat"] = (later or order)[0]
        refresh()

    def set_typed(on: bool) -> None:
        draft["typed"][draft["seat"]] = on
        refresh()

    def typed_total(event: ft.Event[ft.TextField]) -> None:
        text = (event.control.value or "").strip()
        draft["totals"][draft["seat"]] = int(text) if text.isdigit() else None
        refresh_tabs_only()
        # The big line says the typed total too (it kept "Penalty: ?" while the tabs had the number).
        penalty_line.value = penalty_text(draft["seat"])
        penalty_line.update()

    penalty_line = ft.Text(size=18, weight=ft.FontWeight.BOLD)

    def penalty_text(seat: int) -> str:
        penalty = penalty_of(seat)
        return ctx.t("Penalty: {n}", n="?" if penalty is None else penalty)

    tabs_row = ft.Row(wrap=True, spacing=6, run_spacing=6)

    def tabs() -> list[ft.Control]:
        return [
            seat_chip(
                names[s],
                None,
                selected=s == draft["seat"],
                on_click=lambda s=s: set_seat(s),
                identifier=f"hand-seat-{s}",
                subtitle=ctx.t("penalty {n}", n="?" if penalty_of(s) is None else penalty_of(s)),
            )
            for s in in_play()
        ]

    def refresh_tabs_only() -> None:
        tabs_row.controls = tabs()
        tabs_row.update()

    def hand_part() -> list[ft.Control]:
        seat = draft["seat"]
        typed = draft["typed"][seat]
        modes = ft.Row(
            [
                tag(
                    "hand-mode-cards",
                    (ft.OutlinedButton if typed else ft.FilledButton)(
                        ctx.t("Cards"), on_click=lambda _: set_typed(False)
                    ),
                ),
                tag(
                    "hand-mode-total",
                    (ft.FilledButton if typed else ft.OutlinedButton)(
                        ctx.t("Total"), on_click=lambda _: set_typed(True)
                    ),
                ),
                tag(
                    "next-seat",
                    ft.OutlinedButton(
                        ctx.t("Next player"), icon=ft.Icons.ARROW_FORWARD, on_click=lambda _: next_seat()
                    ),
                ),
            ],
            wrap=True,
        )
        heading = (
            ctx.t("Penalty total of {name}", name=names[seat])
            if typed
            else ctx.t("Cards left in the hand of {name}", name=names[seat])
        )
        parts: list[ft.Control] = [tag("hand-heading", ft.Text(heading, weight=ft.FontWeight.BOLD)), modes]
        if typed:
            total = draft["totals"][seat]
            parts.append(
                tag(
                    f"total-{seat}",
                    ft.TextField(
                        label=ctx.t("Penalty total"),
                        value="" if total is None else str(total),
                        keyboard_type=ft.KeyboardType.NUMBER,
                        width=200,
                        on_change=typed_total,
                        autofocus=True,  # total mode is for typing: the field has the focus at once
                    ),
                )
            )
        else:
            cards = [
                tag(
                    f"held-{i}",
                    ft.Chip(
                        label=ft.Text(ctx.t("Joker") if card == joker else str(card)),
                        on_delete=lambda _, i=i: remove_card(i),
                    ),
                )
                for i, card in enumerate(draft["hands"][seat])
            ]
            parts.append(
                ft.Row(cards, wrap=True, spacing=4)
                if cards
                else ft.Text(ctx.t("No cards: tap the numbers below."))
            )
        penalty_line.value = penalty_text(seat)
        parts.append(tag("penalty", penalty_line))
        return parts

    def refresh(*, send: bool = True) -> None:
        out_row = ft.Row(
            [
                seat_chip(
                    names[s],
                    None,
                    selected=draft["out"] == s,
                    on_click=lambda s=s: set_out(s),
                    identifier=f"out-{s}",
                )
                for s in range(seats)
            ]
            + [
                seat_chip(
                    ctx.t("Stock ran out"),
                    None,
                    selected=draft["out"] == STOCK,
                    on_click=lambda: set_out(STOCK),
                    identifier="out-stock",
                )
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
        tabs_row.controls = tabs()
        dealer = names[dealer_for(match, edit)]
        dynamic.controls = [
            ft.Text(ctx.t("Dealer: {name}", name=dealer)),
            ft.Text(ctx.t("Who went out?")),
            out_row,
            tabs_row,
            *hand_part(),
        ]
        seat = draft["seat"]
        pad.refresh(disabled=set(keys) if draft["typed"][seat] or seat == draft["out"] else used())
        pad.control.visible = not draft["typed"][seat]
        if send:
            message.visible = False
            for control in (dynamic, pad.control, message):
                control.update()

    def result() -> dict[str, Any] | str:
        if draft["out"] is None:
            return ctx.t("Who went out? Choose a player or 'Stock ran out'.")
        hands: list[Any] = []
        for s in range(seats):
            if s == draft["out"]:
                hands.append([])
            elif draft["typed"][s]:
                if draft["totals"][s] is None:
                    return ctx.t("Enter the penalty total of {name}.", name=names[s])
                hands.append(draft["totals"][s])
            else:
                hands.append(list(draft["hands"][s]))
        return {"hands": hands, "out": None if draft["out"] == STOCK else draft["out"]}

    if draft["seat"] == draft["out"]:
        draft["seat"] = in_play()[0]
    refresh(send=False)
    return RoundForm(controls=[dynamic, pad.control], result=result)
