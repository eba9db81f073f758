"""What a saved digital game holds besides its seed and moves (`SavedGame.data`), and the check a loaded or
imported one passes: every field the app reads has the shape the play session writes, so a file edited by hand
or an import cannot hold something that takes a screen down later (home reads the seats and the round number
of every saved game). Fields the app does not read are left alone: versions before the play session saved
other things there (the data folder of 2026-11-23 has `{"bots": [...]}`), and such a game stays readable.

The check is of shape only, like a stored match's (docs/DATA.md): whether the saved moves can still be played
is found out when the game is opened (`PlaySession.load`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.base import RuleError, is_int
from scorekeeper.games.spec import spec

PERSON = "person"
COMPUTER = "computer"
SEAT_KINDS = (PERSON, COMPUTER)
COMPUTER_PREFIX = "computer-"
"""Computer players' ids in a match: computer-<strength>-<seat number> (see `digital.session.computer_seat`); the
store keeps them out of the list of people."""
ASIDE = "aside"
"""When the player set the game aside (an ISO time): it no longer replays, so it is not offered to be continued,
but it stays in the data folder, in exports and in sync, kept for a later version or a human
(`SavedGames.set_aside_digital_game`). A version without this field lists it again, as it always did."""
TABLE_SEAT_FIELDS = ("kind", "name", "strength", "token_hash", "player")
"""What a live table keeps of each seat in the saved game (`scorekeeper.table.seats.TableSeat`)."""


def check_saved_game(game: str, options: dict[str, Any], data: Mapping[str, Any]) -> None:
    """RuleError (a sentence for the player, lower case: it follows "a saved game ...") unless the game is one
    this version knows, its options can be read, and `data` holds the seats, round, end flag, set-aside mark and
    table in the shapes the play session writes."""
    game_spec = spec(game)  # RuleError for a game this version does not know
    players = options.get("players")
    try:
        game_spec.stored_options(options)
    except TypeError:
        raise RuleError("a saved game's options are not known for {game}", game=game_spec.title) from None
    if "seats" in data:
        _check_seats(data["seats"], players)
    if "round" in data and not (is_int(data["round"]) and data["round"] >= 0):
        raise RuleError("a saved game's round number is not a whole number from 0 up")
    if "over" in data and not isinstance(data["over"], bool):
        raise RuleError("a saved game's end mark is neither yes nor no")
    if ASIDE in data and not isinstance(data[ASIDE], str):
        raise RuleError("a saved game's set-aside mark is not a time")
    if "table" in data:
        _check_table(data["table"])


def _check_seats(seats: Any, players: Any) -> None:
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        raise RuleError("a saved game's seats are not a list of seats")
    for seat in seats:
        if seat.get("kind") not in SEAT_KINDS:
            raise RuleError("a saved game has a seat that is neither a person nor a computer player")
        if not isinstance(seat.get("player"), str) or not isinstance(seat.get("name"), str):
            raise RuleError("a saved game has a seat without a player and a name")
        if not isinstance(seat.get("strength"), str | None):
            raise RuleError("a saved game has a computer player of an unknown strength")
    if is_int(players) and len(seats) != players:
        raise RuleError("a saved game's seats do not match its players")


def _check_table(table: Any) -> None:
    if not isinstance(table, dict) or not isinstance(table.get("code"), str):
        raise RuleError("a saved game's table has no code")
    seats = table.get("seats", [])
    if not isinstance(seats, list) or not all(
        isinstance(seat, dict) and all(isinstance(seat.get(key), str | None) for key in TABLE_SEAT_FIELDS)
        for seat in seats
    ):
        raise RuleError("a saved game's table seats are not a list of seats")
