"""Driving a digital game in-process for tests: the person plays as the hint says."""

from __future__ import annotations

from scorekeeper.play.session import PlaySession


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
