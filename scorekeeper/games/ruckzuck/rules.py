"""Ruck Zuck rules: options, penalties, adjacency on the board, and checking what a score keeper enters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import scorekeeper.games.ruckzuck.board as board
from scorekeeper.games.base import Message, Plural, RuleError, is_int, seat_name

JOKER: Final = "J"
"""The joker in a hand (RULES.md 2.3 notation)."""

Card = int | str
"""A card: a number 1..49 or the joker `J`."""

NUMBERS: Final = range(1, 50)
JOKERS_IN_DECK: Final = 2
JOKER_PENALTY: Final = 100
MAX_PENALTY: Final = sum(NUMBERS) + JOKERS_IN_DECK * JOKER_PENALTY  # 1,425: every card in one hand
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
PLAYERS = (MIN_PLAYERS, MAX_PLAYERS)
HAND_SIZE: Final = 5
LOWER_WINS: Final = True
"""The lowest total penalty wins."""


@dataclass(frozen=True)
class RuckZuckOptions:
    """A Ruck Zuck game: 2 to 6 players, as many rounds as players unless the table chooses more
    (RULES.md 2.3), played on the red or the blue side of the board."""

    players: int
    rounds: int | None = None
    side: str = "red"

    def __post_init__(self) -> None:
        if not is_int(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RuleError("Ruck Zuck is for {low} to {high} players.", low=MIN_PLAYERS, high=MAX_PLAYERS)
        if self.rounds is not None and (not is_int(self.rounds) or self.rounds < 1):
            raise RuleError("The number of rounds must be a whole number of at least 1.")
        if self.rounds is not None and self.rounds < self.players:
            # RULES.md 2.3: the seed's minimum is one round per player, so that everyone deals once.
            raise RuleError(
                "Ruck Zuck is played at least one round per player: at least {players} rounds.",
                players=self.players,
            )
        if self.side not in board.SIDES:
            raise RuleError("The board side must be red or blue.")

    @property
    def planned_rounds(self) -> int:
        """Rounds in the game: the chosen number, else one per player (the seed's minimum)."""
        return self.rounds if self.rounds is not None else self.players


Options = RuckZuckOptions


def read_options(**values: Any) -> RuckZuckOptions:
    """The options of a stored game ("can be read", docs/DATA.md): as `RuckZuckOptions`, except that fewer
    rounds than players are kept. Versions before the one-round-per-player rule of RULES.md 2.3 let a table
    choose any number of rounds from 1, and such a game is read with the rounds it was played with; a new game
    follows the rule (`RuckZuckOptions`)."""
    rounds, players = values.get("rounds"), values.get("players")
    if not (is_int(rounds) and is_int(players) and 1 <= rounds < players):
        return RuckZuckOptions(**values)
    options = RuckZuckOptions(**{**values, "rounds": None})  # every other option checked as always
    object.__setattr__(options, "rounds", rounds)  # frozen: set as __post_init__ would have
    return options


def penalty(hand: Sequence[Card]) -> int:
    """A hand's penalty: the sum of its numbers plus 100 for each joker (RULES.md 2.3)."""
    if isinstance(hand, str | bytes | Mapping) or not isinstance(hand, Sequence):
        raise RuleError("A hand is a list of cards: numbers 1 to 49 and J (joker).")
    total = 0
    for card in hand:
        if card == JOKER and isinstance(card, str):
            total += JOKER_PENALTY
        elif is_int(card) and card in NUMBERS:
            total += card
        else:
            raise RuleError("{card} is not a card; cards are 1 to 49 and J (joker).", card=_card_name(card))
    return total


def adjacent_numbers(number: int, side: str = "red") -> set[int]:
    """The number fields touching `number`'s field side by side or corner to corner. Joker fields and the
    stock field are not number fields, so they never appear (and a card does not reach across them)."""
    fields = board.layout(side)
    if not is_int(number):
        raise RuleError("The board has number fields 1 to 49, not {number}.", number=str(number))
    position = board.position_of(number, side)
    return {field for p in board.neighbours(position) if is_int(field := fields[p])}


def _card_name(card: object) -> str:
    return str(card) if isinstance(card, int | str) else Message("that entry")


def validate_hands(hands: Sequence[Any], options: RuckZuckOptions | None = None) -> None:
    """Check what a score keeper enters for a round (RULES.md 2.4): per player either the cards left in hand
    (numbers 1..49 and `J`) or a typed penalty total. Numbers at most once across all hands, at most 2
    jokers, at most one empty hand, a typed total in 0..1,425; together the hands cannot hold more than the
    deck. Raises RuleError naming the player and the card."""
    _check_hand_count(hands, options)
    holder: dict[int, int] = {}
    jokers = 0
    empty: list[int] = []
    listed_penalty = 0
    typed_total = 0
    for seat, hand in enumerate(hands):
        who = seat_name(seat)
        if is_int(hand):
            if not 0 <= hand <= MAX_PENALTY:
                raise RuleError(
                    "{who}: a penalty total must lie between 0 and {most:,}, not {total}.",
                    who=who,
                    most=MAX_PENALTY,
                    total=hand,
                )
            typed_total += hand
            if hand == 0:
                empty.append(seat)
            continue
        if isinstance(hand, str | bytes | Mapping) or not isinstance(hand, Sequence):
            raise RuleError(
                "{who}: enter the cards left in hand (numbers 1 to 49 and J) or a penalty total.", who=who
            )
        if not hand:
            empty.append(seat)
        jokers = _check_cards(seat, hand, holder, jokers)
        listed_penalty += penalty(hand)
    if len(empty) > 1:
        raise RuleError(
            "{first} and {second} both have no cards left; only one player can go out.",
            first=seat_name(empty[0]),
            second=seat_name(empty[1]),
        )
    if typed_total > MAX_PENALTY - listed_penalty:
        raise RuleError(
            "The penalties add up to more than all cards together ({most:,}); check the totals.",
            most=MAX_PENALTY,
        )


def _check_hand_count(hands: Sequence[Any], options: RuckZuckOptions | None) -> None:
    """One hand or total per player: as many as the game's players, and 2 to 6 in any case."""
    if isinstance(hands, str | bytes | Mapping) or not isinstance(hands, Sequence):
        raise RuleError("Enter one hand or penalty total per player.")
    expected = options.players if options is not None else None
    if expected is not None and len(hands) != expected:
        raise RuleError(
            Plural(
                "This game has {players} players, but {hands} hand was entered.",
                "This game has {players} players, but {hands} hands were entered.",
                len(hands),
                players=expected,
                hands=len(hands),
            )
        )
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise RuleError(
            "Ruck Zuck is for {low} to {high} players, not {players}.",
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
            players=len(hands),
        )


def _check_cards(seat: int, hand: Sequence[Any], holder: dict[int, int], jokers: int) -> int:
    """Every card of `seat`'s hand is a card of the deck that no hand holds yet (`holder`: card -> seat, filled
    in here); returns the jokers counted so far, at most the deck's two."""
    who = seat_name(seat)
    for card in hand:
        if card == JOKER and isinstance(card, str):
            jokers += 1
            if jokers > JOKERS_IN_DECK:
                raise RuleError(
                    "{who}: there are only {jokers} jokers in the game.", who=who, jokers=JOKERS_IN_DECK
                )
            continue
        if not is_int(card) or card not in NUMBERS:
            raise RuleError(
                "{who}: {card} is not a card; cards are 1 to 49 and J (joker).",
                who=who,
                card=_card_name(card),
            )
        if card in holder:
            other = holder[card]
            if other == seat:
                raise RuleError(
                    "{who}: card {card} is entered twice; each card exists once.", who=who, card=card
                )
            raise RuleError(
                "{who}: card {card} is entered also in the hand of {other}; each card exists once.",
                who=who,
                card=card,
                other=seat_name(other),
            )
        holder[card] = seat
    return jokers


def _hands_of(result: Any, options: RuckZuckOptions) -> tuple[Sequence[Any], int | None]:
    if not isinstance(result, Mapping) or "hands" not in result:
        raise RuleError("A Ruck Zuck round needs the hands (or penalty totals) of every player.")
    out = result.get("out")
    if out is not None and (not is_int(out) or not 0 <= out < options.players):
        raise RuleError("Who went out must be one of the {players} players.", players=options.players)
    return result["hands"], out


def validate_result(
    result: Mapping[str, Any], options: RuckZuckOptions, *, dealer: int, round_index: int
) -> None:
    """Check a round result `{"hands": [...], "out": seat | None}`: the hands as RULES.md 2.4 says, and
    the player who went out (placed their last card) has no cards left. With `out` None the stock ran out:
    nobody needs an empty hand, but at most one may have one."""
    if not isinstance(options, RuckZuckOptions):
        raise RuleError("These are not Ruck Zuck options.")
    if not is_int(round_index) or round_index < 0:
        raise RuleError("Rounds are counted from the first one on.")
    if round_index >= options.planned_rounds:
        raise RuleError("This game has only {rounds} rounds.", rounds=options.planned_rounds)
    hands, out = _hands_of(result, options)
    validate_hands(hands, options)
    if out is not None:
        hand = hands[out]
        if (is_int(hand) and hand != 0) or (not is_int(hand) and len(hand) != 0):
            raise RuleError("{who} went out, so they have no cards left and 0 penalty.", who=seat_name(out))


def score_result(
    result: Mapping[str, Any], options: RuckZuckOptions, *, dealer: int, round_index: int
) -> list[int]:
    """The round's penalty per seat: a typed total as entered, else the penalty of the cards left."""
    validate_result(result, options, dealer=dealer, round_index=round_index)
    return [hand if is_int(hand) else penalty(hand) for hand in result["hands"]]
