"""Game nights: the list of evenings (`/nights`) and one evening (`/night/<match_id>`, the night holding that
match): date, place, who played, each game with its result and time played, the combined ranking and the total
time, and a summary picture to save or share.

Which matches are one night and how the ranking counts are `scorekeeper.stats.game_nights` (place and 4 hours, or a
choice by hand; opponents beaten, ties half). The list groups the store's index (no match file is read); a night's
screen reads its few matches. "Add a game" and "Take out" change `Match.night` of a match through
`Store.change_match`, so they are kept by undo, synced, and seen by every device.

The summary picture (a PNG, `components/night_picture.py`) is handed over with the FilePicker's save call, as the
exports are: in a browser it is a download (then shared from the phone's files or gallery), on a desktop a save
dialog. Flet's Share service was not chosen: on the web it needs the browser's Web Share API, which desktop
browsers and headless Chromium lack, so it could not be checked here; the download works in every browser.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import flet as ft

from scorekeeper.model.evening import with_night
from scorekeeper.model.match import Match
from scorekeeper.stats import game_nights
from scorekeeper.stats.game_nights import Night, Result, Row
from scorekeeper.ui.components.evening import duration_text, stored
from scorekeeper.ui.components.extras_common import day, decimal, empty_state
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.night_picture import DRAWN, Line, picture
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.paging import PAGE_SIZE, every_match
from scorekeeper.ui.views.home import more_button, standings_text

NEARBY = timedelta(hours=12)
"""How far before or after a night a game is offered to be added to it."""


_GROUPED: dict[str, game_nights.Grouped] = {}
"""Per data folder, its nights while its index is unchanged (every session of the process shares them)."""


def nights(ctx: AppContext) -> list[Night]:
    """Every night of the stored matches, latest first (from the index; grouped again only after a change)."""
    grouped = _GROUPED.setdefault(str(ctx.store.data_dir), game_nights.Grouped())
    return grouped(every_match(ctx.store))


def night_matches(ctx: AppContext, night: Night) -> list[Match]:
    """The night's matches as stored, earliest first (one a newer version made is left out: it has no result)."""
    return [m for m in (ctx.store.get_match(i) for i in night.ids) if m is not None]


def results(matches: list[Match]) -> list[Result]:
    """The finished matches' places, per seat, for the combined ranking (partners with their team's place)."""
    out = []
    for match in matches:
        if match.status != "finished" or not match.is_over:
            continue
        places = {s.seat: s.place for s in match.standings()}
        out.append(Result(match.players, match.names, [places[seat] for seat in range(len(match.players))]))
    return out


def played(matches: list[Match]) -> float | None:
    """The night's time played: the sum of the matches' clocks (None: no match has one)."""
    known = [s for s in (m.seconds_played() for m in matches) if s is not None]
    return sum(known) if known else None


def people(matches: list[Match]) -> list[str]:
    """Who played, each once, in the order they first sat down."""
    seen: dict[str, str] = {}
    for match in matches:
        for player, name in zip(match.players, match.names, strict=False):
            seen.setdefault(player, name)
    return list(dict.fromkeys(seen.values()))  # two computer players of one name are written once


def place_text(ctx: AppContext, night: Night) -> str:
    return " · ".join(night.places) if night.places else ctx.t("No place given")


def outcome(ctx: AppContext, match: Match) -> str:
    """ "Won by Anna", or that the game is not finished."""
    if match.status != "finished" or not match.is_over:
        return ctx.t("Not finished: not in the ranking")
    return ctx.t("Won by {names}", names=", ".join(match.names[seat] for seat in match.winners()))


# ------------------------------------------------------------------------------------------------- the list
def _night_card(ctx: AppContext, night: Night) -> ft.Control:
    count = len(night.ids)
    parts = [ctx.t.plural("{n} game", "{n} games", count), place_text(ctx, night)]
    if night.seconds is not None:
        parts.append(duration_text(ctx.t, night.seconds))
    tile = ft.ListTile(
        leading=ft.Icon(ft.Icons.NIGHTLIFE),
        title=ft.Text(day(ctx, night.start.isoformat()), weight=ft.FontWeight.BOLD),
        subtitle=ft.Text(" · ".join(parts)),
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _, key=night.key: ctx.navigate(f"/night/{key}"),
    )
    return ft.Card(tag(f"night-{night.key}", tile))


def _list(ctx: AppContext) -> ft.View:
    route = "/nights"
    shared = [n for n in nights(ctx) if len(n.ids) > 1]  # a game alone is no evening to list
    key = "nights_shown"
    count = ctx.session.shown.get(key, PAGE_SIZE)
    controls: list[ft.Control] = [
        ft.Text(
            ctx.t(
                "Games played at the same place, each within 4 hours of the one before, are one game night. "
                "Add or take out a game on the night's page."
            ),
            size=12,
        )
    ]
    if not shared:
        controls.append(
            empty_state(ft.Icons.NIGHTLIFE, ctx.t("No game nights yet: play two games in an evening."))
        )
    controls.extend(_night_card(ctx, night) for night in shared[:count])
    if len(shared) > count:
        controls.append(more_button(ctx, len(shared) - count, key, count, "nights-more"))
    return screen(ctx, route, ctx.t("Game nights"), controls, back="/history")


