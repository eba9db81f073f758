"""Home: continue an unfinished game (with its standings), start a new one, reach every other screen."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import flet as ft

from scorekeeper.digital.checks import matches_to_deal_again, replay_problem, resumed_games
from scorekeeper.games.spec import GAMES, ByKey, find
from scorekeeper.model.match import Match
from scorekeeper.server import permissions
from scorekeeper.store.records import MatchSummary, SavedGame
from scorekeeper.ui.components.host_needed import host_needed, table_unavailable
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.newer import newer_line
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.set_aside import ask_set_aside
from scorekeeper.ui.components.widgets import icon_button, primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.paging import HOME_PAGE_SIZE, PAGE_SIZE, page_of, page_of_matches
from scorekeeper.ui.views.match.scoreboard import continue_playing

log = logging.getLogger(__name__)

SHOWN_KEY = "home_shown"  # how many tracked games in progress home lists (grows by a page with "Show more")
DIGITAL_SHOWN_KEY = "home_digital_shown"  # how many digital ones (their own list, paged the same way)


def _active_games(ctx: AppContext) -> list[ft.Control]:
    """The games in progress, a page at a time (from the index: no match file is read)."""
    cards: list[ft.Control] = []
    shown = ctx.session.shown.get(SHOWN_KEY, HOME_PAGE_SIZE)
    page = page_of_matches(ctx.store, status="active", mode="tracked", limit=shown)
    for summary in page.items:
        card = one_item(_match_card, ctx, summary)
        if card is not None:
            cards.append(card)
    if page.remaining:
        label = ctx.t("Show more games with real cards ({n} more)", n=page.remaining)
        cards.append(more_button(ctx, page.remaining, SHOWN_KEY, shown, "home-more", HOME_PAGE_SIZE, label))
    return cards


def standings_text(
    ctx: AppContext, game_key: str, names: list[str], totals: list[int], places: list[int] | None = None
) -> str:
    """ "Anna: 120 · Ben: 95", the leader first (Ruck Zuck: the lowest penalty leads). A name and its points
    are joined by the language's colon: "Computer 2 0" read as one number too many. With `places` (a result
    known by its winners only, `scorekeeper.model.recorded`: its totals are no scores) the names in their places,
    without points: "Cleo · Anna · Ben"."""
    if places is not None:
        return " · ".join(names[seat] for seat in sorted(range(len(names)), key=lambda seat: places[seat]))
    game = find(game_key)
    lower_wins = game is not None and game.lower_wins
    order = sorted(range(len(names)), key=lambda seat: totals[seat], reverse=not lower_wins)
    return " · ".join(ctx.t("{name}: {points}", name=names[seat], points=totals[seat]) for seat in order)


def unscored_places(summary: MatchSummary) -> list[int] | None:
    """The places of a result known by its winners only (its index row says `scored` false), else None."""
    row = summary.stats if isinstance(summary.stats, dict) else {}
    places = row.get("places")
    return places if row.get("scored") is False and isinstance(places, list) else None


def _match_card(ctx: AppContext, summary: MatchSummary) -> ft.Control:
    # a newer version's game has no totals here: it says so instead (ui/components/newer.py)
    standings = (
        newer_line(ctx)
        if summary.newer
        else standings_text(ctx, summary.game, summary.names, summary.totals, unscored_places(summary))
    )
    # it cannot be continued here: no "round n" to play next and no play icon, only its read-only view
    title = (
        game_title(ctx, summary.game)
        if summary.newer
        else ctx.t("{game} · round {n}", game=game_title(ctx, summary.game), n=summary.rounds + 1)
    )
    return tag(
        f"continue-{summary.id}",
        ft.Card(
            ft.ListTile(
                leading=ft.Icon(ft.Icons.UPDATE if summary.newer else ft.Icons.PLAY_ARROW),
                title=ft.Text(title),
                subtitle=ft.Text(standings),
                on_click=lambda _, m=summary.id: ctx.navigate(f"/match/{m}"),
            )
        ),
    )


def one_item(
    build: Callable[[AppContext, Any], ft.Control | None], ctx: AppContext, item: Any
) -> ft.Control | None:
    """One card of a list, or None when it cannot be drawn: the store checks what it loads, but one bad item
    (a file edited by hand in a way no check foresaw) must never take the whole screen down; it is logged and
    left out, and the rest of home is drawn."""
    try:
        return build(ctx, item)
    except Exception:
        log.exception("home: an item could not be shown: %r", getattr(item, "id", item))
        return None


def play_button(ctx: AppContext, game: str) -> ft.Control:
    """Play `game` digitally (the tile itself keeps score of a game played with real cards)."""
    return tag(
        f"play-{game}",
        ft.FilledTonalButton(
            ctx.t("Play"), icon=ft.Icons.SMART_TOY_OUTLINED, on_click=lambda _: open_play_setup(ctx, game)
        ),
    )


def open_play_setup(ctx: AppContext, game: str) -> None:
    ctx.session.play_setup = None  # one tap from home: the defaults, not a half-made setup
    ctx.navigate(f"/play/new?game={game}")


def resume_route(saved: SavedGame) -> str:
    """A live table's game goes back to its table (the phones hold its seats), any other to the play screen."""
    code = saved.table_code
    return f"/table/{code}" if code is not None else f"/play/{saved.id}"


