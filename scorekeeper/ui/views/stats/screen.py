"""Statistics: per player and game, the share of wins, and the score progression of the latest game.

All figures come from `scorekeeper.stats.overview` over the store's finished matches; this view only lays them out.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.digital.records import against_computers
from scorekeeper.games.contract import StatFigure
from scorekeeper.games.spec import spec
from scorekeeper.model.match import Match
from scorekeeper.stats.overview import PlayerGameStats, facts, player_game_stats, win_shares
from scorekeeper.ui.components.extras_charts import progression_chart, win_share_chart
from scorekeeper.ui.components.extras_common import (
    GAME_ORDER,
    assign_colours,
    colour_for,
    day,
    decimal,
    empty_state,
    percent,
    pills,
    player_colours,
)
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.digital.setup import strength_label
from scorekeeper.ui.views.stats.player_tables import tile

Figure = tuple[str, str]  # (label, value) of one tile


def _figures(ctx: AppContext, record: PlayerGameStats) -> list[Figure]:
    """The tiles of one player's card: the common figures, then the game's own."""
    game = spec(record.game)
    penalties = game.lower_wins  # a lower score is better: the round score is a penalty
    figures: list[Figure] = [
        (ctx.t("Games"), str(record.games)),
        (ctx.t("Wins"), str(record.wins)),
        (ctx.t("Win rate"), percent(ctx, record.win_rate)),
        (
            ctx.t("Average penalty") if penalties else ctx.t("Average per round"),
            decimal(ctx, record.average_round),
        ),
        (
            ctx.t("Lowest round") if penalties else ctx.t("Best round"),
            "–" if record.best_round is None else str(record.best_round),
        ),
    ]
    return figures + [(ctx.t(figure.label), _shown(ctx, figure, record)) for figure in game.stat_figures]


def _shown(ctx: AppContext, figure: StatFigure, record: PlayerGameStats) -> str:
    """A game's own figure as its spec says to show it: a count, a share, or a best value that may be unknown."""
    value = record.figure(figure.attribute)
    if figure.kind == "percent":
        return percent(ctx, value)
    return "–" if value is None else str(value)


def _player_card(ctx: AppContext, record: PlayerGameStats, name: str, colour: str) -> ft.Control:
    header = ft.Row(
        [
            ft.Container(width=12, height=12, border_radius=6, bgcolor=colour),
            ft.Text(name, weight=ft.FontWeight.BOLD, size=16),
        ],
        spacing=8,
    )
    tiles = ft.Row([tile(label, value) for label, value in _figures(ctx, record)], wrap=True, spacing=4)
    return tag(
        f"stats-{record.game}-{record.player}",
        ft.Container(
            ft.Column([header, tiles], spacing=6),
            padding=12,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=12,
        ),
    )


def _latest(ctx: AppContext, matches: list[Match], colours: dict[str, str]) -> ft.Control:
    latest = matches[-1]  # `facts` orders them oldest first
    title = ctx.t("{game} on {date}", game=game_title(ctx, latest.game), date=day(ctx, latest.updated))
    return section(
        ctx.t("Score progression of the latest game"),
        ft.Row(
            [
                ft.Text(title, expand=True),
                ft.TextButton(ctx.t("Open"), on_click=lambda _: ctx.navigate(f"/history/{latest.id}")),
            ]
        ),
        progression_chart(ctx, latest, colours),
    )


def _route(game: str | None, mode: str | None) -> str:
    query = "&".join(f"{key}={value}" for key, value in (("game", game), ("mode", mode)) if value)
    return f"/stats?{query}" if query else "/stats"


def _versus(ctx: AppContext, matches: list[Match]) -> ft.Control | None:
    """Each person's finished digital games against each computer strength."""
    rows = against_computers(matches)
    if not rows:
        return None
    lines = [
        ft.Text(
            ctx.t(
                "{name} against {strength}: {wins} of {games} won",
                name=row.name,
                strength=strength_label(ctx, row.strength),
                wins=row.wins,
                games=row.games,
            )
        )
        for row in rows
    ]
    return tag("stats-versus", section(ctx.t("Against computer players"), *lines))


def build(ctx: AppContext, game: str | None = None, mode: str | None = None, **_: str) -> ft.View:
    chosen = game if game in GAME_ORDER else None
    chosen_mode = mode if mode in ("tracked", "digital") else None
    filters = pills(
        [(None, ctx.t("All games")), *((g, game_title(ctx, g)) for g in GAME_ORDER)],
        chosen,
        lambda g: ctx.navigate(_route(g, chosen_mode)),
        prefix="stats-game",
    )
    modes = pills(
        [(None, ctx.t("All")), ("tracked", ctx.t("Kept score")), ("digital", ctx.t("Played in the app"))],
        chosen_mode,
        lambda m: ctx.navigate(_route(chosen, m)),
        prefix="stats-mode",
    )
    finished = facts(
        m
        for m in ctx.store.iter_matches(status="finished", game=chosen)
        if chosen_mode is None or m.mode == chosen_mode
    )  # asks each match once
    matches = [fact.match for fact in finished]
    by_player = tag(
        "stats-by-player",
        ft.OutlinedButton(
            ctx.t("Statistics by player"),
            icon=ft.Icons.PERSON_SEARCH,
            on_click=lambda _: ctx.navigate("/stats/players"),
            height=44,
        ),
    )
    controls: list[ft.Control] = [by_player, filters, modes]
    versus = _versus(ctx, matches)
    if versus is not None:
        controls.append(versus)
    if not matches:
        controls.append(
            empty_state(
                ft.Icons.BAR_CHART, ctx.t("No finished games yet. Statistics appear after the first one.")
            )
        )
        return screen(ctx, "/stats", ctx.t("Statistics"), controls)
    shares = win_shares(finished)
    colours = assign_colours(player_colours(ctx), [s.player for s in shares])
    names = {p.id: p.name for p in ctx.store.list_players(include_archived=True)}
    controls.append(
        section(
            ctx.t("Share of wins"),
            ft.Text(
                ctx.t("Finished games: {n}. A shared first place counts as a win for each.", n=len(matches)),
                size=12,
            ),
            win_share_chart(ctx, shares, colours, names),
        )
    )
    with_rounds = [m for m in matches if m.rounds]  # a match known by its totals only has no progression
    if with_rounds:
        controls.append(_latest(ctx, with_rounds, colours))
    records = player_game_stats(finished)
    for g in GAME_ORDER:
        mine = [r for r in records if r.game == g]
        if not mine:
            continue
        cards = [
            _player_card(ctx, r, names.get(r.player, r.name), colour_for(colours, r.player, i))
            for i, r in enumerate(mine)
        ]
        controls.append(section(game_title(ctx, g), *cards))
    return screen(ctx, "/stats", ctx.t("Statistics"), controls)
