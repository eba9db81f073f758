"""Score keeping at the table: a phone's part form and the board's "who is done" list.

The form is built from the game's `PartShape` (scorekeeper.table.parts): one field per entry of the current
step, its kind deciding the control (a "rack" is entered on the Racko round screen's slots and number pad),
so no game is named here. Identifiers: `part-<field>` for each field, `part-submit`, `keep-status` and
`keep-waiting` (who has not sent their part yet). A refused part shows the rules' message and keeps what was
typed; the phone may enter its part again to correct it until the round is saved. The host keeps the normal
round-entry screens for the match. Both screens are drawn by role (`KeyedParts`): a part sent by one phone
changes one line on the others and on the board, and that line is all that is sent to them.
"""

from __future__ import annotations

import re
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import spec
from scorekeeper.table.table import Table
from scorekeeper.ui.components.keyed import KeyedParts, TableScreen
from scorekeeper.ui.components.rack_pad import RackPad, blank
from scorekeeper.ui.components.widgets import ChoiceRow, primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import big
from scorekeeper.ui.views.table_join import seat_lost


def _value(kind: str, text: Any) -> Any:
    if kind == "yes":
        return bool(text)
    if kind == "rack":
        return list(text) if isinstance(text, list) else []
    if kind == "cards":
        return [int(n) for n in re.findall(r"-?\d+", str(text or ""))]
    text = str(text if text is not None else "").strip()
    if not text:
        return None  # left empty: the rules say what is missing (or take 0 where that is the default)
    return int(text) if re.fullmatch(r"\d+", text) else text


class KeepPhone(TableScreen):
    """A phone's part of the round at a score-keeping table, drawn by role (see `TableScreen`).

    Another seat's part changes only the line of who is still entering, so that is all that is sent to this
    phone; its own fields (the rack pad with what it entered so far) are built again only for a new round or
    step, or when the rules bar other values for it (the dealer's bid once the others have bid)."""

    def __init__(self, ctx: AppContext, table: Table, seat: int, token: str) -> None:
        super().__init__(table)
        self.ctx, self.seat, self.token = ctx, seat, token

    def parts(self) -> list[ft.Control]:
        ctx, shown, table, seat = self.ctx, self.shown, self.table, self.seat
        keeping = table.keeping
        assert keeping is not None
        try:
            table.check(seat, self.token)
        except RuleError as error:  # the host handed this seat to another phone
            shown.forget()
            return [seat_lost(self.ctx, self.table.code, self.ctx.describe(error))]
        keeping.current()
        match, names = keeping.match, table.names()
        if keeping.over:
            return [
                shown.part(
                    "over", None, lambda: tag("keep-over", ft.Text(ctx.t("The game is over."), size=20))
                )
            ]
        parts = keeping.parts
        stage = min(parts.stage, len(parts.shape.stages) - 1)
        done = parts.done()
        status = (
            ctx.t("Round {n}: {name}, enter your part.", n=match.round_index + 1, name=names[seat])
            if not done[seat]
            else ctx.t("Round {n}: your part is in. You can still correct it.", n=match.round_index + 1)
        )
        dealer = ctx.t("{name} deals.", name=names[match.dealer])
        waiting = [names[n] for n, ready in enumerate(done) if not ready]
        barred = {
            name: parts.shape.barred(
                name, seat, parts.parts[stage], match.opts, match.dealer, match.round_index
            )
            for name in parts.shape.stages[stage]
            if parts.shape.fields[name][0] == "count"
        }
        fields = (match.round_index, stage, barred, ctx.width)
        return [
            shown.part(
                "status",
                status,
                lambda: tag("keep-status", ft.Text(status, size=18, weight=ft.FontWeight.BOLD)),
            ),
            shown.part("dealer", dealer, lambda: ft.Text(dealer, size=14)),
            shown.part("waiting", waiting, lambda: self.waiting(waiting)),
            shown.part(
                "fields",
                fields,
                lambda: ft.Column(self.fields(stage, barred), spacing=10),
                changes_itself=True,
            ),
        ]

    def waiting(self, names: list[str]) -> ft.Control:
        """Who has not sent their part of this step yet."""
        text = self.ctx.t("Still to send their part: {names}.", names=", ".join(names))
        return tag("keep-waiting", ft.Text(text, size=14, italic=True))

    def fields(self, stage: int, barred: dict[str, set[int]]) -> list[ft.Control]:
        """The seat's fields of the current step, showing what it entered so far, and the send button."""
        ctx, table, seat = self.ctx, self.table, self.seat
        keeping = table.keeping
        assert keeping is not None
        match, parts = keeping.match, keeping.parts
        key = f"table-part:{table.code}:{match.round_index}:{stage}"
        draft: dict[str, Any] = ctx.drafts.setdefault(key, {})
        mine = parts.mine(seat)
        items: list[ft.Control] = []
        for name in parts.shape.stages[stage]:
            kind, label = parts.shape.fields[name]
            current = draft.get(name, mine.get(name))

            def changed(event: Any, name: str = name) -> None:
                draft[name] = event.control.value

            if kind == "yes":
                control: ft.Control = ft.Switch(label=ctx.t(label), value=bool(current), on_change=changed)
            elif kind == "rack":
                deck = parts.shape.most(name, match.opts, match.round_index) or 0
                control = rack_field(ctx, draft, name, current, deck, table.names()[seat])
            elif (most := parts.shape.most(name, match.opts, match.round_index)) is not None:
                control = count_field(ctx, draft, name, current, most, barred.get(name, set()), ctx.t(label))
            else:
                shown = (
                    " ".join(map(str, current))
                    if isinstance(current, list)
                    else ("" if current is None else current)
                )
                control = ft.TextField(
                    label=ctx.t(label),
                    value=str(shown),
                    on_change=changed,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    text_size=18,
                )
            items.append(tag(f"part-{name}", control))

        def submit() -> None:
            values = {
                name: _value(parts.shape.fields[name][0], draft.get(name, mine.get(name)))
                for name in parts.shape.stages[stage]
            }
            try:
                saved = table.enter_part(seat, self.token, values)  # the table tells every device itself
            except RuleError as error:
                ctx.error(ctx.describe(error))
                return
            if saved:
                ctx.drafts.pop(key, None)
            self.changed()  # this phone first, not after the others' redraws

        items.append(ft.Row([primary_button(ctx.t("Send my part"), submit, identifier="part-submit")]))
        return items


