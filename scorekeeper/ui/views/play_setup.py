"""Play setup: a digital game's options (the same option controls as a tracked game) and its seats.

Each seat is a person (from the player list, or a new name) or a computer player with a strength. It opens
with working defaults: one person and computer players for the other seats, so one tap on `start-game` plays.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.spec import GAMES
from scorekeeper.play import engine
from scorekeeper.play.session import COMPUTER, PERSON, PlaySession, Seat, computer_seat
from scorekeeper.ui.components.layout import error_text, screen, section
from scorekeeper.ui.components.score_table import game_title
from scorekeeper.ui.components.setup_form import (
    check_player_count,
    choice_button,
    choice_row,
    game_buttons,
    seat_row,
)
from scorekeeper.ui.components.setup_form import option_controls as options_ui
from scorekeeper.ui.components.widgets import primary_button, seat_chip, tag
from scorekeeper.ui.context import N_, PLAYER_COLOURS, AppContext
from scorekeeper.ui.session_state import PlaySetupDraft
from scorekeeper.ui.views.game_options import PLAYER_RANGE, options_for

COMPUTER_NAMES = ("Ada", "Bo", "Cleo", "Dex", "Emil", "Fay", "Gus", "Hana", "Ivo", "Juno")
"""Names for computer players (names, so not translated)."""

STRENGTH_LABELS = {
    "easy": N_("Easy"),
    "normal": N_("Normal"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
}
PACES = {"instant": N_("Instant"), "normal": N_("Normal"), "slow": N_("Slow")}
DEFAULT_SEATS = 3


def _default_seats(ctx: AppContext, game: str) -> list[dict[str, Any]]:
    low, high = PLAYER_RANGE[game]
    people = ctx.store.list_players()
    person: dict[str, Any] = (
        {"kind": PERSON, "player": people[0].id} if people else {"kind": PERSON, "new": ctx.t("You")}
    )
    computers = [
        {"kind": COMPUTER, "strength": "normal"} for _ in range(max(low, min(DEFAULT_SEATS, high)) - 1)
    ]
    return [person, *computers]


def _draft(ctx: AppContext, game: str | None) -> PlaySetupDraft:
    draft = ctx.session.play_setup
    if draft is None or (game in PLAYER_RANGE and game != draft.game):
        chosen = game if game in PLAYER_RANGE else GAMES[0].key
        draft = ctx.session.play_setup = PlaySetupDraft(chosen, {}, _default_seats(ctx, chosen))
    return draft


YOU_WORDS = frozenset({"you", "du", "jij", "vous"})
"""What the one person at the device is called by default, in every language ("You", "Du", ...)."""


def check_names_of_people(ctx: AppContext, names: list[str]) -> None:
    """Several people passing one device are told apart by name on the hand-over screen and in the move log:
    none of them may be called "You" (the default name of the one person playing alone)."""
    if len(names) < 2:
        return
    for name in names:
        if name.strip().casefold() in YOU_WORDS | {ctx.t("You").casefold()}:
            raise RuleError(
                ctx.t(
                    "Several people share this device: give each of them a name of their own instead of "
                    "“{name}”.",
                    name=name,
                )
            )


def strength_label(ctx: AppContext, strength: str | None) -> str:
    return ctx.t(STRENGTH_LABELS.get(strength or "normal", N_("Normal")))


def build(ctx: AppContext, game: str | None = None, **_: str) -> ft.View:
    draft = _draft(ctx, game)
    game = draft.game
    seats = draft.seats
    low, high = PLAYER_RANGE[game]
    players = {p.id: p for p in ctx.store.list_players()}
    message = error_text()

    def redraw() -> None:
        ctx.rerender()

    def set_game(name: str) -> None:
        ctx.session.play_setup = None
        _draft(ctx, name)
        redraw()

    def add_person(player_id: str) -> None:
        if any(s.get("player") == player_id for s in seats) or len(seats) >= high:
            return
        seats.append({"kind": PERSON, "player": player_id})
        redraw()

    def add_computer() -> None:
        if len(seats) < high:
            seats.append({"kind": COMPUTER, "strength": "normal"})
            redraw()

    def remove(index: int) -> None:
        seats.pop(index)
        redraw()

    def move_up(index: int) -> None:
        seats[index - 1], seats[index] = seats[index], seats[index - 1]
        redraw()

    def set_strength(index: int, strength: str) -> None:
        seats[index]["strength"] = strength
        redraw()

    new_name = ft.TextField(label=ctx.t("New player"), expand=True, on_submit=lambda _: add_new())

    def add_new() -> None:
        name = (new_name.value or "").strip()
        if not name or len(seats) >= high:
            return
        seats.append({"kind": PERSON, "new": name})
        redraw()

    def person_name(seat: dict[str, Any]) -> str:
        if "new" in seat:
            return str(seat["new"])
        player = players.get(seat["player"]) or ctx.store.get_player(seat["player"])
        return player.name if player else "?"

    def start() -> None:
        try:
            check_player_count(ctx, game, len(seats), low, high)
            if not any(seat["kind"] == PERSON for seat in seats):
                raise RuleError(ctx.t("Seat at least one person."))
            check_names_of_people(ctx, [person_name(seat) for seat in seats if seat["kind"] == PERSON])
            chosen: list[Seat] = []
            for index, seat in enumerate(seats):
                if seat["kind"] == COMPUTER:
                    name = COMPUTER_NAMES[index % len(COMPUTER_NAMES)]
                    chosen.append(computer_seat(seat["strength"], index, name))
                    continue
                if "new" in seat:
                    existing = next((p for p in players.values() if p.name == seat["new"]), None)
                    player = existing or ctx.store.add_player(
                        seat["new"], PLAYER_COLOURS[len(players) % len(PLAYER_COLOURS)][1]
                    )
                    seat.pop("new")
                    seat["player"] = player.id
                    players[player.id] = player
                chosen.append(Seat(PERSON, seat["player"], person_name(seat)))
            options = options_for(game, len(seats), draft.values)
            session = PlaySession.create(
                ctx.store, game, options, chosen, first_dealer=random.randrange(len(chosen))
            )
        except (RuleError, ValueError) as error:
            message.value, message.visible = ctx.describe(error), True
            message.update()
            return
        ctx.session.play_setup = None
        ctx.session.plays[session.saved.id] = session
        ctx.navigate(f"/play/{session.saved.id}")

    games = game_buttons(ctx, game, set_game)
    option_controls = options_ui(ctx, game, len(seats), draft.values, ctx.rerender)
    rows: list[ft.Control] = []
    for index, seat in enumerate(seats):
        if seat["kind"] == PERSON:
            who: ft.Control = seat_chip(person_name(seat), None, subtitle=ctx.t("Person"))
        else:
            who = ft.Row(
                [
                    ft.Icon(ft.Icons.SMART_TOY_OUTLINED),
                    *[
                        choice_button(
                            f"seat-{index}-strength-{strength}",
                            strength == seat["strength"],
                            strength_label(ctx, strength),
                            lambda _, i=index, s=strength: set_strength(i, s),
                        )
                        for strength in engine.strengths(game)
                    ],
                ],
                wrap=True,
                spacing=4,
                expand=True,
            )
        rows.append(
            seat_row(
                ctx,
                index,
                who,
                label_width=56,
                on_up=partial(move_up, index),
                on_remove=partial(remove, index),
                remove_id=f"seat-{index}-remove",
            )
        )
    seated = {seat.get("player") for seat in seats}
    pickers = [
        seat_chip(p.name, p.colour, on_click=partial(add_person, p.id), identifier=f"pick-{p.name}")
        for p in players.values()
        if p.id not in seated
    ]
    pace = str(ctx.settings.get("play_pace", "normal"))
    pace_row = choice_row(
        "pace",
        [(key, ctx.t(label)) for key, label in PACES.items()],
        pace,
        lambda k: ctx.update_settings(play_pace=k),
    )
    hints = tag(
        "hints",
        ft.Switch(
            label=ctx.t("Offer hints"),
            value=bool(ctx.settings.get("play_hints", True)),
            on_change=lambda e: ctx.update_settings(play_hints=bool(e.control.value)),
        ),
    )
    controls: list[ft.Control] = [
        section(ctx.t("Game"), games),
        section(ctx.t("Options"), *option_controls) if option_controls else ft.Container(),
        section(ctx.t("Seats ({low} to {high}), clockwise", low=low, high=high), *rows),
        section(
            ctx.t("Add a person"),
            ft.Row(pickers, wrap=True, spacing=6, run_spacing=6),
            ft.Row(
                [
                    tag("new-player-name", new_name),
                    ft.IconButton(
                        ft.Icons.PERSON_ADD, tooltip=ctx.t("Add player"), on_click=lambda _: add_new()
                    ),
                ]
            ),
        ),
        tag(
            "add-computer",
            ft.OutlinedButton(
                ctx.t("Add a computer player"),
                icon=ft.Icons.SMART_TOY_OUTLINED,
                on_click=lambda _: add_computer(),
                disabled=len(seats) >= high,
            ),
        ),
        section(ctx.t("Computer players' pace"), pace_row),
        hints,
        message,
    ]
    ctx.on_enter = lambda: None if (new_name.value or "").strip() else start()
    bottom = ft.Row([primary_button(ctx.t("Start game"), start, identifier="start-game")])
    title = ctx.t("Play {game}", game=game_title(ctx, game))
    return screen(ctx, "/play/new", title, controls, back="/", bottom=bottom)
