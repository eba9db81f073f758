"""The view fields that mean the same in every game (issue 10): each game's view dataclass derives from
`View`, and its `_view` fills these fields as `shared_fields` says (the three games set them field by field
on their views' hot path, with the same values; the conformance suite compares every view with the one its
dataclass builds)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.games.base import State


@dataclass(frozen=True)
class View:
    """What every seat's view of a round says in every game (a game's view adds its own fields)."""

    seat: int
    """The seat whose view this is."""
    options: Any
    """The game's options (its `Options` type)."""
    current_player: int
    """The seat to act (-1 once the round is over)."""
    turn: int
    """How many turns have been taken so far this round (each game says what a turn is)."""
    is_over: bool
    match_scores: tuple[int, ...]
    """The match totals before this round."""
    round_points: tuple[int, ...] | None
    """The round's points per seat as they stand (None where a game shows them only at the end)."""


def shared_fields(state: State, seat: int, *, turn: int) -> dict[str, Any]:
    """`View`'s fields for `seat`'s view of `state`, as keyword arguments for the game's view dataclass."""
    return {
        "seat": seat,
        "options": state.options,
        "current_player": state.current_player,
        "turn": turn,
        "is_over": state.is_over,
        "match_scores": state.match_scores,
        "round_points": state.round_points(),
    }
