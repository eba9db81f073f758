"""Shared builders for the store tests (holds no tests itself)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from scorekeeper.match import Match
from scorekeeper.store import Store


def rz_round(rng: random.Random | None = None, seats: int = 3) -> dict[str, Any]:
    """A valid Ruck Zuck round: one seat went out, the others typed their penalty totals."""
    rng = rng or random.Random(1)
    out = rng.randrange(seats)
    return {"hands": [0 if seat == out else rng.randrange(1, 60) for seat in range(seats)], "out": out}


def new_match(store: Store | None = None, rounds: int = 0, planned: int = 50, seed: int = 1) -> Match:
    rng = random.Random(seed)
    if store is not None:
        existing = {p.name: p for p in store.list_players()}
        people = [existing.get(n) or store.add_player(n) for n in ("Anna", "Ben", "Cleo")]
        ids, names = [p.id for p in people], [p.name for p in people]
    else:
        ids, names = ["p-anna", "p-ben", "p-cleo"], ["Anna", "Ben", "Cleo"]
    match = Match.new("ruckzuck", {"rounds": planned}, ids, names=names)
    for _ in range(rounds):
        match.add_round(rz_round(rng))
    return match


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (to prove nothing was touched)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
