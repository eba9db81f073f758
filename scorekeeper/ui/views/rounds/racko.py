"""Racko round entry: who called, then each rack slot 5 to slot 50 on a pad of the deck's numbers (numbers used
this round greyed out, in rows of ten; `components.rack_pad`, also a phone's rack at a live table), or the quick
form (ascending count and longest run per player). The caller is one tap per round; a tab per player picks the
rack being entered. Drawn as the steps (`HostSteps`) of the generic part-shape form (`views.rounds.parts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.quick import quick_run_needed
from scorekeeper.games.racko.results import check_entry, racko_seats
from scorekeeper.model.match import Match
from scorekeeper.ui.components.fields import CountField, who_row, yes_switch
from scorekeeper.ui.components.match_io import colours_of
from scorekeeper.ui.components.rack_pad import RackPad, RackState, blank
from scorekeeper.ui.components.round_base import dealer_for
from scorekeeper.ui.components.widgets import seat_tab, tag
from scorekeeper.ui.views.rounds.host import HostExtras, HostForm, PartsDraft

QUICK = {"counts": "count", "runs": "run"}
"""The quick form's lists in the round result, and each list's value in a seat's part of the draft."""


def seats_out(match: Match, edit: int | None) -> set[int]:
    """The seats out of the game (Racko to a target: over it) in the round being entered."""
    return set(match.tally().out[edit] if edit is not None else match.players_out())


@dataclass
class RackoEntry:
    """What Racko's host form keeps besides the seats' parts (kept in the draft's `more` between redraws): the
    racks on the pad, `mode` "racks" or "quick", who called (in the order tapped: a Blitz round stores that
    order), whether it was Blitz-Racko, and `caller_problem`: why Save refused the callers (shown under the
    caller row). The quick form's `count` and `run` are in each seat's part."""

    pad: RackState
    mode: str = "racks"
    callers: list[int] = field(default_factory=list)
    blitz: bool = False
    caller_problem: str | None = None


def entry_of(draft: PartsDraft) -> RackoEntry:
    """The Racko state of a host form's draft (see `start`)."""
    entry: RackoEntry = draft.more["entry"]
    return entry


def start(draft: PartsDraft, match: Match, edit: int | None) -> None:
    """A new draft's `RackoEntry` (in `more["entry"]`): blank racks, or the round being edited (a quick-form
    round's counts and runs go into the seats' parts)."""
    seats = len(match.players)
    first = min(set(range(seats)) - seats_out(match, edit))
    entry = draft.more["entry"] = RackoEntry(blank(seats, first))
    if edit is None:
        return
    old = match.rounds[edit]
    entry.callers, entry.blitz = list(old.get("callers") or []), bool(old.get("blitz"))
    if old.get("racks") is not None:
        entry.pad = blank(seats, first, old["racks"])
        return
    entry.mode = "quick"
    for kind, name in QUICK.items():
        for seat, value in enumerate(old.get(kind) or [None] * seats):
            draft.seats[seat].values[name] = value


