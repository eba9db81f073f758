"""Scoreboard: standings with shared places, the round table (tap a round to edit or delete it), whose deal it
is, Rage's next hand size, Racko's progress to the target, chip balances, and undo of the last change."""

from __future__ import annotations

import flet as ft

from scorekeeper.digital.session import PlaySession
from scorekeeper.model.match import Match
from scorekeeper.ui.components.conflict import conflict_of, conflict_panel
from scorekeeper.ui.components.evening import evening_section
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.match_io import change_match, colours_of, follow, load_match, undo_last
from scorekeeper.ui.components.newer import newer_view
from scorekeeper.ui.components.photos import photos_section
from scorekeeper.ui.components.score_table import game_title, rounds_table, standings_list, unit_label
from scorekeeper.ui.components.widgets import icon_button, primary_button, tag
from scorekeeper.ui.context import AppContext


def status_lines(ctx: AppContext, match: Match) -> list[str]:
    """Where the game stands: round, dealer now and next, hand size, target or rounds left."""
    lines: list[str] = []
    planned = match.rounds_planned()
    played = match.round_index
    if match.final_totals:  # imported (BG Stats) with its final totals only: no rounds to tell of
        lines.append(ctx.t("Imported with its final totals only: its rounds are not known."))
        return lines
    if match.is_over:
        lines.append(
            ctx.t.plural("The game is over after {n} round.", "The game is over after {n} rounds.", played)
        )
        return lines
    if planned:
        lines.append(ctx.t("Round {n} of {total}", n=played + 1, total=planned))
    else:
        lines.append(ctx.t("Round {n}", n=played + 1))
    dealer = match.dealer
    lines.append(ctx.t("Dealer: {name}", name=match.names[dealer]))
    lines.append(ctx.t("Deals next: {name}", name=match.names[match.dealer_after]))
    size = match.next_hand_size()
    if size is not None:
        lines.append(ctx.t("Cards this round: {n}", n=size))
    if match.target:
        lines.append(ctx.t("Playing to {target} points", target=match.target))
    tied = match.tied_at_target()
    if tied is not None:  # RULES 1.5: the target is reached, but the top is tied, so the game goes on
        lines.append(ctx.t("Tied at the top with {total}: another round decides", total=tied))
    return lines


def status_chips(lines: list[str]) -> ft.Control:
    """The status lines as small wrapping tags: on a phone four short facts take two rows instead of four, and
    the first one (which round) stands out."""
    chips: list[ft.Control] = [
        ft.Container(
            ft.Text(line, size=13, weight=ft.FontWeight.BOLD if i == 0 else None),
            padding=ft.Padding.symmetric(horizontal=10, vertical=5),
            border_radius=12,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if i == 0 else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        )
        for i, line in enumerate(lines)
    ]
    return tag("status", ft.Row(chips, wrap=True, spacing=6, run_spacing=6))


def round_dialog(ctx: AppContext, match: Match, route: str, index: int) -> None:
    """The dialog of a tapped round: edit it, delete it (later rounds are checked again) or cancel."""

    def close(_: object = None) -> None:
        ctx.close_dialog(dialog)

    def edit(_: object) -> None:
        close()
        ctx.navigate(f"{route}/round/{index}")

    after: list[str] = []  # what to tell once the dialog is gone

    def delete(_: object) -> None:
        if after:  # a second tap while the dialog closes deletes nothing more
            return
        saved = change_match(ctx, match, lambda m: m.without_round(index), ctx.t("Delete round"), index=index)
        after.append(saved if isinstance(saved, str) else "")
        close()

    def dismissed(_: object = None) -> None:
        """The browser reports the dialog closed: only now redraw and tell. Replacing the view and opening a
        snack bar while the dialog is still closing leaves it open on screen."""
        if not after:
            return
        problem = after[0]
        if problem:
            ctx.error(problem)
        else:
            ctx.notify(ctx.t("Round {n} deleted.", n=index + 1))
        ctx.rerender()

    dialog = ft.AlertDialog(
        title=ft.Text(ctx.t("Round {n}", n=index + 1)),
        content=ft.Text(ctx.t("Edit or delete this round? Later rounds are checked again.")),
        actions=[
            # Destructive, and styled so: red, with a bin.
            tag(
                "round-delete",
                ft.TextButton(
                    ctx.t("Delete round"),
                    icon=ft.Icons.DELETE_OUTLINE,
                    icon_color=ft.Colors.ERROR,
                    style=ft.ButtonStyle(color=ft.Colors.ERROR),
                    on_click=delete,
                ),
            ),
            tag("round-edit", ft.TextButton(ctx.t("Edit round"), on_click=edit)),
            tag("round-cancel", ft.TextButton(ctx.t("Cancel"), on_click=close)),
        ],
        on_dismiss=dismissed,
    )
    dialog.data = dismissed  # in-process tests have no browser to report the dismissal: they call this
    ctx.page.show_dialog(dialog)


