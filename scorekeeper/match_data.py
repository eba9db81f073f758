"""A match as stored data (`Match.to_dict`): the fields a saved match has, and the checks a loaded one passes
before it is rebuilt. A file written by another version, or edited by hand, is refused with a sentence that
says what is wrong rather than with a Python error.

This is the first half of "can be read and scored" (docs/DATA.md); the options and the rounds are the second
(`GameSpec.stored_options`, `tally.readable_scores`). Neither judges stored data by rules tightened since it
was saved: that is only for what is entered now (`tally.follows_rules`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from scorekeeper.games.base import RuleError

FIELD_TYPES: dict[str, type] = {
    "game": str,
    "options": dict,
    "players": list,
    "names": list,
    "first_dealer": int,
    "rounds": list,
    "id": str,
    "version": int,
    "status": str,
    "mode": str,
    "created": str,
    "updated": str,
}
REQUIRED = ("game", "options", "players", "names")
"""What a saved match cannot do without (the other fields have defaults)."""


def check_saved(data: Any, known: Collection[str]) -> None:
    """RuleError unless `data` is a saved match's data: an object with no field outside `known`, the required
    ones present, every field of its type (a bool is no whole number) and the players and names text. The
    rules check the options and the rounds when the match is rebuilt."""
    if not isinstance(data, dict):
        raise RuleError("A saved game must be an object with its game, players and rounds.")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise RuleError(
            "A saved game has fields this version does not know: {fields}.", fields=", ".join(unknown)
        )
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise RuleError("A saved game lacks {fields}.", fields=", ".join(missing))
    for key, kind in FIELD_TYPES.items():
        value = data.get(key)
        if key in data and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise RuleError("A saved game's {field} has the wrong type.", field=key)
    if not all(isinstance(p, str) for p in [*data["players"], *data["names"]]):
        raise RuleError("A saved game's players and names must be text.")
