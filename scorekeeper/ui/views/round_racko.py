"""Racko round entry: who called, then each rack slot 5 to slot 50 on a pad of the deck's numbers (numbers used
this round greyed out, in rows of ten; `components.rack_pad`, also a phone's rack at a live table), or the quick
form (ascending count and longest run per player). The caller is one tap per round; a tab per player picks the
rack being entered.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.quick import quick_run_needed
from scorekeeper.games.racko.results import check_entry, racko_seats
from scorekeeper.games.racko.rules import SLOTS
from scorekeeper.match import Match
from scorekeeper.ui.components.match_io import colours_of
from scorekeeper.ui.components.rack_pad import RackPad
from scorekeeper.ui.components.round_base import RoundForm, dealer_for
from scorekeeper.ui.components.widgets import ChoiceRow, seat_chip, seat_tab, tag
from scorekeeper.ui.context import AppContext


def _start(draft: dict[str, Any], match: Match, edit: int | None, playing: list[int]) -> None:
    """Fill an empty draft: blank racks, or the round being edited."""
    seats = len(match.players)
    draft.update(
        mode="racks",
        racks=[[None] * SLOTS for _ in range(seats)],
        counts=[None] * seats,
        runs=[None] * seats,
        callers=[],
        blitz=False,
        seat=playing[0],
        slot=0,
    )
    if edit is None:
        return
    old = match.rounds[edit]
    draft.update(callers=list(old.get("callers") or []), blitz=bool(old.get("blitz")))
    if old.get("racks") is not None:
        draft["racks"] = [list(r) if r else [None] * SLOTS for r in old["racks"]]
    else:
        draft.update(mode="quick", counts=list(old["counts"]), runs=list(old.get("runs") or [None] * seats))


def build_form(
    ctx: AppContext, match: Match, edit: int | None, draft: dict[str, Any], message: ft.Text
) -> RoundForm:
    rules, opts = match.rules, match.opts
    seats, deck = len(match.players), opts.deck_size
    out = set(match.tally().out[edit] if edit is not None else match.players_out())
    playing = [s for s in range(seats) if s not in out]
    if not draft:
        _start(draft, match, edit, playing)
    names = match.names
    by_id = colours_of(ctx, match)
    colours = [by_id.get(player) for player in match.players]
    dynamic = ft.Column(spacing=6 if ctx.narrow else 10)
    preview = ft.Text(size=15, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)
    caller_note = ft.Text(color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD)

    def run_needed(seat: int) -> bool:
        """The quick form asks a run only where a rule looks at it (engine: quick_run_needed)."""
        return quick_run_needed(opts, calling=seat in draft["callers"])

    rack = RackPad(ctx, draft, deck, playing, names, lambda: refresh())
    complete = rack.complete

    def typed_key(key: str, shift: bool) -> bool:
        """Desktop keyboard on the racks form (see rack_pad); else Enter saves the round as usual."""
        return draft["mode"] == "racks" and rack.typed_key(key, shift)

    ctx.on_key = typed_key

    def toggle_caller(seat: int) -> None:
        draft.pop("caller_problem", None)
        callers = draft["callers"]
        if seat in callers:
            callers.remove(seat)
        elif draft["blitz"]:
            callers.append(seat)
        else:
            draft["callers"] = [seat]
        refresh()

    def set_mode(mode: str) -> None:
        draft["mode"] = mode
        refresh()

    def set_blitz(on: bool) -> None:
        draft["blitz"] = on
        if not on:
            draft["callers"] = draft["callers"][:1]
        refresh()

    def set_quick(kind: str, seat: int, value: Any) -> None:
        draft[kind][seat] = int(value)
        refresh()

    def racks_part() -> list[ft.Control]:
        tabs = [
            seat_tab(
                names[s],
                colours[s],
                selected=s == draft["seat"],
                on_click=lambda s=s: rack.set_seat(s),
                identifier=f"rack-seat-{s}",
                subtitle=rack.summary(s),
            )
            for s in playing
        ]
        return [ft.Row(tabs, wrap=True, spacing=4, run_spacing=4), *rack.controls()]

    def quick_part() -> list[ft.Control]:
        parts: list[ft.Control] = []
        size = 32 if ctx.narrow else 40  # ten 32 px keys fit a 390 px phone's row: "10" never wraps alone
        for s in playing:
            parts.append(ft.Text(names[s], weight=ft.FontWeight.BOLD))
            if s not in draft["callers"]:  # a caller's ascending count is 10: nothing to ask
                count = ChoiceRow(
                    range(1, 11), lambda v, s=s: set_quick("counts", s, v), prefix=f"count-{s}", size=size
                )
                count.refresh(draft["counts"][s])
                parts += [ft.Text(ctx.t("Ascending count")), count.control]
            if run_needed(s):
                run = ChoiceRow(
                    range(1, 11), lambda v, s=s: set_quick("runs", s, v), prefix=f"run-{s}", size=size
                )
                run.refresh(draft["runs"][s])
                parts += [ft.Text(ctx.t("Longest run")), run.control]
        return parts

    def refresh(*, send: bool = True) -> None:
        racks_mode = draft["mode"] == "racks"
        callers = ft.Row(
            [
                seat_chip(
                    names[s],
                    colours[s],
                    selected=s in draft["callers"],
                    on_click=lambda s=s: toggle_caller(s),
                    identifier=f"caller-{s}",
                    icon=ft.Icons.CAMPAIGN,  # calling: a round chip with a megaphone, unlike the rack tabs
                    compact=ctx.narrow,
                )
                for s in playing
            ],
            wrap=True,
            spacing=4,
            run_spacing=4,
        )
        modes = ft.Row(
            [
                *[
                    tag(
                        f"mode-{mode}",
                        (ft.FilledButton if draft["mode"] == mode else ft.OutlinedButton)(
                            text, on_click=lambda _, m=mode: set_mode(m), height=36
                        ),
                    )
                    for mode, text in (("racks", ctx.t("Racks")), ("quick", ctx.t("Quick form")))
                ],
                ft.Text(
                    ctx.t("Dealer: {name}", name=names[dealer_for(match, edit)]),
                    size=12,
                    expand=True,
                    text_align=ft.TextAlign.RIGHT,
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
            ],
            spacing=6,
        )
        parts: list[ft.Control] = [
            modes,
            ft.Text(ctx.t("Who called Racko?"), weight=ft.FontWeight.BOLD, key=ft.ScrollKey("caller-row")),
            callers,
            *caller_hint(),
        ]
        if opts.blitz:
            parts.append(
                tag(
                    "blitz",
                    ft.Switch(
                        label=ctx.t("Blitz-Racko right after the deal"),
                        value=draft["blitz"],
                        on_change=lambda e: set_blitz(bool(e.control.value)),
                    ),
                )
            )
        # The message sits in the scrolling form, not in the fixed bottom area, where it took the room of the
        # pad's last row on a phone: right above the pad, or above the long quick form.
        if racks_mode:
            parts += [*racks_part(), preview, message]
        else:
            parts += [message, *quick_part(), preview]
        dynamic.controls = parts
        rack.refresh_pad(visible=racks_mode)
        preview.value = preview_text()
        preview.visible = bool(preview.value)  # no blank line above the pad while there is nothing to show
        if send:
            message.visible = False
            for control in (dynamic, rack.pad.control, message):
                control.update()

    def offered() -> int | None:
        """The one player to offer as the caller: nobody is marked and exactly one entered rack may call."""
        if draft["callers"] or draft["mode"] != "racks":
            return None
        full = [draft["racks"][s] if s in playing and complete(s) else None for s in range(seats)]
        found = racko_seats(full, opts)
        return found[0] if len(found) == 1 else None

    def caller_hint() -> list[ft.Control]:
        """Under the caller row: why Save refused (nobody called), and the player whose rack is a Racko."""
        if draft.get("caller_problem") and draft["callers"]:
            draft.pop("caller_problem", None)
        caller_note.value = draft.get("caller_problem") or ""
        # Only there while there is something to say: Flutter draws an error box in place of a tagged
        # (Semantics) control that is hidden ("Semantics.content must be provided and visible").
        hint: list[ft.Control] = [tag("caller-message", caller_note)] if caller_note.value else []
        seat = offered()
        if seat is not None:
            hint.append(
                tag(
                    "offer-caller",
                    ft.OutlinedButton(
                        ctx.t("{name}'s rack is a Racko: {name} called", name=names[seat]),
                        icon=ft.Icons.CAMPAIGN,
                        on_click=lambda _, s=seat: toggle_caller(s),
                    ),
                )
            )
        return hint

    def entered() -> dict[str, Any] | str:
        if draft["mode"] == "racks":
            for s in playing:
                if not complete(s):
                    return ctx.t("Enter all 10 cards of {name}'s rack.", name=names[s])
            racks = [draft["racks"][s] if s not in out else None for s in range(seats)]
            return {"racks": racks, "callers": list(draft["callers"]), "blitz": draft["blitz"]}
        # A caller's ascending count is 10 (stored as such: an empty count means nothing but "not asked").
        counts = [
            None if s in out else 10 if s in draft["callers"] else draft["counts"][s] for s in range(seats)
        ]
        for s in playing:
            if counts[s] is None:
                return ctx.t("Enter the ascending count of {name}.", name=names[s])
        runs = [draft["runs"][s] if s in playing and run_needed(s) else None for s in range(seats)]
        return {"counts": counts, "runs": runs, "callers": list(draft["callers"]), "blitz": draft["blitz"]}

    def result() -> dict[str, Any] | str:
        """The round for Save; a round without a caller is refused next to the caller row (engine: check_entry)."""
        round_result = entered()
        if isinstance(round_result, str):
            return round_result
        try:
            check_entry(round_result, opts)
        except RuleError as error:
            draft["caller_problem"] = ctx.describe(error)
            refresh()
            show_caller_row()
            return ""
        return round_result

    def show_caller_row() -> None:
        """Scroll the form back up to the caller row, where the message is: after ten racks the pad is in view,
        not the row at the top."""
        node = caller_note.parent
        while node is not None and getattr(node, "scroll", None) is None:
            node = node.parent
        if node is None:
            return
        try:
            ctx.page.run_task(node.scroll_to, scroll_key="caller-row", duration=300)
        except Exception:  # no event loop (in-process tests): the message is there all the same
            pass

    def preview_text() -> str:
        entered_now = entered()
        if isinstance(entered_now, str):
            return ""
        try:
            check_entry(entered_now, opts)  # no points for a round that cannot be saved
        except RuleError:
            return ""
        index = edit if edit is not None else match.round_index
        try:
            if match.chips:
                # A payer who cannot pay in full pays what they have (RULES 1.7): only the match knows the
                # balances, so the round is tried on a copy of it.
                trial = (
                    match.with_round(entered_now)
                    if edit is None
                    else match.with_round_edited(edit, entered_now)
                )
                points = trial.round_scores()[index]
            else:
                points = rules.score_result(
                    entered_now, opts, dealer=dealer_for(match, edit), round_index=index
                )
        except RuleError:
            return ""
        unit = ctx.t("chips") if match.chips else ctx.t("points")
        listed = ", ".join(f"{names[s]} {points[s]:+d}" for s in playing)
        return ctx.t("This round ({unit}): {list}", unit=unit, list=listed)

    refresh(send=False)
    return RoundForm(controls=[dynamic, rack.pad.control], result=result, places_message=True)
