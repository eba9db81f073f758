"""Home: continue an unfinished game (with its standings), start a new one, reach every other screen."""

from __future__ import annotations

import flet as ft

from scorekeeper.games.spec import GAMES, find
from scorekeeper.store.pages import HOME_PAGE_SIZE, PAGE_SIZE, page_of_matches
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext

SHOWN_KEY = "home_shown"  # how many games in progress home lists (grows by a page with "Show more")


def _active_games(ctx: AppContext) -> list[ft.Control]:
    """The games in progress, a page at a time (from the index: no match file is read)."""
    cards: list[ft.Control] = []
    shown = int(ctx.drafts.get(SHOWN_KEY, HOME_PAGE_SIZE))
    page = page_of_matches(ctx.store, status="active", mode="tracked", limit=shown)
    for summary in page.items:
        game = find(summary.game)
        lower_wins = game is not None and game.lower_wins  # Ruck Zuck: the lowest penalty leads
        order = sorted(range(len(summary.names)), key=lambda seat: summary.totals[seat], reverse=not lower_wins)
        standings = ", ".join(f"{summary.names[seat]} {summary.totals[seat]}" for seat in order)
        title = ctx.t("{game} · round {n}", game=game_title(ctx, summary.game), n=summary.rounds + 1)
        cards.append(
            tag(
                f"continue-{summary.id}",
                ft.Card(
                    ft.ListTile(
                        leading=ft.Icon(ft.Icons.PLAY_ARROW),
                        title=ft.Text(title),
                        subtitle=ft.Text(standings),
                        on_click=lambda _, m=summary.id: ctx.navigate(f"/match/{m}"),
                    )
                ),
            )
        )
    if page.remaining:
        cards.append(more_button(ctx, page.remaining, SHOWN_KEY, shown, "home-more", HOME_PAGE_SIZE))
    return cards


def more_button(
    ctx: AppContext, remaining: int, key: str, shown: int, identifier: str, step: int = PAGE_SIZE
) -> ft.Control:
    """"Show more (N more)": the next page of a list, kept in the session's drafts."""

    def more(_: object) -> None:
        ctx.drafts[key] = shown + step
        ctx.rerender()

    return tag(
        identifier,
        ft.TextButton(ctx.t("Show more ({n} more)", n=remaining), icon=ft.Icons.EXPAND_MORE, on_click=more),
    )


GAME_ICONS = {game.key: getattr(ft.Icons, game.icon) for game in GAMES}


def _quick_starts(ctx: AppContext) -> ft.Control:
    """One tap to a new game of each of the three games, with what the game is about in a few words."""
    about = {game.key: game.about.translated(ctx.t) for game in GAMES}
    cards = [
        ft.Card(
            tag(
                f"start-{game}",
                ft.Container(
                    ft.ListTile(
                        leading=ft.Icon(GAME_ICONS[game]),
                        title=ft.Text(game_title(ctx, game)),
                        subtitle=ft.Text(text, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS),
                    ),
                    # Side by side (tablet, desktop) the three cards get one height, however long the text.
                    height=None if ctx.narrow else 84,
                    alignment=ft.Alignment.TOP_LEFT,
                    on_click=lambda _, g=game: ctx.navigate(f"/new?game={g}"),
                    ink=True,
                    border_radius=12,
                ),
            ),
            expand=True,
        )
        for game, text in about.items()
    ]
    if ctx.narrow:
        return ft.Column(cards, spacing=0)
    return ft.Row(cards, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)


def build(ctx: AppContext, **_: str) -> ft.View:
    controls: list[ft.Control] = []
    messages = list(getattr(ctx.store, "recovery_messages", []) or [])
    if messages:
        # The store repaired a damaged file at start: tell the player once.
        controls.append(
            ft.Container(
                ft.Text("\n".join(ctx.describe(m) for m in messages), color=ft.Colors.ON_ERROR_CONTAINER),
                bgcolor=ft.Colors.ERROR_CONTAINER,
                padding=12,
                border_radius=8,
            )
        )
        ctx.store.recovery_messages.clear()
    active = _active_games(ctx)
    if active:
        controls.append(section(ctx.t("Continue a game"), *active))
    controls.append(
        ft.Row([primary_button(ctx.t("New game"), lambda: ctx.navigate("/new"), identifier="new-game")])
    )
    controls.append(_quick_starts(ctx))
    links = (
        (ft.Icons.PEOPLE, ctx.t("Players"), "/players"),
        (ft.Icons.HISTORY, ctx.t("History"), "/history"),
        (ft.Icons.BAR_CHART, ctx.t("Statistics"), "/stats"),
        (ft.Icons.MENU_BOOK, ctx.t("Rules"), "/rules"),
        (ft.Icons.SETTINGS, ctx.t("Settings"), "/settings"),
    )
    tiles = [
        ft.OutlinedButton(
            text, icon=icon, on_click=lambda _, r=route: ctx.navigate(r), height=52, expand=True
        )
        for icon, text, route in links
    ]
    per_row = 2 if ctx.narrow else 3  # rows of equal tiles sharing the width
    grid = [ft.Row(tiles[i : i + per_row], spacing=8) for i in range(0, len(tiles), per_row)]
    controls.extend(grid)
    ctx.on_enter = lambda: ctx.navigate("/new")
    return screen(ctx, "/", ctx.t("Scorekeeper"), controls, back=None)
