"""The host's round form built from the game's `PartShape`: every seat's part of the round on one screen, step by
step as the shape lists them, each field drawn by its kind as on a phone at a score-keeping table
(`components.part_fields`). A game whose `GameUI` names no round form of its own is kept score of with this one,
so a new game needs no round-entry code.

Seats are listed in playing order (from the dealer's left, the dealer last), as a table enters its parts; values
the rules bar now (the hook rule) are greyed out with the game's reason beneath. A "yes" field the shape asks
once per round (`PartShape.callers`: who called, who went out) is one row of the seats' names. "Continue" checks
a step's parts (`PartShape.check`) before the next step; Save builds the round (`PartShape.build`).
Identifiers: a count's keys `<field>-<seat>-<n>`, any other field `<field>-<seat>`, a caller row's names
`<field>-<seat>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError, seats_from_left_of
from scorekeeper.games.contract import Part, PartShape
from scorekeeper.match import Match
from scorekeeper.ui.components.fields import who_row
from scorekeeper.ui.components.part_fields import FieldSpec, PartDraft, seat_field, value_of
from scorekeeper.ui.components.round_base import RoundForm, dealer_for, personalise
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


@dataclass
class PartsDraft:
    """What the form has collected (kept between redraws): the step shown and each seat's part so far."""

    seats: list[PartDraft]
    step: int = 0

    @classmethod
    def start(cls, shape: PartShape, match: Match, edit: int | None) -> PartsDraft:
        """Empty parts, or the parts of the round being edited (`PartShape.split`) at the first step."""
        players = len(match.players)
        if edit is None or shape.split is None:
            return cls([PartDraft() for _ in range(players)])
        return cls([PartDraft(dict(part)) for part in shape.split(match.rounds[edit])])


