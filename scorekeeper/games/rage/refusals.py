"""Why a Rage move is refused: the message naming the player to act and what the rules allow them now.

Only asked once a move was found illegal (`RageState._legal` answers legality at once, on the hot path of the
bots' search); the words here are for the person or device that sent the move. Below `play`: a round is known
here only as `Asked` (what a refusal reads of one), which `RageState` is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from scorekeeper.games.base import N_, Plural, RuleError, joined, seat_name
from scorekeeper.games.rage.cards import COLOUR_NAMES, JOKER, base_card, describe, parse_card
from scorekeeper.games.rage.rules import hook_refusal


class Asked(Protocol):
    """What a refusal reads of a Rage round (`play.RageState`)."""

    @property
    def phase(self) -> str: ...

    @property
    def to_act(self) -> int: ...

    @property
    def hand_size(self) -> int: ...

    @property
    def hands(self) -> Sequence[Sequence[str]]: ...

    @property
    def led(self) -> str | None: ...

    def forbidden_bid(self) -> int | None: ...

    def playable(self) -> list[str]: ...


MOVE_SHAPE = N_("That is not a Rage move: bid a number of tricks or play a card.")
"""The refusal of something that is no bid and no card to play (a damaged save, a bad network action): what a
player may do instead, not the move's internal form."""


def refusal(state: Asked, action: Any) -> RuleError:
    """The refusal of an illegal `action` in `state`: its shape, the bid's or the card's rule it breaks."""
    if not isinstance(action, list | tuple) or len(action) != 2 or action[0] not in ("bid", "play"):
        return RuleError(MOVE_SHAPE)
    kind, value = action
    try:
        check_bid(state, value) if kind == "bid" else check_play(state, value)
    except RuleError as error:
        return error
    return RuleError(MOVE_SHAPE)


def _refuse(message: str, plural: str | None = None, *, seat: int, **fields: object) -> RuleError:
    """A refusal naming the player whose turn it is (`seat`). With `plural`, a count message whose form
    follows the field `size`."""
    who = seat_name(seat)
    if plural is not None:
        return RuleError(Plural(message, plural, int(str(fields["size"])), who=who, **fields))
    return RuleError(message, who=who, **fields)


def check_bid(state: Asked, value: object) -> None:
    """Raise why `value` is no bid now: the bidding is over, it is out of 0..hand size, or the hook rule."""
    if state.phase != "bid":
        raise _refuse("The bidding is over; {who} plays a card.", seat=state.to_act)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= state.hand_size:
        raise _refuse(
            "{who} may bid 0 to {size} trick.",
            "{who} may bid 0 to {size} tricks.",
            seat=state.to_act,
            size=state.hand_size,
        )
    if value == state.forbidden_bid():
        raise RuleError(hook_refusal(state.to_act, value, state.hand_size))


def check_play(state: Asked, value: object) -> str:
    """Raise why `value` cannot be played now: bidding first, a joker without colour, a card not held, or
    the led colour to follow; otherwise return it."""
    if state.phase != "play":
        raise _refuse("{who} bids first; cards are played once everyone has bid.", seat=state.to_act)
    if value == JOKER:
        raise _refuse(
            "{who} must name a colour for the joker: W:r, W:b, W:g, W:y, W:o or W:v.", seat=state.to_act
        )
    try:
        parse_card(value, played=True)
    except RuleError as error:
        raise _refuse("{who}: {reason}", seat=state.to_act, reason=error) from None
    assert isinstance(value, str)
    held = base_card(value)
    if held not in state.hands[state.to_act]:
        raise _refuse("{who} does not hold {card}.", seat=state.to_act, card=describe(held))
    allowed = state.playable()
    if held not in allowed:
        raise _refuse(
            "{who} must follow {colour}: play one of {cards}.",
            seat=state.to_act,
            colour=COLOUR_NAMES[state.led or ""],
            cards=joined([describe(card) for card in allowed]),
        )
    return value
