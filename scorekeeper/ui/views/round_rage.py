"""Rage round entry in two steps: bids (from the dealer's left, the dealer last, the forbidden dealer bid greyed
out under the hook rule), then after the hand the tricks ("made it" copies the bid), +5 and -5 cards.

Taps per player: 1 bid + 1 "made it" (+1 per +5/-5 card); two more per round (bids done, save). On a desktop
keyboard, number keys enter the bids (then the tricks) in playing order; Backspace takes the last one back.
On a tablet or desktop each player is one line beside the keys, so four players fit a 768 px high screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError, seats_from_left_of
from scorekeeper.games.contract import PartShape
from scorekeeper.match import Match
from scorekeeper.ui.components.fields import ELLIPSIS, NAME_WIDTH, CountField, beside
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import Counter, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.cards import RAGE_COLOURS

COUNTS = ("bids", "tricks", "bonus", "minus")
"""The round result's lists, one value per seat."""


@dataclass
class RageDraft:
    """What the form has collected (kept between redraws): the step, per seat the bid, the tricks and the
    +5/-5 cards, the trump colour (shown only) and the digits typed on a keyboard so far."""

    seats: int
    step: str = "bids"  # "bids", then "result" once the bids are done
    bids: list[int | None] = field(default_factory=list)
    tricks: list[int | None] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)
    minus: list[int] = field(default_factory=list)
    trump: str | None = None
    typed: str = ""

    def __post_init__(self) -> None:
        self.bids = self.bids or [None] * self.seats
        self.tricks = self.tricks or [None] * self.seats
        self.bonus = self.bonus or [0] * self.seats
        self.minus = self.minus or [0] * self.seats

    @classmethod
    def start(cls, match: Match, edit: int | None) -> RageDraft:
        """Empty, or the round being edited (at its result step)."""
        if edit is None:
            return cls(len(match.players))
        old = match.rounds[edit]
        bids, tricks, bonus, minus = (list(old[key]) for key in COUNTS)
        return cls(len(match.players), "result", bids, tricks, bonus, minus)

    def values(self, kind: str) -> list[Any]:
        """The list `kind` ("bids", "tricks", "bonus" or "minus"), one value per seat."""
        values: list[Any] = getattr(self, kind)
        return values


def hook_note(ctx: AppContext, banned: int) -> str:
    """The host screen's sentence for the hook rule (its one wording there)."""
    return ctx.t("The dealer may not bid {n}.", n=banned)


class RageForm:
    """The two steps of a Rage round over a `RageDraft`."""

    def __init__(
        self, ctx: AppContext, match: Match, edit: int | None, draft: RageDraft, message: ft.Text
    ) -> None:
        self.ctx, self.match, self.draft, self.message = ctx, match, draft, message
        self.rules, self.opts, self.names = match.rules, match.opts, match.names
        # The hook rule and the +5/-5 limits come from the game's part shape, as on a phone at a
        # score-keeping table (`table_part_form`): the host enters every seat's part at once.
        shape = match.spec.table_part
        assert shape is not None, "Rage is kept at a table: its spec has a part shape"
        self.shape: PartShape = shape
        self.index = edit if edit is not None else match.round_index
        self.size: int = self.rules.hand_size(self.opts, self.index) or 0
        self.dealer = dealer_for(match, edit)
        self.order = seats_from_left_of(self.dealer, len(match.players))
        self.dynamic = ft.Column(spacing=8 if ctx.narrow else 4)
        self.pad = 40 if ctx.narrow else 44
        ctx.on_key = self.typed_key

    # ------------------------------------------------------------------ entering
    def typed_key(self, key: str, shift: bool) -> bool:
        """Number keys: the bid (or, after the hand, the tricks) of the first player in playing order who has
        none yet; a number that could still grow (1 of 10 when 10 cards are dealt) waits for the next digit or
        Enter. Backspace clears the last one entered."""
        draft = self.draft
        kind = "bids" if draft.step == "bids" else "tricks"
        buffer = draft.typed
        if key.isdigit() and len(key) == 1:
            buffer += key
            if int(buffer) * 10 > self.size or buffer == "0":  # nothing can follow: enter it now
                draft.typed = ""
                self.enter_typed(kind, int(buffer))
            else:
                draft.typed = buffer
            return True
        if key == "Enter" and buffer:
            draft.typed = ""
            self.enter_typed(kind, int(buffer))
            return True
        if key == "Backspace":
            draft.typed = ""
            values = draft.values(kind)
            entered = [s for s in self.order if values[s] is not None]
            if entered:
                values[entered[-1]] = None
                self.refresh()
            return True
        return False

    def enter_typed(self, kind: str, value: int) -> None:
        values = self.draft.values(kind)
        waiting = [s for s in self.order if values[s] is None]
        if waiting and 0 <= value <= self.size:
            values[waiting[0]] = value
            self.refresh()

    def forbidden(self) -> int | None:
        """The dealer's forbidden bid once everyone else has bid (the hook rule: `PartShape.barred`, which asks
        the engine's `dealer_barred`), else None."""
        parts = [None if bid is None else {"bid": bid} for bid in self.draft.bids]
        barred = self.shape.barred("bid", self.dealer, parts, self.opts, self.dealer, self.index)
        return min(barred) if barred else None

    def set_value(self, kind: str, seat: int, value: Any) -> None:
        self.draft.values(kind)[seat] = int(value)
        self.refresh()

    def made_it(self, seat: int) -> None:
        self.draft.tricks[seat] = self.draft.bids[seat]
        self.refresh()

    def set_trump(self, colour: str | None) -> None:
        self.draft.trump = colour
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def header(self) -> list[ft.Control]:
        ctx, trump = self.ctx, self.draft.trump
        trump_text = ctx.t(RAGE_COLOURS[trump].name) if trump else ctx.t("not set")
        colours = [
            tag(
                f"trump-{letter}",
                ft.Container(
                    width=40,
                    height=40,
                    border_radius=20,
                    bgcolor=colour.fill,
                    border=ft.Border.all(3 if letter == trump else 0, ft.Colors.ON_SURFACE),
                    on_click=lambda _, c=letter: self.set_trump(None if c == self.draft.trump else c),
                    tooltip=ctx.t(colour.name),
                ),
            )
            for letter, colour in RAGE_COLOURS.items()
        ]
        dealt = ctx.t.plural(
            "{n} card each · dealer: {name}",
            "{n} cards each · dealer: {name}",
            self.size,
            name=self.names[self.dealer],
        )
        return [
            ft.Text(dealt, weight=ft.FontWeight.BOLD, size=16),
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

    def count_row(self, kind: str, prefix: str, seat: int, barred: set[int] | None = None) -> CountField:
        row = CountField(
            range(self.size + 1), partial(self.set_value, kind, seat), prefix=prefix, size=self.pad
        )
        row.show(self.draft.values(kind)[seat], barred or set())
        return row

    def bids_part(self) -> list[ft.Control]:
        ctx = self.ctx
        parts: list[ft.Control] = [ft.Text(ctx.t("Bids, from the dealer's left"))]
        banned = self.forbidden()
        for seat in self.order:
            is_dealer = seat == self.dealer
            barred = {banned} if is_dealer and banned is not None else set()
            row = self.count_row("bids", f"bid-{seat}", seat, barred)
            label = self.names[seat] + (" " + ctx.t("(dealer)") if is_dealer else "")
            if ctx.narrow:
                parts += [ft.Text(label, weight=ft.FontWeight.BOLD), row.control]
            else:
                parts.append(beside(label, row.control))
            if barred:
                parts.append(ft.Text(hook_note(ctx, min(barred)), color=ft.Colors.ERROR, size=13))
        total = sum(b for b in self.draft.bids if b is not None)
        bids = ctx.t.plural(
            "Bids: {total} for {n} trick", "Bids: {total} for {n} tricks", self.size, total=total
        )
        parts.append(ft.Text(bids))
        return parts

    def score_text(self, seat: int) -> tuple[str, bool]:
        """The engine's score for this seat so far, or why Save would refuse it (no +5 counted then)."""
        draft, ctx = self.draft, self.ctx
        tricks = draft.tricks[seat]
        if tricks is None:
            return "", False
        try:
            points = self.rules.seat_score(
                seat,
                draft.bids[seat],
                tricks,
                draft.bonus[seat],
                draft.minus[seat],
                self.opts,
                name=self.names[seat],
            )
        except RuleError as error:  # why Save would refuse it, instead of points
            return ctx.describe(error), True
        return ctx.t.plural("{points:+d} point", "{points:+d} points", abs(points), points=points), False

    def card_counter(self, kind: str, label: str, seat: int, high: int) -> ft.Control:
        counter = Counter(label, lambda v: self.set_value(kind, seat, v), prefix=f"{kind}-{seat}", high=high)
        counter.set(self.draft.values(kind)[seat])
        return counter.control

    def seat_result(self, seat: int) -> list[ft.Control]:
        """One player's tricks, "made it", +5/-5 cards and score (a phone: stacked; wider: two lines)."""
        ctx, draft, most = self.ctx, self.draft, self.shape.most
        bid, tricks = draft.bids[seat], draft.tricks[seat]
        row = self.count_row("tricks", f"tricks-{seat}", seat)
        bonus = self.card_counter("bonus", "+5", seat, most("bonus", self.opts, self.index) or 0)
        minus = self.card_counter("minus", "-5", seat, most("minus", self.opts, self.index) or 0)
        score, refused = self.score_text(seat)
        used = tricks is not None and tricks == bid
        made = tag(
            f"made-{seat}",
            (ft.FilledButton if used else ft.OutlinedButton)(
                ctx.t("Made it"), icon=ft.Icons.CHECK if used else None, on_click=lambda _: self.made_it(seat)
            ),
        )
        scored = tag(
            f"score-{seat}",
            ft.Text(score, weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR if refused else None),
        )
        name, said = self.names[seat], ft.Text(ctx.t("bid {n}", n=bid))
        if ctx.narrow:
            return [
                ft.Row([ft.Text(name, weight=ft.FontWeight.BOLD), said, made, scored], wrap=True),
                row.control,
                ft.Row([bonus, minus], wrap=True),
                ft.Divider(height=1),
            ]
        row.control.expand = True
        who = ft.Column(
            [ft.Text(name, weight=ft.FontWeight.BOLD, **ELLIPSIS), said], spacing=0, width=NAME_WIDTH
        )
        return [
            ft.Row([who, row.control], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Row([made, bonus, minus, scored], spacing=12, wrap=True),
            ft.Divider(height=1),
        ]

    def result_part(self) -> list[ft.Control]:
        taken = sum(t for t in self.draft.tricks if t is not None)
        total = ft.Text(
            self.ctx.t("Tricks: {taken} of {n}", taken=taken, n=self.size),
            color=None if taken == self.size else ft.Colors.ERROR,
            weight=ft.FontWeight.BOLD,
        )
        parts: list[ft.Control] = [tag("tricks-sum", total)]
        for seat in self.order:
            parts += self.seat_result(seat)
        return parts

    def refresh(self, *, send: bool = True) -> None:
        step = self.bids_part() if self.draft.step == "bids" else self.result_part()
        self.dynamic.controls = self.header() + step
        if send:
            self.message.visible = False
            self.dynamic.update()
            self.message.update()

    # ------------------------------------------------------------------ the steps
    def bids_done(self) -> None:
        draft = self.draft
        missing = [self.names[s] for s in self.order if draft.bids[s] is None]
        if missing:
            self.show(self.ctx.t("Enter the bid of {name}.", name=missing[0]))
            return
        banned = self.forbidden()
        if banned is not None and draft.bids[self.dealer] == banned:
            self.show(hook_note(self.ctx, banned))
            return
        draft.step = "result"
        self.ctx.rerender()

    def change_bids(self) -> None:
        self.draft.step = "bids"
        self.ctx.rerender()

    def show(self, text: str) -> None:
        self.message.value, self.message.visible = text, True
        self.message.update()

    def result(self) -> dict[str, Any] | str:
        missing = [self.names[s] for s in self.order if self.draft.tricks[s] is None]
        if missing:
            return self.ctx.t("Enter the tricks of {name}.", name=missing[0])
        return {key: list(self.draft.values(key)) for key in COUNTS}

    def form(self) -> RoundForm:
        self.refresh(send=False)
        ctx = self.ctx
        if self.draft.step == "bids":
            return RoundForm(
                [self.dynamic], self.result, ctx.t("Bids done"), primary=self.bids_done, draft=self.draft
            )
        back = ft.OutlinedButton(ctx.t("Change bids"), on_click=lambda _: self.change_bids(), height=52)
        return RoundForm(
            [self.dynamic], self.result, extra_bottom=[tag("change-bids", back)], draft=self.draft
        )


def build_form(
    ctx: AppContext, match: Match, edit: int | None, saved: object | None, message: ft.Text
) -> RoundForm:
    """The form over the draft kept from the last redraw (`saved`), or a new one."""
    draft = saved if isinstance(saved, RageDraft) else RageDraft.start(match, edit)
    return RageForm(ctx, match, edit, draft, message).form()
