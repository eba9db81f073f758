"""Ruck Zuck moves in words, for the move log of digital play (RULES.md 2.2).

`describe_action(action, view)` describes `action`, made by `view.current_player`, as the seat of `view` saw
the table just before the move. Every Ruck Zuck move is public except which card a draw brings, so a draw
never names its card.

A placed number card is described by a card it lies next to ("Ben placed 17 next to 16"): a card may only
go on a field touching a card, so there always is one.
"""

from __future__ import annotations

from typing import Any

import scorekeeper.games.ruckzuck.board as board
from scorekeeper.games.base import Action, Message, Plural, is_int, joined, seat_name
from scorekeeper.games.ruckzuck.play import DRAW, END, PLACE, SWAP, RuckZuckView
from scorekeeper.games.ruckzuck.rules import JOKER, Card, penalty

JOKER_WORD = Message("joker (100)")
"""A joker left in hand, in a round's breakdown."""
FIELD_NAMES: dict[str, Message] = {
    "J1": Message("the left joker field"),
    "J2": Message("the right joker field"),
}


def field_name(label: int | str) -> Message:
    """A field as a message names it: "field 17", "the left joker field"."""
    if isinstance(label, str) and label in FIELD_NAMES:
        return FIELD_NAMES[label]
    return Message("field {number}", number=label)


def neighbour(view: RuckZuckView, label: int | str) -> Card | None:
    """The card next to field `label` a player would name: the number closest to the field's number
    (the lowest on a tie), a joker only when no number card touches it."""
    position = board.position_of_label(label, view.options.side)
    touching = [view.board[p] for p in board.NEIGHBOURS[position] if view.board[p] is not None]
    numbers = [c for c in touching if isinstance(c, int)]  # every card but the jokers
    if numbers:
        target = label if isinstance(label, int) else 0
        return min(numbers, key=lambda c: (abs(c - target), c))
    return JOKER if touching else None


def describe_action(action: Action, view: RuckZuckView) -> Message:
    """One move in words, e.g. "Ben placed 17 next to 16." or "Anna drew a card."."""
    who = seat_name(view.current_player)
    if action == DRAW:
        if view.stock_size == 1:
            return Message("{who} drew the last card of the stock.", who=who)
        return Message("{who} drew a card.", who=who)
    if action == END:
        if view.last_draw:
            return Message("{who} ended the round.", who=who)
        return Message("{who} ended the turn.", who=who)
    if not isinstance(action, list | tuple) or not action:
        raise ValueError(f"not a Ruck Zuck action: {action!r}")  # no words for garbage (State.describe_move)
    kind, *rest = action
    well_formed = (kind == SWAP and len(rest) == 1 and is_int(rest[0])) or (
        kind == PLACE and len(rest) == 2 and (is_int(rest[0]) or rest[0] == JOKER)
    )
    if not well_formed:
        raise ValueError(f"not a Ruck Zuck action: {action!r}")
    if kind == SWAP:
        return Message(
            "{who} put {card} in place of the joker on field {card} and took the joker back.",
            who=who,
            card=rest[0],
        )
    card, label = rest
    touching = neighbour(view, label)
    last = view.hand_sizes[view.current_player] == 1
    if card == JOKER:
        message = Message("{who} placed the joker on {field}.", who=who, field=field_name(label))
    elif touching is None:  # not reachable in a legal game; still a sentence
        message = Message("{who} placed {card}.", who=who, card=card)
    elif touching == JOKER:
        message = Message("{who} placed {card} next to a joker.", who=who, card=card)
    else:
        message = Message("{who} placed {card} next to {neighbour}.", who=who, card=card, neighbour=touching)
    if last:
        return Message("{move} That was the last card in hand.", move=message)
    return message


def describe_result(result: dict[str, Any], options: Any) -> list[Message]:
    """Per seat, where the round's penalty comes from (RULES.md 2.3): the cards left in hand, each number
    counting its value and each joker 100, or that the seat went out."""
    lines: list[Message] = []
    for seat, hand in enumerate(result.get("hands") or []):
        if not hand:
            went_out = seat == result.get("out")
            lines.append(Message("went out") if went_out else Message("no cards left"))
            continue
        cards = joined([JOKER_WORD if card == JOKER else str(card) for card in hand], " + ")
        lines.append(
            Plural("{cards}: {n} penalty point", "{cards}: {n} penalty points", penalty(hand), cards=cards)
        )
    return lines
