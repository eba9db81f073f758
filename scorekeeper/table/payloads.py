"""What the devices at a live table receive: each phone its own seat's payload, the board the public one.

Rules of the payloads:
- Each phone gets only `SeatPayload`: its own seat's view, its legal moves and the moves described as that seat
  saw them. The board gets `BoardPayload`: the public view (see `public`), moves as the table saw them, and
  `SeatStatus` of every seat.
- Both carry `MatchProgress`, the same for every device: names, totals, whose turn it is, the round and its points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import Action, Message

if TYPE_CHECKING:  # the type only
    from scorekeeper.digital.session import PlaySession


@dataclass(frozen=True)
class SeatStatus:
    """What everyone may know about a seat: who sits there and whether their phone is here."""

    index: int
    kind: str
    name: str
    strength: str | None
    connected: bool
    stand_in: bool = False
    """A computer player took over a person's seat during the game (it keeps the person's name)."""


@dataclass(frozen=True)
class MatchProgress:
    """Where the match stands, the same for every phone and the board."""

    names: list[str]
    totals: list[int]
    to_act: int
    round_index: int
    round_over: bool
    match_over: bool
    round_points: list[int] | None


def progress(session: PlaySession, names: list[str], points: list[int] | None) -> dict[str, Any]:
    """The `MatchProgress` fields of a payload: the match of `session`, the seats' `names` as the table shows them
    now, and the points of the round whose result the device shows (None: no result shown)."""
    return {
        "names": names,
        "totals": list(session.match.totals()),
        "to_act": session.to_act,
        "round_index": session.round_index,
        "round_over": session.round_over,
        "match_over": session.match_over,
        "round_points": points,
    }


@dataclass(frozen=True)
class SeatPayload(MatchProgress):
    """Everything one phone receives: its own seat only."""

    seat: int
    view: Any
    legal: list[Action]
    moves: list[Message]
    result_lines: list[Message] | None
    result_round: int | None = None
    """The round whose result this phone shows (None: it shows the round being played)."""
    moved_on: bool = False
    """This phone's player has moved on from the result shown (the others are still looking at it)."""
    waiting: list[str] = field(default_factory=list)
    """Who is still looking at the finished round's result (the next round is dealt once nobody is)."""


@dataclass(frozen=True)
class BoardPayload(MatchProgress):
    """Everything the board receives: public information only."""

    view: Any
    moves: list[Message]
    seats: list[SeatStatus]
