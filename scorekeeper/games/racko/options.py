"""Racko options: the variants and house rules of RULES.md 1, as one validated, JSON-safe dataclass."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from scorekeeper.games.base import Message, RuleError, is_int

VARIANTS = ("standard", "bonus", "chips")
"""standard = points game (1.5), bonus = Bonus Racko (1.5), chips = chips game (1.7)."""

CHIP_BASES = ("payer", "caller")
"""Whose longest run sets what each player pays in the chips game (1.7)."""

DECK_SIZES = {2: 40, 3: 50, 4: 60}
"""Players -> highest card in the deck (1.1): the deck is 1..N."""
PLAYERS = (min(DECK_SIZES), max(DECK_SIZES))
"""The fewest and the most players."""

DEFAULT_CHIP_ROUNDS = 10
"""RULES 1.7 decision: a chips game lasts 10 rounds unless agreed otherwise."""

_LIMITS = {"target": (1, 100_000), "chips_start": (1, 10_000), "rounds": (1, 1_000)}

_LABELS: dict[str, Message] = {
    "partners": Message("Partners"),
    "blitz": Message("Blitz-Racko"),
    "reshuffle": Message("Reshuffle"),
    "target": Message("Target"),
    "chips_start": Message("Chips per player"),
    "rounds": Message("Rounds"),
}
"""How messages name an option: as the options screen labels it."""


@dataclass(frozen=True)
class RackoOptions:
    """The options of a Racko game.

    - `players`: 2 to 4; the deck is 1..40, 1..50 or 1..60 (1.1).
    - `variant`: "standard" points, "bonus" (run bonus for the caller) or "chips" (1.7).
    - `two_player_rule`: Racko may only be called with a direct run of 3 or more. None means "the default":
      on with 2 players, off otherwise; it is resolved to True/False on creation. Only for 2 players.
    - `partners`: 4 players only, seats 1+3 against 2+4 (points game).
    - `blitz`: Blitz-Racko (1.6), free placement during the deal; not with chips.
    - `target`: the points game ends after a round in which someone reaches it (default 500).
    - `reshuffle`: shuffle the discard pile when it becomes the new stock (seed 002).
    - `chips_start`, `chip_basis`, `rounds`: the chips game (1.7); `rounds` defaults to 10 there and must stay
      unset in a points game, which ends at the target instead.
    """

    players: int
    variant: str = "standard"
    two_player_rule: bool | None = None
    partners: bool = False
    blitz: bool = False
    target: int = 500
    reshuffle: bool = False
    chips_start: int = 25
    chip_basis: str = "payer"
    rounds: int | None = None

    def __post_init__(self) -> None:
        if not is_int(self.players) or self.players not in DECK_SIZES:
            raise RuleError("Racko is played by 2 to 4 players.")
        if self.variant not in VARIANTS:
            raise RuleError("The Racko variant must be standard, bonus or chips.")
        if self.chip_basis not in CHIP_BASES:
            raise RuleError("Chips are paid by the payer's run or by the caller's run.")
        for name in ("partners", "blitz", "reshuffle"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError("The option “{name}” must be on or off.", name=_LABELS[name])
        if self.two_player_rule is not None and not isinstance(self.two_player_rule, bool):
            raise RuleError("The 2-player rule must be on or off.")
        for name, (low, high) in _LIMITS.items():
            value = getattr(self, name)
            if name == "rounds" and value is None:
                continue
            if not is_int(value) or not low <= value <= high:
                raise RuleError(
                    "The option “{name}” must be a whole number from {low} to {high}.",
                    name=_LABELS[name],
                    low=low,
                    high=high,
                )
        if self.two_player_rule is None:
            object.__setattr__(self, "two_player_rule", self.players == 2)
        elif self.two_player_rule and self.players != 2:
            raise RuleError("The 2-player rule is only for games of 2 players.")
        if self.partners and self.players != 4:
            raise RuleError("Partners play needs exactly 4 players.")
        if self.variant == "chips":
            if self.partners:
                raise RuleError("The chips game is played each for themselves, not with partners.")
            if self.blitz:
                raise RuleError("Blitz-Racko is not combined with the chips game.")
            if self.rounds is None:
                object.__setattr__(self, "rounds", DEFAULT_CHIP_ROUNDS)
        elif self.rounds is not None:
            raise RuleError(
                "A points game ends when someone reaches the target, not after a number of rounds."
            )

    @property
    def deck_size(self) -> int:
        """The highest card in play: 40, 50 or 60."""
        return DECK_SIZES[self.players]

    @property
    def is_chips(self) -> bool:
        return self.variant == "chips"

    @classmethod
    def from_dict(cls, data: Any) -> RackoOptions:
        """Rebuild options from stored data; anything malformed is a RuleError, never a TypeError."""
        if not isinstance(data, dict):
            raise RuleError("Racko options must be a set of named values.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise RuleError("Unknown Racko option: {names}.", names=", ".join(unknown))
        if "players" not in data:
            raise RuleError("Racko options must say how many players there are.")
        return cls(**data)
