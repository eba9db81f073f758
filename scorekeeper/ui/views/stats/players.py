"""Statistics by player: one player's games, wins, scores, time played, opponents, streaks and records, filtered
by game, period and place (`/stats/players?player=&game=&period=&place=`).

Every figure comes from `scorekeeper.stats.players` over the store's index (`Store.stat_rows`); this view only
picks the filters and lays the figures out (`ui/views/stats/player_tables.py`).
"""

from __future__ import annotations

from datetime import date
from urllib.parse import urlencode

import flet as ft

from scorekeeper.model.player_row import MatchRow
from scorekeeper.stats.players import (
    Filters,
    period_of,
    periods,
    places_of,
    player_report,
    players_of,
)
from scorekeeper.ui.components.extras_common import GAME_ORDER, empty_state, pills
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.stats.player_tables import (
    game_card,
    month_label,
    months_chart,
    opponents_table,
    overall,
)

ROUTE = "/stats/players"
PLACES_SHOWN = 8
"""The most used places are offered as filters."""


class Choice:
    """The filters as the address names them; `go` opens the screen with one of them changed."""

    def __init__(
        self, ctx: AppContext, player: str | None, game: str | None, period: str | None, place: str | None
    ):
        self.ctx = ctx
        self.values = {"player": player, "game": game, "period": period, "place": place}

    def route(self, **changed: str | None) -> str:
        values = {**self.values, **changed}
        query = urlencode({key: value for key, value in values.items() if value})
        return f"{ROUTE}?{query}" if query else ROUTE

    def go(self, **changed: str | None) -> None:
        self.ctx.navigate(self.route(**changed))


def _period_pills(ctx: AppContext, choice: Choice, rows: list[MatchRow]) -> list[ft.Control]:
    """All time, this month, this year, each year with games; a chosen year offers its months."""
    period = choice.values["period"]
    year_of_choice = period[:4] if period and len(period) == 7 else period
    years = sorted({month[:4] for month in periods(rows)}, reverse=True)
    options = [
        ("all", ctx.t("All time")),
        ("month", ctx.t("This month")),
        ("year", ctx.t("This year")),
        *((year, year) for year in years),
    ]
    parts = [
        pills(
            options,
            year_of_choice or "all",
            lambda value: choice.go(period=value),
            prefix="player-stats-period",
        )
    ]
    if year_of_choice in years:
        months = sorted(m for m in periods(rows) if m.startswith(year_of_choice or ""))
        parts.append(
            pills(
                [(m, month_label(ctx, m, "MMM")) for m in months],
                period,
                lambda value: choice.go(period=value),
                prefix="player-stats-month",
                compact=True,
            )
        )
    return parts


def _filters(
    ctx: AppContext, choice: Choice, rows: list[MatchRow], player: str, people: list[tuple[str, str]]
) -> ft.Control:
    """The player picker and the game, period and place filters."""
    games = pills(
        [(None, ctx.t("All games")), *((g, game_title(ctx, g)) for g in GAME_ORDER)],
        choice.values["game"],
        lambda value: choice.go(game=value),
        prefix="player-stats-game",
        compact=True,
    )
    places = places_of(rows)[:PLACES_SHOWN]
    parts: list[ft.Control] = [
        pills(people, player, lambda value: choice.go(player=value), prefix="player-stats-player"),
        games,
        *_period_pills(ctx, choice, rows),
    ]
    if places:
        chosen = next(
            (p for p in places if p.casefold() == (choice.values["place"] or "").strip().casefold()), None
        )
        options = [(None, ctx.t("All places")), *((p, p) for p in places)]
        parts.append(
            pills(options, chosen, lambda value: choice.go(place=value), prefix="player-stats-place")
        )
    return ft.Column(parts, spacing=8)


def build(
    ctx: AppContext,
    player: str | None = None,
    game: str | None = None,
    period: str | None = None,
    place: str | None = None,
    **_: str,
) -> ft.View:
    title = ctx.t("Statistics by player")
    rows = ctx.store.stat_rows()
    names = {p.id: p.name for p in ctx.store.list_players(include_archived=True)}
    everyone = players_of(
        rows, Filters(), names
    )  # the picker: everyone with a finished game, most games first
    if not everyone:
        text = ctx.t("No finished games yet. Statistics appear after the first one.")
        return screen(ctx, ROUTE, title, [empty_state(ft.Icons.PERSON, text)], back="/stats")
    picked = next((line for line in everyone if line.player == player), everyone[0])
    chosen = picked.player
    choice = Choice(ctx, chosen, game if game in GAME_ORDER else None, period, place or None)
    year, month = period_of(period, date.today())
    filters = Filters(choice.values["game"], year, month, choice.values["place"])
    report = player_report(rows, chosen, filters, names)
    people = [(line.player, line.name) for line in everyone]
    controls: list[ft.Control] = [_filters(ctx, choice, rows, chosen, people)]
    if not report.games:
        controls.append(
            empty_state(
                ft.Icons.FILTER_ALT_OFF,
                ctx.t(
                    "No finished games of {name} for these filters.",
                    name=picked.name,
                ),
            )
        )
        return screen(ctx, ROUTE, title, controls, back="/stats")
    controls.append(section(ctx.t("All games of {name}", name=report.name), overall(ctx, report)))
    cards = [
        game_card(ctx, line, lambda match_id: ctx.navigate(f"/history/{match_id}"))
        for line in report.per_game
    ]
    controls.append(section(ctx.t("By game, with records"), *cards))
    if report.opponents:
        controls.append(section(ctx.t("Opponents"), opponents_table(ctx, report)))
    controls.append(section(ctx.t("Games and wins per month"), months_chart(ctx, report)))
    return screen(ctx, ROUTE, title, controls, back="/stats")
