"""Rage moves in words, for the move log of digital play (RULES.md 3.2-3.3).

`describe_action(action, view)` describes `action`, made by `view.current_player`, as the seat of `view` saw
the table just before the move. Bids and played cards are public, so every move is told in full, with the
effect of an action card, and who wins the trick when the move completes it. The winner is left out only
when a trump-change card completes the trick: the new trump is still face down in the view before the move.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import Action, Message, Plural, is_int, seat_name
from scorekeeper.games.rage.cards import (
    BONUS,
    COLOUR_NAMES,
    MINUS,
    NO_TRUMP,
    TRUMP_CHANGE,
    describe,
    is_number,
    is_played_joker,
)
from scorekeeper.games.rage.play import RageView
from scorekeeper.games.rage.rules import trick_winner


def describe_action(action: Action, view: RageView) -> Message:
    """One move in words, e.g. "Anna bid 2.", "Cem played the joker as green."."""
    who = seat_name(view.current_player)
    if not isinstance(action, list | tuple) or len(action) != 2 or action[0] not in ("bid", "play"):
        raise ValueError(f"not a Rage action: {action!r}")  # no words for garbage (State.describe_move)
    kind, value = action
    if kind == "bid":
        if not is_int(value):
            raise ValueError(f"not a bid: {value!r}")
        return Message("{who} bid {bid}.", who=who, bid=value)
    if not isinstance(value, str):
        raise ValueError(f"not a card: {value!r}")
    move = _play(who, value, view)
    winner = _winner(value, view)
    if winner is None:
        return move
    return Message("{move} {winner} wins the trick.", move=move, winner=seat_name(winner))


def _play(who: Message, card: str, view: RageView) -> Message:
    if is_played_joker(card):
        return Message("{who} played the joker as {colour}.", who=who, colour=COLOUR_NAMES[card[2]])
    if card == NO_TRUMP:
        if view.no_trump_in_trick:
            return Message("{who} played a no-trump card.", who=who)
        if view.options.edition_column.no_trump_rest_of_round:
            return Message("{who} played a no-trump card: no trump for the rest of the round.", who=who)
        return Message("{who} played a no-trump card: this trick has no trump.", who=who)
    if card == TRUMP_CHANGE:
        if view.trump_change_in_trick:
            return Message("{who} played a trump-change card.", who=who)
        return Message("{who} played a trump-change card: a new trump is turned up.", who=who)
    if card == BONUS:
        return Message("{who} played the +5 card: the winner of this trick gets 5 points.", who=who)
    if card == MINUS:
        return Message("{who} played the -5 card: the winner of this trick loses 5 points.", who=who)
    return Message("{who} played {card}.", who=who, card=describe(card))


def _winner(card: str, view: RageView) -> int | None:
    """The seat that wins the trick this card completes (None: the trick goes on, or its trump is hidden)."""
    if len(view.trick) + 1 < view.options.players:
        return None
    trump = view.trump
    if card == NO_TRUMP:
        trump = None
    elif card == TRUMP_CHANGE and not view.trump_change_in_trick and not view.no_trump_in_trick:
        return None  # the trick is decided by a trump not turned up yet
    plays = [*view.trick, (view.current_player, card)]
    return plays[trick_winner([c for _, c in plays], trump)][0]


def describe_outcome(action: Action, before: RageView, after: RageView) -> list[Message]:
    """What a move brought about that `describe_action` cannot know from the view before it: the trump turned
    up (after a trump-change card, or after a trick with a no-trump card), and who won a trick that a
    trump-change card completed (RULES.md 3.3). Both are public: the trump pile and the tricks lie open."""
    said: list[Message] = []
    finished = len(after.history) > len(before.history)
    if finished and after.last_winner is not None and _winner(str(action[1]), before) is None:
        said.append(Message("{winner} wins the trick.", winner=seat_name(after.last_winner)))
    turned = after.trump_pile[len(before.trump_pile) :]
    if turned:
        top = turned[-1]
        if is_number(top):
            said.append(Message("The new trump is {colour}.", colour=COLOUR_NAMES[top[0]]))
        else:
            said.append(Message("No card is left to turn up: there is no new trump."))
    return said


def describe_result(result: dict[str, Any], options: Any) -> list[Message]:
    """Per seat, what the round's points come from (RULES.md 3.4): the bid, the tricks taken, whether the
    bid was made, and the +5 / -5 cards among the tricks."""
    lines: list[Message] = []
    keys = ("bids", "tricks", "bonus", "minus")
    for bid, tricks, bonus, minus in zip(*(result.get(key) or [] for key in keys), strict=False):
        line: Message = Plural("bid {bid} · took {n} trick", "bid {bid} · took {n} tricks", tricks, bid=bid)
        line = (
            Message("{line} · exact", line=line) if bid == tricks else Message("{line} · missed", line=line)
        )
        if bonus:
            line = Message("{line} · +5 ×{count}", line=line, count=bonus)
        if minus:
            line = Message("{line} · -5 ×{count}", line=line, count=minus)
        lines.append(line)
    return lines
