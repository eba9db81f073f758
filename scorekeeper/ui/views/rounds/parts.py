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

What the host screen needs beyond the shape a game says in a `HostExtras` (`form_with`): a caller row's answer
that names no seat ("Stock ran out"), one seat at a time behind a tab per seat, a field the game draws itself
(`HostField`: Ruck Zuck's hand on a card pad, cards held elsewhere greyed out), or whole steps (`HostSteps`:
Rage's bids and tricks, Racko's caller row over the racks or the quick form).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError, seats_from_left_of
from scorekeeper.games.contract import Part
from scorekeeper.model.match import Match
from scorekeeper.ui.components.fields import who_row
from scorekeeper.ui.components.part_fields import FieldSpec, PartDraft, seat_field, value_of
from scorekeeper.ui.components.round_base import RoundForm, dealer_for, personalise
from scorekeeper.ui.components.widgets import seat_chip, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.rounds.host import PLAIN, HostExtras, PartsDraft

__all__ = ["PartsForm", "build_form", "form_with"]


class PartsForm:
    """Every seat's part of one step of the round, over a `PartsDraft`: what a game's own fields and steps are
    given of it is `host.HostForm`."""

    def __init__(
        self,
        ctx: AppContext,
        match: Match,
        edit: int | None,
        draft: PartsDraft,
        message: ft.Text,
        extras: HostExtras = PLAIN,
    ) -> None:
        shape = match.spec.table_part
        assert shape is not None, "a game without its own round form is entered by its part shape"
        self.ctx, self.match, self.draft, self.message, self.shape = ctx, match, draft, message, shape
        self.extras, self.edit = extras, edit
        self.index = edit if edit is not None else match.round_index
        self.dealer = dealer_for(match, edit)
        self.order = seats_from_left_of(self.dealer, len(match.players))
        self.body = ft.Column(spacing=extras.phone_spacing if ctx.narrow else extras.spacing)
        self.tabs_row = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self.own = {name: make(self) for name, make in extras.fields.items()}
        self.steps = None if extras.steps is None else extras.steps(self)

    # ------------------------------------------------------------------ the parts
    def values(self, seat: int, stage: int) -> Part:
        """Seat `seat`'s fields of step `stage` as the rules take them."""
        entered = self.draft.seats[seat].values
        return {
            name: self.own[name].value(seat)
            if name in self.own
            else value_of(self.shape.fields[name][0], entered.get(name))
            for name in self.shape.stages[stage]
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
        """One row of the seats' names for a field one seat says per round; a second tap takes it back (where
        the row has an answer naming no seat, that answer follows the names and a tap keeps a name)."""
        said = partial(self.said, name)
        seats = range(len(self.match.players)) if self.extras.tabs else self.order
        more: list[ft.Control] = []
        nobody = self.extras.nobody.get(name)
        if nobody is not None:
            more.append(
                seat_chip(
                    self.ctx.t(nobody.label),
                    None,
                    selected=name in self.draft.nobody,
                    on_click=partial(self.set_nobody, name),
                    identifier=f"{name}-{nobody.key}",
                )
            )
        row = who_row(self.match.names, seats, said, partial(self.set_caller, name), prefix=name, more=more)
        return [ft.Text(self.ctx.t(question)), row]

    def said(self, name: str, seat: int) -> bool:
        return bool(self.draft.seats[seat].values.get(name))

    def set_caller(self, name: str, seat: int) -> None:
        draft = self.draft
        said = name in self.extras.nobody or not draft.seats[seat].values.get(name)
        for s, part in enumerate(draft.seats):
            part.values[name] = said and s == seat
        if name in self.extras.nobody:
            draft.nobody.discard(name)
            # The seat that went out enters nothing else: what it had is dropped, its tab closed.
            draft.seats[seat] = PartDraft({name: True})
            if draft.seat == seat:
                draft.seat = next((s for s in range(len(draft.seats)) if s != seat), 0)
        self.refresh()

    def set_nobody(self, name: str) -> None:
        for part in self.draft.seats:
            part.values[name] = False
        self.draft.nobody.add(name)
        self.refresh()

    # ------------------------------------------------------------------ one seat at a time
    def in_play(self) -> list[int]:
        """The seats with a tab: all but one that said a caller field with a no-seat answer (who went out)."""
        done = [name for name in self.extras.nobody if name in self.shape.stages[self.draft.step]]
        return [s for s in range(len(self.draft.seats)) if not any(self.said(name, s) for name in done)]

    def set_seat(self, seat: int) -> None:
        self.draft.seat = seat
        self.refresh()

    def next_seat(self) -> None:
        order = self.in_play()
        later = [s for s in order if s > self.draft.seat]
        self.draft.seat = (later or order)[0]
        self.refresh()

    def tabs(self) -> list[ft.Control]:
        """A tab per seat in play, under its name what the game's own field says of it."""
        own = next(iter(self.own.values()), None)
        return [
            seat_chip(
                self.match.names[s],
                None,
                selected=s == self.draft.seat,
                on_click=partial(self.set_seat, s),
                identifier=f"{next(iter(self.own), 'seat')}-seat-{s}",
                subtitle=None if own is None else own.tab(s),
            )
            for s in self.in_play()
        ]

    def redraw_tabs(self) -> None:
        self.tabs_row.controls = self.tabs()
        self.tabs_row.update()

    def tabbed(self, stage: int) -> list[ft.Control]:
        """The tabs and the open seat's fields that the game draws itself."""
        self.tabs_row.controls = self.tabs()
        drawn: list[ft.Control] = [self.tabs_row]
        for name in self.shape.stages[stage]:
            if name in self.own:
                drawn += self.own[name].controls(self.draft.seat)
        return drawn

    def refresh(self, *, send: bool = True) -> None:
        ctx, stage = self.ctx, self.draft.step
        if self.steps is not None:
            self.body.controls = self.steps.header() + self.steps.step(stage)
            self.send(send)
            return
        controls: list[ft.Control] = [ft.Text(ctx.t("Dealer: {name}", name=self.match.names[self.dealer]))]
        if len(self.shape.stage_titles) > stage:
            controls.append(
                ft.Text(ctx.t(self.shape.stage_titles[stage]), weight=ft.FontWeight.BOLD, size=16)
            )
        for name, question in self.shape.callers.items():
            if name in self.shape.stages[stage]:
                controls += self.caller_row(name, question)
        if self.extras.tabs:
            controls += self.tabbed(stage)
        else:
            for seat in self.order:
                controls += self.seat_fields(seat, stage)
        self.body.controls = controls
        self.send(send)

    def send(self, send: bool) -> None:
        """Send the redrawn form (not on its first drawing), the message hidden."""
        if send:
            self.message.visible = False
            for control in (self.body, *self.below(), self.message):
                control.update()

    def below(self) -> list[ft.Control]:
        """What stands under the form: the game's own fields' pads, its steps' pad."""
        steps = [] if self.steps is None else self.steps.below
        return [*(control for own in self.own.values() for control in own.below), *steps]

    # ------------------------------------------------------------------ the steps
    def next_step(self) -> None:
        said = None if self.steps is None else self.steps.ready(self.draft.step)
        if said is not None:
            self.show(said)
            return
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

    def unanswered(self) -> str | None:
        """What the game asks before its rules check the parts: a caller row not answered, a field of its own
        still empty (None: nothing)."""
        for name, nobody in self.extras.nobody.items():
            seats = range(len(self.draft.seats))
            if name not in self.draft.nobody and not any(self.said(name, s) for s in seats):
                return self.ctx.t(nobody.missing)
        for own in self.own.values():
            for seat in self.in_play():
                said = own.missing(seat)
                if said is not None:
                    return said
        return None

    def result(self) -> dict[str, Any] | str:
        if self.steps is not None:
            return self.steps.result()
        missing = self.unanswered()
        if missing is not None:
            return missing
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
        if self.extras.tabs and self.draft.seat not in self.in_play():
            self.draft.seat = self.in_play()[0]
        self.refresh(send=False)
        ctx, step, extras = self.ctx, self.draft.step, self.extras
        label, key = (ctx.t(extras.back[0]), extras.back[1]) if extras.back else (ctx.t("Back"), "step-back")
        back = ft.OutlinedButton(label, on_click=lambda _: self.step_back(), height=52)
        extra = [tag(key, back)] if step > 0 else []
        if step + 1 < len(self.shape.stages):
            going = ctx.t(extras.next_label) if extras.next_label else ctx.t("Continue")
            return RoundForm([self.body], self.result, going, extra, primary=self.next_step, draft=self.draft)
        return RoundForm(
            [self.body, *self.below()],
            self.result,
            extra_bottom=extra,
            places_message=extras.places_message,
            draft=self.draft,
        )


def build_form(
    ctx: AppContext,
    match: Match,
    edit: int | None,
    saved: object | None,
    message: ft.Text,
    extras: HostExtras = PLAIN,
) -> RoundForm:
    """The form over the draft kept from the last redraw (`saved`), or a new one."""
    shape = match.spec.table_part
    assert shape is not None, "a game without its own round form is entered by its part shape"
    draft = saved if isinstance(saved, PartsDraft) else PartsDraft.start(shape, match, edit, extras)
    return PartsForm(ctx, match, edit, draft, message, extras).form()


def form_with(
    extras: HostExtras,
) -> Callable[[AppContext, Match, int | None, object | None, ft.Text], RoundForm]:
    """The host's round form of a game with `extras` (registered as its `GameUI.round_form`)."""
    return partial(build_form, extras=extras)