def count_field(
    ctx: AppContext, draft: dict[str, Any], name: str, current: Any, most: int, barred: set[int], label: str
) -> ft.Control:
    """A count 0..`most` picked with one tap, as on the round-entry screens (tags `part-<field>-<n>`); values
    the rules bar (the hook) are greyed out. A tap redraws only this row."""

    def pick(value: Any) -> None:
        draft[name] = value
        row.refresh(value, disabled=barred)
        row.control.update()

    row = ChoiceRow(list(range(most + 1)), pick, prefix=f"part-{name}")
    row.refresh(current if isinstance(current, int) else None, disabled=barred)
    return ft.Column([ft.Text(label, size=16), row.control], spacing=4)


def rack_field(
    ctx: AppContext, draft: dict[str, Any], name: str, current: Any, deck: int, who: str
) -> ft.Control:
    """The seat's rack on the same ten slots and number pad as the Racko round-entry screen (`rack_pad`); what
    is entered so far stays in the phone's draft (`draft[name]`, read by "Send my part")."""
    state: dict[str, Any] = draft.setdefault(f"{name}-pad", {})
    if not state:
        blank(state, 1, 0, [current] if isinstance(current, list) else None)
    holder = ft.Column(spacing=6)

    def draw(update: bool = True) -> None:
        draft[name] = list(state["racks"][0])
        holder.controls = pad.controls()
        pad.refresh_pad()
        if update:
            for control in (holder, pad.pad.control):
                control.update()

    pad = RackPad(ctx, state, deck, [0], [who], draw)
    ctx.on_key = pad.typed_key
    draw(update=False)
    return ft.Column([holder, pad.pad.control], spacing=6)


def board_parts(ctx: AppContext, table: Table, shown: KeyedParts) -> list[ft.Control]:
    """The board of a score-keeping table, by role: the round, who is done with their part, and the scores."""
    keeping = table.keeping
    assert keeping is not None
    keeping.current()
    match = keeping.match
    names = table.names()
    done = keeping.parts.done()
    heading = (
        ctx.t("The game is over.")
        if keeping.over
        else ctx.t("Round {n}: the players enter their parts.", n=match.round_index + 1)
    )
    totals = match.totals()
    lower = spec(table.game).lower_wins
    return [
        shown.part("heading", heading, lambda: tag("board-turn", big(heading, 40, bold=True))),
        shown.part("done", (names, done), lambda: tag("board-parts", who_is_done(ctx, names, done))),
        shown.part("scores", (names, totals, lower), lambda: keep_scores(ctx, names, totals, lower)),
    ]


def who_is_done(ctx: AppContext, names: list[str], done: list[bool]) -> ft.Control:
    rows = [
        tag(
            f"board-done-{seat}",
            ft.Row(
                [
                    ft.Icon(ft.Icons.CHECK_CIRCLE if done[seat] else ft.Icons.HOURGLASS_EMPTY, size=32),
                    big(names[seat], 28, bold=done[seat]),
                    big(ctx.t("done") if done[seat] else ctx.t("entering…"), 24),
                ],
                spacing=12,
            ),
        )
        for seat in range(len(names))
    ]
    return ft.Column(rows, spacing=8)


def keep_scores(ctx: AppContext, names: list[str], totals: list[int], lower_wins: bool) -> ft.Control:
    """The match's totals, the leader first."""
    order = sorted(range(len(names)), key=lambda s: totals[s], reverse=not lower_wins)
    scores = [
        tag(
            f"board-score-{seat}",
            ft.Row([big(names[seat], 28), ft.Container(expand=True), big(str(totals[seat]), 28, bold=True)]),
        )
        for seat in order
    ]
    return ft.Container(
        ft.Column([big(ctx.t("Scores"), 28, bold=True), *scores], spacing=6),
        padding=16,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )
