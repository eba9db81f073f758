"""What the board may show: the information every seat sees alike.

A view field is public when it is the same in every seat's view (the discard pile, the board, the trick, bids,
hand sizes, known cards). A field that differs between seats (a rack, a hand, a card drawn from the stock) is
private and is blanked: an empty tuple where the seat's value is a tuple, else None. `seat` becomes -1. This
asks nothing of a game beyond its views, so a new game's board is private-safe by construction.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from scorekeeper.games.base import State

BOARD_SEAT = -1


def private_fields(views: list[Any]) -> set[str]:
    """The view fields whose value differs between seats (`seat` itself aside)."""
    names = {f.name for f in dataclasses.fields(views[0])} - {"seat"}
    return {name for name in names if any(getattr(v, name) != getattr(views[0], name) for v in views[1:])}


def blank(value: Any) -> Any:
    return () if isinstance(value, tuple | list) else None


def public_of(views: list[Any]) -> Any:
    """The public part of a set of views of one moment (one per seat)."""
    first = views[0]
    changes = {name: blank(getattr(first, name)) for name in private_fields(views)}
    if any(f.name == "seat" for f in dataclasses.fields(first)):
        changes["seat"] = BOARD_SEAT
    return dataclasses.replace(first, **changes)


def seat_views(state: State) -> list[Any]:
    return [state.view(seat) for seat in range(state.options.players)]