def _digital_games(ctx: AppContext) -> list[ft.Control]:
    """Digital games in progress, each resumed exactly where it was, a page at a time like the tracked ones
    (`HOME_PAGE_SIZE`, "Show more"): a player who starts a game every evening and never ends one would
    otherwise find home growing without end (1,000 saved games: 1,000 cards, 709 ms a render)."""
    shown = ctx.session.shown.get(DIGITAL_SHOWN_KEY, HOME_PAGE_SIZE)
    page = page_of(_digital_in_progress(ctx), limit=shown)
    cards: list[ft.Control] = []
    for item in page.items:
        card = one_item(_dealt_again_card if isinstance(item, Match) else _digital_card, ctx, item)
        if card is not None:
            cards.append(card)
    if page.remaining:
        label = ctx.t("Show more games in the app ({n} more)", n=page.remaining)
        cards.append(
            more_button(
                ctx, page.remaining, DIGITAL_SHOWN_KEY, shown, "home-more-digital", HOME_PAGE_SIZE, label
            )
        )
    return cards


def _digital_in_progress(ctx: AppContext) -> list[SavedGame | Match]:
    """What home offers to continue digitally, most recently played first (as history orders them): each match's
    saved game that continuing it resumes (`resumed_games`: one per match, as history lists it) unless it is
    over, and each match to deal again (`matches_to_deal_again`: its game was set aside) at its own last change.
    One list, so paging neither drops nor repeats one. The saved games are the store's own (`read_only`: only
    read here; a card's replay check copies what it replays)."""
    games = ctx.store.list_digital_games(read_only=True)
    resumed = resumed_games(ctx.store, games)
    # A live table's game is the owner's to run (its lobby) and its seats' to play: nobody else sees it here.
    playing: list[SavedGame | Match] = [
        saved
        for saved in resumed
        if not saved.data.get("over") and (not ctx.guest or saved.table_code is None)
    ]
    again = matches_to_deal_again(ctx.store, games)  # loads only the matches of games set aside (few)
    if not again:
        return playing
    # Stamps compare as text (`stamps.py`); the sort is stable, so equal stamps keep the listing's order.
    return sorted([*playing, *again], key=lambda item: item.updated, reverse=True)


def _dealt_again_card(ctx: AppContext, match: Match) -> ft.Control:
    """A digital match whose game was set aside (it no longer replays): the rounds it finished count, and
    continuing deals the round in progress again with a new seed (`PlaySession.continue_match`)."""
    standings = standings_text(ctx, match.game, match.names, match.totals())
    title = ctx.t("{game} · round {n}", game=game_title(ctx, match.game), n=match.round_index + 1)
    tile = ft.ListTile(
        leading=ft.Icon(ft.Icons.SMART_TOY_OUTLINED),
        title=ft.Text(title),
        subtitle=ft.Text(f"{standings}\n{ctx.t('The round in progress was set aside and is dealt again.')}"),
        on_click=lambda _, m=match: continue_playing(ctx, m),
    )
    return ft.Card(tag(f"continue-{match.id}", tile))


def _digital_card(ctx: AppContext, saved: SavedGame) -> ft.Control:
    names = ", ".join(str(seat.get("name", "")) for seat in saved.data.get("seats", []))
    title = ctx.t(
        "{game} · round {n}", game=game_title(ctx, saved.game), n=int(saved.data.get("round", 0)) + 1
    )
    if replay_problem(ctx.store, saved) is not None:
        return _broken_card(ctx, saved, title, names)
    route = resume_route(saved)
    tile = ft.ListTile(
        leading=ft.Icon(ft.Icons.SMART_TOY_OUTLINED),
        title=ft.Text(title),
        subtitle=ft.Text(names),
        on_click=lambda _, r=route: ctx.navigate(r),
    )
    return ft.Card(tag(f"resume-{saved.id}", tile))


def _broken_card(ctx: AppContext, saved: SavedGame, title: str, names: str) -> ft.Control:
    """A saved game whose moves today's engine refuses: it says so where it is listed, opens to the reason
    (the play screen), and the host sets it aside from here (kept in the store, no longer listed)."""
    tile = ft.ListTile(
        leading=ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR),
        title=ft.Text(title),
        subtitle=ft.Text(f"{names}\n{ctx.t('This game cannot be continued with this version of the app.')}"),
        on_click=lambda _, s=saved.id: ctx.navigate(f"/play/{s}"),  # the reason, also for a table's game
    )
    parts: list[ft.Control] = [tag(f"resume-{saved.id}", tile)]
    if ctx.may(permissions.DELETE_HISTORY):
        button = ft.TextButton(
            ctx.t("Set aside"),
            icon=ft.Icons.ARCHIVE_OUTLINED,
            on_click=lambda _, s=saved.id: ask_set_aside(ctx, s),
        )
        row = ft.Row([tag(f"set-aside-{saved.id}", button)], alignment=ft.MainAxisAlignment.END)
        parts.append(ft.Container(row, padding=ft.Padding.only(right=12, bottom=8)))
    return ft.Card(ft.Column(parts, spacing=0))


