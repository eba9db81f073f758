"""Rage round entry in two steps: bids (from the dealer's left, the dealer last, the forbidden dealer bid greyed
out under the hook rule), then after the hand the tricks ("made it" copies the bid), +5 and -5 cards.

Taps per player: 1 bid + 1 "made it" (+1 per +5/-5 card); two more per round (bids done, save). On a desktop
keyboard, number keys enter the bids (then the tricks) in playing order; Backspace takes the last one back.
On a tablet or desktop each player is one line beside the keys, so four players fit a 768 px high screen.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError, seats_from_left_of
from scorekeeper.match import Match
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import ChoiceRow, Counter, tag
from scorekeeper.ui.context import N_, AppContext

COLOUR_NAMES: dict[str, tuple[str, str]] = {
    "r": (N_("red"), "#E53935"),
    "b": (N_("blue"), "#1E88E5"),
    "g": (N_("green"), "#43A047"),
    "y": (N_("yellow"), "#FDD835"),
    "o": (N_("orange"), "#FB8C00"),
    "v": (N_("violet"), "#8E24AA"),
}


NAME_WIDTH = 150  # tablet/desktop: the name column beside each player's keys
ELLIPSIS: dict[str, Any] = {"max_lines": 1, "overflow": ft.TextOverflow.ELLIPSIS}


def build_form(
    ctx: AppContext, match: Match, edit: int | None, draft: dict[str, Any], message: ft.Text
) -> RoundForm:
    rules, opts = match.rules, match.opts
    seats = len(match.players)
    index = edit if edit is not None else match.round_index
    size = rules.hand_size(opts, index) or 0
    dealer = dealer_for(match, edit)
    order = seats_from_left_of(dealer, seats)
    names = match.names
    if not draft:
        draft.update(
            step="bids",
            bids=[None] * seats,
            tricks=[None] * seats,
            bonus=[0] * seats,
            minus=[0] * seats,
            trump=None,
        )
        if edit is not None:
            old = match.rounds[edit]
            draft.update(step="result", **{k: list(old[k]) for k in ("bids", "tricks", "bonus", "minus")})
    dynamic = ft.Column(spacing=8 if ctx.narrow else 4)
    pad = 40 if ctx.narrow else 44

    def typed_key(key: str, shift: bool) -> bool:
        """Number keys: the bid (or, after the hand, the tricks) of the first player in playing order who has
        none yet; a number that could still grow (1 of 10 when 10 cards are dealt) waits for the next digit or
        Enter. Backspace clears the last one entered."""
        kind = "bids" if draft["step"] == "bids" else "tricks"
        values = draft[kind]
        buffer = draft.get("typed", "")
        if key.isdigit() and len(key) == 1:
            buffer += key
            if int(buffer) * 10 > size or buffer == "0":  # nothing can follow: enter it now
                draft["typed"] = ""
                enter_typed(kind, int(buffer))
            else:
                draft["typed"] = buffer
            return True
        if key == "Enter" and buffer:
            draft["typed"] = ""
            enter_typed(kind, int(buffer))
            return True
        if key == "Backspace":
            draft["typed"] = ""
            entered = [s for s in order if values[s] is not None]
            if entered:
                values[entered[-1]] = None
                refresh()
            return True
        return False

    def enter_typed(kind: str, value: int) -> None:
        waiting = [s for s in order if draft[kind][s] is None]
        if waiting and 0 <= value <= size:
            draft[kind][waiting[0]] = value
            refresh()

    ctx.on_key = typed_key

    def forbidden() -> int | None:
        """The dealer's forbidden bid once everyone else has bid (hook rule), else None."""
        earlier = [draft["bids"][s] for s in order[:-1]]
        if any(b is None for b in earlier):
            return None
        return rules.forbidden_dealer_bid(earlier, size, opts)

    def set_value(kind: str, seat: int, value: Any) -> None:
        draft[kind][seat] = int(value)
        refresh()

    def made_it(seat: int) -> None:
        draft["tricks"][seat] = draft["bids"][seat]
        refresh()

    def set_trump(colour: str | None) -> None:
        draft["trump"] = colour
        refresh()

    def header() -> list[ft.Control]:
        trump = draft["trump"]
        trump_text = ctx.t(COLOUR_NAMES[trump][0]) if trump else ctx.t("not set")
        colours = [
            tag(
                f"trump-{letter}",
                ft.Container(
                    width=40,
                    height=40,
                    border_radius=20,
                    bgcolor=value,
                    border=ft.Border.all(3 if letter == trump else 0, ft.Colors.ON_SURFACE),
                    on_click=lambda _, c=letter: set_trump(None if c == draft["trump"] else c),
                    tooltip=ctx.t(name),
                ),
            )
            for letter, (name, value) in COLOUR_NAMES.items()
        ]
        return [
            ft.Text(
                ctx.t.plural(
                    "{n} card each · dealer: {name}",
                    "{n} cards each · dealer: {name}",
                    size,
                    name=names[dealer],
                ),
                weight=ft.FontWeight.BOLD,
                size=16,
            ),
            # The label sits above the circles: beside them, "Trumpf: nicht gewählt" pushed the sixth circle
            # onto a second line on a phone.
            ft.Column(
                [
                    tag("trump-label", ft.Text(ctx.t("Trump: {colour}", colour=trump_text))),
                    ft.Row(colours, wrap=True, spacing=8),
                ],
                spacing=4,
            ),
        ]

    def bids_part() -> list[ft.Control]:
        parts: list[ft.Control] = [ft.Text(ctx.t("Bids, from the dealer's left"))]
        banned = forbidden()
        for seat in order:
            row = ChoiceRow(
                range(size + 1), lambda v, s=seat: set_value("bids", s, v), prefix=f"bid-{seat}", size=pad
            )
            is_dealer = seat == dealer
            chosen = draft["bids"][seat]
            if is_dealer and banned is not None and chosen == banned:
                chosen = None  # picked before the others bid, now forbidden: not shown as a valid choice
            row.refresh(chosen, disabled={banned} if is_dealer and banned is not None else set())
            label = names[seat] + (" " + ctx.t("(dealer)") if is_dealer else "")
            if ctx.narrow:
                parts += [ft.Text(label, weight=ft.FontWeight.BOLD), row.control]
            else:
                row.control.expand = True
                parts.append(
                    ft.Row(
                        [
                            ft.Text(label, weight=ft.FontWeight.BOLD, width=NAME_WIDTH, **ELLIPSIS),
                            row.control,
                        ],
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    )
                )
            if is_dealer and banned is not None:
                parts.append(
                    ft.Text(ctx.t("The dealer may not bid {n}.", n=banned), color=ft.Colors.ERROR, size=13)
                )
        total = sum(b for b in draft["bids"] if b is not None)
        parts.append(
            ft.Text(
                ctx.t.plural("Bids: {total} for {n} trick", "Bids: {total} for {n} tricks", size, total=total)
            )
        )
        return parts

    def result_part() -> list[ft.Control]:
        taken = sum(t for t in draft["tricks"] if t is not None)
        colour = None if taken == size else ft.Colors.ERROR
        parts: list[ft.Control] = [
            tag(
                "tricks-sum",
                ft.Text(
                    ctx.t("Tricks: {taken} of {n}", taken=taken, n=size),
                    color=colour,
                    weight=ft.FontWeight.BOLD,
                ),
            )
        ]
        edition = opts.rules
        for seat in order:
            bid, tricks = draft["bids"][seat], draft["tricks"][seat]
            row = ChoiceRow(
                range(size + 1),
                lambda v, s=seat: set_value("tricks", s, v),
                prefix=f"tricks-{seat}",
                size=pad,
            )
            row.refresh(tricks)
            bonus = Counter(
                "+5", lambda v, s=seat: set_value("bonus", s, v), prefix=f"bonus-{seat}", high=edition.bonus
            )
            minus = Counter(
                "-5", lambda v, s=seat: set_value("minus", s, v), prefix=f"minus-{seat}", high=edition.minus
            )
            bonus.set(draft["bonus"][seat])
            minus.set(draft["minus"][seat])
            score, refused = "", False
            if tricks is not None:
                try:  # the engine's score for this seat, or why Save would refuse it (no +5 counted then)
                    points = rules.seat_score(
                        seat, bid, tricks, draft["bonus"][seat], draft["minus"][seat], opts, name=names[seat]
                    )
                    score = ctx.t.plural(
                        "{points:+d} point", "{points:+d} points", abs(points), points=points
                    )
                except RuleError as error:  # why Save would refuse it, instead of points (issue 8.18)
                    score, refused = ctx.describe(error), True
            made_it_used = tricks is not None and tricks == bid
            made = tag(
                f"made-{seat}",
                (ft.FilledButton if made_it_used else ft.OutlinedButton)(
                    ctx.t("Made it"),
                    icon=ft.Icons.CHECK if made_it_used else None,
                    on_click=lambda _, s=seat: made_it(s),
                ),
            )
            scored = tag(
                f"score-{seat}",
                ft.Text(score, weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR if refused else None),
            )
            if ctx.narrow:
                parts += [
                    ft.Row(
                        [
                            ft.Text(names[seat], weight=ft.FontWeight.BOLD),
                            ft.Text(ctx.t("bid {n}", n=bid)),
                            made,
                            scored,
                        ],
                        wrap=True,
                    ),
                    row.control,
                    ft.Row([bonus.control, minus.control], wrap=True),
                    ft.Divider(height=1),
                ]
                continue
            row.control.expand = True
            who = ft.Column(
                [
                    ft.Text(names[seat], weight=ft.FontWeight.BOLD, **ELLIPSIS),
                    ft.Text(ctx.t("bid {n}", n=bid)),
                ],
                spacing=0,
                width=NAME_WIDTH,
            )
            parts += [
                ft.Row([who, row.control], vertical_alignment=ft.CrossAxisAlignment.CENTER),
                ft.Row([made, bonus.control, minus.control, scored], spacing=12, wrap=True),
                ft.Divider(height=1),
            ]
        return parts

    def refresh(*, send: bool = True) -> None:
        dynamic.controls = header() + (bids_part() if draft["step"] == "bids" else result_part())
        if send:
            message.visible = False
            dynamic.update()
            message.update()

    def bids_done() -> None:
        missing = [names[s] for s in order if draft["bids"][s] is None]
        if missing:
            show(ctx.t("Enter the bid of {name}.", name=missing[0]))
            return
        banned = forbidden()
        if banned is not None and draft["bids"][dealer] == banned:
            show(ctx.t("The dealer may not bid {n}.", n=banned))
            return
        draft["step"] = "result"
        ctx.rerender()

    def change_bids() -> None:
        draft["step"] = "bids"
        ctx.rerender()

    def show(text: str) -> None:
        message.value, message.visible = text, True
        message.update()

    def result() -> dict[str, Any] | str:
        missing = [names[s] for s in order if draft["tricks"][s] is None]
        if missing:
            return ctx.t("Enter the tricks of {name}.", name=missing[0])
        return {k: list(draft[k]) for k in ("bids", "tricks", "bonus", "minus")}

    refresh(send=False)
    if draft["step"] == "bids":
        return RoundForm(controls=[dynamic], result=result, save_label=ctx.t("Bids done"), primary=bids_done)
    back = tag(
        "change-bids", ft.OutlinedButton(ctx.t("Change bids"), on_click=lambda _: change_bids(), height=52)
    )
    return RoundForm(controls=[dynamic], result=result, extra_bottom=[back])
