"""History: the games in progress (with "Continue") and the finished games, filtered by game and player; open one to see its scoreboard and chart.

`/history?game=rage&player=<id>` lists, `/history/<match_id>` shows one game. The list is served from the
store's index (no match file is read); the detail shows the ui-core scoreboard parts, read-only. A finished game
can be deleted from its detail after a confirmation (the store moves its file to the trash folder).
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.server import permissions
from scorekeeper.ui.components.conflict import conflict_ids, conflict_of, conflict_panel, follow_sync
from scorekeeper.ui.components.evening import evening_lines, place_and_time
from scorekeeper.ui.components.extras_charts import progression_chart
from scorekeeper.ui.components.extras_common import (
    GAME_ORDER,
    assign_colours,
    day,
    empty_state,
    pills,
    player_colours,
)
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.newer import newer_line, newer_view
from scorekeeper.ui.components.photos import first_photo_thumbnail, thumbnail_button
from scorekeeper.ui.components.score_table import game_title, rounds_table, standings_list
from scorekeeper.ui.components.totals_only import rounds_line
from scorekeeper.ui.components.widgets import icon_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.paging import HOME_PAGE_SIZE, PAGE_SIZE, page_of_matches, players_of
from scorekeeper.ui.views.home import more_button, standings_text, unscored_places


def history_route(game: str | None, player: str | None) -> str:
    """The list route for a filter ("/history?game=racko&player=ab12")."""
    query = "&".join(f"{key}={value}" for key, value in (("game", game), ("player", player)) if value)
    return f"/history?{query}" if query else "/history"


def _line(
    ctx: AppContext, summary: Any, conflicted: frozenset[str] = frozenset(), in_play: int | None = None
) -> ft.Control:
    """One game: game and date, winners (or the round it is at), everyone's total best first. `in_play`: the
    round (from 0) a digital game of this match holds (`Store.rounds_in_play`), None without one."""
    # the order of a list line only (the best total first); places come from the model
    # a newer version's game has no totals here: it says so instead (ui/components/newer.py)
    standings = (
        newer_line(ctx)
        if summary.newer
        else standings_text(ctx, summary.game, summary.names, summary.totals, unscored_places(summary))
    )
    winners = ", ".join(summary.names[seat] for seat in summary.winners)
    title = ctx.t("{game} on {date}", game=game_title(ctx, summary.game), date=day(ctx, summary.updated))
    running = summary.status == "active"
    if running and in_play == summary.rounds:  # its round is dealt and not over: it is being played
        subtitle = ctx.t("In progress: round {n} being played", n=summary.rounds + 1)
    elif running:  # no round under way (a tracked game between rounds, a digital one before the next deal)
        subtitle = ctx.t("In progress: round {n} is next", n=summary.rounds + 1)
    else:
        subtitle = ctx.t("Won by {names}", names=winners) if winners else ""
    conflict = summary.id in conflicted  # sync kept two versions: the game says so until one is chosen
    icon = (
        ft.Icons.CALL_SPLIT
        if conflict
        else ft.Icons.PLAY_CIRCLE_OUTLINE
        if running
        else ft.Icons.EMOJI_EVENTS_OUTLINED
    )
    warning = ctx.t("Changed differently on another device: open it to choose.") if conflict else ""
    # its first photo where it has one, unless sync's two versions need the warning's icon
    photo = (
        None if conflict else first_photo_thumbnail(ctx, [summary.photo] if summary.photo else [], size=40)
    )
    tile = ft.ListTile(
        leading=photo or ft.Icon(icon, color=ft.Colors.TERTIARY if conflict else None),
        title=ft.Text(title, weight=ft.FontWeight.BOLD),
        subtitle=ft.Text(
            "\n".join(
                part
                for part in (
                    warning,
                    subtitle,
                    standings,
                    rounds_line(ctx, summary),
                    place_and_time(ctx.t, summary.place, summary.clock, summary.updated),  # where known
                )
                if part
            )
        ),
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _, m=summary.id: ctx.navigate(f"/history/{m}"),
    )
    # A game in progress is continued on its scoreboard in one tap (a row of its own: a button beside the text
    # squeezed it on a phone, and a wide label broke the tile's layout); not one a newer version made.
    if running and not summary.newer:
        button = ft.FilledTonalButton(
            ctx.t("Continue"),
            icon=ft.Icons.PLAY_ARROW,
            on_click=lambda _, m=summary.id: ctx.navigate(f"/match/{m}"),
        )
        return ft.Card(
            ft.Column(
                [
                    tag(f"history-{summary.id}", tile),
                    ft.Container(
                        ft.Row(
                            [tag(f"history-continue-{summary.id}", button)],
                            alignment=ft.MainAxisAlignment.END,
                        ),
                        padding=ft.Padding.only(right=12, bottom=8),
                    ),
                ],
                spacing=0,
            )
        )
    return ft.Card(tag(f"history-{summary.id}", tile))


def _list(ctx: AppContext, game: str | None, player: str | None) -> ft.View:
    chosen_game = game if game in GAME_ORDER else None
    # Games in progress are listed too, above the finished ones (to be continued from here); abandoned ones are not.
    people = {**players_of(ctx.store, status="active"), **players_of(ctx.store, status="finished")}
    chosen_player = player if player in people else None
    controls: list[ft.Control] = [
        pills(
            [(None, ctx.t("All games")), *((g, game_title(ctx, g)) for g in GAME_ORDER)],
            chosen_game,
            lambda g: ctx.navigate(history_route(g, chosen_player)),
            prefix="history-game",
            compact=True,
        )
    ]
    if len(people) > 1:
        ordered = sorted(people.items(), key=lambda item: item[1].casefold())
        controls.append(
            pills(
                [(None, ctx.t("All players")), *ordered],
                chosen_player,
                lambda p: ctx.navigate(history_route(chosen_game, p)),
                prefix="history-player",
            )
        )
    # A page at a time, filtered on the index (no match file is read); "Show more" adds the next page. Games in
    # progress come a home page at a time (5): they stand above the finished ones, and the first screen is
    # built, sent and laid out as fast with 10,000 games as with a few.
    route = history_route(chosen_game, chosen_player)
    active_key = f"history_active_shown:{route}"
    active_count = ctx.session.shown.get(active_key, HOME_PAGE_SIZE)
    active = page_of_matches(
        ctx.store, status="active", game=chosen_game, player=chosen_player, limit=active_count
    )
    running = active.items
    conflicted = frozenset(conflict_ids(ctx))
    if running:
        controls.append(ft.Text(ctx.t("Games in progress: {n}", n=active.total), size=12))
        in_play = ctx.store.rounds_in_play()
        controls.extend(_line(ctx, s, conflicted, in_play.get(s.id)) for s in running)
        if active.remaining:
            controls.append(
                more_button(
                    ctx, active.remaining, active_key, active_count, "history-active-more", HOME_PAGE_SIZE
                )
            )
    key = f"history_shown:{route}"
    count = ctx.session.shown.get(key, PAGE_SIZE)
    page = page_of_matches(ctx.store, status="finished", game=chosen_game, player=chosen_player, limit=count)
    if page.items:
        controls.append(ft.Text(ctx.t("Finished games: {n}", n=page.total), size=12))
        controls.extend(_line(ctx, s, conflicted) for s in page.items)
        if page.remaining:
            controls.append(more_button(ctx, page.remaining, key, count, "history-more"))
    elif running:  # games in progress only
        pass
    elif people:  # there are games, just none with this filter
        controls.append(empty_state(ft.Icons.FILTER_ALT_OFF, ctx.t("No game matches this filter.")))
    else:
        controls.append(
            empty_state(ft.Icons.HISTORY, ctx.t("No games yet. Games appear here once they start."))
        )
    follow_sync(ctx)
    nights = ft.TextButton(
        ctx.t("Game nights"), icon=ft.Icons.NIGHTLIFE, on_click=lambda _: ctx.navigate("/nights")
    )
    return screen(ctx, route, ctx.t("History"), controls, actions=[tag("history-nights", nights)])


def ask_delete(ctx: AppContext, match_id: str, title: str) -> None:
    """Confirm, then delete the game (its file goes to the data folder's trash) and return to the list."""

    def close(_: object = None) -> None:
        ctx.close_dialog(dialog)  # this dialog, not whatever opened last (a snack bar)

    def delete(_: object) -> None:
        close()
        if not ctx.may(permissions.DELETE_HISTORY):
            ctx.error(ctx.t("Only the host device can do this."))
            return
        try:
            deleted = ctx.store.delete_match(match_id)
        except Exception as error:  # the store could not move the file (read-only folder): nothing changed
            ctx.error(ctx.t("Could not delete the game: {error}", error=str(error)))
            return
        if ctx.undo is not None and ctx.undo[0] == match_id:
            ctx.undo = None  # nothing left to undo into
        if deleted:
            ctx.notify(ctx.t("Game deleted."))
        else:
            ctx.error(ctx.t("This game was not found. It may have been deleted."))
        ctx.navigate("/history")

    dialog = ft.AlertDialog(
        title=ft.Text(ctx.t("Delete this game?")),
        content=ft.Text(ctx.t("{game} will be removed from the history and the statistics.", game=title)),
        actions=[
            tag("history-delete-cancel", ft.TextButton(ctx.t("Cancel"), on_click=close)),
            tag(
                "history-delete-confirm",
                ft.TextButton(
                    ctx.t("Delete game"),
                    on_click=delete,
                    style=ft.ButtonStyle(color=ft.Colors.ERROR),
                ),
            ),
        ],
    )
    ctx.page.show_dialog(dialog)


def _detail(ctx: AppContext, match_id: str) -> ft.View:
    route = f"/history/{match_id}"
    match = ctx.store.get_match(match_id)
    newer = newer_view(ctx, match_id, route, back="/history") if match is None else None
    if newer is not None:
        return newer
    if match is None:
        controls: list[ft.Control] = [empty_state(ft.Icons.SEARCH_OFF, ctx.t("This game was not found."))]
        return screen(ctx, route, ctx.t("History"), controls, back="/history")
    colours = assign_colours(player_colours(ctx), match.players)
    title = ctx.t("{game} on {date}", game=game_title(ctx, match.game), date=day(ctx, match.updated))
    if not match.is_over:
        state = ctx.t("Not finished yet. Rounds played: {n}", n=len(match.rounds))
    else:
        winners = ", ".join(match.names[seat] for seat in match.winners())
        state = ctx.t("Won by {names}", names=winners)
    conflict = conflict_of(ctx, match_id)
    controls = [
        *([conflict_panel(ctx, match, conflict)] if conflict is not None else []),
        ft.Text(state, weight=ft.FontWeight.BOLD),
        *evening_lines(ctx, match),  # place, time played, notes: where known
        *(  # its photos (a tap: full size)
            [
                ft.Row(
                    [thumbnail_button(ctx, match, p, i) for i, p in enumerate(match.photos)],
                    wrap=True,
                    spacing=8,
                )
            ]
            if match.photos
            else []
        ),
        section(ctx.t("Standings"), standings_list(ctx, match, colours=colours)),
    ]
    if match.rounds:
        controls.append(section(ctx.t("Score progression"), progression_chart(ctx, match, colours)))
        controls.append(section(ctx.t("Rounds"), rounds_table(ctx, match)))
    controls.append(
        ft.Row(
            [
                ft.OutlinedButton(
                    ctx.t("Play again with the same players"),
                    icon=ft.Icons.REPLAY,
                    on_click=lambda _: ctx.navigate(f"/new?again={match.id}"),
                    height=44,
                ),
                ft.TextButton(
                    ctx.t("Open the scoreboard"),
                    icon=ft.Icons.SCOREBOARD,
                    on_click=lambda _: ctx.navigate(f"/match/{match.id}"),
                    height=44,
                ),
                tag(  # the evening this game was played in (scorekeeper.stats.game_nights)
                    "history-night",
                    ft.TextButton(
                        ctx.t("Game night"),
                        icon=ft.Icons.NIGHTLIFE,
                        on_click=lambda _: ctx.navigate(f"/night/{match.id}"),
                        height=44,
                    ),
                ),
            ],
            wrap=True,
        )
    )
    actions: list[ft.Control] = []
    if match.is_over and ctx.may(permissions.DELETE_HISTORY):
        actions.append(
            tag(
                "history-delete",
                icon_button(
                    ft.Icons.DELETE_OUTLINE,
                    ctx.t("Delete game"),
                    on_click=lambda _: ask_delete(ctx, match.id, title),
                ),
            )
        )
    return screen(ctx, route, title, controls, back="/history", actions=actions)


def build(
    ctx: AppContext,
    match_id: str | None = None,
    game: str | None = None,
    player: str | None = None,
    **_: str,
) -> ft.View:
    if match_id:
        return _detail(ctx, match_id)
    return _list(ctx, game, player)