def more_button(
    ctx: AppContext,
    remaining: int,
    key: str,
    shown: int,
    identifier: str,
    step: int = PAGE_SIZE,
    label: str | None = None,
) -> ft.Control:
    """ "Show more (N more)": the next page of a list, kept in the session (`ctx.session.shown`), directly under
    its list. `label` (translated, with the count) names what the list holds where one screen pages two lists:
    two buttons both saying "Show more" left a player guessing which list each extends."""

    def more(_: object) -> None:
        ctx.session.shown[key] = shown + step
        ctx.rerender()

    text = label if label is not None else ctx.t("Show more ({n} more)", n=remaining)
    return tag(identifier, ft.TextButton(text, icon=ft.Icons.EXPAND_MORE, on_click=more))


GAME_ICONS: Mapping[str, ft.IconData] = ByKey(lambda game: getattr(ft.Icons, game.icon))


def _quick_starts(ctx: AppContext) -> ft.Control:
    """One tap to a new game of each of the three games, with what the game is about in a few words."""
    about = {game.key: game.about.translated(ctx.t) for game in GAMES}
    cards: list[ft.Control] = [
        ft.Card(
            ft.Column(
                [
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
                    ft.Container(
                        ft.Row(
                            [
                                ft.OutlinedButton(
                                    ctx.t("Keep score"),
                                    icon=ft.Icons.EDIT_NOTE,
                                    on_click=lambda _, g=game: ctx.navigate(f"/new?game={g}"),
                                ),
                                play_button(ctx, game),
                            ],
                            wrap=True,
                            spacing=8,
                        ),
                        padding=ft.Padding.only(left=16, right=16, bottom=10),
                    ),
                ],
                spacing=0,
                tight=True,
            ),
            expand=True,
        )
        for game, text in about.items()
    ]
    if ctx.narrow:
        return ft.Column(cards, spacing=0)
    return ft.Row(cards, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)


def _repair_notice(ctx: AppContext) -> ft.Control | None:
    """What the store repaired at start (a damaged file restored or set aside), told once per session and kept
    on home until the player closes it: a resize or another device's save redraws home and must not drop it."""
    pending = list(getattr(ctx.store, "recovery_messages", []) or [])
    if pending:
        ctx.session.repairs.extend(ctx.describe(m) for m in pending)
        ctx.store.recovery_messages.clear()
    if not ctx.session.repairs:
        return None

    def dismiss(_: object) -> None:
        ctx.session.repairs.clear()
        ctx.rerender()

    return ft.Container(
        ft.Row(
            [
                ft.Text("\n".join(ctx.session.repairs), color=ft.Colors.ON_ERROR_CONTAINER, expand=True),
                tag(
                    "repairs-dismiss",
                    icon_button(ft.Icons.CLOSE, ctx.t("Dismiss"), on_click=dismiss),
                ),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        bgcolor=ft.Colors.ERROR_CONTAINER,
        padding=12,
        border_radius=8,
    )


def build(ctx: AppContext, **_: str) -> ft.View:
    controls: list[ft.Control] = []
    # The games first: loading them may repair a damaged file (a saved game restored from its .bak), and its
    # notice belongs on this view, not the next one.
    active = _digital_games(ctx) + _active_games(ctx)  # the paged list ends with its "Show more"
    repairs = _repair_notice(ctx)
    if repairs is not None:
        controls.append(repairs)
    if active:
        controls.append(section(ctx.t("Continue a game"), *active))
    controls.append(
        ft.Row([primary_button(ctx.t("New game"), lambda: ctx.navigate("/new"), identifier="new-game")])
    )
    controls.append(_quick_starts(ctx))
    if host_needed():  # the static web build: no server to host a table on
        controls.append(table_unavailable(ctx))
    elif not ctx.guest:  # hosting a table is the owner's (rights.py)
        controls.append(
            ft.Row(
                [
                    tag(
                        "host-table",
                        ft.FilledTonalButton(
                            ctx.t("Host a table"),
                            icon=ft.Icons.QR_CODE_2,
                            on_click=lambda _: ctx.navigate("/table/new"),
                            height=52,
                            expand=True,
                        ),
                    )
                ]
            )
        )
    links = (
        (ft.Icons.PEOPLE, ctx.t("Players"), "/players"),
        (ft.Icons.HISTORY, ctx.t("History"), "/history"),
        (ft.Icons.BAR_CHART, ctx.t("Statistics"), "/stats"),
        (ft.Icons.MENU_BOOK, ctx.t("Rules"), "/rules"),
        (ft.Icons.SETTINGS, ctx.t("Settings"), "/settings"),
    )
    tiles: list[ft.Control] = [
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
