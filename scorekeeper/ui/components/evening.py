"""The evening around a game, on its scoreboard: time played (with Pause and Resume), the start player, the place
and notes.

Every change is a pure change of the stored match (`scorekeeper.model.evening`: `with_place`, `with_notes`,
`with_start_player`, `paused`, `resumed`), saved through `Store.change_match` (`stored`), so it is kept by undo
and redo, merged by sync as one value per field, and never overwrites a round saved meanwhile. This module only
draws them; the text fields' lengths are the limits of `scorekeeper.model.free_text`. The clock itself starts and stops with the rounds (`Match` and `playtime.after_rounds`); here it is only
paused and resumed by hand. A running clock is shown in whole minutes: the scoreboard is drawn again when the
next minute is reached (`_tick`), never every second.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.model import playtime
from scorekeeper.model.evening import (
    paused,
    resumed,
    with_notes,
    with_place,
    with_start_player,
)
from scorekeeper.model.free_text import NOTES_MAX, PLACE_MAX, Kind, clean
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store import StoreError
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.match_io import announce
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.i18n import Translator

PLACES_SHOWN = 8
"""Places offered in the place dialog (most used first): a phone shows them without scrolling."""


# ------------------------------------------------------------------ what the free-text rule cut
def cut_notice(ctx: AppContext, text: str, kind: Kind) -> str:
    """What to tell when typed text is longer than its limit and was cut ("" when it was not)."""
    cleaned = clean(text, kind)
    return (
        " ".join(ctx.describe(told) for told in cleaned.problems(kind) if cleaned.cut) if cleaned.cut else ""
    )


# ------------------------------------------------------------------ texts
def duration_text(t: Translator, seconds: float) -> str:
    """Whole minutes, with hours from an hour on: "42 min", "1 h 5 min"."""
    minutes = int(seconds // 60)
    if minutes < 60:
        return t("{m} min", m=minutes)
    return t("{h} h {m} min", h=minutes // 60, m=minutes % 60)


def played_text(
    t: Translator, clock: list[Any], now: datetime | None = None, heard: str | None = None
) -> str | None:
    """ "Time played: 42 min", or None where it is not known (older data, a game entered without a clock). With
    `heard` (the match's `updated`), a clock left idle counts up to the last thing that happened."""
    seconds = playtime.played_seconds(clock, now, heard)
    return None if seconds is None else t("Time played: {time}", time=duration_text(t, seconds))


def place_and_time(t: Translator, place: str, clock: list[Any], heard: str | None = None) -> str:
    """A list line's "Anna's kitchen · 1 h 5 min": what of the two is known ("" when neither is); a clock left
    idle counts up to the match's last change (`heard`, its `updated`)."""
    seconds = playtime.played_seconds(clock, heard=heard)
    parts = [place, duration_text(t, seconds) if seconds is not None else ""]
    return " · ".join(part for part in parts if part)


def evening_lines(ctx: AppContext, match: Match) -> list[ft.Control]:
    """The evening as read-only lines (a game's page in the history): the place, the time played and the notes,
    each only where known; changed on the scoreboard."""
    lines = [
        (ft.Icons.PLACE_OUTLINED, match.place, "history-place"),
        (ft.Icons.TIMER_OUTLINED, played_text(ctx.t, match.clock, heard=match.updated) or "", "history-time"),
        (ft.Icons.NOTES, match.notes, "history-notes"),
    ]
    return [
        tag(identifier, ft.Row([ft.Icon(icon, size=18), ft.Text(text, expand=True)], spacing=8))
        for icon, text, identifier in lines
        if text
    ]


# ------------------------------------------------------------------ the section
def evening_section(ctx: AppContext, match: Match, route: str) -> ft.Control:
    """The section of the scoreboard with the evening's four rows; `route` is the scoreboard's (a running clock
    draws it again there when the next minute is reached)."""
    rows = [clock_row(ctx, match), start_player_row(ctx, match), place_row(ctx, match), notes_row(ctx, match)]
    _tick(ctx, route, match.clock, match.updated)
    return tag("evening", section(ctx.t("About this game"), *[row for row in rows if row is not None]))


def _row(
    icon: ft.IconData, title: str, subtitle: str | None, trailing: ft.Control | None, **tile: Any
) -> ft.Control:
    return ft.ListTile(
        leading=ft.Icon(icon),
        title=ft.Text(title),
        subtitle=ft.Text(subtitle, size=12, max_lines=4, overflow=ft.TextOverflow.ELLIPSIS)
        if subtitle
        else None,
        trailing=trailing,
        dense=True,
        content_padding=ft.Padding.symmetric(horizontal=4),
        **tile,
    )


def clock_row(ctx: AppContext, match: Match) -> ft.Control | None:
    """Time played, where known, and Pause or Resume while the game goes on. A clock left idle has stopped
    counting at the last thing that happened: the row asks whether the game is still on."""
    text = played_text(ctx.t, match.clock, heard=match.updated)
    if text is None:
        return None
    quiet = None if match.is_over else playtime.idle_since(match.clock, match.updated, datetime.now(UTC))
    if quiet is not None:
        return idle_question(ctx, match, text, quiet)
    running = playtime.running(match.clock)
    button: ft.Control | None = None
    state = None
    if not match.is_over:
        state = ctx.t("Clock running") if running else ctx.t("Clock paused")
        label = ctx.t("Pause clock") if running else ctx.t("Resume clock")
        change = paused if running else resumed
        why = ctx.t("Clock paused") if running else ctx.t("Clock resumed")
        button = tag(
            "clock-pause" if running else "clock-resume",
            ft.TextButton(
                label,
                icon=ft.Icons.PAUSE if running else ft.Icons.PLAY_ARROW,
                on_click=lambda _: save(ctx, match.id, change(now_iso()), why),
            ),
        )
    return tag("time-played", _row(ft.Icons.TIMER_OUTLINED, text, state, button))


def idle_question(ctx: AppContext, match: Match, text: str, quiet: datetime) -> ft.Control:
    """A clock that heard nothing for `playtime.IDLE`: is the game still on? Still playing resumes it from now
    (the silence a pause); stopping ends its time at the last thing that happened."""
    asked = ctx.t(
        "Nothing happened since {time} on {day}: the clock stopped there. Is the game still on?",
        time=quiet.astimezone().strftime("%H:%M"),
        day=quiet.astimezone().strftime("%Y-%m-%d"),
    )
    on = tag(
        "clock-still-on",
        ft.TextButton(
            ctx.t("Still playing"),
            icon=ft.Icons.PLAY_ARROW,
            on_click=lambda _: save(ctx, match.id, resumed(now_iso()), ctx.t("Clock resumed")),
        ),
    )
    off = tag(
        "clock-stop-at-last",
        ft.TextButton(
            ctx.t("Stop at the last round"),
            icon=ft.Icons.STOP,
            on_click=lambda _: save(ctx, match.id, paused(now_iso()), ctx.t("Clock paused")),
        ),
    )
    tile = _row(ft.Icons.TIMER_OUTLINED, text, asked, None)
    return tag("time-played", ft.Column([tile, ft.Row([on, off], wrap=True, spacing=4)], spacing=0))


def start_player_row(ctx: AppContext, match: Match) -> ft.Control:
    """Who started (the first dealer): changed in a dialog before the first round, fixed after it (said so)."""
    title = ctx.t("Start player: {name}", name=match.names[match.first_dealer])
    if match.mode == "digital":
        return tag(
            "start-player",
            _row(ft.Icons.PERSON_OUTLINE, title, ctx.t("Fixed once the cards are dealt."), None),
        )
    if match.rounds:
        fixed = ctx.t("Fixed once the first round is entered.")
        return tag("start-player", _row(ft.Icons.PERSON_OUTLINE, title, fixed, None))
    return tag(
        "start-player",
        _row(
            ft.Icons.PERSON_OUTLINE,
            title,
            None,
            ft.Icon(ft.Icons.EDIT_OUTLINED),
            on_click=lambda _: start_player_dialog(ctx, match),
        ),
    )


def place_row(ctx: AppContext, match: Match) -> ft.Control:
    title = match.place or ctx.t("Where was it played?")
    return tag(
        "place",
        _row(
            ft.Icons.PLACE_OUTLINED,
            title,
            None,
            ft.Icon(ft.Icons.EDIT_OUTLINED),
            on_click=lambda _: place_dialog(ctx, match),
        ),
    )


def notes_row(ctx: AppContext, match: Match) -> ft.Control:
    title = ctx.t("Notes on this game") if match.notes else ctx.t("Add notes")
    return tag(
        "notes",
        _row(
            ft.Icons.NOTES,
            title,
            match.notes or None,
            ft.Icon(ft.Icons.EDIT_OUTLINED),
            on_click=lambda _: notes_dialog(ctx, match),
        ),
    )


# ------------------------------------------------------------------ saving
def stored(ctx: AppContext, match_id: str, change: Callable[[Match], Match], why: str) -> str:
    """Apply `change` to the stored match (`why` names it for undo) and tell the other sessions; "" when saved,
    else what to tell the player (the rules or the store refused: nothing changed)."""
    try:
        ctx.store.change_match(match_id, change, why)
    except (RuleError, StoreError, ValueError) as error:
        return ctx.describe(error)
    except Exception as error:  # the store failed (disk full, read-only): say so, nothing was saved
        return ctx.t("Could not save: {error}", error=ctx.describe(error))
    announce(ctx, match_id)
    return ""


def save(ctx: AppContext, match_id: str, change: Callable[[Match], Match], why: str) -> None:
    """`stored`, then the scoreboard drawn again (or the refusal said)."""
    problem = stored(ctx, match_id, change, why)
    if problem:
        ctx.error(problem)
    ctx.rerender()


class ChangeDialog:
    """A dialog that makes one change to the match (a second tap while it closes changes nothing more). The
    change is saved at once; the scoreboard is drawn again, and a refusal said, only when the browser reports
    the dialog closed: replacing the view while it is still closing leaves it open on screen (as the round
    dialog of the scoreboard found)."""

    def __init__(self, ctx: AppContext, match_id: str, title: str) -> None:
        self.ctx, self.match_id = ctx, match_id
        self.outcome: list[str] = []
        self.notice = ""
        self.dialog = ft.AlertDialog(title=ft.Text(title), on_dismiss=self.dismissed)
        self.dialog.data = self.dismissed  # in-process tests have no browser to report the dismissal

    def commit(self, change: Callable[[Match], Match], why: str, notice: str = "") -> None:
        """Save `change`; `notice` is said once it is saved (e.g. that the text was cut)."""
        if self.outcome:
            return
        self.outcome.append(stored(self.ctx, self.match_id, change, why))
        self.notice = notice
        self.ctx.close_dialog(self.dialog)

    def dismissed(self, _: object = None) -> None:
        if not self.outcome:
            return
        if self.outcome[0]:
            self.ctx.error(self.outcome[0])
        elif self.notice:
            self.ctx.notify(self.notice)
        self.ctx.rerender()

    def show(self, prefix: str, content: ft.Control, actions: list[ft.Control]) -> None:
        cancel = ft.TextButton(self.ctx.t("Cancel"), on_click=lambda _: self.ctx.close_dialog(self.dialog))
        self.dialog.content = content
        self.dialog.actions = [tag(f"{prefix}-cancel", cancel), *actions]
        self.ctx.page.show_dialog(self.dialog)


def notes_dialog(ctx: AppContext, match: Match) -> None:
    asked = ChangeDialog(ctx, match.id, ctx.t("Notes on this game"))
    field = ft.TextField(
        label=ctx.t("Notes on this game"),
        value=match.notes,
        multiline=True,
        min_lines=3,
        max_lines=8,
        max_length=NOTES_MAX,
        autofocus=True,
    )

    def done(_: object) -> None:
        typed = field.value or ""
        asked.commit(with_notes(typed), ctx.t("Notes changed"), cut_notice(ctx, typed, "notes"))

    asked.show(
        "notes",
        tag("notes-field", field),
        [tag("notes-save", ft.TextButton(ctx.t("Save notes"), on_click=done))],
    )


def place_dialog(ctx: AppContext, match: Match) -> None:
    """Type a place, or tap one used before (most used first); an empty place removes it."""
    asked = ChangeDialog(ctx, match.id, ctx.t("Where was it played?"))
    field = ft.TextField(label=ctx.t("Place name"), value=match.place, max_length=PLACE_MAX, autofocus=True)

    def pick(place: str) -> None:
        asked.commit(with_place(place), ctx.t("Place changed"), cut_notice(ctx, place, "place"))

    try:
        known = [place for place in ctx.store.places() if place != match.place][:PLACES_SHOWN]
    except Exception:  # the index cannot be read now: a place can still be typed
        known = []
    chips = [
        tag(f"place-{index}", ft.Chip(label=ft.Text(place), on_click=lambda _, p=place: pick(p)))
        for index, place in enumerate(known)
    ]
    field.on_submit = lambda _: pick(field.value or "")
    content = ft.Column(
        [
            tag("place-field", field),
            *([ft.Text(ctx.t("Places used before"), size=12)] if chips else []),
            ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
        ],
        tight=True,
        spacing=8,
        width=320,
    )
    save_button = ft.TextButton(ctx.t("Save place"), on_click=lambda _: pick(field.value or ""))
    asked.show("place", content, [tag("place-save", save_button)])


def start_player_dialog(ctx: AppContext, match: Match) -> None:
    asked = ChangeDialog(ctx, match.id, ctx.t("Who starts?"))
    choices = [
        tag(
            f"start-player-{seat}",
            ft.TextButton(
                name,
                on_click=lambda _, s=seat: asked.commit(with_start_player(s), ctx.t("Start player changed")),
            ),
        )
        for seat, name in enumerate(match.names)
    ]
    asked.show("start-player", ft.Column(choices, tight=True, spacing=0), [])


# ------------------------------------------------------------------ a running clock
_ticks: dict[int, object] = {}
"""Per session (`id` of its context): the latest scoreboard drawing's tick; an older one does nothing."""


def _tick(ctx: AppContext, route: str, clock: list[Any], heard: str | None = None) -> None:
    """While the clock runs, draw the scoreboard again when its time played reaches the next whole minute, as
    long as it is still the screen shown, the browser still connected and no later drawing took over.

    A timer on the session's event loop (`call_later`), not a task: nothing waits for it, a closed session's loop
    never runs it, and the redraw itself runs where Flet runs event handlers (`run_thread`)."""
    if not playtime.running(clock) or playtime.idle_since(clock, heard, datetime.now(UTC)) is not None:
        _ticks.pop(id(ctx), None)  # stopped, or idle: its time does not move
        return
    token = _ticks[id(ctx)] = object()
    wait = 60 - (playtime.played_seconds(clock) or 0) % 60 + 0.5

    def fire() -> None:
        if _ticks.get(id(ctx)) is not token:
            return  # drawn again since: that drawing's timer counts
        if ctx.route != route or ctx.page.session.connection is None:  # elsewhere, or the tab closed
            _ticks.pop(id(ctx), None)
            return
        ctx.page.run_thread(ctx.rerender)

    try:
        loop = ctx.page.loop
        loop.call_soon_threadsafe(loop.call_later, wait, fire)  # call_later is for the loop's own thread
    except Exception:  # no loop (the session is closing): its next drawing shows the time
        _ticks.pop(id(ctx), None)
