"""Rage kept at a live table: each seat first enters its bid, then (once every bid is in) its tricks and its
+5/-5 cards. The hook rule applies to the dealer's bid when it is entered: the dealer bids after everyone else
(as at the real table) and may not make the bid `dealer_barred` names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import N_, Message, RuleError
from scorekeeper.games.contract import Part, PartShape, whole
from scorekeeper.games.rage.rules import dealer_barred, hook_refusal, round_hand_size

ONE_PER_TRICK = N_("You can hold at most one +5 or -5 card per trick won.")


def check(
    seat: int,
    stage: int,
    values: Part,
    others: Sequence[Part | None] | None,
    options: Any,
    dealer: int,
    index: int,
) -> Part:
    size = round_hand_size(options, index)
    if stage == 0:
        bid = whole(values.get("bid"), 0, size, N_("A bid must be 0 to {size}."), size=size)
        # `others` None: a saved bid, checked on its own (see PartShape.check).
        if seat == dealer and others is not None:
            if any(part is None for other, part in enumerate(others) if other != dealer):
                raise RuleError("The dealer bids last: please wait until everyone else has bid.")
            if bid in barred("bid", seat, others, options, dealer, index):
                raise RuleError(hook_refusal(dealer, bid, size))
        return {"bid": bid}
    tricks = whole(values.get("tricks"), 0, size, N_("Your tricks must be 0 to {size}."), size=size)
    bonus = whole(values.get("bonus") or 0, 0, tricks, ONE_PER_TRICK)
    minus = whole(values.get("minus") or 0, 0, tricks, ONE_PER_TRICK)
    return {"tricks": tricks, "bonus": bonus, "minus": minus}


def most(name: str, options: Any, index: int) -> int | None:
    """Bids and tricks go up to the hand size; +5/-5 cards up to the edition's count of them."""
    if name in ("bid", "tricks"):
        return round_hand_size(options, index)
    return {"bonus": options.edition_column.bonus, "minus": options.edition_column.minus}.get(name)


def barred(
    name: str, seat: int, parts: Sequence[Part | None], options: Any, dealer: int, index: int
) -> set[int]:
    """The hook rule: once every other bid is in, the dealer may not make the bid that completes the sum."""
    if name != "bid" or seat != dealer:
        return set()
    bids = [part["bid"] if part else None for part in parts]
    forbidden = dealer_barred(bids, dealer, round_hand_size(options, index), options)
    return set() if forbidden is None else {forbidden}


def why_barred(name: str, seat: int, values: set[int], options: Any, index: int) -> Message | None:
    """The dealer's phone says which bid the hook rule forbids, and why, before the dealer sends."""
    if name != "bid" or not values:
        return None
    # The same sentence as the refusal: the phone says before what Send would say after.
    return hook_refusal(seat, min(values), round_hand_size(options, index))


def involved(parts: Sequence[Part], error: RuleError) -> set[int]:
    """Too many +5 (or -5) cards in all: the seats that entered any of that kind."""
    key = {"+5": "bonus", "-5": "minus"}.get(str(error.fields.get("label")))
    if key is None:
        return set()
    return {seat for seat, part in enumerate(parts) if part.get(key)}


def build(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    """The seats' parts as Rage's round result (a seat's "bid" is the result's "bids")."""
    return {
        "bids": [part["bid"] for part in parts],
        **{key: [part[key] for part in parts] for key in ("tricks", "bonus", "minus")},
    }


def split(result: dict[str, Any]) -> list[Part]:
    """A saved round's parts: each seat's bid, tricks and +5/-5 cards."""
    keys = ("tricks", "bonus", "minus")
    return [
        {"bid": bid, **{key: result[key][seat] for key in keys}} for seat, bid in enumerate(result["bids"])
    ]


PART = PartShape(
    (("bid",), ("tricks", "bonus", "minus")),
    check,
    build,
    {
        "bid": ("count", N_("Your bid")),
        "tricks": ("count", N_("Your tricks")),
        "bonus": ("count", N_("Your +5 cards")),
        "minus": ("count", N_("Your -5 cards")),
    },
    most,
    barred,
    why_barred,
    {"bid": N_("Bids")},
    (N_("Bids"), N_("Tricks and +5/-5 cards")),
    involved,
    split=split,
)
