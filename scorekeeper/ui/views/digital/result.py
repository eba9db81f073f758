"""The end of a round on the play screen: each player's breakdown and points, the standings and Next round; at
the end of the match the winner line and the way to the final results."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorekeeper.digital import engine
from scorekeeper.digital.records import lone_person
from scorekeeper.digital.session import PlaySession
from scorekeeper.model.match import Match
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.score_table import standings_list, unit_label
from scorekeeper.ui.components.widgets import primary_button, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital.kit import PanelContext
from scorekeeper.ui.registry import find_ui
from scorekeeper.ui.views.match.game_end import winners_text


def winner_line(ctx: AppContext, match: Match) -> str:
    """ "You win!" when the one person at this device won alone; otherwise "<name> wins!" (or a shared
    first place), as on the game-end screen. Several people passing the device are named."""
    return winners_text(ctx, match.names, match.winners(), you=lone_person(match))


def final_board(ctx: AppContext, session: PlaySession, width: float | None) -> ft.Control | None:
    """The table as the round ended, where the game draws it (its `GameUI.final_board`: Ruck Zuck's board), as
    the people at the device see it; else None."""
    screens = find_ui(session.game)
    draw = None if screens is None else screens.final_board
    if draw is None or not session.people:
        return None
    pc = PanelContext(
        ctx=ctx,
        view=session.view_for(session.people[0]),
        legal=[],
        act=lambda _: None,
        names=list(session.match.names),
        width=width,
        hidden=True,
    )
    return tag("final-board", section(ctx.t("The board at the end of the round"), draw(pc)))


def round_result(
    ctx: AppContext, session: PlaySession, next_round: Callable[[], None], width: float | None = None
) -> ft.Control:
    """The round's breakdown per player (as a tracked round shows it), the table as it ended (where the game
    draws one), then Next round or the match end. `width`: how wide the screen draws it."""
    match = session.match
    finished = session.last_round()
    rows: list[ft.Control] = []
    if finished is not None:
        result, points = finished
        lines = engine.describe_result(session.game, result, match.opts) or []
        for seat, name in enumerate(match.names):
            detail = ctx.describe(lines[seat]) if seat < len(lines) else ""
            rows.append(
                ft.Row(
                    [
                        ft.Column(
                            [ft.Text(name, weight=ft.FontWeight.BOLD), ft.Text(detail, size=12)],
                            spacing=0,
                            expand=True,
                            tight=True,
                        ),
                        tag(
                            f"round-points-{seat}",
                            ft.Text(f"{points[seat]:+d}", size=18, weight=ft.FontWeight.BOLD),
                        ),
                    ]
                )
            )
    unit = unit_label(ctx, match)
    result_panel = tag(
        "round-result",
        ft.Container(
            section(ctx.t("Round {n} ({unit})", n=session.round_index + 1, unit=unit), *rows),
            padding=12,
            border_radius=12,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        ),
    )
    parts: list[ft.Control] = [result_panel]
    board = final_board(ctx, session, width)
    if board is not None:
        parts.append(board)
    if session.match_over:
        parts.append(
            tag(
                "match-result",
                ft.Column(
                    [
                        ft.Text(
                            winner_line(ctx, match),
                            size=24,
                            weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY,
                        ),
                        standings_list(ctx, match),
                        ft.Row(
                            [
                                primary_button(
                                    ctx.t("Final results"),
                                    lambda: ctx.navigate(f"/match/{match.id}/end"),
                                    identifier="final-results",
                                )
                            ]
                        ),
                    ],
                    spacing=8,
                ),
            )
        )
    else:
        parts.append(section(ctx.t("Standings ({unit})", unit=unit), standings_list(ctx, match)))
        parts.append(ft.Row([primary_button(ctx.t("Next round"), next_round, identifier="next-round")]))
    return ft.Column(parts, spacing=10)
