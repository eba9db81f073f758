"""The person at the device is spoken to, not named: "You drew from the stock.", "Du hast 3 angesagt.".

A move as the engine words it names its seat through a field (`{who}`, `{winner}`); a player's name cannot be
put into such a template for the person at the device ("You wins the trick.", "You zog vom Stapel." when the
player is called "You"). So each such template has a second-person twin here, keyed by the English template
and the field that names the seat; `addressed` swaps a message for its twin when that field is the seat at
the device. A template without a twin keeps the player's name (a test lists every engine template that names
a seat, so a new one without a twin fails).
"""

from __future__ import annotations

from scorekeeper.games.base import SEAT_TEMPLATE, Message
from scorekeeper.games.messages import N_

SECOND_PERSON: dict[tuple[str, str], str] = {
    # Racko
    ("{who} drew from the stock.", "who"): N_("You drew from the stock."),
    ("{who} took {card} from the discard pile.", "who"): N_("You took {card} from the discard pile."),
    ("{who} took a card from the discard pile.", "who"): N_("You took a card from the discard pile."),
    ("{who} called Racko!", "who"): N_("You called Racko!"),
    ("{who} waits.", "who"): N_("You wait."),
    ("{who} discarded the card from the stock.", "who"): N_("You discarded the card from the stock."),
    ("{who} discarded {card}.", "who"): N_("You discarded {card}."),
    ("{who} discarded a card.", "who"): N_("You discarded a card."),
    ("{who} put a card in slot {slot}.", "who"): N_("You put a card in slot {slot}."),
    ("{who} put {card} in slot {slot}.", "who"): N_("You put {card} in slot {slot}."),
    # Ruck Zuck
    ("{who} drew the last card of the stock.", "who"): N_("You drew the last card of the stock."),
    ("{who} drew a card.", "who"): N_("You drew a card."),
    ("{who} ended the round.", "who"): N_("You ended the round."),
    ("{who} ended the turn.", "who"): N_("You ended the turn."),
    ("{who} put {card} in place of the joker on field {card} and took the joker back.", "who"): N_(
        "You put {card} in place of the joker on field {card} and took the joker back."
    ),
    ("{who} placed the joker on {field}.", "who"): N_("You placed the joker on {field}."),
    ("{who} placed {card}.", "who"): N_("You placed {card}."),
    ("{who} placed {card} next to a joker.", "who"): N_("You placed {card} next to a joker."),
    ("{who} placed {card} next to {neighbour}.", "who"): N_("You placed {card} next to {neighbour}."),
    # Rage
    ("{who} bid {bid}.", "who"): N_("You bid {bid}."),
    ("{who} played the joker as {colour}.", "who"): N_("You played the joker as {colour}."),
    ("{who} played a no-trump card.", "who"): N_("You played a no-trump card."),
    ("{who} played a no-trump card: no trump for the rest of the round.", "who"): N_(
        "You played a no-trump card: no trump for the rest of the round."
    ),
    ("{who} played a no-trump card: this trick has no trump.", "who"): N_(
        "You played a no-trump card: this trick has no trump."
    ),
    ("{who} played a trump-change card.", "who"): N_("You played a trump-change card."),
    ("{who} played a trump-change card: a new trump is turned up.", "who"): N_(
        "You played a trump-change card: a new trump is turned up."
    ),
    ("{who} played the +5 card: the winner of this trick gets 5 points.", "who"): N_(
        "You played the +5 card: the winner of this trick gets 5 points."
    ),
    ("{who} played the -5 card: the winner of this trick loses 5 points.", "who"): N_(
        "You played the -5 card: the winner of this trick loses 5 points."
    ),
    ("{who} played {card}.", "who"): N_("You played {card}."),
    ("{move} {winner} wins the trick.", "winner"): N_("{move} You win the trick."),
    ("{winner} wins the trick.", "winner"): N_("You win the trick."),
}


def seat_of(value: object) -> int | None:
    """The seat a field names ("Player 3" as the engine says it -> 2), None for any other value."""
    if isinstance(value, Message) and value.template == SEAT_TEMPLATE:
        return int(str(value.fields["number"])) - 1
    return None


def addressed(message: Message, you: int | None) -> Message:
    """`message` with the seat `you` spoken to where the message has a second-person twin (nested messages
    too); the seat's other mentions stay as they are, for `with_names` to name."""
    fields = {
        key: addressed(value, you) if isinstance(value, Message) and seat_of(value) is None else value
        for key, value in message.fields.items()
    }
    if you is not None:
        for key, value in fields.items():
            twin = SECOND_PERSON.get((message.template, key))
            if twin is not None and seat_of(value) == you:
                del fields[key]
                return Message(twin, **fields)
    return message.with_fields(**fields) if fields != message.fields else message
