"""Driving a digital game in-process for tests: the person plays as the hint says."""

from __future__ import annotations

from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store


def play_round(session: PlaySession, seat: int = 0, moves: int = 2_000) -> None:
    """The person at `seat` moves as the hint says, the computer players as they like, to the end of the
    round (AssertionError when it does not end within `moves` of the person's moves)."""
    for _ in range(moves):
        session.run_computers()
        if session.round_over:
            return
        move = session.hint(seat)
        assert move is not None
        session.act(seat, move)
    raise AssertionError("the round did not end")


def one_move(session: PlaySession) -> None:
    """One move: the computer's when it is to act, else the person at seat 0 takes their first legal move."""
    if session.computer_to_act:
        session.step_computer()
    else:
        session.act(0, session.legal_for(0)[0])


def racko_moves_in(
    store: Store, player_id: str, name: str = "Anna", *, seed: int = 5, moves: int = 3
) -> PlaySession:
    """A digital Racko match of a person and "Computer 2", its first round dealt and `moves` moves in (each
    saved, as in the app)."""
    seats = [Seat("person", player_id, name), computer_seat("normal", 1, "Computer 2")]
    session = PlaySession.create(store, "racko", {}, seats, seed=seed)
    for _ in range(moves):
        one_move(session)
    return session
