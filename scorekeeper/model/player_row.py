"""The row of a match that player statistics read (`row_of`): what a match's summary lacks of it (each seat's
place, best round, longest run of bids made, teams, time played), a pure function of the match, kept in the
store's index beside the summary (`MatchSummary.stats`) so that statistics never open a match file; and reading
rows back from index entries (`rows_of`, `RowCache`).

In the model, below the store that keeps the row and the statistics (`scorekeeper.stats.players`) that count
over the rows. A summary without a current row (`ROW_VERSION`: written by an older version) is read from its
match once (`rows_of`'s `load`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekeeper.games.spec import find
from scorekeeper.model.playtime import last_heard

if TYPE_CHECKING:  # only the summary's row needs a match; nothing here builds one
    from scorekeeper.model.match import Match

ROW_VERSION = 2
"""The version of `row_of`'s shape: an index entry with an older one is made again from its match file."""


def row_of(match: Match) -> dict[str, Any] | None:
    """What player statistics need of a match beyond its summary, as JSON-safe data kept in the index:
    `places` (each seat's place in the standings), `best` (each seat's best round score; points games only),
    `bids` (each seat's longest run of bids made; games with bids), `teams` (partners), `seconds` (time played,
    where the clock was kept: a finished match's clock has stopped, so it is read once, not at every count). None
    for a match not begun; a match known by its final totals only (no rounds) has its places only."""
    if not match.rounds and not match.is_over:
        return None
    places = [0] * len(match.players)
    for line in match.standings():
        places[line.seat] = line.place
    row: dict[str, Any] = {"v": ROW_VERSION, "places": places}
    scores = match.round_scores()
    if scores and not match.chips:
        pick = min if match.lower_wins else max
        row["best"] = [pick(points[seat] for points in scores) for seat in range(len(places))]
    exact = match.spec.exact_bids
    if exact is not None and match.rounds:
        made = [exact(result) for result in match.rounds]
        row["bids"] = [longest_run(flags[seat] for flags in made) for seat in range(len(places))]
    if match.partners:
        row["teams"] = [list(team) for team in match.spec.teams]
    # A clock still running counts up to the match's last change here: the row is kept in the index, so it must be
    # a function of the match alone (an export and its import, or two devices, write the same row).
    seconds = match.seconds_played(last_heard(match.clock, match.updated)) if match.clock else None
    if seconds is not None:
        row["seconds"] = round(seconds)
    recorded = match.recorded
    if not recorded.scored:
        row["scored"] = False  # its totals are no scores: left out of every score figure
    if recorded.ignored:
        row["ignored"] = True  # BG Stats leaves it out of its statistics: so does this app
    return row


def current_row(row: Any) -> bool:
    """Whether `row` is a row this version wrote or can read (not older, not another shape)."""
    return isinstance(row, dict) and row.get("v") == ROW_VERSION and isinstance(row.get("places"), list)


def longest_run(flags: Iterable[bool]) -> int:
    """The longest run of consecutive true values."""
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One finished match as statistics read it."""

    id: str
    game: str
    created: str
    place: str
    seconds: float | None
    players: tuple[str, ...]
    names: tuple[str, ...]
    totals: tuple[int, ...]
    winners: frozenset[int]
    places: tuple[int, ...]
    best: tuple[int, ...] | None = None
    bids: tuple[int, ...] | None = None
    teams: tuple[tuple[int, ...], ...] | None = None
    scored: bool = True
    """False: a result known by its winners only (its totals are no scores)."""
    updated: str = ""
    """The match's last change (`stamps.change_stamp`): orders matches created in the same second (`started`)."""

    def started(self) -> tuple[str, str, str]:
        """The order of "started": `created` (to the second), then the last change, then the id."""
        return (self.created, self.updated, self.id)

    def side(self, seat: int) -> int:
        """The seat's team (partners) or the seat itself: two seats on one side are no opponents."""
        if self.teams:
            for number, team in enumerate(self.teams):
                if seat in team:
                    return -1 - number
        return seat


Entry = Mapping[str, Any]
"""A match's entry in the store's index (`MatchSummary.to_dict` plus its file's fingerprint): read as data, as
the store is a layer above."""


def _row(entry: Entry, data: Mapping[str, Any]) -> MatchRow:
    def seats(key: str) -> tuple[int, ...] | None:
        value = data.get(key)
        return tuple(value) if isinstance(value, list) else None

    teams, place, seconds = data.get("teams"), entry.get("place"), data.get("seconds")
    return MatchRow(
        id=entry["id"],
        game=entry["game"],
        created=entry["created"],
        updated=str(entry.get("updated") or ""),
        place=place.strip() if isinstance(place, str) else "",
        seconds=float(seconds)
        if isinstance(seconds, int | float) and not isinstance(seconds, bool)
        else None,
        players=tuple(entry["players"]),
        names=tuple(entry["names"]),
        totals=tuple(entry["totals"]),
        winners=frozenset(entry["winners"]),
        places=tuple(data["places"]),
        best=seats("best"),
        bids=seats("bids"),
        teams=tuple(tuple(team) for team in teams) if isinstance(teams, list) else None,
        scored=data.get("scored") is not False,
    )


def counted(entry: Entry) -> bool:
    """Whether a match counts in the statistics: finished by the rules, of a game this version scores."""
    return (
        entry.get("status") == "finished"
        and entry.get("is_over") is True
        and entry.get("newer") is not True
        and find(entry.get("game")) is not None
    )


def row_from(entry: Entry, load: Callable[[str], Match | None]) -> MatchRow | None:
    """A finished match's row from its index entry (None for one that does not count). An entry without a
    current row (an older version wrote it) is read from its match, `load(id)`; a match gone meanwhile: None."""
    if not counted(entry):
        return None
    data: dict[str, Any] | None = entry.get("stats")
    if not current_row(data):
        match = load(entry["id"])
        data = row_of(match) if match is not None else None
    if data is None or data.get("ignored") is True:
        return None
    return _row(entry, data)


def rows_of(entries: Iterable[Entry], load: Callable[[str], Match | None]) -> list[MatchRow]:
    """The finished matches among the index `entries` as rows, oldest start first (`row_from`)."""
    rows = [row for row in (row_from(entry, load) for entry in entries) if row is not None]
    rows.sort(key=MatchRow.started)
    return rows


class RowCache:
    """Rows kept between calls, each under its entry's id, version, change time and file fingerprint: a figure
    asked again after one game was saved reads one new entry, not 10,000 (one pass, `bench store`'s
    `stats_10k_ms`)."""

    def __init__(self) -> None:
        self._rows: dict[tuple[Any, ...], MatchRow | None] = {}
        self._sorted: tuple[frozenset[tuple[Any, ...]], list[MatchRow]] | None = None

    def rows(self, entries: Iterable[Entry], load: Callable[[str], Match | None]) -> list[MatchRow]:
        """`rows_of(entries, load)`, from the cache where an entry is unchanged."""
        kept: dict[tuple[Any, ...], MatchRow | None] = {}
        for entry in entries:
            key = (entry.get("id"), entry.get("version"), entry.get("updated"), repr(entry.get("file")))
            kept[key] = self._rows[key] if key in self._rows else row_from(entry, load)
        self._rows = kept
        keys = frozenset(kept)
        if self._sorted is None or self._sorted[0] != keys:
            rows = [row for row in kept.values() if row is not None]
            rows.sort(key=MatchRow.started)
            self._sorted = (keys, rows)
        return self._sorted[1]
