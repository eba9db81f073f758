"""Score keeping at the table: each phone enters its own part of the round, the round is saved once all are in.

Rules (issue 12, "Score keeping at the table"):
- Every seat enters only its own part, in parallel: Racko its rack and whether it called Racko; Ruck Zuck its
  cards left (the penalty total, or the cards) and whether it went out; Rage first its bid, then (once every
  bid is in) its tricks and its +5/-5 cards.
- The hook rule applies to the dealer's bid when it is entered: the dealer bids after everyone else
  (as at the real table) and may not make the bid `rage.forbidden_dealer_bid` names.
- Any seat may correct its part until the round is saved. When the last part comes in, the round is built,
  checked by the game's own `validate_result` through the Match (the same model as tracked games) and saved.
  A round the rules refuse is not saved: the part just entered is refused with the rules' message (the
  others stay), so the seat corrects it.

The per-seat part shape is `PartShape` below, one per game key; the views never branch on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.base import N_, RuleError, seat_name
from scorekeeper.games.rage.rules import forbidden_dealer_bid, round_hand_size

Part = dict[str, Any]
ONE_PER_TRICK = N_("You can hold at most one +5 or -5 card per trick won.")


def _whole(value: Any, low: int, high: int | None, message: str, **names: Any) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        raise RuleError(message, **names)
    return value


@dataclass(frozen=True)
class PartShape:
    """What one seat enters: `stages` lists the fields of each step (a seat moves to the next step when every
    seat finished the one before); `check` refuses a bad part as it is entered; `build` makes the round result
    the game's `validate_result` takes from all parts."""

    stages: tuple[tuple[str, ...], ...]
    check: Callable[[int, int, Part, Sequence[Part | None], Any, int, int], Part]
    """(seat, stage, values, the other parts of this stage, options, dealer, round index) -> the clean part."""
    build: Callable[[Sequence[Part], Any], dict[str, Any]]
    fields: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """How a phone asks for each field: (kind, label); kinds "count" (a whole number), "yes" (a switch) and
    "cards" (numbers separated by spaces or commas)."""
    most: Callable[[str, Any, int], int | None] = lambda _name, _options, _index: None
    """The highest value a count field can take in round `index` (None: no small limit): the phone then offers
    one-tap choices 0..most, as the round-entry screens do."""
    barred: Callable[[str, int, Sequence[Part | None], Any, int, int], set[int]] = (
        lambda _name, _seat, _parts, _options, _dealer, _index: set()
    )
    """Values a seat may not choose now (name, seat, this stage's parts, options, dealer, round index): the
    phone greys them out; `check` refuses them anyway."""


# ---------------------------------------------------------------------- Racko
def _racko_check(seat: int, stage: int, values: Part, _others: Any, options: Any, _d: int, _r: int) -> Part:
    rack = values.get("rack")
    if not isinstance(rack, list | tuple) or not all(isinstance(card, int) for card in rack):
        raise RuleError("Enter the cards of your rack from front to back.")
    return {"rack": list(rack), "called": bool(values.get("called", False))}


