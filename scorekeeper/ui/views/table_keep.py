"""Score keeping at the table: a phone's part form and the board's "who is done" list.

The form is built from the game's `PartShape` (scorekeeper.table.parts): one field per entry of the current
step, its kind deciding the control (a "rack" is entered on the Racko round screen's slots and number pad),
so no game is named here. Identifiers: `part-<field>` for each field and
`part-submit`. A refused part shows the rules' message and keeps what was typed; the phone may enter its part
again to correct it until the round is saved. The host keeps the normal round-entry screens for the match.
"""

from __future__ import annotations

import re
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import spec
from scorekeeper.table.table import Table
from scorekeeper.ui import table_runtime as rt
from scorekeeper.ui.components.rack_pad import RackPad, blank
from scorekeeper.ui.components.widgets import ChoiceRow, primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.play.boards import big


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


def part_form(ctx: AppContext, table: Table, seat: int, token: str) -> list[ft.Control]:
    """The seat's part of the current round (its current step), with what it entered so far."""
    keeping = table.keeping
    assert keeping is not None
    keeping.refresh()
    match = keeping.match
    names = table.names()
    if keeping.over:
        return [tag("keep-over", ft.Text(ctx.t("The game is over."), size=20))]
    parts = keeping.parts
    stage = min(parts.stage, len(parts.shape.stages) - 1)
    draft: dict[str, Any] = ctx.drafts.setdefault(f"table-part:{table.code}:{match.round_index}:{stage}", {})
    mine = parts.mine(seat)
    done = parts.done()
    items: list[ft.Control] = [
        tag(
            "keep-status",
            ft.Text(
                ctx.t("Round {n}: {name}, enter your part.", n=match.round_index + 1, name=names[seat])
                if not done[seat]
                else ctx.t("Round {n}: your part is in. You can still correct it.", n=match.round_index + 1),
                size=18,
                weight=ft.FontWeight.BOLD,
            ),
        ),
        ft.Text(ctx.t("{name} deals.", name=names[match.dealer]), size=14),
    ]
    for name in parts.shape.stages[stage]:
        kind, label = parts.shape.fields[name]
        current = draft.get(name, mine.get(name))

        def changed(event: Any, name: str = name) -> None:
            draft[name] = event.control.value

        most = parts.shape.most(name, match.opts, match.round_index) if kind == "count" else None
        if kind == "yes":
            control: ft.Control = ft.Switch(label=ctx.t(label), value=bool(current), on_change=changed)
        elif kind == "rack":
            deck = parts.shape.most(name, match.opts, match.round_index) or 0
            control = rack_field(ctx, draft, name, current, deck, names[seat])
        elif most is not None:  # one tap, as on the round-entry screens (tags part-<field>-<n>)

            def pick(value: Any, name: str = name) -> None:
                draft[name] = value
                ctx.rerender()

            row = ChoiceRow(list(range(most + 1)), pick, prefix=f"part-{name}")
            barred = parts.shape.barred(
                name, seat, parts.parts[stage], match.opts, match.dealer, match.round_index
            )
            row.refresh(current if isinstance(current, int) else None, disabled=barred)
            control = ft.Column([ft.Text(ctx.t(label), size=16), row.control], spacing=4)
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
            saved = table.enter_part(seat, token, values)
        except RuleError as error:
            ctx.error(ctx.describe(error))
            return
        if saved:
            ctx.drafts.pop(f"table-part:{table.code}:{match.round_index}:{stage}", None)
        rt.broadcast(table)
        ctx.rerender()

    items.append(ft.Row([primary_button(ctx.t("Send my part"), submit, identifier="part-submit")]))
    return items


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


def board_parts(ctx: AppContext, table: Table) -> list[ft.Control]:
    """The board of a score-keeping table: the round, who is done with their part, and the scores."""
    keeping = table.keeping
    assert keeping is not None
    keeping.refresh()
    match = keeping.match
    names = table.names()
    done = keeping.parts.done()
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
    totals = match.totals()
    lower = spec(table.game).lower_wins
    order = sorted(range(len(names)), key=lambda s: totals[s], reverse=not lower)
    scores = [
        tag(
            f"board-score-{seat}",
            ft.Row([big(names[seat], 28), ft.Container(expand=True), big(str(totals[seat]), 28, bold=True)]),
        )
        for seat in order
    ]
    heading = (
        ctx.t("The game is over.")
        if keeping.over
        else ctx.t("Round {n}: the players enter their parts.", n=match.round_index + 1)
    )
    return [
        tag("board-turn", big(heading, 40, bold=True)),
        tag("board-parts", ft.Column(rows, spacing=8)),
        ft.Container(
            ft.Column([big(ctx.t("Scores"), 28, bold=True), *scores], spacing=6),
            padding=16,
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    ]
