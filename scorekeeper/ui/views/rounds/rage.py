"""Rage's host round entry: the generic part-shape form (`views.rounds.parts`) with its two steps drawn here: bids
(from the dealer's left, the dealer last, the forbidden dealer bid greyed out under the hook rule), then after the
hand the tricks ("made it" copies the bid), +5 and -5 cards.

Taps per player: 1 bid + 1 "made it" (+1 per +5/-5 card); two more per round (bids done, save). On a desktop
keyboard, number keys enter the bids (then the tricks) in playing order; Backspace takes the last one back.
On a tablet or desktop each player is one line beside the keys, so four players fit a 768 px high screen.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.contract import PartShape
from scorekeeper.games.messages import N_
from scorekeeper.ui.components.fields import ELLIPSIS, NAME_WIDTH, CountField, beside
from scorekeeper.ui.components.widgets import Counter, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.cards import RAGE_COLOURS
from scorekeeper.ui.views.rounds.host import HostExtras, HostForm

COUNTS = ("bids", "tricks", "bonus", "minus")
"""The round result's lists, one value per seat."""
FIELD = {"bids": "bid", "tricks": "tricks", "bonus": "bonus", "minus": "minus"}
"""Each list's field in a seat's part (`games/rage/part.py`)."""


def hook_note(ctx: AppContext, banned: int) -> str:
    """The host screen's sentence for the hook rule (its one wording there)."""
    return ctx.t("The dealer may not bid {n}.", n=banned)


