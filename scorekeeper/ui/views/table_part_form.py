"""A phone's fields for one step of its part of the round at a score-keeping table (`PartForm`).

Built from the game's `PartShape`: one field per entry of the step, its kind deciding the control ("yes" a
switch, "rack" the Racko round screen's slots and number pad, a "count" with a highest value a row of one-tap
numbers, anything else a text field), so no game is named here. Identifiers: `part-<field>` and `part-submit`.

The form stays on screen from one round to the next: a new round clears it in place (`start`), which sends the
phone a few changed values instead of some 240 new controls (the rack pad). What is entered so far is kept in
the phone's draft for that round and step, so a redraw shows it again; a refused part keeps it too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.table.table import Table
from scorekeeper.ui.components.fields import CountField, number_field, yes_switch
from scorekeeper.ui.components.rack_pad import RackPad, RackState, blank
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext

Show = Callable[[Any], None]
"""Shows a field's value (what the phone entered so far, or nothing) in place, without sending it."""


@dataclass
class PartDraft:
    """What a phone entered so far in one round and step: each field's value as its control holds it, and the
    state of each rack pad."""

    values: dict[str, Any] = field(default_factory=dict)
    racks: dict[str, RackState] = field(default_factory=dict)


def value_of(kind: str, entered: Any) -> Any:
    """A field's value as the rules take it, from what the control holds."""
    if kind == "yes":
        return bool(entered)
    if kind == "rack":
        return list(entered) if isinstance(entered, list) else []
    if kind == "cards":
        return [int(n) for n in re.findall(r"-?\d+", str(entered or ""))]
    text = str(entered if entered is not None else "").strip()
    if not text:
        return None  # left empty: the rules say what is missing (or take 0 where that is the default)
    return int(text) if re.fullmatch(r"\d+", text) else text


class PartForm:
    """The fields of step `stage` for `seat`, with the values each may not take (`barred`, the hook rule) and
    the highest value of each count (`most`); `on_sent` is called after the part was kept."""

    def __init__(
        self,
        ctx: AppContext,
        table: Table,
        seat: int,
        token: str,
        stage: int,
        barred: dict[str, set[int]],
        most: dict[str, int | None],
        on_sent: Callable[[], None],
    ) -> None:
        self.ctx, self.table, self.seat, self.token, self.stage = ctx, table, seat, token, stage
        self.on_sent = on_sent
        self.round = -1
        keeping = table.keeping
        assert keeping is not None
        self.shape = keeping.parts.shape
        self.shows: dict[str, Show] = {}
        items: list[ft.Control] = []
        for name in self.shape.stages[stage]:
            kind, label = self.shape.fields[name]
            if kind == "yes":
                control, show = self.switch(name, ctx.t(label))
            elif kind == "rack":
                control, show = self.rack(name, most[name] or 0)
            elif most[name] is not None:
                control, show = self.count(name, ctx.t(label), most[name] or 0, barred.get(name, set()))
            else:
                control, show = self.text(name, ctx.t(label))
            self.shows[name] = show
            items.append(tag(f"part-{name}", control))
        items.append(ft.Row([primary_button(ctx.t("Send my part"), self.submit, identifier="part-submit")]))
        self.control = ft.Column(items, spacing=10)
        self.start(keeping.match.round_index)

    # ------------------------------------------------------------------ the round shown
    def draft(self) -> PartDraft:
        """What this phone entered so far in this round and step (kept between redraws)."""
        draft = self.ctx.session.parts.get(self._key())
        if not isinstance(draft, PartDraft):
            draft = self.ctx.session.parts[self._key()] = PartDraft()
        return draft

    def _key(self) -> str:
        return f"table-part:{self.table.code}:{self.round}:{self.stage}"

    def start(self, round_index: int) -> None:
        """Show round `round_index`: what the phone entered or sent for it so far, else empty fields."""
        self.round = round_index
        keeping = self.table.keeping
        assert keeping is not None
        mine, draft = keeping.parts.mine(self.seat), self.draft().values
        for name, show in self.shows.items():
            show(draft.get(name, mine.get(name)))

    def submit(self) -> None:
        keeping = self.table.keeping
        assert keeping is not None
        mine, draft = keeping.parts.mine(self.seat), self.draft().values
        values = {
            name: value_of(self.shape.fields[name][0], draft.get(name, mine.get(name)))
            for name in self.shape.stages[self.stage]
        }
        try:
            saved = self.table.enter_part(
                self.seat, self.token, values
            )  # the table tells every device itself
        except RuleError as error:
            self.ctx.error(self.ctx.describe(error))
            return
        if saved:
            self.ctx.session.parts.pop(self._key(), None)
        self.on_sent()

    # ------------------------------------------------------------------ the fields
    def switch(self, name: str, label: str) -> tuple[ft.Control, Show]:
        def changed(value: bool) -> None:
            self.draft().values[name] = value

        control = yes_switch(label, False, changed)

        def show(value: Any) -> None:
            control.value = bool(value)

        return control, show

    def text(self, name: str, label: str) -> tuple[ft.Control, Show]:
        def changed(event: Any) -> None:
            self.draft().values[name] = event.control.value

        control = number_field(label, "", changed, text_size=18)

        def show(value: Any) -> None:
            control.value = (
                " ".join(map(str, value)) if isinstance(value, list) else "" if value is None else str(value)
            )

        return control, show

    def count(self, name: str, label: str, most: int, barred: set[int]) -> tuple[ft.Control, Show]:
        """A count 0..`most` picked with one tap, as on the round-entry screens (tags `part-<field>-<n>`);
        values the rules bar (the hook) are greyed out. A tap redraws only this row."""

        def pick(value: Any) -> None:
            self.draft().values[name] = value
            row.show(value, barred)
            row.control.update()

        row = CountField(range(most + 1), pick, prefix=f"part-{name}")

        def show(value: Any) -> None:
            if value in barred:  # chosen before the rules barred it: not drawn as chosen (and not sent)
                self.draft().values.pop(name, None)
            row.show(value, barred)

        return ft.Column([ft.Text(label, size=16), row.control], spacing=4), show

    def rack(self, name: str, deck: int) -> tuple[ft.Control, Show]:
        """The seat's rack on the same ten slots and number pad as the Racko round-entry screen (`rack_pad`);
        the pad's state is kept in the draft (`racks[name]`), the cards entered so far in `values[name]`."""
        holder = ft.Column(spacing=6)

        def draw(update: bool = True) -> None:
            self.draft().values[name] = list(pad.state.racks[0])
            holder.controls = pad.controls()
            pad.refresh_pad()
            if update:
                for control in (holder, pad.pad.control):
                    control.update()

        pad = RackPad(self.ctx, blank(1, 0), deck, [0], [self.table.names()[self.seat]], draw)
        self.ctx.on_key = pad.typed_key

        def show(value: Any) -> None:
            racks = self.draft().racks
            if name not in racks:
                racks[name] = blank(1, 0, [value] if isinstance(value, list) else None)
            pad.state = racks[name]
            draw(update=False)

        return ft.Column([holder, pad.pad.control], spacing=6), show