def app_bar_actions(ctx: AppContext, match: Match, match_id: str, route: str) -> list[ft.Control]:
    """Undo and redo (from the history stored with the match: they survive reloads, on any device) and the
    scoreboard mode."""

    def undo(redo: bool = False) -> None:
        problem = undo_last(ctx, match_id, match.version, redo=redo)
        if problem:
            ctx.error(problem)
        else:
            ctx.notify(ctx.t("Redone.") if redo else ctx.t("Undone."))
        ctx.rerender()

    actions: list[ft.Control] = []
    history = ctx.store.match_history(match_id)
    if history.version == match.version:
        if history.undo is not None:
            tip = ctx.t("Undo: {what}", what=history.undo) if history.undo else ctx.t("Undo")
            actions.append(tag("undo", icon_button(ft.Icons.UNDO, tip, on_click=lambda _: undo())))
        if history.redo is not None:
            tip = ctx.t("Redo: {what}", what=history.redo) if history.redo else ctx.t("Redo")
            actions.append(
                tag(
                    "redo",
                    icon_button(ft.Icons.REDO, tip, on_click=lambda _: undo(redo=True)),
                )
            )
    actions.append(
        tag(
            "board-mode",
            icon_button(
                ft.Icons.FULLSCREEN,
                ctx.t("Scoreboard mode"),
                on_click=lambda _: ctx.navigate(f"{route}/board"),
            ),
        )
    )
    return actions


def bottom_row(ctx: AppContext, match: Match, route: str) -> ft.Row:
    """The one way on: the final results, back to the cards of a digital game, or the next round to enter
    (Enter does the same)."""
    if match.is_over:
        ctx.on_enter = lambda: ctx.navigate(f"{route}/end")
        return ft.Row(
            [
                primary_button(
                    ctx.t("Final results"), lambda: ctx.navigate(f"{route}/end"), identifier="final-results"
                )
            ]
        )
    if match.mode == "digital":
        return ft.Row(
            [
                primary_button(
                    ctx.t("Continue playing"),
                    lambda: continue_playing(ctx, match),
                    identifier="continue-play",
                )
            ]
        )

    def enter_round() -> None:
        ctx.navigate(f"{route}/round")

    label = ctx.t("Enter round {n}", n=match.round_index + 1)
    ctx.on_enter = enter_round
    return ft.Row([primary_button(label, enter_round, identifier="enter-round")])


def build(ctx: AppContext, match_id: str, **_: str) -> ft.View:
    route = f"/match/{match_id}"
    match = ctx.store.get_match(match_id)
    # None: gone, or made by a newer version (shown read-only, as far as this version can)
    newer = newer_view(ctx, match_id, route) if match is None else None
    if newer is not None:
        return newer
    match = match or load_match(ctx, match_id)  # says that it is gone
    if match is None:
        return screen(ctx, route, ctx.t("Scoreboard"), [ft.Text(ctx.t("This game was not found."))])
    title = game_title(ctx, match.game)
    actions = app_bar_actions(ctx, match, match_id, route)
    info = status_chips(status_lines(ctx, match))
    conflict = conflict_of(ctx, match_id)  # sync kept two versions: the player chooses, above everything else
    controls: list[ft.Control] = [
        *([conflict_panel(ctx, match, conflict)] if conflict is not None else []),
        info,
        section(
            ctx.t("Standings ({unit})", unit=unit_label(ctx, match)),
            standings_list(ctx, match, colours=colours_of(ctx, match)),
        ),
    ]
    digital = match.mode == "digital"  # rounds come from the cards dealt: they are played, not entered
    if match.rounds and digital:
        controls.append(section(ctx.t("Rounds"), rounds_table(ctx, match)))
    elif match.rounds:

        def ask_round(index: int) -> None:
            round_dialog(ctx, match, route, index)

        controls.append(
            section(ctx.t("Rounds (tap one to edit or delete)"), rounds_table(ctx, match, on_round=ask_round))
        )
    controls.append(photos_section(ctx, match))
    controls.append(evening_section(ctx, match, route))  # time played, start player, place, notes
    bottom = bottom_row(ctx, match, route)
    follow(ctx, match_id, ctx.rerender)
    # Wider than the default column on a desktop: the round table gets a column per player to spare.
    # Keyed: built again on screen (an undo or redo, a change from another device) it is reconciled with the one
    # on the page, so only what changed is sent. Nothing here changes a control in place later (Flet freezes
    # reconciled controls).
    key = f"scoreboard:{match_id}"
    return screen(
        ctx, route, title, controls, back="/", actions=actions, bottom=bottom, max_width=1200, key=key
    )


def continue_playing(ctx: AppContext, match: Match) -> None:
    """To the match's saved game; a match whose saved game is missing (its start was cut short) gets one that
    deals its next round (`PlaySession.continue_match`)."""
    try:
        saved = PlaySession.continue_match(ctx.store, match)
    except Exception as error:  # e.g. the data folder is read-only: say so, stay here
        ctx.error(ctx.describe(error))
        return
    ctx.navigate(f"/play/{saved.id}")
