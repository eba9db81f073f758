"""A phone's fields for one step of its part of the round at a score-keeping table (`PartForm`).

Built from the game's `PartShape`: one field per entry of the step, its kind deciding the control ("yes" a
switch, "rack" the Racko round screen's slots and number pad, a "count" with a highest value a row of one-tap
numbers, anything else a text field), so no game is named here. Identifiers: `part-<field>` and `part-submit`.

The form stays on screen from one round to the next: a new round clears it in place (`start`), which sends the
phone a few changed values instead of some 240 new controls (the rack pad). What is entered so far is kept in
the phone's draft for that round and step, so a redraw shows it again; a refused part keeps it too.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.table.table import Table
from scorekeeper.ui.components.part_fields import FieldSpec, PartDraft, Show, seat_field, value_of
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext


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
        owner = table.names()[seat]
        for name in self.shape.stages[stage]:
            kind, label = self.shape.fields[name]
            spec = FieldSpec(
                name,
                kind,
                ctx.t(label),
                most[name],
                frozenset(barred.get(name, set())),
                f"part-{name}",
                owner=owner,
            )
            control, self.shows[name] = seat_field(ctx, spec, self.draft)
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
