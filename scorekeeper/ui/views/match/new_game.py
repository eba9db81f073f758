"""New game: the game, its options (RULES.md defaults, each explained), the seats in order, the first dealer."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import flet as ft

from scorekeeper.games.base import RuleError
from scorekeeper.games.options import (
    PLAYER_RANGE,
    options_for,
    player_range,
)
from scorekeeper.games.spec import GAMES
from scorekeeper.model.match import Match
from scorekeeper.store import Player, StoreError
from scorekeeper.ui import emoji_font
from scorekeeper.ui.components.layout import error_text, screen, section
from scorekeeper.ui.components.setup_form import check_player_count, choice_button, game_buttons, seat_row
from scorekeeper.ui.components.setup_form import option_controls as options_ui
from scorekeeper.ui.components.widgets import icon_button, name_entry, primary_button, seat_chip, tag
from scorekeeper.ui.context import PLAYER_COLOURS, AppContext
from scorekeeper.ui.session_state import NewGameDraft

RANDOM = "random"


def _draft(ctx: AppContext, game: str | None, again: str | None) -> NewGameDraft:
    """The form's state, kept while the screen is re-drawn; "play again" copies a finished game's setup."""
    draft = ctx.session.new_game
    if again:
        old = ctx.store.get_match(again)
        if old is not None:
            values = {k: v for k, v in old.options.items() if k != "players"}
            draft = NewGameDraft(old.game, values, list(old.players), RANDOM)
    if draft is None:
        draft = NewGameDraft(GAMES[0].key, {}, [], RANDOM)
    if game is not None and game in PLAYER_RANGE and game != draft.game:
        draft.game, draft.values = game, {}
    ctx.session.new_game = draft
    return draft


def seated(ctx: AppContext, players: dict[str, Player], player_id: str) -> Player:
    """A seated player: in the list, or archived (the seats are checked against the store when the form is built)."""
    player = players.get(player_id) or ctx.store.get_player(player_id)
    assert player is not None
    return player


def start_match(
    ctx: AppContext,
    draft: NewGameDraft,
    players: dict[str, Player],
    message: ft.Text,
    seat_range: tuple[int, int],
) -> None:
    """Save the new match and go to its first round; a refused setup is said under the form."""
    game, seats = draft.game, draft.seats
    options = options_for(game, len(seats), draft.values)
    dealer = draft.dealer
    first = (
        random.randrange(len(seats)) if dealer == RANDOM and seats else seats.index(dealer) if seats else 0
    )
    names = [seated(ctx, players, s).name for s in seats]
    try:
        check_player_count(ctx, game, len(seats), *seat_range)
        match = Match.new(game, options, list(seats), first_dealer=first, names=names)
        match = ctx.store.save_match(match)
    except (RuleError, StoreError, ValueError) as error:
        message.value, message.visible = ctx.describe(error), True
        message.update()
        return
    ctx.session.new_game = None
    ctx.navigate(f"/match/{match.id}/round")


def seat_order(
    ctx: AppContext,
    seats: list[str],
    players: dict[str, Player],
    move_up: Callable[[int], None],
    remove: Callable[[str], None],
) -> list[ft.Control]:
    """A row per seat, clockwise: the player, up, remove."""
    order: list[ft.Control] = []
    for index, player_id in enumerate(seats):
        player = seated(ctx, players, player_id)
        order.append(
            seat_row(
                ctx,
                index,
                # The chip takes the free width, so the arrows and the remove button of every row line up.
                ft.Container(seat_chip(player.name, player.colour), expand=True),
                label_width=64,
                on_up=partial(move_up, index),
                on_remove=partial(remove, player_id),
                up_id=f"seat-up-{index}",
                remove_id=f"seat-remove-{index}",
            )
        )
    return order


def dealer_row(ctx: AppContext, draft: NewGameDraft, players: dict[str, Player]) -> ft.Row:
    """The first dealer: drawn at random, or one of the seated players."""

    def set_dealer(key: str) -> None:
        draft.dealer = key
        ctx.rerender()

    dealer_choices = [(RANDOM, ctx.t("Draw at random"))] + [
        (pid, seated(ctx, players, pid).name) for pid in draft.seats
    ]
    return ft.Row(
        [
            choice_button(f"dealer-{index}", key == draft.dealer, text, lambda _, k=key: set_dealer(k))
            for index, (key, text) in enumerate(dealer_choices)
        ],
        wrap=True,
    )


def add_new_player(ctx: AppContext, draft: NewGameDraft, known: int, field: ft.TextField) -> None:
    """Save the typed name as a player and seat them; a refused name is said under the field, which keeps the
    focus."""
    name = (field.value or "").strip()
    colour = PLAYER_COLOURS[known % len(PLAYER_COLOURS)][1]
    try:
        player = ctx.store.add_player(name, colour)
    except (RuleError, StoreError, ValueError) as error:
        # Shown under the field being typed in (not at the foot of the form, off-screen), focus kept there.
        field.error = ctx.describe(error)
        field.update()
        try:
            ctx.page.run_task(field.focus)
        except Exception:  # no event loop (in-process tests)
            pass
        return
    draft.seats.append(player.id)
    draft.typing = True
    ctx.rerender()


def player_chips(
    players: dict[str, Player], seats: list[str], toggle: Callable[[str], None]
) -> list[ft.Control]:
    """Every saved player, seated ones marked; a tap seats or unseats."""
    return [
        seat_chip(
            p.name,
            p.colour,
            selected=p.id in seats,
            on_click=partial(toggle, p.id),
            identifier=f"pick-{p.name}",
        )
        for p in players.values()
    ]


def build(ctx: AppContext, game: str | None = None, again: str | None = None, **_: str) -> ft.View:
    draft = _draft(ctx, game, again)
    game = draft.game
    players = {p.id: p for p in ctx.store.list_players()}
    draft.seats = [seat for seat in draft.seats if seat in players or ctx.store.get_player(seat)]
    seats = draft.seats
    low, high = player_range(game, draft.values)
    message = error_text()

    def redraw() -> None:
        ctx.rerender()

    def set_game(name: str) -> None:
        draft.game, draft.values = name, {}
        redraw()

    def toggle_seat(player_id: str) -> None:
        if player_id in seats:
            seats.remove(player_id)
        else:
            seats.append(player_id)
        if draft.dealer not in (RANDOM, *seats):
            draft.dealer = RANDOM
        redraw()

    def move_up(index: int) -> None:
        seats[index - 1], seats[index] = seats[index], seats[index - 1]
        redraw()

    new_name = emoji_font.watch(ctx, name_entry(ctx.t("New player"), draft, lambda: add_player()))

    def add_player() -> None:
        add_new_player(ctx, draft, len(players), new_name)

    def start() -> None:
        start_match(ctx, draft, players, message, (low, high))

    games = game_buttons(ctx, game, set_game)
    option_controls = options_ui(ctx, game, len(seats), draft.values, ctx.rerender)
    order = seat_order(ctx, seats, players, move_up, toggle_seat)
    dealer = dealer_row(ctx, draft, players)
    controls: list[ft.Control] = [
        section(ctx.t("Game"), games),
        section(ctx.t("Options"), *option_controls) if option_controls else ft.Container(),
        section(
            ctx.t("Players ({low} to {high}), tap in seat order", low=low, high=high),
            ft.Row(player_chips(players, seats, toggle_seat), wrap=True, spacing=6, run_spacing=6),
            ft.Row(
                [
                    tag("new-player-name", new_name),
                    icon_button(ft.Icons.PERSON_ADD, ctx.t("Add player"), on_click=lambda _: add_player()),
                ]
            ),
        ),
        section(ctx.t("Seats, clockwise"), *order) if order else ft.Container(),
        section(ctx.t("First dealer"), dealer) if seats else ft.Container(),
        message,
    ]
    # Enter in the "New player" field adds that player (its on_submit); only otherwise does Enter start.
    ctx.on_enter = lambda: None if (new_name.value or "").strip() else start()
    bottom = ft.Row([primary_button(ctx.t("Start game"), start, identifier="start-game")])
    return screen(ctx, "/new", ctx.t("New game"), controls, back="/", bottom=bottom)