class PartsForm:
    """Every seat's part of one step of the round, over a `PartsDraft`."""

    def __init__(
        self, ctx: AppContext, match: Match, edit: int | None, draft: PartsDraft, message: ft.Text
    ) -> None:
        shape = match.spec.table_part
        assert shape is not None, "a game without its own round form is entered by its part shape"
        self.ctx, self.match, self.draft, self.message, self.shape = ctx, match, draft, message, shape
        self.index = edit if edit is not None else match.round_index
        self.dealer = dealer_for(match, edit)
        self.order = seats_from_left_of(self.dealer, len(match.players))
        self.body = ft.Column(spacing=8 if ctx.narrow else 6)

    # ------------------------------------------------------------------ the parts
    def values(self, seat: int, stage: int) -> Part:
        """Seat `seat`'s fields of step `stage` as the rules take them."""
        entered = self.draft.seats[seat].values
        return {
            name: value_of(self.shape.fields[name][0], entered.get(name)) for name in self.shape.stages[stage]
        }

    def stage_parts(self, stage: int) -> list[Part | None]:
        """Every seat's part of step `stage` where all its counts are in (None: not yet), as the rules see the
        parts entered so far (the hook rule waits for every other bid)."""
        parts: list[Part | None] = []
        for seat in range(len(self.match.players)):
            values = self.values(seat, stage)
            counts = [name for name in values if self.shape.fields[name][0] != "yes"]
            parts.append(None if any(values[name] is None for name in counts) else values)
        return parts

    def checked(self, stage: int) -> list[Part] | str:
        """Every seat's part of step `stage` as the rules check it, or what they say of the first bad one."""
        parts, others, names = [], self.stage_parts(stage), self.match.names
        for seat in self.order:
            try:
                parts.append(
                    (seat, self.shape.check(seat, stage, self.values(seat, stage), others, *self.where()))
                )
            except RuleError as error:
                return f"{names[seat]}: {personalise(self.ctx.describe(error), names)}"
        return [part for _seat, part in sorted(parts, key=lambda found: found[0])]

    def seat_draft(self, seat: int) -> PartDraft:
        return self.draft.seats[seat]

    def where(self) -> tuple[Any, int, int]:
        """(options, dealer, round index): what the shape's rules ask besides the parts."""
        return self.match.opts, self.dealer, self.index

    # ------------------------------------------------------------------ drawing
    def seat_fields(self, seat: int, stage: int) -> list[ft.Control]:
        """Seat `seat`'s name and its fields of step `stage` (a barred value greyed out, the reason beneath)."""
        ctx, shape, names = self.ctx, self.shape, self.match.names
        label = names[seat] + (" " + ctx.t("(dealer)") if seat == self.dealer else "")
        drawn: list[ft.Control] = [ft.Text(label, weight=ft.FontWeight.BOLD)]
        others = self.stage_parts(stage)
        for name in shape.stages[stage]:
            if name in shape.callers:
                continue
            kind, text = shape.fields[name]
            barred = shape.barred(name, seat, others, *self.where())
            most = shape.most(name, self.match.opts, self.index)
            spec = FieldSpec(
                name,
                kind,
                ctx.t(text),
                most,
                frozenset(barred),
                f"{name}-{seat}",
                owner=names[seat],
                changed=self.refresh,
            )
            control, show = seat_field(ctx, spec, partial(self.seat_draft, seat))
            show(self.draft.seats[seat].values.get(name))
            keyed = kind not in ("yes", "rack") and most is not None  # its keys are tagged one by one
            drawn.append(control if keyed else tag(f"{name}-{seat}", control))
            why = shape.why_barred(name, seat, barred, self.match.opts, self.index) if barred else None
            if why is not None:
                said = personalise(ctx.describe(why), names)
                drawn.append(ft.Text(said, color=ft.Colors.ERROR, size=13))
        return drawn

    def caller_row(self, name: str, question: str) -> list[ft.Control]:
        """One row of the seats' names for a field one seat says per round; a second tap takes it back."""
        said = partial(self.said, name)
        row = who_row(self.match.names, self.order, said, partial(self.set_caller, name), prefix=name)
        return [ft.Text(self.ctx.t(question)), row]

    def said(self, name: str, seat: int) -> bool:
        return bool(self.draft.seats[seat].values.get(name))

    def set_caller(self, name: str, seat: int) -> None:
        said = not self.draft.seats[seat].values.get(name)
        for s, part in enumerate(self.draft.seats):
            part.values[name] = said and s == seat
        self.refresh()

    def refresh(self, *, send: bool = True) -> None:
        ctx, stage = self.ctx, self.draft.step
        controls: list[ft.Control] = [ft.Text(ctx.t("Dealer: {name}", name=self.match.names[self.dealer]))]
        if len(self.shape.stage_titles) > stage:
            controls.append(
                ft.Text(ctx.t(self.shape.stage_titles[stage]), weight=ft.FontWeight.BOLD, size=16)
            )
        for name, question in self.shape.callers.items():
            if name in self.shape.stages[stage]:
                controls += self.caller_row(name, question)
        for seat in self.order:
            controls += self.seat_fields(seat, stage)
        self.body.controls = controls
        if send:
            self.message.visible = False
            self.body.update()
            self.message.update()

    # ------------------------------------------------------------------ the steps
    def next_step(self) -> None:
        checked = self.checked(self.draft.step)
        if isinstance(checked, str):
            self.show(checked)
            return
        self.draft.step += 1
        self.ctx.rerender()

    def step_back(self) -> None:
        self.draft.step -= 1
        self.ctx.rerender()

    def show(self, text: str) -> None:
        self.message.value, self.message.visible = text, True
        self.message.update()

    def result(self) -> dict[str, Any] | str:
        merged: list[Part] = [{} for _ in self.match.players]
        for stage in range(len(self.shape.stages)):
            checked = self.checked(stage)
            if isinstance(checked, str):
                return checked
            for seat, part in enumerate(checked):
                merged[seat].update(part)
        try:
            return self.shape.build(merged, self.match.opts)
        except RuleError as error:
            return personalise(self.ctx.describe(error), self.match.names)

    def form(self) -> RoundForm:
        self.refresh(send=False)
        ctx, step = self.ctx, self.draft.step
        back = ft.OutlinedButton(ctx.t("Back"), on_click=lambda _: self.step_back(), height=52)
        extra = [tag("step-back", back)] if step > 0 else []
        if step + 1 < len(self.shape.stages):
            return RoundForm(
                [self.body], self.result, ctx.t("Continue"), extra, primary=self.next_step, draft=self.draft
            )
        return RoundForm([self.body], self.result, extra_bottom=extra, draft=self.draft)


def build_form(
    ctx: AppContext, match: Match, edit: int | None, saved: object | None, message: ft.Text
) -> RoundForm:
    """The form over the draft kept from the last redraw (`saved`), or a new one."""
    shape = match.spec.table_part
    assert shape is not None, "a game without its own round form is entered by its part shape"
    draft = saved if isinstance(saved, PartsDraft) else PartsDraft.start(shape, match, edit)
    return PartsForm(ctx, match, edit, draft, message).form()
