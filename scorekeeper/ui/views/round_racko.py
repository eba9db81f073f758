"""Racko round entry: who called, then each rack slot 5 to slot 50 on a pad of the deck's numbers (numbers used
this round greyed out, in rows of ten), or the quick form (ascending count and longest run per player).

A rack takes 10 taps (one per card; the next rack opens by itself); the caller is one tap per round. While a
rack fills, its ascending count and direct runs so far are shown and highlighted (engine: racko.live). On a desktop keyboard: type a card's number ("23"; Enter or a number that
cannot grow ends it), Backspace takes back, Tab / Shift+Tab go to the next / previous player's rack.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.live import rack_progress
from scorekeeper.games.racko.results import check_entry, racko_seats
from scorekeeper.games.racko.rules import SLOTS, quick_run_needed
from scorekeeper.match import Match
from scorekeeper.ui.components.match_io import colours_of
from scorekeeper.ui.components.widgets import ChoiceRow, NumberPad, seat_chip, seat_tab, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.round_entry import RoundForm, dealer_for

SLOT_LABELS = [5 * (i + 1) for i in range(SLOTS)]


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
    caller_note = ft.Text(color=ft.Colors.ERROR, weight=ft.FontWeight.BOLD, visible=False)

    def run_needed(seat: int) -> bool:
        """The quick form asks a run only where a rule looks at it (engine: quick_run_needed)."""
        return quick_run_needed(opts, calling=seat in draft["callers"])

    def used() -> set[int]:
        return {n for s in playing for n in draft["racks"][s] if n is not None}

    def complete(seat: int) -> bool:
        return all(n is not None for n in draft["racks"][seat])

    def pick(number: Any) -> None:
        rack = draft["racks"][draft["seat"]]
        slot = (
            draft["slot"]
            if draft["slot"] is not None
            else next((i for i, n in enumerate(rack) if n is None), None)
        )
        if slot is None or number in used():
            return
        rack[slot] = int(number)
        empty = [i for i, n in enumerate(rack) if n is None]
        draft["slot"] = next((i for i in empty if i > slot), empty[0] if empty else None)
        if draft["slot"] is None:  # this rack is full: open the next incomplete one
            later = [s for s in playing if not complete(s)]
            if later:
                after = [s for s in later if s > draft["seat"]]
                draft["seat"] = (after or later)[0]
                draft["slot"] = draft["racks"][draft["seat"]].index(None)
        refresh()

    # Rows of ten: a number's place is the same on every device and the decades line up. On a 390 px phone a
    # key is 34 px wide; 38 px high keeps six rows, the slots and four players' chips above Save.
    pad = NumberPad(list(range(1, deck + 1)), pick, prefix="num", size=38 if ctx.narrow else 46, per_row=10)

    def typed_key(key: str, shift: bool) -> bool:
        """Desktop keyboard on the racks form: digits build a card number, Enter/Backspace/Tab as described
        above. Returns whether the key was used (else Enter saves the round as usual)."""
        if draft["mode"] != "racks":
            return False
        buffer = draft.get("typed", "")
        if key.isdigit() and len(key) == 1:
            if not buffer and key == "0":  # no card 0 and no card starts with it
                return True
            buffer += key
            if int(buffer) * 10 > deck or len(buffer) >= len(str(deck)):  # no card can start with it: done
                draft["typed"] = ""
                if 1 <= int(buffer) <= deck:
                    pick(int(buffer))
                else:
                    refresh()
            else:
                draft["typed"] = buffer
                refresh()
            return True
        if key == "Enter" and buffer:
            draft["typed"] = ""
            if 1 <= int(buffer) <= deck:
                pick(int(buffer))
            else:
                refresh()
            return True
        if key == "Backspace":
            if buffer:
                draft["typed"] = buffer[:-1]
                refresh()
            else:
                back_space()
            return True
        if key == "Tab":
            step = -1 if shift else 1
            position = playing.index(draft["seat"]) if draft["seat"] in playing else 0
            set_seat(playing[(position + step) % len(playing)])
            return True
        return False

    ctx.on_key = typed_key

    def set_seat(seat: int) -> None:
        rack = draft["racks"][seat]
        draft.update(seat=seat, slot=rack.index(None) if None in rack else None)
        refresh()

    def set_slot(slot: int) -> None:
        draft["slot"] = slot
        refresh()

    def back_space() -> None:
        rack = draft["racks"][draft["seat"]]
        filled = [i for i, n in enumerate(rack) if n is not None]
        if filled:
            last = draft["slot"] if draft["slot"] in filled else filled[-1]
            rack[last] = None
            draft["slot"] = last
        refresh()

    def clear_rack() -> None:
        seat = draft["seat"]
        if any(n is not None for n in draft["racks"][seat]):  # kept, so that the clear can be undone
            draft["cleared"] = (seat, list(draft["racks"][seat]))
        draft["racks"][seat] = [None] * SLOTS
        draft["slot"] = 0
        refresh()

    def unclear_rack() -> None:
        seat, rack = draft.pop("cleared")
        taken = {n for s in playing if s != seat for n in draft["racks"][s] if n is not None}
        draft["racks"][seat] = [n if n not in taken else None for n in rack]  # cards placed since stay put
        draft["seat"] = seat
        draft["slot"] = draft["racks"][seat].index(None) if None in draft["racks"][seat] else None
        refresh()

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

    def rack_summary(seat: int, *, live: bool = False) -> str:
        """Final figures of a full rack; for an unfinished one the card count, and with `live` the figures so
        far (the engine's rule for a partial rack: the count stops at the first drop or empty slot)."""
        progress = rack_progress(draft["racks"][seat])
        count, run = progress.ascending_from_front, progress.longest_run
        if progress.complete:
            return ctx.t("ascending {count} · run {run}", count=count, run=run)
        if not live or not progress.filled:
            return ctx.t("{n}/10 cards", n=progress.filled)
        return ctx.t("{n}/10 cards · ascending {count} · run {run}", n=progress.filled, count=count, run=run)

    def slot_box(index: int, value: int | None, *, good: bool, in_run: bool, selected: bool) -> ft.Control:
        # The ten slots share one row (slot 5 at the left, as on the rack), on a phone too.
        return tag(
            f"slot-{index}",
            ft.Container(
                ft.Column(
                    [
                        ft.Text(str(SLOT_LABELS[index]), size=10 if ctx.narrow else 11),
                        ft.Text(
                            "–" if value is None else str(value),
                            size=18 if ctx.narrow else 22,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.TERTIARY if in_run else None,
                            italic=in_run,
                        ),
                    ],
                    spacing=0,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    tight=True,
                ),
                expand=True,
                height=46 if ctx.narrow else 58,
                alignment=ft.Alignment.CENTER,
                border_radius=8,
                bgcolor=ft.Colors.SECONDARY_CONTAINER if good else None,
                border=ft.Border.all(
                    3 if selected else 1, ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE_VARIANT
                ),
                on_click=lambda _, i=index: set_slot(i),
            ),
        )

    def racks_part() -> list[ft.Control]:
        seat = draft["seat"]
        rack = draft["racks"][seat]
        tabs = [
            seat_tab(
                names[s],
                colours[s],
                selected=s == seat,
                on_click=lambda s=s: set_seat(s),
                identifier=f"rack-seat-{s}",
                subtitle=rack_summary(s),
            )
            for s in playing
        ]
        progress = rack_progress(rack)  # live: highlights grow as the rack fills
        good, runs = set(progress.ascending_slots), progress.run_slots
        boxes = [
            slot_box(i, rack[i], good=i in good, in_run=i in runs, selected=i == draft["slot"])
            for i in range(SLOTS)
        ]
        rows = [ft.Row(boxes, spacing=3 if ctx.narrow else 6)]
        typed = draft.get("typed", "")
        live = rack_summary(seat, live=True)
        tools = ft.Row(
            [
                ft.Column(
                    [
                        ft.Text(
                            ctx.t("Rack of {name}, slot 5 first", name=names[seat]),
                            size=12,
                            max_lines=1,
                            overflow=ft.TextOverflow.ELLIPSIS,
                        ),
                        tag("rack-live", ft.Text(live, weight=ft.FontWeight.BOLD)),
                    ],
                    spacing=0,
                    tight=True,
                    expand=True,
                ),
                *(
                    [tag("rack-typed", ft.Text(typed + "…", size=18, weight=ft.FontWeight.BOLD))]
                    if typed
                    else []
                ),
                tag(
                    "rack-back",
                    ft.IconButton(
                        ft.Icons.BACKSPACE_OUTLINED,
                        tooltip=ctx.t("Remove last card"),
                        on_click=lambda _: back_space(),
                    ),
                ),
                tag(
                    "rack-clear",
                    ft.IconButton(
                        ft.Icons.DELETE_SWEEP,
                        tooltip=ctx.t("Clear rack"),
                        icon_color=ft.Colors.ERROR,  # it removes ten cards at once: marked as destructive
                        on_click=lambda _: clear_rack(),
                    ),
                ),
            ]
        )
        cleared = draft.get("cleared")
        if cleared is not None and cleared[0] == seat and all(n is None for n in rack):
            tools.controls.append(
                tag(
                    "rack-unclear",
                    ft.IconButton(
                        ft.Icons.RESTORE, tooltip=ctx.t("Undo clear rack"), on_click=lambda _: unclear_rack()
                    ),
                )
            )
        return [ft.Row(tabs, wrap=True, spacing=4, run_spacing=4), tools, *rows]

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
        pad.refresh(disabled=used() if racks_mode else set(range(1, deck + 1)))
        pad.control.visible = racks_mode
        preview.value = preview_text()
        preview.visible = bool(preview.value)  # no blank line above the pad while there is nothing to show
        if send:
            message.visible = False
            for control in (dynamic, pad.control, message):
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
        caller_note.visible = bool(caller_note.value)
        hint: list[ft.Control] = [tag("caller-message", caller_note)]
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
    return RoundForm(controls=[dynamic, pad.control], result=result, places_message=True)
