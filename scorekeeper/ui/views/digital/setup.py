"""Play setup: a digital game's options (the same option controls as a tracked game) and its seats.

Each seat is a person (from the player list, or a new name) or a computer player with a strength. It opens
with working defaults: one person and computer players for the other seats, so one tap on `start-game` plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from scorekeeper.digital import engine
from scorekeeper.digital.session import COMPUTER, PERSON, PlaySession, Seat, computer_seat
from scorekeeper.games.base import RuleError
from scorekeeper.games.messages import N_
from scorekeeper.games.options import PLAYER_RANGE, options_for
from scorekeeper.games.spec import GAMES
from scorekeeper.store import Player
from scorekeeper.ui import emoji_font
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
from scorekeeper.ui.components.widgets import icon_button, primary_button, seat_chip, tag
from scorekeeper.ui.context import PLAYER_COLOURS, AppContext
from scorekeeper.ui.session_state import PlaySetupDraft

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
    if draft is None or (game is not None and game in PLAYER_RANGE and game != draft.game):
        chosen = game if game is not None and game in PLAYER_RANGE else GAMES[0].key
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


def person_name(ctx: AppContext, players: dict[str, Player], seat: dict[str, Any]) -> str:
    """A person's seat: the name typed for a new player, or the saved player's."""
    if "new" in seat:
        return str(seat["new"])
    player = players.get(seat["player"]) or ctx.store.get_player(seat["player"])
    return player.name if player else "?"


def chosen_seats(ctx: AppContext, seats: list[dict[str, Any]], players: dict[str, Player]) -> list[Seat]:
    """The session's seats: computer players named in turn, people as saved players (a new name is saved as a
    player first, or is the saved player of that name)."""
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
        chosen.append(Seat(PERSON, seat["player"], person_name(ctx, players, seat)))
    return chosen


def start_play(ctx: AppContext, draft: PlaySetupDraft, players: dict[str, Player], message: ft.Text) -> None:
    """Check the seats, create the play session and open it; a refused setup is said under the form."""
    game, seats = draft.game, draft.seats
    low, high = PLAYER_RANGE[game]
    try:
        check_player_count(ctx, game, len(seats), low, high)
        if not any(seat["kind"] == PERSON for seat in seats):
            raise RuleError(ctx.t("Seat at least one person."))
        check_names_of_people(
            ctx, [person_name(ctx, players, seat) for seat in seats if seat["kind"] == PERSON]
        )
        chosen = chosen_seats(ctx, seats, players)
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


def seat_rows(
    ctx: AppContext,
    game: str,
    seats: list[dict[str, Any]],
    players: dict[str, Player],
    move_up: Callable[[int], None],
    remove: Callable[[int], None],
    set_strength: Callable[[int, str], None],
) -> list[ft.Control]:
    """A row per seat, clockwise: a person's name, or a computer player's strengths to choose from."""
    rows: list[ft.Control] = []
    for index, seat in enumerate(seats):
        if seat["kind"] == PERSON:
            who: ft.Control = seat_chip(person_name(ctx, players, seat), None, subtitle=ctx.t("Person"))
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
    return rows


def play_settings(ctx: AppContext) -> list[ft.Control]:
    """The computer players' pace and the hints: settings of the device, saved at once."""
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
    return [section(ctx.t("Computer players' pace"), pace_row), hints]


def add_person_section(
    ctx: AppContext,
    players: dict[str, Player],
    seats: list[dict[str, Any]],
    add_person: Callable[[str], None],
    new_name: ft.TextField,
    add_new: Callable[[], None],
) -> ft.Control:
    """The saved players not yet seated, and a field for a new one."""
    seated = {seat.get("player") for seat in seats}
    pickers = [
        seat_chip(p.name, p.colour, on_click=partial(add_person, p.id), identifier=f"pick-{p.name}")
        for p in players.values()
        if p.id not in seated
    ]
    return section(
        ctx.t("Add a person"),
        ft.Row(pickers, wrap=True, spacing=6, run_spacing=6),
        ft.Row(
            [
                tag("new-player-name", new_name),
                icon_button(ft.Icons.PERSON_ADD, ctx.t("Add player"), on_click=lambda _: add_new()),
            ]
        ),
    )


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

    new_name = emoji_font.watch(
        ctx, ft.TextField(label=ctx.t("New player"), expand=True, on_submit=lambda _: add_new())
    )

    def add_new() -> None:
        name = (new_name.value or "").strip()
        if not name or len(seats) >= high:
            return
        seats.append({"kind": PERSON, "new": name})
        redraw()

    def start() -> None:
        start_play(ctx, draft, players, message)

    games = game_buttons(ctx, game, set_game)
    option_controls = options_ui(ctx, game, len(seats), draft.values, ctx.rerender)
    rows = seat_rows(ctx, game, seats, players, move_up, remove, set_strength)
    controls: list[ft.Control] = [
        section(ctx.t("Game"), games),
        section(ctx.t("Options"), *option_controls) if option_controls else ft.Container(),
        section(ctx.t("Seats ({low} to {high}), clockwise", low=low, high=high), *rows),
        add_person_section(ctx, players, seats, add_person, new_name, add_new),
        tag(
            "add-computer",
            ft.OutlinedButton(
                ctx.t("Add a computer player"),
                icon=ft.Icons.SMART_TOY_OUTLINED,
                on_click=lambda _: add_computer(),
                disabled=len(seats) >= high,
            ),
        ),
        *play_settings(ctx),
        message,
    ]
    ctx.on_enter = lambda: None if (new_name.value or "").strip() else start()
    bottom = ft.Row([primary_button(ctx.t("Start game"), start, identifier="start-game")])
    title = ctx.t("Play {game}", game=game_title(ctx, game))
    return screen(ctx, "/play/new", title, controls, back="/", bottom=bottom)
