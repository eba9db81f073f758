"""What one seat sees of a digital Racko round (`RackoView`), and why a move is refused (`refusal`)."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.games.base import Message, RuleError, seat_name
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.views import View


@dataclass(frozen=True)
class RackoView(View):
    """What one seat may see. Public: the discard pile and its history, who took which discard, counts.

    `rack` is the seat's own rack (None marks an empty slot during a Blitz deal; empty for a seat out of
    the game). `drawn` is the card in the current player's hand: shown to that player, and to everyone when
    it came from the discard pile. `discards` lists every card put on the discard pile this round, in order
    (the first turned-up card included). `known[s]` are the cards everyone saw seat s take from the discard
    pile and not discard since. `turn` counts the turns taken (draw and place being one); `round_points` are
    None until the round is over.
    """

    phase: str
    rack: tuple[int | None, ...]
    discard_top: int | None
    drawn: int | None
    drawn_from: str | None
    deck_size: int
    discards: tuple[int, ...]
    options: RackoOptions
    stock_count: int
    pile: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    players_out: tuple[int, ...]


def refusal(phase: str, seat: int, card: int | None, drawn_from: str | None, pile: bool) -> RuleError:
    """Why the player to act (`seat`) cannot make a move now: what the phase allows them (the refusal around it
    says that the move is not allowed, so this says only what is)."""
    who = seat_name(seat)
    if phase == "blitz_place":
        allowed = Message("put card {card} into an empty slot of the rack", card=card)
    elif phase == "blitz_call":
        allowed = Message("call Blitz-Racko or wait")
    elif phase == "draw" and pile:
        allowed = Message("take the top card of the stock or of the discard pile")
    elif phase == "draw":
        allowed = Message("take the top card of the stock (the discard pile is empty)")
    elif phase == "place" and drawn_from == "stock":
        allowed = Message("put card {card} into a slot of the rack or discard it", card=card)
    elif phase == "place":
        allowed = Message(
            "put card {card} into a slot of the rack (a card taken from the pile must be kept)", card=card
        )
    else:
        allowed = Message("call Racko or wait")
    return RuleError("{who} may {allowed}.", who=who, allowed=allowed)
