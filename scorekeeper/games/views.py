"""The view fields that mean the same in every game: each game's view dataclass derives from `View`, and its
`_view` fills these fields from the state (`seat`, `state.options`, `state.current_player`, the game's turn count,
`state.is_over`, `state.match_scores`, `state.round_points()`), field by field because views are on the hot path
of every move; the conformance suite compares every view with the one its dataclass builds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