def _racko_build(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    return {
        "racks": [part["rack"] for part in parts],
        "callers": [seat for seat, part in enumerate(parts) if part["called"]],
        "blitz": bool(getattr(options, "blitz", False)),
    }


# ---------------------------------------------------------------------- Ruck Zuck
def _ruckzuck_check(
    seat: int, stage: int, values: Part, _others: Any, options: Any, _d: int, _r: int
) -> Part:
    hand = values.get("hand")
    if isinstance(hand, list | tuple):
        hand = list(hand)
    else:
        hand = _whole(hand, 0, None, N_("Enter the penalty of your cards left (0 or more)."))
    return {"hand": hand, "out": bool(values.get("out", False))}


def _ruckzuck_build(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    out = [seat for seat, part in enumerate(parts) if part["out"]]
    if len(out) > 1:
        raise RuleError(
            "{first} and {second} both say they went out; only one player can go out.",
            first=seat_name(out[0]),
            second=seat_name(out[1]),
        )
    return {"hands": [part["hand"] for part in parts], "out": out[0] if out else None}


# ---------------------------------------------------------------------- Rage
def _rage_check(
    seat: int, stage: int, values: Part, others: Sequence[Part | None], options: Any, dealer: int, index: int
) -> Part:
    size = round_hand_size(options, index)
    if stage == 0:
        bid = _whole(values.get("bid"), 0, size, N_("A bid must be 0 to {size}."), size=size)
        if seat == dealer:
            earlier = [part for other, part in enumerate(others) if other != dealer]
            if any(part is None for part in earlier):
                raise RuleError("The dealer bids last: please wait until everyone else has bid.")
            forbidden = forbidden_dealer_bid([part["bid"] for part in earlier if part], size, options)
            if forbidden is not None and bid == forbidden:
                raise RuleError(
                    "{who} deals and may not bid {bid}: all bids would add up to the cards in hand.",
                    who=seat_name(dealer),
                    bid=forbidden,
                )
        return {"bid": bid}
    tricks = _whole(values.get("tricks"), 0, size, N_("Your tricks must be 0 to {size}."), size=size)
    bonus = _whole(values.get("bonus") or 0, 0, tricks, ONE_PER_TRICK)
    minus = _whole(values.get("minus") or 0, 0, tricks, ONE_PER_TRICK)
    return {"tricks": tricks, "bonus": bonus, "minus": minus}


def _rage_most(name: str, options: Any, index: int) -> int | None:
    """Bids and tricks go up to the hand size; +5/-5 cards up to the edition's count of them."""
    if name in ("bid", "tricks"):
        return round_hand_size(options, index)
    return {"bonus": options.rules.bonus, "minus": options.rules.minus}.get(name)


def _rage_barred(
    name: str, seat: int, parts: Sequence[Part | None], options: Any, dealer: int, index: int
) -> set[int]:
    """The hook rule: once every other bid is in, the dealer may not make the bid that completes the sum."""
    if name != "bid" or seat != dealer:
        return set()
    earlier = [part for other, part in enumerate(parts) if other != dealer]
    if any(part is None for part in earlier):
        return set()
    forbidden = forbidden_dealer_bid(
        [part["bid"] for part in earlier if part], round_hand_size(options, index), options
    )
    return set() if forbidden is None else {forbidden}


def _rage_build(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    return {key: [part[key] for part in parts] for key in ("bids", "tricks", "bonus", "minus")}


def _rage_parts(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    renamed = [{**part, "bids": part["bid"]} for part in parts]
    return _rage_build(renamed, options)


SHAPES: Mapping[str, PartShape] = {
    "racko": PartShape(
        (("rack", "called"),),
        _racko_check,
        _racko_build,
        {"rack": ("cards", N_("Your rack, front to back")), "called": ("yes", N_("I called Racko"))},
    ),
    "ruckzuck": PartShape(
        (("hand", "out"),),
        _ruckzuck_check,
        _ruckzuck_build,
        {"hand": ("count", N_("Penalty of your cards left")), "out": ("yes", N_("I went out"))},
    ),
    "rage": PartShape(
        (("bid",), ("tricks", "bonus", "minus")),
        _rage_check,
        _rage_parts,
        {
            "bid": ("count", N_("Your bid")),
            "tricks": ("count", N_("Your tricks")),
            "bonus": ("count", N_("Your +5 cards")),
            "minus": ("count", N_("Your -5 cards")),
        },
        _rage_most,
        _rage_barred,
    ),
}
"""The per-seat part of a round, by game key (a new game adds its line here)."""


def shape_of(game: str) -> PartShape:
    shape = SHAPES.get(game)
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

    def _stage_of(self, values: Part) -> int:
        """The stage whose fields `values` holds: the open one, or an earlier one (a correction)."""
        current = min(self.stage, len(self.parts) - 1)
        for index, fields in enumerate(self.shape.stages):
            if any(name in values for name in fields):
                if index > current:
                    raise RuleError("Please wait until everyone has entered the step before.")
                return index
        return current
