"""Rage cards and their notation (RULES.md 3.1).

Number cards are a colour letter and a value: ``r7``, ``v15``. Colours: ``r`` red, ``b`` blue, ``g`` green,
``y`` yellow, ``o`` orange, ``v`` violet; values 0..15. Action cards: ``W`` (joker; once played it carries
the colour its player named, ``W:g``), ``NT`` (no trump), ``TC`` (trump change), ``+5`` (Rage bonus) and
``-5`` (Rage minus). Only number cards and played jokers have a colour.

The engine works on these strings directly; :func:`parse_card` turns one into a :class:`Card` for callers
that want the parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.games.base import Message, RuleError

COLOURS: tuple[str, ...] = ("r", "b", "g", "y", "o", "v")
COLOUR_NAMES: dict[str, str] = {
    "r": Message("red"),
    "b": Message("blue"),
    "g": Message("green"),
    "y": Message("yellow"),
    "o": Message("orange"),
    "v": Message("violet"),
}
"""Colour names for messages (each a Message: English text that can be translated)."""
MAX_VALUE = 15
"""Number cards run 0..15 in each colour."""
JOKER_RANK = MAX_VALUE + 1
"""A joker ranks above 15 in the colour its player names."""

JOKER = "W"
NO_TRUMP = "NT"
TRUMP_CHANGE = "TC"
BONUS = "+5"
MINUS = "-5"
ACTION_CARDS: tuple[str, ...] = (JOKER, NO_TRUMP, TRUMP_CHANGE, BONUS, MINUS)
ACTION_NAMES: dict[str, str] = {
    JOKER: Message("joker"),
    NO_TRUMP: Message("no-trump"),
    TRUMP_CHANGE: Message("trump-change"),
    BONUS: "+5",
    MINUS: "-5",
}

NUMBER_CARDS: tuple[str, ...] = tuple(f"{c}{v}" for c in COLOURS for v in range(MAX_VALUE + 1))
_NUMBER_SET = frozenset(NUMBER_CARDS)
PLAYED_JOKERS: tuple[str, ...] = tuple(f"{JOKER}:{c}" for c in COLOURS)
_PLAYED_JOKER_SET = frozenset(PLAYED_JOKERS)


TRICK_RANKS: dict[str, tuple[str | None, int]] = {
    **{card: (card[0], int(card[1:])) for card in NUMBER_CARDS},
    **{card: (card[2], JOKER_RANK) for card in PLAYED_JOKERS},
    **{card: (None, -1) for card in ACTION_CARDS if card != JOKER},
}
"""For each card as it lies in a trick: the colour it counts as and its rank there."""


@dataclass(frozen=True)
class Card:
    """One card: ``kind`` is ``"number"`` or an action card's notation; colour/value where it has them."""

    kind: str
    colour: str | None = None
    value: int | None = None

    def __str__(self) -> str:
        return format_card(self)


def is_number(card: str) -> bool:
    """True for a number card (``r7``)."""
    return card in _NUMBER_SET


def is_played_joker(card: str) -> bool:
    """True for a joker with its named colour (``W:g``)."""
    return card in _PLAYED_JOKER_SET


def colour_of(card: str) -> str | None:
    """The colour a card counts as in a trick: a number card's colour, a played joker's named colour."""
    if card in _NUMBER_SET:
        return card[0]
    if card in _PLAYED_JOKER_SET:
        return card[2]
    return None


def value_of(card: str) -> int | None:
    """A number card's value; a played joker ranks above 15; other cards have no value."""
    if card in _NUMBER_SET:
        return int(card[1:])
    if card in _PLAYED_JOKER_SET:
        return JOKER_RANK
    return None


def base_card(card: str) -> str:
    """The physical card: a played joker ``W:g`` is the card ``W``."""
    return JOKER if card in _PLAYED_JOKER_SET else card


def parse_card(text: object, *, played: bool = False) -> Card:
    """Read a card in notation. With ``played=True`` a joker must carry its named colour (``W:g``)."""
    if not isinstance(text, str):
        raise RuleError("A card is written like r7, v15, W, NT, TC, +5 or -5.")
    card = text.strip()
    if card in _NUMBER_SET:
        return Card("number", card[0], int(card[1:]))
    if card in _PLAYED_JOKER_SET:
        return Card(JOKER, card[2], None)
    if card == JOKER:
        if played:
            raise RuleError("A played joker needs its colour, e.g. W:g (r, b, g, y, o or v).")
        return Card(JOKER)
    if card in ACTION_CARDS:
        return Card(card)
    shown = card if len(card) <= 12 else card[:12] + "…"
    raise RuleError(
        '"{card}" is not a Rage card. Cards are written like r7 or v15 '
        "(colours r b g y o v, values 0 to 15), W, W:g, NT, TC, +5 or -5.",
        card=shown,
    )


def format_card(card: Card) -> str:
    """Write a card in notation (the inverse of :func:`parse_card`)."""
    if card.kind == "number":
        return f"{card.colour}{card.value}"
    if card.kind == JOKER and card.colour is not None:
        return f"{JOKER}:{card.colour}"
    return card.kind


def describe(card: str) -> str:
    """A card as a player reads it in a message: ``red 7``, ``joker (green)``, ``no-trump``."""
    if card in _NUMBER_SET:
        return Message("{colour} {value}", colour=COLOUR_NAMES[card[0]], value=int(card[1:]))
    if card in _PLAYED_JOKER_SET:
        return Message("joker ({colour})", colour=COLOUR_NAMES[card[2]])
    return ACTION_NAMES.get(card, card)


def make_deck(action_counts: dict[str, int]) -> list[str]:
    """The full deck in a fixed order: the 96 number cards, then each action card as often as counted."""
    deck = list(NUMBER_CARDS)
    for card in ACTION_CARDS:
        deck.extend([card] * action_counts.get(card, 0))
    return deck


def sort_key(card: str) -> tuple[int, int]:
    """An order for showing a hand: by colour, then value; action cards last."""
    if card in _NUMBER_SET:
        return (COLOURS.index(card[0]), int(card[1:]))
    return (len(COLOURS), ACTION_CARDS.index(base_card(card)) if base_card(card) in ACTION_CARDS else 99)