class RageSteps:
    """Rage's two steps drawn on the generic form (`rounds.host.HostSteps`): each seat's part in the form's
    draft (`bid`, `tricks`, `bonus`, `minus`), the trump shown and the digits typed so far in its `more`."""

    def __init__(self, form: HostForm) -> None:
        ctx, match = form.ctx, form.match
        self.form, self.ctx, self.match, self.draft = form, ctx, match, form.draft
        self.rules, self.opts, self.names = match.rules, match.opts, match.names
        # The hook rule and the +5/-5 limits come from the game's part shape, as on a phone at a
        # score-keeping table (`views.table.part_form`): the host enters every seat's part at once.
        self.shape: PartShape = form.shape
        self.index, self.dealer, self.order = form.index, form.dealer, form.order
        self.size: int = self.rules.hand_size(self.opts, self.index) or 0
        self.pad = 40 if ctx.narrow else 44
        self.below: list[ft.Control] = []  # the keys stand beside each seat, none under the form
        ctx.on_key = self.typed_key

    def values(self, kind: str) -> list[Any]:
        """The list `kind` ("bids", "tricks", "bonus" or "minus"), one value per seat (+5/-5: 0 by default)."""
        default = 0 if kind in ("bonus", "minus") else None
        return [part.values.get(FIELD[kind], default) for part in self.draft.seats]

    def put(self, kind: str, seat: int, value: int | None) -> None:
        self.draft.seats[seat].values[FIELD[kind]] = value

    def refresh(self) -> None:
        self.form.refresh()

    # ------------------------------------------------------------------ entering
    def typed_key(self, key: str, shift: bool) -> bool:
        """Number keys: the bid (or, after the hand, the tricks) of the first player in playing order who has
        none yet; a number that could still grow (1 of 10 when 10 cards are dealt) waits for the next digit or
        Enter. Backspace clears the last one entered."""
        more = self.draft.more
        kind = "bids" if self.draft.step == 0 else "tricks"
        buffer = more.get("typed", "")
        if key.isdigit() and len(key) == 1:
            buffer += key
            if int(buffer) * 10 > self.size or buffer == "0":  # nothing can follow: enter it now
                more["typed"] = ""
                self.enter_typed(kind, int(buffer))
            else:
                more["typed"] = buffer
            return True
        if key == "Enter" and buffer:
            more["typed"] = ""
            self.enter_typed(kind, int(buffer))
            return True
        if key == "Backspace":
            more["typed"] = ""
            values = self.values(kind)
            entered = [s for s in self.order if values[s] is not None]
            if entered:
                self.put(kind, entered[-1], None)
                self.refresh()
            return True
        return False

    def enter_typed(self, kind: str, value: int) -> None:
        values = self.values(kind)
        waiting = [s for s in self.order if values[s] is None]
        if waiting and 0 <= value <= self.size:
            self.put(kind, waiting[0], value)
            self.refresh()

    def forbidden(self) -> int | None:
        """The dealer's forbidden bid once everyone else has bid (the hook rule: `PartShape.barred`, which asks
        the engine's `dealer_barred`), else None."""
        parts = [None if bid is None else {"bid": bid} for bid in self.values("bids")]
        barred = self.shape.barred("bid", self.dealer, parts, self.opts, self.dealer, self.index)
        return min(barred) if barred else None

    def set_value(self, kind: str, seat: int, value: Any) -> None:
        self.put(kind, seat, int(value))
        self.refresh()

    def made_it(self, seat: int) -> None:
        self.put("tricks", seat, self.values("bids")[seat])
        self.refresh()

    def set_trump(self, colour: str | None) -> None:
        self.draft.more["trump"] = colour
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def header(self) -> list[ft.Control]:
        ctx, trump = self.ctx, self.draft.more.get("trump")
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
                    on_click=lambda _, c=letter: self.set_trump(None if c == trump else c),
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
        row.show(self.values(kind)[seat], barred or set())
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
        total = sum(b for b in self.values("bids") if b is not None)
        bids = ctx.t.plural(
            "Bids: {total} for {n} trick", "Bids: {total} for {n} tricks", self.size, total=total
        )
        parts.append(ft.Text(bids))
        return parts

    def score_text(self, seat: int) -> tuple[str, bool]:
        """The engine's score for this seat so far, or why Save would refuse it (no +5 counted then)."""
        ctx = self.ctx
        bid, tricks, bonus, minus = (self.values(kind)[seat] for kind in COUNTS)
        if tricks is None:
            return "", False
        try:
            points = self.rules.seat_score(seat, bid, tricks, bonus, minus, self.opts, name=self.names[seat])
        except RuleError as error:  # why Save would refuse it, instead of points
            return ctx.describe(error), True
        return ctx.t.plural("{points:+d} point", "{points:+d} points", abs(points), points=points), False

    def card_counter(self, kind: str, label: str, seat: int, high: int) -> ft.Control:
        counter = Counter(label, lambda v: self.set_value(kind, seat, v), prefix=f"{kind}-{seat}", high=high)
        counter.set(self.values(kind)[seat])
        return counter.control

    def seat_result(self, seat: int) -> list[ft.Control]:
        """One player's tricks, "made it", +5/-5 cards and score (a phone: stacked; wider: two lines)."""
        ctx, most = self.ctx, self.shape.most
        bid, tricks = self.values("bids")[seat], self.values("tricks")[seat]
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
        taken = sum(t for t in self.values("tricks") if t is not None)
        total = ft.Text(
            self.ctx.t("Tricks: {taken} of {n}", taken=taken, n=self.size),
            color=None if taken == self.size else ft.Colors.ERROR,
            weight=ft.FontWeight.BOLD,
        )
        parts: list[ft.Control] = [tag("tricks-sum", total)]
        for seat in self.order:
            parts += self.seat_result(seat)
        return parts

    # ------------------------------------------------------------------ HostSteps
    def step(self, stage: int) -> list[ft.Control]:
        return self.bids_part() if stage == 0 else self.result_part()

    def ready(self, stage: int) -> str | None:
        """The bids are done once every seat has bid and the dealer's bid is not the one the hook bars."""
        bids = self.values("bids")
        missing = [self.names[s] for s in self.order if bids[s] is None]
        if missing:
            return self.ctx.t("Enter the bid of {name}.", name=missing[0])
        banned = self.forbidden()
        if banned is not None and bids[self.dealer] == banned:
            return hook_note(self.ctx, banned)
        return None

    def result(self) -> dict[str, Any] | str:
        tricks = self.values("tricks")
        missing = [self.names[s] for s in self.order if tricks[s] is None]
        if missing:
            return self.ctx.t("Enter the tricks of {name}.", name=missing[0])
        return {key: self.values(key) for key in COUNTS}


HOST = HostExtras(
    spacing=4,
    steps=RageSteps,
    next_label=N_("Bids done"),
    back=(N_("Change bids"), "change-bids"),
    edit_last=True,
)
"""Rage's host form: the generic one, its steps drawn by `RageSteps`."""