class RackoSteps:
    """The caller row, the racks (or the quick form) and the round's points so far (`rounds.host.HostSteps`),
    over the generic form's draft (see `start`)."""

    def __init__(self, form: HostForm) -> None:
        ctx, match = form.ctx, form.match
        self.form, self.ctx, self.match, self.edit, self.draft = form, ctx, match, form.edit, form.draft
        self.message, self.entry = form.message, entry_of(form.draft)
        self.opts, self.names, self.seats = match.opts, match.names, len(match.players)
        self.out = seats_out(match, self.edit)
        self.playing = [s for s in range(self.seats) if s not in self.out]
        by_id = colours_of(ctx, match)
        self.colours = [by_id.get(player) for player in match.players]
        self.preview = ft.Text(size=15, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)
        self.caller_note = ft.Text(color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD)
        self.rack = RackPad(ctx, self.entry.pad, self.opts.deck_size, self.playing, self.names, form.refresh)
        self.below: list[ft.Control] = [self.rack.pad.control]
        ctx.on_key = self.typed_key

    def quick(self, name: str, seat: int) -> int | None:
        """Seat `seat`'s `count` or `run` in the quick form (None: not entered)."""
        value: int | None = self.draft.seats[seat].values.get(name)
        return value

    def refresh(self) -> None:
        self.form.refresh()

    # ------------------------------------------------------------------ entering
    def typed_key(self, key: str, shift: bool) -> bool:
        """Desktop keyboard on the racks form (see rack_pad); else Enter saves the round as usual."""
        return self.entry.mode == "racks" and self.rack.typed_key(key, shift)

    def run_needed(self, seat: int) -> bool:
        """The quick form asks a run only where a rule looks at it (engine: quick_run_needed)."""
        return quick_run_needed(self.opts, calling=seat in self.entry.callers)

    def toggle_caller(self, seat: int) -> None:
        entry = self.entry
        entry.caller_problem = None
        if seat in entry.callers:
            entry.callers.remove(seat)
        elif entry.blitz:
            entry.callers.append(seat)
        else:
            entry.callers = [seat]
        self.refresh()

    def set_mode(self, mode: str) -> None:
        self.entry.mode = mode
        self.refresh()

    def set_blitz(self, on: bool) -> None:
        self.entry.blitz = on
        if not on:
            self.entry.callers = self.entry.callers[:1]
        self.refresh()

    def set_quick(self, name: str, seat: int, value: Any) -> None:
        self.draft.seats[seat].values[name] = int(value)
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def racks_part(self) -> list[ft.Control]:
        tabs = [
            seat_tab(
                self.names[s],
                self.colours[s],
                selected=s == self.entry.pad.seat,
                on_click=partial(self.rack.set_seat, s),
                identifier=f"rack-seat-{s}",
                subtitle=self.rack.summary(s),
            )
            for s in self.playing
        ]
        return [ft.Row(tabs, wrap=True, spacing=4, run_spacing=4), *self.rack.controls()]

    def quick_row(self, name: str, seat: int) -> ft.Control:
        size = (
            32 if self.ctx.narrow else 40
        )  # ten 32 px keys fit a 390 px phone's row: "10" never wraps alone
        row = CountField(
            range(1, 11), lambda v: self.set_quick(name, seat, v), prefix=f"{name}-{seat}", size=size
        )
        row.show(self.quick(name, seat))
        return row.control

    def quick_part(self) -> list[ft.Control]:
        parts: list[ft.Control] = []
        for s in self.playing:
            parts.append(ft.Text(self.names[s], weight=ft.FontWeight.BOLD))
            if s not in self.entry.callers:  # a caller's ascending count is 10: nothing to ask
                parts += [ft.Text(self.ctx.t("Ascending count")), self.quick_row("count", s)]
            if self.run_needed(s):
                parts += [ft.Text(self.ctx.t("Longest run")), self.quick_row("run", s)]
        return parts

    def callers_row(self) -> ft.Control:
        return who_row(
            self.names,
            self.playing,
            lambda s: s in self.entry.callers,
            self.toggle_caller,
            prefix="caller",
            colours=self.colours,
            icon=ft.Icons.CAMPAIGN,  # calling: a round chip with a megaphone, unlike the rack tabs
            compact=self.ctx.narrow,
            spacing=4,
        )

    def modes_row(self) -> ft.Control:
        ctx, mode_now = self.ctx, self.entry.mode
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
        )
        # The dealer beside the modes, or on a line of its own below them when the name does not fit (it wraps
        # there: at large text the name was cut to "Maxim…", then broken letter by letter in a narrow column).
        return ft.Row(
            [*modes, dealer],
            spacing=6,
            run_spacing=4,
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )

    # ------------------------------------------------------------------ HostSteps
    def header(self) -> list[ft.Control]:
        """The modes and the dealer, the caller row with what is said under it, the Blitz-Racko switch."""
        ctx = self.ctx
        who = ft.Text(ctx.t("Who called Racko?"), weight=ft.FontWeight.BOLD, key=ft.ScrollKey("caller-row"))  # type: ignore[call-arg]  # a dataclass made by a decorator mypy cannot follow
        parts: list[ft.Control] = [self.modes_row(), who, self.callers_row(), *self.caller_hint()]
        if self.opts.blitz:
            blitz = yes_switch(ctx.t("Blitz-Racko right after the deal"), self.entry.blitz, self.set_blitz)
            parts.append(tag("blitz", blitz))
        return parts

    def step(self, stage: int) -> list[ft.Control]:
        """The racks (the pad under the form greyed out where used) or the quick form, the points so far."""
        racks_mode = self.entry.mode == "racks"
        # The message sits in the scrolling form, not in the fixed bottom area, where it took the room of the
        # pad's last row on a phone: right above the pad, or above the long quick form.
        if racks_mode:
            parts = [*self.racks_part(), self.preview, self.message]
        else:
            parts = [self.message, *self.quick_part(), self.preview]
        self.rack.refresh_pad(visible=racks_mode)
        self.preview.value = self.preview_text()
        self.preview.visible = bool(self.preview.value)  # no blank line above the pad while nothing to show
        return parts

    def ready(self, stage: int) -> str | None:
        return None  # one step: Save checks it (`result`)

    def offered(self) -> int | None:
        """The one player to offer as the caller: nobody is marked and exactly one entered rack may call."""
        if self.entry.callers or self.entry.mode != "racks":
            return None
        complete, racks = self.rack.complete, self.entry.pad.racks
        full = [racks[s] if s in self.playing and complete(s) else None for s in range(self.seats)]
        found = racko_seats(full, self.opts)
        return found[0] if len(found) == 1 else None

    def caller_hint(self) -> list[ft.Control]:
        """Under the caller row: why Save refused (nobody called), and the player whose rack is a Racko."""
        entry = self.entry
        if entry.caller_problem and entry.callers:
            entry.caller_problem = None
        self.caller_note.value = entry.caller_problem or ""
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
        out, playing, seats = self.out, self.playing, range(self.seats)
        callers = {"callers": list(self.entry.callers), "blitz": self.entry.blitz}
        if self.entry.mode == "racks":
            for s in playing:
                if not self.rack.complete(s):
                    return self.ctx.t("Enter all 10 cards of {name}'s rack.", name=self.names[s])
            return {"racks": [self.entry.pad.racks[s] if s not in out else None for s in seats], **callers}
        # A caller's ascending count is 10 (stored as such: an empty count means nothing but "not asked").
        counts = [
            None if s in out else 10 if s in self.entry.callers else self.quick("count", s) for s in seats
        ]
        for s in playing:
            if counts[s] is None:
                return self.ctx.t("Enter the ascending count of {name}.", name=self.names[s])
        runs = [self.quick("run", s) if s in playing and self.run_needed(s) else None for s in seats]
        return {"counts": counts, "runs": runs, **callers}

    def result(self) -> dict[str, Any] | str:
        """The round for Save; a round without a caller is refused next to the caller row (engine: check_entry)."""
        round_result = self.entered()
        if isinstance(round_result, str):
            return round_result
        try:
            check_entry(round_result, self.opts)
        except RuleError as error:
            self.entry.caller_problem = self.ctx.describe(error)
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


HOST = HostExtras(steps=RackoSteps, spacing=10, phone_spacing=6, start=start, places_message=True)
"""Racko's host form: the generic one, its one step drawn by `RackoSteps`, its message in the form."""
