"""Racko round entry: who called, then each rack slot 5 to slot 50 on a pad of the deck's numbers (numbers used
this round greyed out, in rows of ten; `components.rack_pad`, also a phone's rack at a live table), or the quick
form (ascending count and longest run per player). The caller is one tap per round; a tab per player picks the
rack being entered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.quick import quick_run_needed
from scorekeeper.games.racko.results import check_entry, racko_seats
from scorekeeper.match import Match
from scorekeeper.ui.components.fields import CountField, who_row, yes_switch
from scorekeeper.ui.components.match_io import colours_of
from scorekeeper.ui.components.rack_pad import RackPad, RackState, blank
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import seat_tab, tag
from scorekeeper.ui.context import AppContext


@dataclass
class RackoDraft(RackState):
    """What the form has collected (kept between redraws): the racks (`RackState`), or in the quick form the
    ascending count and longest run per seat; who called and whether it was Blitz-Racko; `mode` "racks" or
    "quick"; `caller_problem`: why Save refused the callers (shown under the caller row)."""

    mode: str = "racks"
    counts: list[int | None] = field(default_factory=list)
    runs: list[int | None] = field(default_factory=list)
    callers: list[int] = field(default_factory=list)
    blitz: bool = False
    caller_problem: str | None = None

    @classmethod
    def start(cls, match: Match, edit: int | None, playing: list[int]) -> RackoDraft:
        """Blank racks, or the round being edited."""
        seats = len(match.players)
        draft = cls(blank(seats, playing[0]).racks, playing[0], 0, counts=[None] * seats, runs=[None] * seats)
        if edit is None:
            return draft
        old = match.rounds[edit]
        draft.callers, draft.blitz = list(old.get("callers") or []), bool(old.get("blitz"))
        if old.get("racks") is not None:
            draft.racks = blank(seats, playing[0], old["racks"]).racks
        else:
            draft.mode, draft.counts = "quick", list(old["counts"])
            draft.runs = list(old.get("runs") or [None] * seats)
        return draft


def seats_out(match: Match, edit: int | None) -> set[int]:
    """The seats out of the game (Racko to a target: over it) in the round being entered."""
    return set(match.tally().out[edit] if edit is not None else match.players_out())


class RackoForm:
    """The caller row, the racks (or the quick form) and the round's points so far, over a `RackoDraft`."""

    def __init__(
        self, ctx: AppContext, match: Match, edit: int | None, draft: RackoDraft, message: ft.Text
    ) -> None:
        self.ctx, self.match, self.edit, self.draft, self.message = ctx, match, edit, draft, message
        self.opts, self.names, self.seats = match.opts, match.names, len(match.players)
        self.out = seats_out(match, edit)
        self.playing = [s for s in range(self.seats) if s not in self.out]
        by_id = colours_of(ctx, match)
        self.colours = [by_id.get(player) for player in match.players]
        self.dynamic = ft.Column(spacing=6 if ctx.narrow else 10)
        self.preview = ft.Text(size=15, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)
        self.caller_note = ft.Text(color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD)
        self.rack = RackPad(ctx, draft, self.opts.deck_size, self.playing, self.names, self.refresh)
        ctx.on_key = self.typed_key

    # ------------------------------------------------------------------ entering
    def typed_key(self, key: str, shift: bool) -> bool:
        """Desktop keyboard on the racks form (see rack_pad); else Enter saves the round as usual."""
        return self.draft.mode == "racks" and self.rack.typed_key(key, shift)

    def run_needed(self, seat: int) -> bool:
        """The quick form asks a run only where a rule looks at it (engine: quick_run_needed)."""
        return quick_run_needed(self.opts, calling=seat in self.draft.callers)

    def toggle_caller(self, seat: int) -> None:
        draft = self.draft
        draft.caller_problem = None
        if seat in draft.callers:
            draft.callers.remove(seat)
        elif draft.blitz:
            draft.callers.append(seat)
        else:
            draft.callers = [seat]
        self.refresh()

    def set_mode(self, mode: str) -> None:
        self.draft.mode = mode
        self.refresh()

    def set_blitz(self, on: bool) -> None:
        self.draft.blitz = on
        if not on:
            self.draft.callers = self.draft.callers[:1]
        self.refresh()

    def set_quick(self, kind: str, seat: int, value: Any) -> None:
        (self.draft.counts if kind == "counts" else self.draft.runs)[seat] = int(value)
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def racks_part(self) -> list[ft.Control]:
        tabs = [
            seat_tab(
                self.names[s],
                self.colours[s],
                selected=s == self.draft.seat,
                on_click=partial(self.rack.set_seat, s),
                identifier=f"rack-seat-{s}",
                subtitle=self.rack.summary(s),
            )
            for s in self.playing
        ]
        return [ft.Row(tabs, wrap=True, spacing=4, run_spacing=4), *self.rack.controls()]

    def quick_row(self, kind: str, prefix: str, seat: int) -> ft.Control:
        size = (
            32 if self.ctx.narrow else 40
        )  # ten 32 px keys fit a 390 px phone's row: "10" never wraps alone
        row = CountField(
            range(1, 11), lambda v: self.set_quick(kind, seat, v), prefix=f"{prefix}-{seat}", size=size
        )
        row.show((self.draft.counts if kind == "counts" else self.draft.runs)[seat])
        return row.control

    def quick_part(self) -> list[ft.Control]:
        parts: list[ft.Control] = []
        for s in self.playing:
            parts.append(ft.Text(self.names[s], weight=ft.FontWeight.BOLD))
            if s not in self.draft.callers:  # a caller's ascending count is 10: nothing to ask
                parts += [ft.Text(self.ctx.t("Ascending count")), self.quick_row("counts", "count", s)]
            if self.run_needed(s):
                parts += [ft.Text(self.ctx.t("Longest run")), self.quick_row("runs", "run", s)]
        return parts

    def callers_row(self) -> ft.Control:
        return who_row(
            self.names,
            self.playing,
            lambda s: s in self.draft.callers,
            self.toggle_caller,
            prefix="caller",
            colours=self.colours,
            icon=ft.Icons.CAMPAIGN,  # calling: a round chip with a megaphone, unlike the rack tabs
            compact=self.ctx.narrow,
            spacing=4,
        )

    def modes_row(self) -> ft.Control:
        ctx, mode_now = self.ctx, self.draft.mode
        modes: list[ft.Control] = [
            tag(
                f"mode-{mode}",
                (ft.FilledButton if mode_now == mode else ft.OutlinedButton)(
                    text, on_click=lambda _, m=mode: self.set_mode(m), height=36
                ),
            )
            for mode, text in (("racks", ctx.t("Racks")), ("quick", ctx.t("Quick form")))
        ]
        dealer = ft.Text(
            ctx.t("Dealer: {name}", name=self.names[dealer_for(self.match, self.edit)]),
            size=12,
            expand=True,
            text_align=ft.TextAlign.RIGHT,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        return ft.Row([*modes, dealer], spacing=6)

    def refresh(self, *, send: bool = True) -> None:
        ctx, draft = self.ctx, self.draft
        racks_mode = draft.mode == "racks"
        who = ft.Text(ctx.t("Who called Racko?"), weight=ft.FontWeight.BOLD, key=ft.ScrollKey("caller-row"))  # type: ignore[call-arg]  # a dataclass made by a decorator mypy cannot follow
        parts: list[ft.Control] = [self.modes_row(), who, self.callers_row(), *self.caller_hint()]
        if self.opts.blitz:
            blitz = yes_switch(ctx.t("Blitz-Racko right after the deal"), draft.blitz, self.set_blitz)
            parts.append(tag("blitz", blitz))
        # The message sits in the scrolling form, not in the fixed bottom area, where it took the room of the
        # pad's last row on a phone: right above the pad, or above the long quick form.
        if racks_mode:
            parts += [*self.racks_part(), self.preview, self.message]
        else:
            parts += [self.message, *self.quick_part(), self.preview]
        self.dynamic.controls = parts
        self.rack.refresh_pad(visible=racks_mode)
        self.preview.value = self.preview_text()
        self.preview.visible = bool(self.preview.value)  # no blank line above the pad while nothing to show
        if send:
            self.message.visible = False
            for control in (self.dynamic, self.rack.pad.control, self.message):
                control.update()

    def offered(self) -> int | None:
        """The one player to offer as the caller: nobody is marked and exactly one entered rack may call."""
        draft = self.draft
        if draft.callers or draft.mode != "racks":
            return None
        complete = self.rack.complete
        full = [draft.racks[s] if s in self.playing and complete(s) else None for s in range(self.seats)]
        found = racko_seats(full, self.opts)
        return found[0] if len(found) == 1 else None

    def caller_hint(self) -> list[ft.Control]:
        """Under the caller row: why Save refused (nobody called), and the player whose rack is a Racko."""
        draft = self.draft
        if draft.caller_problem and draft.callers:
            draft.caller_problem = None
        self.caller_note.value = draft.caller_problem or ""
        # Only there while there is something to say: Flutter draws an error box in place of a tagged
        # (Semantics) control that is hidden ("Semantics.content must be provided and visible").
        hint: list[ft.Control] = [tag("caller-message", self.caller_note)] if self.caller_note.value else []
        seat = self.offered()
        if seat is not None:
            offer = ft.OutlinedButton(
                self.ctx.t("{name}'s rack is a Racko: {name} called", name=self.names[seat]),
                icon=ft.Icons.CAMPAIGN,
                on_click=lambda _: self.toggle_caller(seat),
            )
            hint.append(tag("offer-caller", offer))
        return hint

    # ------------------------------------------------------------------ the round
    def entered(self) -> dict[str, Any] | str:
        draft, out, playing, seats = self.draft, self.out, self.playing, range(self.seats)
        callers = {"callers": list(draft.callers), "blitz": draft.blitz}
        if draft.mode == "racks":
            for s in playing:
                if not self.rack.complete(s):
                    return self.ctx.t("Enter all 10 cards of {name}'s rack.", name=self.names[s])
            return {"racks": [draft.racks[s] if s not in out else None for s in seats], **callers}
        # A caller's ascending count is 10 (stored as such: an empty count means nothing but "not asked").
        counts = [None if s in out else 10 if s in draft.callers else draft.counts[s] for s in seats]
        for s in playing:
            if counts[s] is None:
                return self.ctx.t("Enter the ascending count of {name}.", name=self.names[s])
        runs = [draft.runs[s] if s in playing and self.run_needed(s) else None for s in seats]
        return {"counts": counts, "runs": runs, **callers}

    def result(self) -> dict[str, Any] | str:
        """The round for Save; a round without a caller is refused next to the caller row (engine: check_entry)."""
        round_result = self.entered()
        if isinstance(round_result, str):
            return round_result
        try:
            check_entry(round_result, self.opts)
        except RuleError as error:
            self.draft.caller_problem = self.ctx.describe(error)
            self.refresh()
            self.show_caller_row()
            return ""
        return round_result

    def show_caller_row(self) -> None:
        """Scroll the form back up to the caller row, where the message is: after ten racks the pad is in view,
        not the row at the top."""
        node = self.caller_note.parent
        while node is not None and not (isinstance(node, ft.ScrollableControl) and node.scroll is not None):
            node = node.parent
        if not isinstance(node, ft.ScrollableControl):
            return
        try:
            self.ctx.page.run_task(node.scroll_to, scroll_key="caller-row", duration=300)
        except Exception:  # no event loop (in-process tests): the message is there all the same
            pass

    def points(self, entered: dict[str, Any]) -> list[int]:
        """The round's points (chips: the payments) as Save would store them."""
        match, edit = self.match, self.edit
        index = edit if edit is not None else match.round_index
        if match.chips:
            # A payer who cannot pay in full pays what they have (RULES 1.7): only the match knows the
            # balances, so the round is tried on a copy of it.
            trial = match.with_round(entered) if edit is None else match.with_round_edited(edit, entered)
            return list(trial.round_scores()[index])
        return list(
            match.rules.score_result(entered, self.opts, dealer=dealer_for(match, edit), round_index=index)
        )

    def preview_text(self) -> str:
        entered_now = self.entered()
        if isinstance(entered_now, str):
            return ""
        try:
            check_entry(entered_now, self.opts)  # no points for a round that cannot be saved
            points = self.points(entered_now)
        except RuleError:
            return ""
        unit = self.ctx.t("chips") if self.match.chips else self.ctx.t("points")
        listed = ", ".join(f"{self.names[s]} {points[s]:+d}" for s in self.playing)
        return self.ctx.t("This round ({unit}): {list}", unit=unit, list=listed)

    def form(self) -> RoundForm:
        self.refresh(send=False)
        return RoundForm(
            [self.dynamic, self.rack.pad.control], self.result, places_message=True, draft=self.draft
        )


def build_form(
    ctx: AppContext, match: Match, edit: int | None, saved: object | None, message: ft.Text
) -> RoundForm:
    """The form over the draft kept from the last redraw (`saved`), or a new one."""
    out = seats_out(match, edit)
    playing = [s for s in range(len(match.players)) if s not in out]
    draft = saved if isinstance(saved, RackoDraft) else RackoDraft.start(match, edit, playing)
    return RackoForm(ctx, match, edit, draft, message).form()
