"""What one seat may see of a Rage round: the view that bots and panels get (`RageState.view` builds it)."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.games.rage.options import RageOptions
from scorekeeper.games.views import View


@dataclass(frozen=True)
class RageView(View):
    """What one seat may see: its own hand, everything on the table, never other hands or the talon order.
    `turn` counts the bids and cards played so far this round."""

    hand: tuple[str, ...]
    hand_size: int
    """Cards dealt per hand this round."""
    hand_counts: tuple[int, ...]
    """Cards still held per seat."""
    trump: str | None
    """The trump in force for the current trick (None: no trump, e.g. after a no-trump card)."""
    trump_top: str | None
    """The face-up top card of the trump pile (None while turned down or empty)."""
    trump_pile: tuple[str, ...]
    """Every card turned up onto the trump pile this round (all were shown to the table), bottom first."""
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    bonus: tuple[int, ...]
    minus: tuple[int, ...]
    trick: tuple[tuple[int, str], ...]
    """The current trick: (seat, card) in playing order, jokers with their colour."""
    led: str | None
    leader: int
    dealer: int
    phase: str
    """``"bid"``, ``"play"`` or ``"over"``."""
    round_points: tuple[int, ...]
    """Round points as they stand: tricks and +5/-5 cards; the bid's points are added once the round is over."""
    forbidden_bid: int | None
    """During the dealer's bid: the number the hook rule forbids."""
    played: tuple[str, ...]
    """Every card of the finished tricks this round, in playing order."""
    history: tuple[tuple[tuple[int, str], ...], ...]
    """The finished tricks of this round: (seat, card) in playing order."""
    last_trick: tuple[tuple[int, str], ...]
    last_winner: int | None
    talon_size: int
    no_trump_in_trick: bool
    trump_change_in_trick: bool
    round_index: int
    options: RageOptions
