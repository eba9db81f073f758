"""Statistics of digital play: how each person does against each computer strength (no Flet, no files)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scorekeeper.store.saved_data import COMPUTER_PREFIX


def strength_of(player_id: str) -> str | None:
    """The strength of a computer player's id; None for a person."""
    if not player_id.startswith(COMPUTER_PREFIX):
        return None
    return player_id[len(COMPUTER_PREFIX) :].rsplit("-", 1)[0] or None


def lone_person(match: Any) -> int | None:
    """The seat of the one person in a digital match against computer players (None: several people, or a
    tracked match): the screens tell that person "You win!" instead of naming them."""
    if getattr(match, "mode", "tracked") != "digital":
        return None
    people = [seat for seat, player in enumerate(match.players) if strength_of(player) is None]
    return people[0] if len(people) == 1 else None


@dataclass(frozen=True)
class VersusComputer:
    """One person's finished digital games with at least one computer player of `strength`."""

    player: str
    name: str
    strength: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def against_computers(matches: Iterable[Any]) -> list[VersusComputer]:
    """Per person and computer strength met: games and wins (a shared first place counts as a win)."""
    tally: dict[tuple[str, str], list[Any]] = {}
    for match in matches:
        if getattr(match, "mode", "tracked") != "digital" or not match.is_over:
            continue
        winners = set(match.winners())
        strengths = {s for s in map(strength_of, match.players) if s is not None}
        for seat, player in enumerate(match.players):
            if strength_of(player) is not None:
                continue
            for strength in strengths:
                entry = tally.setdefault((player, strength), [match.names[seat], 0, 0])
                entry[0] = match.names[seat]
                entry[1] += 1
                entry[2] += seat in winners
    order = {"easy": 0, "normal": 1, "medium": 2, "hard": 3}
    rows = [VersusComputer(p, e[0], s, e[1], e[2]) for (p, s), e in tally.items()]
    return sorted(rows, key=lambda r: (r.name.casefold(), order.get(r.strength, 9)))
