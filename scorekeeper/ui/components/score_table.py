"""Standings and the round-by-round table of a match. Every number comes from the match model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.games.spec import find
from scorekeeper.model.match import Match
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def place_label(ctx: AppContext, place: int, shared: bool) -> str:
    """ "1." or "1.=" — equal totals share the place (RULES.md); the line also says "shared place". Each language
    writes the place its own way (French "1er", "2e")."""
    label = ctx.t("1.") if place == 1 else ctx.t("{place}.", place=place)
    return f"{label}=" if shared else label


def game_title(ctx: AppContext, game: str) -> str:
    """The game's title in the app's language (the key itself for a game this version does not know)."""
    spec = find(game)
    return spec.title.translated(ctx.t) if spec else game


def unit_label(ctx: AppContext, match: Match) -> str:
    """What the totals count: points, penalty points or chips."""
    if match.chips:
        return ctx.t("chips")
    return match.spec.unit.translated(ctx.t)


def standings_list(
    ctx: AppContext,
    match: Match,
    *,
    large: bool = False,
    colours: dict[str, str] | None = None,
    size: int | None = None,
) -> ft.Control:
    """Best first: place, name, total; Racko shows progress to the target, Rage the exact bids, chips who is out.
    Partners are shown as teams: one row per team with its members under it.

    `large` (scoreboard mode) in type of `size`. A long name ends in "…" and keeps a gap to the total."""
    if match.partners:
        return team_list(ctx, match, large, colours, size)
    rows: list[ft.Control] = []
    standings = match.standings()
    place_counts: dict[int, int] = {}
    for row in standings:
        place_counts[row.place] = place_counts.get(row.place, 0) + 1
    out = set(match.players_out()) if match.chips else set()
    target = match.target
    big, small = (size or 56, (size or 56) // 2) if large else (22, 13)
    for row in standings:
        extras: list[str] = []
        if place_counts[row.place] > 1:
            extras.append(ctx.t("shared place"))
        if row.exact_bids is not None:
            extras.append(ctx.t.plural("{n} exact bid", "{n} exact bids", row.exact_bids))
        if row.seat in out:
            extras.append(ctx.t("out of chips"))
        name_column: list[ft.Control] = [
            # A long name wraps on the phone (large text: "Maximil…" said nothing); the big board keeps one line.
            ft.Text(row.name, size=big, weight=ft.FontWeight.BOLD, **(ONE_LINE if large else {}))
        ]
        if extras:
            name_column.append(ft.Text(" · ".join(extras), size=small))
        scored = match.recorded.scored  # a result known by its winners: no totals to show
        if target and not large and scored:
            # As wide as the name column: on a tablet a fixed 160 px bar left most of the line empty.
            name_column.append(ft.ProgressBar(value=min(max(row.total, 0) / target, 1.0)))
        colour = (colours or {}).get(match.players[row.seat])
        mark = ft.Container(width=8 if not large else 16, height=big * 1.3, bgcolor=colour, border_radius=4)
        total = total_text(row.total if scored else "–", big, large)
        place = place_label(ctx, row.place, place_counts[row.place] > 1)
        rows.append(_standing(mark, place, name_column, tag(f"total-{row.seat}", total), big, large))
    return ft.Column(rows, spacing=10 if large else 6)


ONE_LINE: dict[str, Any] = {"no_wrap": True, "overflow": ft.TextOverflow.ELLIPSIS}
"""A name on the big scoreboard: one line, cut with "…" (the TV's type is large already)."""


def total_text(value: int | str, big: int, large: bool) -> ft.Text:
    """A line's total, right-aligned, on one line as wide as its digits. Never a name right against it: a margin
    of a spacer's width and the row's spacing (a margin is no control of its own to send and build). A fixed 72 px
    (to end every name column in one line) broke "530" into "53" over "0" at 200 % text."""
    return ft.Text(
        str(value),
        size=big,
        weight=ft.FontWeight.BOLD,
        text_align=ft.TextAlign.RIGHT,
        no_wrap=True,
        margin=ft.Margin.only(left=(8 if not large else 24) + 12),
    )


def _standing(
    mark: ft.Control, place: str, name_column: list[ft.Control], total: ft.Control, big: int, large: bool
) -> ft.Row:
    """One line of the standings (a player's or a team's): its colour mark, place, names and total."""
    return ft.Row(
        [
            mark,
            ft.Text(place, size=big if large else 16, width=None if large else 40),
            ft.Column(name_column, spacing=2, expand=True, tight=True),
            total,
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        spacing=12,
    )


def team_list(
    ctx: AppContext, match: Match, large: bool, colours: dict[str, str] | None, size: int | None
) -> ft.Control:
    """Partners (RULES 1.5): the two teams best first, each row the team's total and place, its members with
    their own points under it (drawn as `standings_list` says)."""
    teams = match.team_standings() or []
    totals = match.totals()
    shared = len({t.place for t in teams}) < len(teams)
    big, small = (size or 56, (size or 56) // 2) if large else (22, 14)
    rows: list[ft.Control] = []
    for team in teams:
        members = " · ".join(f"{match.names[s]} {totals[s]}" for s in team.seats)
        name_column: list[ft.Control] = [
            ft.Text(
                ctx.t("Team {names}", names=" + ".join(team.names)),
                size=big,
                weight=ft.FontWeight.BOLD,
                **(ONE_LINE if large else {}),
            ),
            ft.Text(members + (" · " + ctx.t("shared place") if shared else ""), size=small),
        ]
        if match.target and not large:
            # As wide as the name column, as a player's bar (a fixed 160 px ended before the names did)
            name_column.append(ft.ProgressBar(value=min(max(team.total, 0) / match.target, 1.0)))
        dots: list[ft.Control] = [
            ft.Container(
                width=8 if not large else 16,
                height=big * 0.6,
                bgcolor=(colours or {}).get(match.players[s]),
                border_radius=4,
            )
            for s in team.seats
        ]
        total = total_text(team.total, big, large)
        line = _standing(
            ft.Column(dots, spacing=2, tight=True),
            place_label(ctx, team.place, shared),
            name_column,
            tag(f"team-total-{team.team}", total),
            big,
            large,
        )
        rows.append(tag(f"team-{team.team}", line))
    return ft.Column(rows, spacing=10 if large else 6)


def call_notes(ctx: AppContext, match: Match) -> list[str]:
    """Racko: the calls whose points are more than the plain 75, broken down ("Round 2: Bob called Racko,
    75 + 200 run of 5"; Blitz-Racko: 100)."""
    notes = []
    blitz = {i for i, result in enumerate(match.rounds) if result.get("blitz")}
    for index, calls in enumerate(match.round_calls()):
        for seat, (points, bonus, run) in sorted(calls.items()):
            name = match.names[seat]
            if index in blitz:
                how = ctx.t("{points} Blitz-Racko", points=points)
            elif bonus:
                how = ctx.t("{points} + {bonus} run of {run}", points=points, bonus=bonus, run=run)
            else:
                continue  # a plain call: the * in the table says it all
            notes.append(
                ctx.t("Round {n}: {name} called Racko, {points}", n=index + 1, name=name, points=how)
            )
    return notes


CELL_PADDING = ft.Padding.symmetric(horizontal=4, vertical=6)
"""Around each cell of the round table: the row carries it (see `_table_row`)."""


def _cell(
    text: str, width: float, *, bold: bool = False, colour: Any = None, align_right: bool = True
) -> ft.Control:
    """A cell of the round table: a text `width` wide with the cell's padding taken off (the row puts the padding
    around and between its cells, so a cell is one control: a save sends and draws the whole table anew)."""
    return ft.Text(
        text,
        width=width - 2 * CELL_PADDING.left,
        weight=ft.FontWeight.BOLD if bold else None,
        color=colour,
        text_align=ft.TextAlign.RIGHT if align_right else ft.TextAlign.LEFT,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
    )


def _table_row(cells: list[ft.Control], **options: Any) -> ft.Container:
    """A line of the round table: its cells `CELL_PADDING` apart and inside it, laid out as when each cell was a
    container of its own with that padding (the same widths and heights), in one container for the whole line."""
    return ft.Container(
        ft.Row(cells, spacing=2 * CELL_PADDING.left),
        padding=CELL_PADDING,
        **options,
    )


def rounds_table(
    ctx: AppContext, match: Match, *, on_round: Callable[[int], None] | None = None
) -> ft.Control:
    """Rounds as rows, seats as columns, totals last; a tap on a round row calls `on_round(index)`."""
    seats = len(match.players)
    first = 68.0  # room for the longest label in bold: "Summe", "Totaal", "Manche"
    available = min(ctx.width, 900) - 40 - first
    width = max(52.0, available / max(seats, 1))
    header = _table_row(
        [_cell(ctx.t("Round"), first, bold=True, align_right=False)]
        + [_cell(name, width, bold=True) for name in match.names]
    )
    lines: list[ft.Control] = [header, ft.Divider(height=1)]
    scores = match.round_scores()
    tally = match.tally()
    calls = match.round_calls()
    for index, points in enumerate(scores):
        dealer = tally.dealers[index]
        cells = [_cell(str(index + 1), first, align_right=False)]
        for seat, value in enumerate(points):
            marker = (" *" if seat in calls[index] else "") + (" •" if seat == dealer else "")
            text = f"{value:+d}" if match.chips else str(value)
            if seat in tally.out[index]:  # out of the chips game before this round: sat it out
                text = ctx.t("out")
            cells.append(_cell(text + marker, width))
        row = _table_row(
            cells,
            on_click=(lambda _, i=index: on_round(i)) if on_round else None,
            ink=on_round is not None,
            border_radius=4,
        )
        line = tag(f"round-row-{index}", row) if on_round else row
        # Keyed by round: a scoreboard built again on screen is reconciled with the one shown (see scoreboard.py),
        # and the keys pair the rows by round, so a round taken back or added is sent as its row alone instead
        # of shifting every line below it (the divider, the totals) one place.
        line.key = f"round-{index}"
        lines.append(line)
    lines.append(ft.Divider(height=1))
    totals = match.totals()
    lines.append(
        _table_row(
            [_cell(ctx.t("Total"), first, bold=True, align_right=False)]
            + [_cell(str(total), width, bold=True) for total in totals]
        )
    )
    teams = match.team_totals()
    if teams:
        for (a, b), total in zip(match.spec.teams, teams, strict=True):
            label = ctx.t("Team {a} + {b}: {total}", a=match.names[a], b=match.names[b], total=total)
            lines.append(ft.Text(label, weight=ft.FontWeight.BOLD))
    if scores:
        lines.append(ft.Text(ctx.t("• = dealer of the round"), size=12))
    if any(calls):
        lines.append(ft.Text(ctx.t("* = called Racko"), size=12))
        lines.extend(
            tag(f"call-note-{i}", ft.Text(note, size=12)) for i, note in enumerate(call_notes(ctx, match))
        )
    return ft.Row([ft.Column(lines, spacing=0, tight=True)], scroll=ft.ScrollMode.AUTO)
