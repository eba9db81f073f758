"""Game nights: the matches of one evening, grouped, and a combined ranking over them.

**Which matches are one night.** Each match is in exactly one night.

- Grouped by place and time (a match whose `night` is ""): matches at the same place (the place's text without
  surrounding spaces and case; a match with no place groups only with others that have none), each starting at
  most `GAP` (4 hours) after the end of the night's match that ended last. A match starts at the first span of
  its clock (`Match.clock`, `scorekeeper.model.playtime`), or when it was created; it ends at the last end of its
  clock, or when it was last changed (`updated`) but at most `LONGEST` (6 hours) after its start, because a
  note added the next morning moves `updated` and must not stretch the evening. A clock still running ends at
  the last thing that happened (`playtime.last_heard`: its last change), never at "now": a game left open
  overnight does not stretch its night to the morning (and a change after `playtime.IDLE` of silence stops the
  clock there first, `playtime.settled`).
- Chosen by hand (`Match.night`, one small field): another match's id puts the match into that match's night
  (whatever night that is, also one chosen by hand); `ALONE` takes it out of the night it was grouped into (it
  is a night of its own, with the matches put into it by hand). A match chosen by hand never joins a night by
  place and time, nor stretches one. A link to a match that no longer exists counts as no choice.

The grouping depends only on the set of matches, not on their order. It reads only what the store's index
holds
(`MatchSummary`: created, updated, place, clock, night), so it is one pass and a sort over 10,000 matches.

**The combined ranking** (`ranking`), fair across games with different numbers of players and lower or higher
scores winning: in each finished match a player scores one point for every other player they finished ahead of
and half a point for every one they tied with (the places of `Match.standings`, partners with their team's
place). So in a match of n players the winner scores n - 1, the last 0, and tied places share their points
(places 1, 1, 3 of three: 1.5, 1.5, 0). The night's points are the sum. Players are ordered by points, then by
wins (first places), then by fewer matches played (the same points from fewer games); equal in all three they
share the place. Matches not finished (in progress, abandoned) are listed but count for no one.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from scorekeeper.model.playtime import last_heard, moment_of

GAP = timedelta(hours=4)
"""The longest break between two matches of one night (from the end of one to the start of the next)."""
LONGEST = timedelta(hours=6)
"""How far after its start a match without a clock may be taken to end (its last change may be days later)."""
ALONE = "-"
"""`Match.night` of a match taken out of its night by hand."""


class NightFields(Protocol):
    """What grouping reads of a match: a `Match` or a `MatchSummary` (the index) both have it."""

    @property
    def id(self) -> str: ...
    @property
    def created(self) -> str: ...
    @property
    def updated(self) -> str: ...
    @property
    def place(self) -> str: ...
    @property
    def clock(self) -> Sequence[Any]: ...
    @property
    def night(self) -> str: ...


@dataclass(frozen=True)
class Span:
    """When one match was played, for grouping."""

    id: str
    place: str
    start: datetime
    end: datetime
    seconds: float | None = None
    """Time played by its clock (None: no clock)."""


@dataclass(frozen=True)
class Night:
    """One game night: its matches' ids, earliest start first, its places (each once, in that order), its start
    and end, and the seconds played where any match's clock knows them (None: not known)."""

    ids: tuple[str, ...]
    places: tuple[str, ...]
    start: datetime
    end: datetime
    seconds: float | None

    @property
    def key(self) -> str:
        """The night's name in a route: the id of its first match."""
        return self.ids[0]


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def span_of(match: NightFields) -> Span:
    """When `match` was played (module docstring). A match without a readable time starts and ends at 1970."""
    starts: list[datetime] = []
    ends: list[datetime] = []
    # the spans read here as in `playtime.played_seconds`, once: grouping 10,000 matches reads 10,000 clocks
    clock = match.clock if isinstance(match.clock, list | tuple) else ()
    heard = last_heard(clock, match.updated) if clock else None  # a running clock: its last change
    for item in clock:
        if isinstance(item, list | tuple) and len(item) == 2:
            start, end = moment_of(item[0]), moment_of(item[1])
            if start is not None:
                starts.append(start)
                if end is None and item is clock[-1] and heard is not None:
                    end = heard
                ends.append(end if end is not None and end >= start else start)
    if starts:
        seconds = sum((end - start).total_seconds() for start, end in zip(starts, ends, strict=True))
        return Span(match.id, match.place, min(starts), max(ends), seconds)
    start = moment_of(match.created) or _EPOCH
    updated = moment_of(match.updated) or start
    return Span(match.id, match.place, start, min(max(updated, start), start + LONGEST))


def place_key(place: str) -> str:
    """Places that are one place: the same text but for surrounding spaces and case."""
    return place.strip().casefold()


