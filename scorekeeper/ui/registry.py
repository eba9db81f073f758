"""The UI registry: what the screens draw of each game, keyed by its `GameSpec` (the games registry
`scorekeeper.games.spec.GAMES` lists the games; this lists their screens, one line per game).

A game's UI is a `GameUI`: its round-entry form (the host's "Keep score" screen; by default the one built from
the game's part shape), its play panel (a digital game, on the device and on a phone at a live table), the board
at the end of a round where it draws one, and what the board of a live table shows of it. The screens ask
`ui_of(spec)`; nothing finds a game's screen by its module's name. `check` runs at the start of the app: a game
without a UI line stops the start with a sentence that names it, rather than a crash on the first screen that
needs it.

Adding a game: its package under `scorekeeper/games/` (one line in `games/spec.py`), its screens under
`scorekeeper/ui/` and one line in `UIS` below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from scorekeeper.games.contract import GameSpec
from scorekeeper.games.racko.spec import SPEC as RACKO
from scorekeeper.games.rage.spec import SPEC as RAGE
from scorekeeper.games.ruckzuck.spec import SPEC as RUCKZUCK
from scorekeeper.games.spec import GAMES, find
from scorekeeper.model.match import Match
from scorekeeper.ui.components.round_base import RoundForm
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital import (
    racko_board,
    racko_panel,
    rage_board,
    rage_panel,
    ruckzuck_board,
    ruckzuck_panel,
)
from scorekeeper.ui.digital.boards import Scale
from scorekeeper.ui.digital.kit import PanelContext
from scorekeeper.ui.views.rounds import parts as round_parts
from scorekeeper.ui.views.rounds import racko as round_racko
from scorekeeper.ui.views.rounds import rage as round_rage
from scorekeeper.ui.views.rounds import ruckzuck as round_ruckzuck

RoundFormBuilder = Callable[[AppContext, Match, int | None, Any, ft.Text], RoundForm]
"""(ctx, match, the round being edited or None for a new one, the form's draft, the message line) -> the form."""
Panel = Callable[[PanelContext], ft.Control]
"""A seat's play panel from its view (`ui/digital/kit.PanelContext`)."""
BoardTable = Callable[[AppContext, Any, Sequence[str], Scale], ft.Control]
BoardSeat = Callable[[AppContext, Any, int, Scale], list[ft.Control]]


@dataclass(frozen=True)
class GameBoard:
    """What the board of a live table (a TV, a tablet) shows of a game, public information only
    (`ui/digital/boards.py` has the sizes and the shared pieces)."""

    table: BoardTable
    """What lies on the table (the discard pile, the trick, the board), as large cards."""
    seat: BoardSeat
    """What everyone knows of one player, placed in that player's panel."""
    seat_fields: tuple[str, ...] = ()
    """The view fields `seat` reads (a field held per seat counts with that seat's entry only), so a player's
    panel is drawn again only when they change."""


@dataclass(frozen=True)
class GameUI:
    """The screens of one game."""

    round_form: RoundFormBuilder = round_parts.build_form
    """The form the host's round-entry screen shows for one round: by default every seat's part as the game's
    `PartShape` lists it (`views.rounds.parts`)."""
    panel: Panel | None = None
    """The play panel of a digital game (None: the game cannot be played digitally yet)."""
    final_board: Panel | None = None
    """The table as a round ended, on the round's result screen (None: the result only)."""
    board: GameBoard | None = None
    """The board of a live table (None: the scoreboard and the move log only)."""


def _board(module: Any) -> GameBoard:
    """A game's board as its board module (`ui/digital/<game>_board.py`) writes it."""
    return GameBoard(module.table, module.seat, tuple(module.SEAT_FIELDS))


UIS: dict[GameSpec, GameUI] = {
    RACKO: GameUI(round_parts.form_with(round_racko.HOST), racko_panel.build, None, _board(racko_board)),
    RUCKZUCK: GameUI(
        round_parts.form_with(round_ruckzuck.HOST),
        ruckzuck_panel.build,
        ruckzuck_panel.final_board,
        _board(ruckzuck_board),
    ),
    RAGE: GameUI(round_parts.form_with(round_rage.HOST), rage_panel.build, None, _board(rage_board)),
}
"""One line per game of the registry `GAMES`; changed only by `register` and `unregister` (a test's game)."""


class MissingUI(RuntimeError):
    """A game of the registry has no line in the UI registry."""


def ui_of(game: GameSpec) -> GameUI:
    """The screens of `game`; MissingUI when it has none (`check` finds that at the start)."""
    found = UIS.get(game)
    if found is None:
        raise MissingUI(_missing([game]))
    return found


def find_ui(key: object) -> GameUI | None:
    """The screens of the game called `key`, or None for a game this version does not know (a table or a
    saved game of a newer version)."""
    game = find(key)
    return None if game is None else UIS.get(game)


def check(games: Sequence[GameSpec] = GAMES) -> None:
    """Every game of the registry has its screens; MissingUI naming the games without."""
    missing = [game for game in games if game not in UIS]
    if missing:
        raise MissingUI(_missing(missing))


def _missing(games: Sequence[GameSpec]) -> str:
    keys = ", ".join(game.key for game in games)
    return (
        f"No screens are registered for the game(s) {keys}: add a GameUI line to scorekeeper/ui/registry.py."
    )


def register(game: GameSpec, ui: GameUI) -> None:
    """Add a game's screens (a test's own game, registered in the games registry too)."""
    if game in UIS:
        raise ValueError(f"The game '{game.key}' has its screens registered already.")
    UIS[game] = ui


def unregister(game: GameSpec) -> None:
    """Take a game's screens, added by `register`, out again."""
    del UIS[game]
