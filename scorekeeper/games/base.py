"""What every game shares: the rule error, seat arithmetic, ranking and the digital-play protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

Action = Any
"""A digital-play action: a plain JSON-safe value (str, int, or a short list)."""


class RuleError(ValueError):
    """Input that the rules forbid. The message is meant for a player, not a programmer."""


def seat_name(seat: int) -> str:
    """How messages name a seat when no player names are known: seats count from 1 for people."""
    return f"Player {seat + 1}"


def left_of(seat: int, players: int, steps: int = 1) -> int:
    """The seat `steps` places to the left (clockwise) of `seat`."""
    return (seat + steps) % players


def seats_from_left_of(dealer: int, players: int) -> list[int]:
    """All seats in playing order: starting left of the dealer, the dealer last."""
    return [left_of(dealer, players, k) for k in range(1, players + 1)]


def places(totals: Sequence[float], *, higher_wins: bool = True) -> list[int]:
    """Competition places (1, 1, 3, ...) for each seat: equal totals share the place."""
    sign = -1 if higher_wins else 1
    keyed = [sign * t for t in totals]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


@runtime_checkable
class State(Protocol):
    """A round in digital play, shaped after OpenSpiel's state API."""

    log: list[Action]

    @property
    def current_player(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    def view(self, seat: int) -> Any: ...

    def result(self) -> dict[str, Any]: ...


class Bot(Protocol):
    """A computer player: sees one seat's view and the legal actions, never the state."""

    def choose(self, view: Any, legal_actions: list[Action]) -> Action: ...
