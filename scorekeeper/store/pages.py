"""Match lists a page at a time, for screens that must paint as fast with 10,000 games as with none.

Everything here works on the index (`Store.list_matches`: one summary per match, filters applied there), never
on loaded match files; a screen then builds controls for one page only. Only the public Store API is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.store.records import MatchSummary

PAGE_SIZE = 30


@dataclass(frozen=True)
class MatchPage:
    """One page of a match list: `items` from position `offset`, out of `total` matching games."""

    items: list[MatchSummary]
    total: int
    offset: int

    @property
    def remaining(self) -> int:
        """How many matching games come after this page."""
        return max(0, self.total - self.offset - len(self.items))


def page_of_matches(
    store: Any,
    *,
    status: str | None = None,
    game: str | None = None,
    player: str | None = None,
    mode: str | None = None,
    offset: int = 0,
    limit: int = PAGE_SIZE,
) -> MatchPage:
    """The matches with these exact values (None: any), most recently changed first, from `offset` on, at
    most `limit` of them."""
    rows = store.list_matches(status=status, game=game, player=player)
    if mode is not None:
        rows = [summary for summary in rows if summary.mode == mode]
    offset = max(0, offset)
    return MatchPage(items=rows[offset : offset + max(0, limit)], total=len(rows), offset=offset)


def players_of(store: Any, *, status: str | None = None) -> dict[str, str]:
    """Player id -> name for everyone in a match of `status`, named as in their most recent match."""
    people: dict[str, str] = {}
    for summary in store.list_matches(status=status):
        for player_id, name in zip(summary.players, summary.names, strict=False):
            people.setdefault(player_id, name)
    return people
