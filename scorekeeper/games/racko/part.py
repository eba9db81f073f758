"""Racko kept at a live table: each seat enters its rack (front to back) and whether it called Racko."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import N_, RuleError
from scorekeeper.games.contract import Part, PartShape


def check(seat: int, stage: int, values: Part, _others: Any, options: Any, _d: int, _r: int) -> Part:
    rack = values.get("rack")
    if not isinstance(rack, list | tuple) or not all(isinstance(card, int) for card in rack):
        raise RuleError("Enter the cards of your rack from front to back.")
    return {"rack": list(rack), "called": bool(values.get("called", False))}


def build(parts: Sequence[Part], options: Any) -> dict[str, Any]:
    return {
        "racks": [part["rack"] for part in parts],
        "callers": [seat for seat, part in enumerate(parts) if part["called"]],
        "blitz": bool(getattr(options, "blitz", False)),
    }


def most(name: str, options: Any, _index: int) -> int | None:
    """The rack's highest card: the deck size (40, 50 or 60 by the number of players)."""
    return int(options.deck_size) if name == "rack" else None


def split(result: dict[str, Any]) -> list[Part]:
    """A saved round's parts (a quick-form round has no racks: its racks start empty)."""
    callers = result.get("callers") or []
    racks = result.get("racks") or [None] * len(result.get("counts") or [])
    return [{"rack": list(rack or []), "called": seat in callers} for seat, rack in enumerate(racks)]


PART = PartShape(
    (("rack", "called"),),
    check,
    build,
    {"rack": ("rack", N_("Your rack, front to back")), "called": ("yes", N_("I called Racko"))},
    most,
    callers={"called": N_("Who called Racko?")},
    split=split,
)
