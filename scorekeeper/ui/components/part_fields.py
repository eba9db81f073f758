"""One control per kind of a seat's field (`PartShape.fields`), written once for a phone's part at a score-keeping
table (`views.table.part_form`) and the host's round form built from the same shape (`views.rounds.parts`):
"yes" a switch, "rack" the Racko round screen's slots and number pad (`rack_pad`), a "count" with a highest
value a row of one-tap numbers (values the rules bar greyed out), anything else a typed number.

Each control keeps what is entered in a `PartDraft` (asked for on every change, so that its owner may swap the
draft: a phone starts the next round in place) and comes with a `Show` that draws a value without sending it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from scorekeeper.ui.components.fields import CountField, number_field, yes_switch
from scorekeeper.ui.components.rack_pad import RackPad, RackState, blank
from scorekeeper.ui.components.widgets import TAP
from scorekeeper.ui.context import AppContext

Show = Callable[[Any], None]
"""Shows a field's value (what was entered so far, or nothing) in place, without sending it."""


@dataclass
class PartDraft:
    """What one seat entered so far in one round and step: each field's value as its control holds it, and
    the state of each rack pad."""

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
    if isinstance(entered, list):
        return list(entered)  # a saved hand of cards, shown as its numbers and not typed over
    text = str(entered if entered is not None else "").strip()
    if not text:
        return None  # left empty: the rules say what is missing (or take 0 where that is the default)
    return int(text) if re.fullmatch(r"\d+", text) else text


@dataclass(frozen=True)
class FieldSpec:
    """One field as its control is drawn: `name` and `kind` from the part shape, its `label` (translated),
    `most` (a count's highest value, a rack's highest card), the values `barred` now, the tag `prefix` of a
    count's keys (`<prefix>-<n>`), their `size`, `owner` (whose rack it is) and `changed`: what to do after a
    tap on a count or a switch instead of redrawing that control alone (the host's form redraws every seat,
    whose barred values may depend on it)."""

    name: str
    kind: str
    label: str
    most: int | None = None
    barred: frozenset[int] = frozenset()
    prefix: str = ""
    size: int = TAP
    owner: str = ""
    changed: Callable[[], None] | None = field(default=None, compare=False)


def seat_field(ctx: AppContext, spec: FieldSpec, draft: Callable[[], PartDraft]) -> tuple[ft.Control, Show]:
    """The control of `spec`'s kind over the draft `draft()` gives, and its `Show`."""
    if spec.kind == "yes":
        return _switch(spec, draft)
    if spec.kind == "rack":
        return _rack(ctx, spec, draft)
    if spec.most is not None:
        return _count(spec, draft)
    return _text(spec, draft)


def _switch(spec: FieldSpec, draft: Callable[[], PartDraft]) -> tuple[ft.Control, Show]:
    def changed(value: bool) -> None:
        draft().values[spec.name] = value
        if spec.changed is not None:
            spec.changed()

    control = yes_switch(spec.label, False, changed)

    def show(value: Any) -> None:
        control.value = bool(value)

    return control, show


def _text(spec: FieldSpec, draft: Callable[[], PartDraft]) -> tuple[ft.Control, Show]:
    def changed(event: Any) -> None:
        draft().values[spec.name] = event.control.value

    control = number_field(spec.label, "", changed, text_size=18)

    def show(value: Any) -> None:
        control.value = (
            " ".join(map(str, value)) if isinstance(value, list) else "" if value is None else str(value)
        )

    return control, show


def _count(spec: FieldSpec, draft: Callable[[], PartDraft]) -> tuple[ft.Control, Show]:
    """A count 0..`most` picked with one tap; values the rules bar (the hook) are greyed out. A tap redraws
    only this row."""
    barred = set(spec.barred)

    def pick(value: Any) -> None:
        draft().values[spec.name] = value
        if spec.changed is not None:
            spec.changed()
            return
        row.show(value, barred)
        row.control.update()

    row = CountField(range((spec.most or 0) + 1), pick, prefix=spec.prefix, size=spec.size)

    def show(value: Any) -> None:
        if value in barred:  # chosen before the rules barred it: not drawn as chosen (and not sent)
            draft().values.pop(spec.name, None)
        row.show(value, barred)

    return ft.Column([ft.Text(spec.label, size=16), row.control], spacing=4), show


def _rack(ctx: AppContext, spec: FieldSpec, draft: Callable[[], PartDraft]) -> tuple[ft.Control, Show]:
    """One rack on the same ten slots and number pad as the Racko round-entry screen; the pad's state is kept
    in the draft (`racks[name]`), the cards entered so far in `values[name]`."""
    holder = ft.Column(spacing=6)

    def draw(update: bool = True) -> None:
        draft().values[spec.name] = list(pad.state.racks[0])
        holder.controls = pad.controls()
        pad.refresh_pad()
        if update:
            for control in (holder, pad.pad.control):
                control.update()

    pad = RackPad(ctx, blank(1, 0), spec.most or 0, [0], [spec.owner], draw)
    ctx.on_key = pad.typed_key

    def show(value: Any) -> None:
        racks = draft().racks
        if spec.name not in racks:
            racks[spec.name] = blank(1, 0, [value] if isinstance(value, list) else None)
        pad.state = racks[spec.name]
        draw(update=False)

    return ft.Column([holder, pad.pad.control], spacing=6), show