# ------------------------------------------------------------------------------------------------ one night
def _ranking_row(ctx: AppContext, row: Row | None) -> ft.Control:
    """A line of the ranking table (None: the header): place, name, points, wins, games."""
    cells = (
        ("#", ctx.t("Player"), ctx.t("Points"), ctx.t("1st"), ctx.t("Games"))
        if row is None
        else (f"{row.place}.", row.name, decimal(ctx, row.points), str(row.wins), str(row.matches))
    )
    weight = ft.FontWeight.BOLD if row is None or row.place == 1 else None
    widths = (26, None, 50, 40, 60)  # "Spellen", "Parties" fit; "1st" counts first places (wins)
    return ft.Row(
        [
            ft.Text(
                text,
                width=width,
                expand=width is None,
                weight=weight,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
                text_align=ft.TextAlign.RIGHT if i > 1 else ft.TextAlign.LEFT,
            )
            for i, (text, width) in enumerate(zip(cells, widths, strict=True))
        ],
        spacing=6,
    )


def _ranking(ctx: AppContext, rows: list[Row]) -> ft.Control:
    if not rows:
        return ft.Text(ctx.t("No game of this night is finished yet."))
    table = ft.Column([_ranking_row(ctx, None), *(_ranking_row(ctx, row) for row in rows)], spacing=4)
    rule = ctx.t(
        "Per game, a point for each player finished ahead of, half a point for a tie; then first places "
        "(1st), then fewer games."
    )
    return ft.Column([tag("night-ranking", table), ft.Text(rule, size=12, italic=True)], spacing=6)


def _match_card(ctx: AppContext, match: Match, night: Night) -> ft.Control:
    places = (
        None
        if match.recorded.scored
        else [row.place for row in sorted(match.standings(), key=lambda r: r.seat)]
    )
    lines = [outcome(ctx, match), standings_text(ctx, match.game, match.names, match.totals(), places)]
    seconds = match.seconds_played()
    if seconds is not None:
        lines.append(ctx.t("Time played: {time}", time=duration_text(ctx.t, seconds)))
    out = (
        tag(
            f"night-out-{match.id}",
            icon_button(
                ft.Icons.REMOVE_CIRCLE_OUTLINE,
                ctx.t("Take out of this night"),
                on_click=lambda _: _take_out(ctx, match.id, night),
            ),
        )
        if len(night.ids) > 1
        else None
    )
    tile = ft.ListTile(
        title=ft.Text(game_title(ctx, match.game), weight=ft.FontWeight.BOLD),
        subtitle=ft.Text("\n".join(lines)),
        trailing=out,
        on_click=lambda _: ctx.navigate(f"/history/{match.id}"),
        content_padding=ft.Padding.only(left=12, right=4),
    )
    return ft.Card(tag(f"night-match-{match.id}", tile))


def _change_nights(ctx: AppContext, changes: dict[str, str], notice: str) -> None:
    """Save each match's new `night` (one change per match, as the store keeps them) and say it once."""
    for match_id, value in changes.items():
        problem = stored(ctx, match_id, with_night(value), ctx.t("Game night changed"))
        if problem:  # refused (the store): said, and the rest not tried
            ctx.error(problem)
            ctx.rerender()
            return
    ctx.notify(notice)
    ctx.rerender()


def _take_out(ctx: AppContext, match_id: str, night: Night) -> None:
    choices = {i: m.night for i, m in ((i, ctx.store.get_match(i)) for i in night.ids) if m is not None}
    stays = next(i for i in night.ids if i != match_id)
    _change_nights(ctx, game_nights.taken_out(match_id, night, choices), ctx.t("Taken out of this night."))
    ctx.navigate(f"/night/{stays}")


def _adding(ctx: AppContext, night: Night, everything: list[Night]) -> ft.Control:
    """The games played within 12 hours of the night that are not in it, latest first, each a button that puts
    it into the night (on the page, not in a dialog: a dialog closed by a tap stayed open in Chromium)."""
    near = [
        n
        for n in everything
        if n is not night and n.start <= night.end + NEARBY and n.end >= night.start - NEARBY
    ]
    summaries = {s.id: s for s in every_match(ctx.store)}
    candidates = [summaries[i] for n in near for i in n.ids if i in summaries and not summaries[i].newer]

    def add(match_id: str) -> None:
        _change_nights(ctx, {match_id: game_nights.joined(match_id, night)}, ctx.t("Added to this night."))
        ctx.navigate(f"/night/{night.key}")

    options: list[ft.Control] = [
        tag(
            f"night-add-{s.id}",
            ft.OutlinedButton(
                f"{game_title(ctx, s.game)} · {day(ctx, s.created)} · {', '.join(s.names)}",
                on_click=lambda _, m=s.id: add(m),
            ),
        )
        for s in candidates[:20]
    ]
    cancel = ft.TextButton(ctx.t("Cancel"), on_click=lambda _: ctx.navigate(f"/night/{night.key}"))
    return section(
        ctx.t("Add a game to this night"),
        *(options or [ft.Text(ctx.t("No other game was played within 12 hours of this night."))]),
        tag("night-add-cancel", cancel),
    )


