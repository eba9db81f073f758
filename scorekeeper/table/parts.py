"""Score keeping at the table: each phone enters its own part of the round, the round is saved once all are in.

Rules (issue 12, "Score keeping at the table"):
- Every seat enters only its own part, in parallel: Racko its rack and whether it called Racko; Ruck Zuck its
  cards left (the penalty total, or the cards) and whether it went out; Rage first its bid, then (once every
  bid is in) its tricks and its +5/-5 cards.
- The hook rule applies to the dealer's bid when it is entered: the dealer bids after everyone else
  (as at the real table) and may not make the bid `rage.forbidden_dealer_bid` names.
- Any seat may correct its part until the round is saved. When the last part comes in, the round is built,
  checked by the game's own `validate_result` through the Match (the same model as tracked games) and saved.
  A round the rules refuse as a whole (the tricks add up to 11 of 10, a Racko card in two racks) is not saved
  and keeps every part: the problem is shown on the board and on every phone, the seats it concerns
  (`involved`) are asked to check their parts, and any of them may correct its part, which checks the round
  again. The order of sending decides nothing: the last seat to send is not blamed.

What a seat enters is the game's `GameSpec.table_part` (a `PartShape`, in `scorekeeper/games/<key>/part.py`);
this module and the views never branch on a game's name.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import SEAT_TEMPLATE, Message, RuleError
from scorekeeper.games.contract import Part, PartShape
from scorekeeper.games.spec import spec


def shape_of(game: str) -> PartShape:
    """The game's per-seat part (`GameSpec.table_part`); RuleError when it cannot be kept at a table."""
    shape = spec(game).table_part
    if shape is None:
        raise RuleError("This game cannot be kept at the table yet.")
    return shape


class RoundParts:
    """The parts of the round being entered at the table (one per seat and stage), until it is saved."""

    def __init__(self, game: str, players: int) -> None:
        self.shape = shape_of(game)
        self.players = players
        self.parts: list[list[Part | None]] = [[None] * players for _ in self.shape.stages]

    @property
    def stage(self) -> int:
        """The first stage not every seat has finished (== number of stages: all parts are in)."""
        for index, stage in enumerate(self.parts):
            if any(part is None for part in stage):
                return index
        return len(self.parts)

    def done(self) -> list[bool]:
        """Per seat: whether its part of the current stage is in (the board shows who is done)."""
        stage = self.stage
        if stage >= len(self.parts):
            return [True] * self.players
        return [part is not None for part in self.parts[stage]]

    def complete(self) -> bool:
        return self.stage >= len(self.parts)

    def enter(self, seat: int, values: Part, options: Any, dealer: int, round_index: int) -> int:
        """Check and keep `seat`'s part of the current stage (a correction replaces it); returns the stage.

        A seat may correct an earlier stage's part while a later stage is open (e.g. a Rage bid while tricks
        are entered): `values` holding that stage's fields picks it."""
        stage = self._stage_of(values)
        checked = self.shape.check(seat, stage, values, self.parts[stage], options, dealer, round_index)
        self.parts[stage][seat] = checked
        return stage

    def withdraw(self, seat: int, stage: int) -> None:
        self.parts[stage][seat] = None

    def result(self, options: Any) -> dict[str, Any]:
        """The round as the game's `validate_result` takes it (all parts must be in)."""
        merged = [
            {key: value for stage in self.parts for key, value in (stage[seat] or {}).items()}
            for seat in range(self.players)
        ]
        return self.shape.build(merged, options)

    def mine(self, seat: int) -> Part:
        """What `seat` entered so far (its phone shows it again for a correction)."""
        return {key: value for stage in self.parts for key, value in (stage[seat] or {}).items()}

    def public(self) -> dict[str, list[Any]]:
        """The fields everyone may see (Rage: the bids), per seat as entered so far (None: not yet)."""
        return {
            name: [
                next((part[name] for stage in self.parts if (part := stage[seat]) and name in part), None)
                for seat in range(self.players)
            ]
            for name in self.shape.public
        }

    def involved(self, error: RuleError) -> list[int]:
        """The seats whose parts a refusal of the whole round concerns: those its message names, else those
        the game points at (`PartShape.involved`), else every seat."""
        named = sorted(seat for seat in named_seats(error.fields) if 0 <= seat < self.players)
        if named:
            return named
        merged = [self.mine(seat) for seat in range(self.players)]
        pointed = self.shape.involved(merged, error)
        return sorted(pointed) if pointed else list(range(self.players))

    def saved(self) -> list[list[Part | None]]:
        """The parts as plain JSON data (the table keeps them on disk with every part entered)."""
        return [list(stage) for stage in self.parts]

    def restore(self, data: Any, options: Any, dealer: int, round_index: int) -> bool:
        """Take back parts saved by `saved` (after a host restart); each is checked again by the game's rules.
        Anything that does not fit (a damaged file, a part the rules refuse) leaves the round empty: False."""
        try:
            if not isinstance(data, list) or len(data) != len(self.parts):
                raise ValueError("not this round's parts")
            restored: list[list[Part | None]] = [[None] * self.players for _ in self.shape.stages]
            for index, (stage, fields) in enumerate(zip(data, self.shape.stages, strict=True)):
                if not isinstance(stage, list) or len(stage) != self.players:
                    raise ValueError("not this round's parts")
                if index and any(part is None for part in restored[index - 1]) and any(stage):
                    raise ValueError("a step entered before the one before it was complete")
                for seat, part in enumerate(stage):
                    if part is None:
                        continue
                    if not isinstance(part, dict) or not set(part) <= set(fields):
                        raise ValueError("not this round's parts")
                    # On its own: the hook rule held when the dealer's bid was entered; another seat may have
                    # corrected its bid since (the round is validated as a whole before it is saved).
                    restored[index][seat] = self.shape.check(
                        seat, index, part, None, options, dealer, round_index
                    )
        except (RuleError, TypeError, ValueError, KeyError, AttributeError):
            return False
        self.parts = restored
        return True

    def _stage_of(self, values: Part) -> int:
        """The stage whose fields `values` holds: the open one, or an earlier one (a correction)."""
        current = min(self.stage, len(self.parts) - 1)
        for index, fields in enumerate(self.shape.stages):
            if any(name in values for name in fields):
                if index > current:
                    raise RuleError("Please wait until everyone has entered the step before.")
                return index
        return current


def named_seats(fields: dict[str, object]) -> set[int]:
    """The seats a message names ("Player 2", also inside nested messages)."""
    seats: set[int] = set()
    for value in fields.values():
        if isinstance(value, Message) and value.template == SEAT_TEMPLATE:
            seats.add(int(str(value.fields["number"])) - 1)
        elif isinstance(value, Message | RuleError):
            seats |= named_seats(value.fields)
    return seats
