"""Racko moves and round results in words, for the move log and the round result of digital play.

`describe_action(action, view)` describes `action`, made by `view.current_player`, as the seat of `view` saw it
just before the move: a card is only named when that seat may know it (a card from the discard pile is seen
by everyone; a card from the stock only by the player who drew it).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import Action, Message, seat_name
from scorekeeper.games.racko.live import rack_progress
from scorekeeper.games.racko.play import CALL, DISCARD, PILE, STOCK, WAIT, RackoView
from scorekeeper.games.racko.rules import SLOT_LABELS


def describe_action(action: Action, view: RackoView) -> Message:
    """The move told by what it is (a slot, the stock, the pile, a call), so that a move refused in another
    phase is named as what was tried (`State.describe_move`); a legal move is told the same either way."""
    who = seat_name(view.current_player)
    if action == STOCK:
        return Message("{who} drew from the stock.", who=who)
    if action == PILE:
        if view.discard_top is None:  # refused: the pile is empty
            return Message("{who} took a card from the discard pile.", who=who)
        return Message("{who} took {card} from the discard pile.", who=who, card=view.discard_top)
    if action == CALL:
        return Message("{who} called Racko!", who=who)
    if action == WAIT:
        return Message("{who} waits.", who=who)
    card = view.drawn  # None: a card from the stock that this seat did not see, or no card drawn yet
    if action == DISCARD:
        if view.phase != "place":  # refused: no card was drawn to discard
            return Message("{who} discarded a card.", who=who)
        if card is None:
            return Message("{who} discarded the card from the stock.", who=who)
        return Message("{who} discarded {card}.", who=who, card=card)
    slot = SLOT_LABELS[int(action)]
    if card is None:
        return Message("{who} put a card in slot {slot}.", who=who, slot=slot)
    return Message("{who} put {card} in slot {slot}.", who=who, card=card, slot=slot)


def describe_outcome(action: Action, before: RackoView, after: RackoView) -> list[Message]:
    """What a move showed that the view before it could not: the card it put face up on the discard pile (a
    card from the stock that its player discarded, or the card a placed card replaced in the rack)."""
    if after.discard_top is None or before.phase != "place":
        return []
    if action == DISCARD and before.drawn is None:
        return [Message("The card was {card}.", card=after.discard_top)]
    if action != DISCARD:
        return [Message("{card} went onto the discard pile.", card=after.discard_top)]
    return []


def describe_result(result: dict[str, Any], options: Any) -> list[Message]:
    """Per seat, what the round's points come from: the ascending count and the longest run of the rack."""
    lines: list[Message] = []
    callers = set(result.get("callers") or [])
    for seat, rack in enumerate(result.get("racks") or []):
        if rack is None:
            lines.append(Message("out of the game"))
            continue
        progress = rack_progress(rack)
        line = Message(
            "ascending {count} · run {run}", count=progress.ascending_from_front, run=progress.longest_run
        )
        if seat in callers:
            line = Message("{line} · called Racko", line=line)
        # The racks are shown at the end of a round, slot 5 first, as the players lay them down.
        lines.append(Message("{line} · rack {cards}", line=line, cards=" ".join(map(str, rack))))
    return lines