def summary_lines(ctx: AppContext, night: Night, matches: list[Match], rows: list[Row]) -> list[Line]:
    """What the summary picture says, in the app's language."""
    lines = [
        Line("title", ctx.t("Game night")),
        Line("text", f"{day(ctx, night.start.isoformat())} · {place_text(ctx, night)}"),
        Line("text", ctx.t("Players: {names}", names=", ".join(people(matches)))),
    ]
    if rows:
        lines.append(Line("heading", ctx.t("Ranking")))
        lines.append(Line("row", cells=("#", ctx.t("Player"), ctx.t("Points"), ctx.t("1st"), ctx.t("Games"))))
        lines.extend(
            Line("row", cells=(f"{r.place}.", r.name, decimal(ctx, r.points), str(r.wins), str(r.matches)))
            for r in rows
        )
    lines.append(Line("heading", ctx.t("Games")))
    for match in matches:
        seconds = match.seconds_played()
        time = f" · {duration_text(ctx.t, seconds)}" if seconds is not None else ""
        lines.append(Line("text", f"{game_title(ctx, match.game)}: {outcome(ctx, match)}{time}"))
    total = played(matches)
    if total is not None:
        lines.append(Line("text", ctx.t("Total time played: {time}", time=duration_text(ctx.t, total))))
    return lines


def _save_picture(ctx: AppContext, lines: list[Line], night: Night) -> Callable[[Any], Any]:
    """The click handler of "Save picture": a download in a browser, a save dialog on a desktop."""
    from scorekeeper.ui.views.settings.transfer import file_picker  # the session's one picker (exports too)

    async def handler(_: Any) -> None:
        name = f"game-night-{night.start.strftime('%Y-%m-%d')}.png"
        picker = file_picker(ctx)
        try:
            if picker is None:
                raise RuntimeError(ctx.t("no file dialog on this device"))
            await picker.save_file(
                dialog_title=ctx.t("Save picture"), file_name=name, src_bytes=picture(lines)
            )
        except Exception as error:  # no dialog possible here: say so
            ctx.error(ctx.t("The picture could not be saved: {reason}", reason=ctx.describe(error)))
            return
        ctx.notify(ctx.t("Picture saved: {name}", name=name))

    return handler


def _detail(ctx: AppContext, match_id: str, adding: bool = False) -> ft.View:
    route = f"/night/{match_id}?add=1" if adding else f"/night/{match_id}"
    everything = nights(ctx)
    night = game_nights.night_of(everything, match_id)
    matches = night_matches(ctx, night) if night is not None else []
    if night is None or not matches:
        missing = [empty_state(ft.Icons.SEARCH_OFF, ctx.t("This game was not found."))]
        return screen(ctx, route, ctx.t("Game night"), missing, back="/nights")
    rows = game_nights.ranking(results(matches))
    total = played(matches)
    facts = [
        ft.Text(f"{day(ctx, night.start.isoformat())} · {place_text(ctx, night)}", weight=ft.FontWeight.BOLD),
        ft.Text(ctx.t("Players: {names}", names=", ".join(people(matches)))),
    ]
    if total is not None:
        facts.append(ft.Text(ctx.t("Total time played: {time}", time=duration_text(ctx.t, total))))
    save_picture = tag(
        "night-picture",
        ft.FilledTonalButton(
            ctx.t("Save picture"),
            icon=ft.Icons.IMAGE_OUTLINED,
            on_click=_save_picture(ctx, summary_lines(ctx, night, matches, rows), night),
        ),
    )
    buttons = ft.Row(
        [
            *([save_picture] if DRAWN else []),  # no Pillow in the static build's browser: no picture there
            tag(
                "night-add",
                ft.TextButton(
                    ctx.t("Add a game"),
                    icon=ft.Icons.ADD,
                    on_click=lambda _: ctx.navigate(f"/night/{night.key}?add=1"),
                ),
            ),
        ],
        wrap=True,
    )
    controls: list[ft.Control] = [
        *facts,
        *([_adding(ctx, night, everything)] if adding else []),  # at the top: seen at once on a phone
        section(ctx.t("Ranking"), _ranking(ctx, rows)),
        section(ctx.t("Games"), *(_match_card(ctx, m, night) for m in matches)),
        buttons,
    ]
    return screen(ctx, route, ctx.t("Game night"), controls, back="/nights")


def build(ctx: AppContext, match_id: str | None = None, add: str | None = None, **_: str) -> ft.View:
    if match_id:
        return _detail(ctx, match_id, adding=bool(add))
    return _list(ctx)
