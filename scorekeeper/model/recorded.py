"""A result as another app recorded it: the places BG Stats gave, whether scores were kept, whether the play
counts in statistics. Kept inside the match's `options` under `KEY` (an option no game has: a version that does
not know it keeps it as it came, `GameSpec.stored_options`), so the match record needs no new field.

The rules (decided here; RULES.md says nothing about imported plays):
- `places`: per seat, the place the other app recorded (1 = won; several seats may share a place). When set,
  it is the record: the standings and winners follow it, not the totals (BG Stats' winner flags are what the
  players said, even against the scores, e.g. `manualWinner`).
- `scored` false: a result known by its winners only (BG Stats play without scores). Its totals are zeros that
  mean nothing: statistics count its games, wins and places, never its scores.
- `ignored` true: BG Stats excludes the play from its statistics; so does this app (kept, listed, not counted).
- `rounds`: how many rounds were played, when known only as a number (a match known by its final totals).
No Flet here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

KEY = "recorded"
"""The option under which a recorded result is kept."""


@dataclass(frozen=True)
class Recorded:
    """What another app recorded of a match's result (see the module's rules)."""

    places: tuple[int, ...] | None = None
    scored: bool = True
    ignored: bool = False
    rounds: int | None = None

    def to_option(self) -> dict[str, Any]:
        """The option's value: only what differs from an ordinary match."""
        value: dict[str, Any] = {}
        if self.places is not None:
            value["places"] = list(self.places)
        if not self.scored:
            value["scored"] = False
        if self.ignored:
            value["ignored"] = True
        if self.rounds is not None:
            value["rounds"] = self.rounds
        return value

    @property
    def winners(self) -> list[int]:
        return [seat for seat, place in enumerate(self.places or ()) if place == 1]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def recorded_of(options: Mapping[str, Any], seats: int) -> Recorded:
    """The recorded result kept in a match's options; an ordinary `Recorded()` when there is none or it cannot
    be read (a value of the wrong shape is ignored rather than refusing the match: the totals still score it)."""
    value = options.get(KEY)
    if not isinstance(value, dict):
        return Recorded()
    places = value.get("places")
    good_places = (
        isinstance(places, list)
        and len(places) == seats
        and all(_whole(p) and 1 <= p <= seats for p in places)
        and 1 in places
    )
    rounds = value.get("rounds")
    counted = rounds if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds >= 0 else None
    return Recorded(
        places=tuple(places) if good_places and isinstance(places, list) else None,
        scored=value.get("scored") is not False,
        ignored=value.get("ignored") is True,
        rounds=counted,
    )


def with_recorded(options: Mapping[str, Any], recorded: Recorded) -> dict[str, Any]:
    """`options` with `recorded` kept in them (left out when it says nothing)."""
    chosen = {key: value for key, value in options.items() if key != KEY}
    value = recorded.to_option()
    if value:
        chosen[KEY] = value
    return chosen


def places_from_winners(winners: Sequence[bool]) -> list[int]:
    """Places when only the winners are known: the winners first (sharing the place), everyone else next."""
    return [1 if won else 2 for won in winners]