class _Groups:
    """Union-find over match ids: which matches ended up in one night."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.parent = {i: i for i in ids}

    def find(self, item: str) -> str:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:  # shorten the path for the next look-up
            self.parent[item], item = root, self.parent[item]
        return root

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)  # the same root whichever order they are joined in


def group(matches: Iterable[NightFields]) -> list[Night]:
    """Every match in exactly one night (module docstring); the nights latest first."""
    items = list(matches)
    spans = {m.id: span_of(m) for m in items}
    choice = {m.id: (m.night if isinstance(m.night, str) else "") for m in items}
    groups = _Groups(spans)
    auto = sorted(
        (
            s
            for s in spans.values()
            if choice[s.id] == "" or (choice[s.id] != ALONE and choice[s.id] not in spans)
        ),
        key=lambda s: (s.start, s.id),
    )
    latest: dict[str, tuple[str, datetime]] = {}  # place -> (a match of its current night, that night's end)
    for span in auto:
        key = place_key(span.place)
        current = latest.get(key)
        if current is not None and span.start - current[1] <= GAP:
            groups.join(current[0], span.id)
            latest[key] = (current[0], max(current[1], span.end))
        else:
            latest[key] = (span.id, span.end)
    for match_id, chosen in choice.items():
        if chosen not in ("", ALONE) and chosen in spans:
            groups.join(match_id, chosen)
    members: dict[str, list[Span]] = {}
    for span in spans.values():
        members.setdefault(groups.find(span.id), []).append(span)
    nights = [_night(sorted(found, key=lambda s: (s.start, s.id))) for found in members.values()]
    return sorted(nights, key=lambda n: (n.start, n.key), reverse=True)


def _night(spans: list[Span]) -> Night:
    places: dict[str, str] = {}
    for span in spans:
        if span.place.strip():
            places.setdefault(place_key(span.place), span.place.strip())
    known = [span.seconds for span in spans if span.seconds is not None]
    return Night(
        ids=tuple(s.id for s in spans),
        places=tuple(places.values()),
        start=spans[0].start,
        end=max(s.end for s in spans),
        seconds=sum(known) if known else None,
    )


class Grouped:
    """The nights of the last list of matches grouped, kept while the same list object comes again (the store's
    pages cache hands out one list while the index is unchanged): a screen drawn again, or another session's,
    groups 10,000 matches once."""

    def __init__(self) -> None:
        self._last: tuple[object, list[Night]] | None = None
        self._lock = threading.Lock()

    def __call__(self, matches: Sequence[NightFields]) -> list[Night]:
        with self._lock:
            if self._last is not None and self._last[0] is matches:
                return self._last[1]
        nights = group(matches)
        with self._lock:
            self._last = (matches, nights)  # the list itself is kept, so its identity is not reused
        return nights


def night_of(nights: Iterable[Night], match_id: str) -> Night | None:
    """The night that holds `match_id` (None: no such match)."""
    return next((night for night in nights if match_id in night.ids), None)


def joined(match_id: str, night: Night) -> str:
    """`Match.night` that puts a match into `night` by hand: the id of the night's first other match ("" when
    the match is the night's only one: nothing to join)."""
    return next((i for i in night.ids if i != match_id), "")


def taken_out(match_id: str, night: Night, choices: dict[str, str]) -> dict[str, str]:
    """The `Match.night` changes that take `match_id` out of `night` by hand (`choices`: each member's current
    `night`): it becomes `ALONE`, and a member that had been put into the night with it as the link is linked
    to the night's first match that stays instead (one not linked to it), so it stays in the night."""
    rest = [i for i in night.ids if i != match_id]
    stays = [i for i in rest if choices.get(i) != match_id]  # in the night without the match's link
    anchor = stays[0] if stays else rest[0] if rest else ""
    changes = {match_id: ALONE}
    for member in rest:
        if choices.get(member) == match_id:
            changes[member] = anchor if anchor != member else ALONE
    return changes


# ---------------------------------------------------------------------------------------------- the ranking
@dataclass(frozen=True)
class Result:
    """One finished match as the ranking reads it: per seat the player (id), name and place (1 best, equal
    places tied)."""

    players: Sequence[str]
    names: Sequence[str]
    places: Sequence[int]


@dataclass(frozen=True)
class Row:
    """One line of a night's ranking."""

    player: str
    name: str
    points: float
    wins: int
    matches: int
    place: int = 0


def rank_points(places: Sequence[int]) -> list[float]:
    """Per seat: one point for each other seat with a worse place, half a point for each with the same."""
    return [
        sum(
            1.0 if other > mine else 0.5 if other == mine else 0.0 for j, other in enumerate(places) if j != i
        )
        for i, mine in enumerate(places)
    ]


def ranking(results: Iterable[Result]) -> list[Row]:
    """The night's combined ranking (module docstring), best first. A player's name is the one of their last
    match in `results` (a renamed player is listed once)."""
    totals: dict[str, Row] = {}
    for result in results:
        for seat, points in enumerate(rank_points(result.places)):
            player = result.players[seat]
            was = totals.get(player, Row(player, "", 0.0, 0, 0))
            won = 1 if result.places[seat] == 1 else 0
            totals[player] = Row(
                player, result.names[seat], was.points + points, was.wins + won, was.matches + 1
            )
    rows = sorted(totals.values(), key=lambda r: (-r.points, -r.wins, r.matches, r.name.casefold(), r.player))
    placed: list[Row] = []
    for i, row in enumerate(rows):
        before = placed[-1] if placed else None
        same = before is not None and (before.points, before.wins, before.matches) == (
            row.points,
            row.wins,
            row.matches,
        )
        place = before.place if before is not None and same else i + 1
        placed.append(dataclasses.replace(row, place=place))
    return placed
