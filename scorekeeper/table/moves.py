"""The round's moves in words at a live table: for each seat as that seat saw them, for the board publicly.

Rules of the move log:
- A move is described for each seat from that seat's view before the move, so it says only what that seat could
  know; for the board from the public view (`public.public_of`). The players' names are filled in.
- Only the last `MOVES_SHOWN` of each are kept; a new round starts with none.
- The log is not saved (the moves are): a resumed table describes the round's moves again from the same deal.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.digital import engine
from scorekeeper.digital.session import PlaySession, with_names
from scorekeeper.games.base import Action, Message
from scorekeeper.table.public import public_of, seat_views

MOVES_SHOWN = 12


class MoveLog:
    """The moves of the round being played: `seats[n]` as seat n saw them, `board` as the table saw them."""

    def __init__(self, game: str, seats: int) -> None:
        self.game = game
        self.seats: list[list[Message]] = [[] for _ in range(seats)]
        self.board: list[Message] = []

    def note(self, action: Action, before: list[Any], names: list[str]) -> None:
        """Describe `action` for each seat from its view `before` the move, and for the board publicly."""
        for seat, view in enumerate(before):
            self.seats[seat].append(with_names(engine.describe_action(self.game, action, view), names))
            del self.seats[seat][:-MOVES_SHOWN]
        board = engine.describe_action(self.game, action, public_of(before))
        self.board.append(with_names(board, names))
        del self.board[:-MOVES_SHOWN]

    def replay(self, session: PlaySession) -> None:
        """Describe the round's moves again (a resumed table: the actions are saved, their words are not)."""
        state = session.dealt()  # the same deal as the saved round
        for action in session.state.log:
            before = seat_views(state)
            state.apply(action)
            self.note(action, before, session.match.names)
