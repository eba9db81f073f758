"""Ruck Zuck kept at a live table: each seat enters the penalty of its cards left (or the cards) and whether
it went out; only one player can go out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import N_, RuleError, seat_name
from scorekeeper.games.contract import Part, PartShape, whole


def check(seat: int, stage: int, values: Part, _others: Any, options: Any, _d: int, _r: int) -> Part:
    hand = values.get("hand")
    if isinstance(hand, list | tuple):
        hand = list(hand)
    else:
        hand = whole(hand, 0, None, N_("Enter the penalty of your cards left (0 or more)."))
    return {"hand": hand, "out": bool(values.get("out", False))}


def build(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    out = [seat for seat, part in enumerate(parts) if part["out"]]
    if len(out) > 1:
        raise RuleError(
            "{first} and {second} both say they went out; only one player can go out.",
            first=seat_name(out[0]),
            second=seat_name(out[1]),
        )
    return {"hands": [part["hand"] for part in parts], "out": out[0] if out else None}


def split(result: dict[str, Any]) -> list[Part]:
    """A saved round's parts: each hand (its cards, or a typed total) and who went out."""
    return [{"hand": hand, "out": seat == result.get("out")} for seat, hand in enumerate(result["hands"])]


PART = PartShape(
    (("hand", "out"),),
    check,
    build,
    {"hand": ("count", N_("Penalty of your cards left")), "out": ("yes", N_("I went out"))},
    callers={"out": N_("Who went out?")},
    split=split,
)
