"""Match lists a page at a time, for screens that must paint as fast with 10,000 games as with none.

Everything here works on the index (`Store.list_matches`: one summary per match, filters applied there), never
on loaded match files; a screen then builds controls for one page only. Only the public Store API is used.
Lists are most recently played first: a digital match by its saved game's last save when that is later
(`Store.last_played`), as its own change moves only when a round ends.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from scorekeeper.store.records import MatchSummary

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store.repo import Store

PAGE_SIZE = 15  # history: three phone screens of finished games; "Show more" adds the next 15
HOME_PAGE_SIZE = 5  # games in progress: about a phone screen of cards, so "New game" stays near

# The sorted, filtered lists of recent calls, valid while the index files and the last plays are unchanged (all
# sessions of the process share one store, and most paint the same lists): listing 10,000 games is then a few
# stat calls.
_CACHE_SIZE = 16
_cache: OrderedDict[tuple[Any, ...], tuple[Any, list[MatchSummary]]] = OrderedDict()
_cache_lock = threading.Lock()


def _index_state(store: Store) -> tuple[tuple[str, int, int, int], ...] | None:
    """The stat fingerprints of the index files, or None where the store has no index folder to watch."""
    folder = getattr(getattr(store, "layout", None), "index", None)
    if folder is None:
        return None
    try:
        with os.scandir(folder) as entries:
            return tuple(
                sorted(
                    (entry.name, stat.st_ino, stat.st_size, stat.st_mtime_ns)
                    for entry in entries
                    for stat in (entry.stat(),)
                )
            )
    except OSError:
        return None


def _listed(store: Store, status: str | None, game: str | None, player: str | None) -> list[MatchSummary]:
    state = _index_state(store)
    played = store.last_played()
    if state is None:
        return _by_last_play(store.list_matches(status=status, game=game, player=player), played)
    key = (id(store), str(getattr(store, "data_dir", "")), status, game, player)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None and cached[0] == (state, played):
            _cache.move_to_end(key)
            return cached[1]
    rows = _by_last_play(store.list_matches(status=status, game=game, player=player), played)
    if _index_state(store) == state:  # unchanged while listing: safe to keep
        with _cache_lock:
            _cache[key] = ((state, played), rows)
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return rows


def every_match(store: Store) -> list[MatchSummary]:
    """Every stored match's summary, most recently played first: the same list object for as long as the index
    and the last plays are unchanged (the cache above), so a screen may keep what it derived from it (the game
    nights) and know it is still right by `is`."""
    return _listed(store, None, None, None)


def _by_last_play(rows: list[MatchSummary], played: dict[str, str]) -> list[MatchSummary]:
    """`rows` most recently played first, each row's `updated` being when it was last played: for a digital
    match the later of its own change and its game's last save (`Store.last_played`: a digital match changes
    only when a round ends, its game at every move), for any other its change; ties as `Store.list_matches`
    breaks them. Stamps compare as text (`stamps.py`). The list's dates then say what its order says."""
    if not played:
        return rows
    latest = [replace(s, updated=played[s.id]) if played.get(s.id, "") > s.updated else s for s in rows]
    return sorted(latest, key=lambda s: (s.updated, s.created, s.id), reverse=True)


T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a list: `items` from position `offset`, out of `total` items."""

    items: list[T]
    total: int
    offset: int

    @property
    def remaining(self) -> int:
        """How many items come after this page."""
        return max(0, self.total - self.offset - len(self.items))


def page_of(rows: Sequence[T], *, offset: int = 0, limit: int = PAGE_SIZE) -> Page[T]:
    """At most `limit` of `rows` from `offset` on (a negative offset counts as 0), with how many there are: the
    one paging of every list (matches here, home's digital games from the saved games)."""
    offset = max(0, offset)
    return Page(items=list(rows[offset : offset + max(0, limit)]), total=len(rows), offset=offset)


def page_of_matches(
    store: Store,
    *,
    status: str | None = None,
    game: str | None = None,
    player: str | None = None,
    mode: str | None = None,
    offset: int = 0,
    limit: int = PAGE_SIZE,
) -> Page[MatchSummary]:
    """The matches with these exact values (None: any), most recently played first (`_by_last_play`), from
    `offset` on, at most `limit` of them."""
    rows = _listed(store, status, game, player)
    if mode is not None:
        rows = [summary for summary in rows if summary.mode == mode]
    return page_of(rows, offset=offset, limit=limit)


# players_of's answer per listed rows (kept with them: the list's identity stands for the index state it came
# from): going through 10,000 summaries was most of the time the history took to build.
_people: OrderedDict[int, tuple[list[MatchSummary], dict[str, str]]] = OrderedDict()


def players_of(store: Store, *, status: str | None = None) -> dict[str, str]:
    """Player id -> name for everyone in a match of `status`, named as in their most recent match."""
    rows = _listed(store, status, None, None)
    with _cache_lock:
        known = _people.get(id(rows))
        if known is not None and known[0] is rows:
            return dict(known[1])
    people: dict[str, str] = {}
    for summary in rows:
        for player_id, name in zip(summary.players, summary.names, strict=False):
            people.setdefault(player_id, name)
    with _cache_lock:
        _people[id(rows)] = (rows, people)
        while len(_people) > _CACHE_SIZE:
            _people.popitem(last=False)
    return dict(people)
