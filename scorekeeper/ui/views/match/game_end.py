"""Game end: the winners (a shared first place named as such), the final table and "play again"."""

from __future__ import annotations

import flet as ft

from scorekeeper.digital.records import lone_person
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.match_io import colours_of, load_match
from scorekeeper.ui.components.score_table import game_title, rounds_table, standings_list, unit_label
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.palette import TROPHY


def winners_text(ctx: AppContext, names: list[str], winners: list[int], *, you: int | None = None) -> str:
    """ "Anna wins!" or "Anna and Ben share first place!" (equal totals share the place, RULES.md); "You win!"
    when `you`, the one person who played against computer players, won alone."""
    if not winners:
        return ctx.t("The game is not over yet.")
    if you is not None and winners == [you]:
        return ctx.t("You win!")
    if len(winners) == 1:
        return ctx.t("{name} wins!", name=names[winners[0]])
    listed = ", ".join(names[s] for s in winners[:-1])
    return ctx.t("{names} and {last} share first place!", names=listed, last=names[winners[-1]])


def build(ctx: AppContext, match_id: str, **_: str) -> ft.View:
    route = f"/match/{match_id}/end"
    match = load_match(ctx, match_id)
    if match is None:
        return screen(ctx, route, ctx.t("Game over"), [ft.Text(ctx.t("This game was not found."))])
    winners = match.winners()
    teams = match.team_standings()
    if teams is not None and winners:  # partners win as a team (RULES 1.5)
        text = ctx.t("Team {names} wins!", names=" + ".join(teams[0].names))
    else:
        text = winners_text(ctx, match.names, winners, you=lone_person(match))
    headline = tag(
        "winners",
        ft.Text(
            text,
            size=28,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PRIMARY,
        ),
    )
    controls: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, size=40, color=TROPHY), headline], wrap=True),
        section(
            ctx.t("Final standings ({unit})", unit=unit_label(ctx, match)),
            standings_list(ctx, match, colours=colours_of(ctx, match)),
        ),
    ]
    if match.rounds:
        controls.append(
            section(
                ctx.t("Rounds"),
                rounds_table(ctx, match, on_round=lambda i: ctx.navigate(f"/match/{match_id}/round/{i}")),
            )
        )

    def again() -> None:
        ctx.session.new_game = None
        ctx.navigate(f"/new?again={match_id}")

    ctx.on_enter = again
    note = ft.Text(ctx.t("Play again starts a new game with the same players and options."), size=12)
    controls.append(note)
    bottom = ft.Row(
        [
            ft.OutlinedButton(
                ctx.t("Home"), icon=ft.Icons.HOME, on_click=lambda _: ctx.navigate("/"), height=52
            ),
            primary_button(ctx.t("Play again"), again, identifier="play-again"),
        ]
    )
    return screen(
        ctx,
        route,
        ctx.t("{game}: game over", game=game_title(ctx, match.game)),
        controls,
        back=f"/match/{match_id}",
        bottom=bottom,
    )
