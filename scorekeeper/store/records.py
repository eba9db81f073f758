"""The records the store hands out besides matches: players, match summaries and saved digital games."""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.model.player_row import row_of
from scorekeeper.model.stamps import now_iso
from scorekeeper.store.saved_data import check_saved_game


class Record:
    """A stored record: a dataclass of JSON-safe fields."""

    def to_dict(self: Any) -> dict[str, Any]:  # Any: every record is a dataclass
        """Plain JSON-safe data; the record's `from_dict` reads it back."""
        return asdict(self)


@dataclass(frozen=True)
class Player(Record):
    """A person who plays at the table. Archived players are hidden from pickers but kept for history."""

    id: str
    name: str
    colour: str = ""
    archived: bool = False
    created: str = ""

    @classmethod
    def from_dict(cls, data: Any) -> Player:
        """A player from stored or imported data; RuleError (a ValueError) on a wrong shape."""
        if not isinstance(data, dict):
            raise RuleError("a player must be an object")
        if not isinstance(data.get("id"), str) or not isinstance(data.get("name"), str):
            raise RuleError("a player needs an id and a name")
        colour, archived, created = (
            data.get("colour", ""),
            data.get("archived", False),
            data.get("created", ""),
        )
        if not isinstance(colour, str) or not isinstance(archived, bool) or not isinstance(created, str):
            raise RuleError(
                "player '{name}' has a wrong colour, archived or created field", name=data["name"]
            )
        return cls(data["id"], data["name"], colour, archived, created)


_SUMMARY_ONLY_WHEN_SET = ("conflict", "newer", "place", "clock", "night", "photo", "stats")
"""Summary fields an index entry may lack (written by a version before them, or left out while unset)."""


@dataclass(frozen=True)
class MatchSummary(Record):
    """What a match list shows, kept in the index so listing never reads the match files."""

    id: str
    game: str
    mode: str
    status: str
    players: list[str]
    names: list[str]
    created: str
    updated: str
    version: int
    rounds: int
    totals: list[int]
    winners: list[int]
    is_over: bool
    conflict: bool = False
    """Another device changed this match differently (see `Store.conflicts`); set by `Store.list_matches`."""
    newer: bool = False
    """Made by a newer version of the app (a game this version does not know, or a newer file): kept as it is,
    listed read-only, without totals (`of_newer`). In the index only when set."""
    place: str = ""
    """Where it was played (`Match.place`): the history shows it and `Store.places` counts it without reading a
    match file. In the index only when set."""
    clock: list[Any] = field(default_factory=list)
    """Its time played (`Match.clock`, `scorekeeper.model.playtime`), for the history's duration. Only when set."""
    night: str = ""
    """Its game night chosen by hand (`Match.night`), so `scorekeeper.stats.game_nights` groups from the index. Only
    when set."""
    photo: str = ""
    """Its first photo's id (`Match.photos`), for the history's thumbnail. Only when set."""
    stats: dict[str, Any] | None = None
    """What player statistics need beyond the rest (`player_row.row_of`: places, best rounds, bids made in a
    row), so they are read from the index alone. Only once the match has begun."""

    @classmethod
    def of(cls, match: Match | MatchSummary) -> MatchSummary:
        """What the list shows of `match` (a summary already, of a match a newer version made: itself)."""
        if isinstance(match, MatchSummary):
            return match
        return cls(
            id=match.id,
            game=match.game,
            mode=match.mode,
            status=match.status,
            players=list(match.players),
            names=list(match.names),
            created=match.created,
            updated=match.updated,
            version=match.version,
            rounds=len(match.rounds),
            totals=match.totals(),
            winners=match.winners(),
            is_over=match.is_over,
            place=match.place,
            clock=list(match.clock),
            night=match.night,
            photo=match.photos[0] if match.photos and isinstance(match.photos[0], str) else "",
            stats=row_of(match),
        )

    @classmethod
    def of_newer(cls, match_id: str, data: Any) -> MatchSummary:
        """The summary of a match made by a newer version, from whatever of its record reads (`data` may be
        anything a newer file holds): its game, people, dates and number of rounds; no totals or winners,
        which only the version that made it can score."""
        record = data if isinstance(data, dict) else {}

        def text(key: str, default: str = "") -> str:
            value = record.get(key)
            return value if isinstance(value, str) else default

        def texts(key: str) -> list[str]:
            value = record.get(key)
            return [str(item) for item in value] if isinstance(value, list) else []

        version, rounds = record.get("version"), record.get("rounds")
        status = text("status", "finished")
        return cls(
            id=match_id,
            game=text("game"),
            mode=text("mode", "tracked"),
            status=status,
            players=texts("players"),
            names=texts("names"),
            created=text("created"),
            updated=text("updated") or text("created"),
            version=version if isinstance(version, int) and not isinstance(version, bool) else 0,
            rounds=len(rounds) if isinstance(rounds, list) else 0,
            totals=[],
            winners=[],
            is_over=status == "finished",
            newer=True,
        )

    def at_version(self, version: int, updated: str | None = None) -> MatchSummary:
        """This summary of a match stored at `version` (and `updated`, when given), as `Match.at_version`."""
        return replace(self, version=version, updated=self.updated if updated is None else updated)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchSummary:
        values = {name: data[name] for name in cls.__dataclass_fields__ if name not in _SUMMARY_ONLY_WHEN_SET}
        place, clock = data.get("place", ""), data.get("clock", [])
        return cls(
            **values,
            newer=data.get("newer") is True,
            place=place if isinstance(place, str) else "",
            clock=clock if isinstance(clock, list) else [],
            night=data["night"] if isinstance(data.get("night"), str) else "",
            photo=data["photo"] if isinstance(data.get("photo"), str) else "",
            stats=data["stats"] if isinstance(data.get("stats"), dict) else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """As kept in the index (the conflict flag is not: it lives with the conflict; `newer` only when
        set, so an ordinary entry is written as before)."""
        data = super().to_dict()
        del data["conflict"]
        for name in (
            "newer",
            "place",
            "clock",
            "night",
            "photo",
            "stats",
        ):  # only when set: an entry without them is written as before
            if not data[name]:
                del data[name]
        return data


@dataclass
class SavedGame(Record):
    """A digital game in progress: enough to rebuild it exactly (`replay(options, seed, log)`).

    `data` holds whatever else the play session needs (seats, bots, dealer, round number); it must be
    JSON-safe. `version` works like a match's: the store bumps it and refuses stale saves."""

    game: str
    options: dict[str, Any]
    seed: int
    log: list[Any] = field(default_factory=list)
    match_id: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    version: int = 0
    created: str = field(default_factory=now_iso)
    updated: str = field(default_factory=now_iso)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)
    """Fields a newer version wrote that this one does not know: kept, and written back at the top level
    (docs/DATA.md, "Newer data")."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data, as stored: the fields, then the ones of a newer version kept in `extra`."""
        data = asdict(self)
        extra = data.pop("extra")
        return {**data, **{key: value for key, value in extra.items() if key not in data}}

    @property
    def table_code(self) -> str | None:
        """The join code of the live table this game is played at (its seats play on their own phones), or
        None for a game played on one device."""
        table = self.data.get("table")
        code = table.get("code") if isinstance(table, dict) else None
        return code if isinstance(code, str) else None

    @classmethod
    def new(
        cls,
        game: str,
        options: dict[str, Any],
        seed: int,
        *,
        log: list[Any] | None = None,
        match_id: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> SavedGame:
        return cls(game, dict(options), seed, list(log or []), match_id, dict(data or {}))

    @classmethod
    def from_dict(cls, data: Any) -> SavedGame:
        """A saved game from stored or imported data; RuleError (a ValueError) on a wrong shape."""
        if not isinstance(data, dict):
            raise RuleError("a saved game must be an object")
        types: dict[str, tuple[type, ...]] = {
            "game": (str,),
            "options": (dict,),
            "seed": (int,),
            "log": (list,),
            "match_id": (str, type(None)),
            "data": (dict,),
            "id": (str,),
            "version": (int,),
            "created": (str,),
            "updated": (str,),
        }
        for key in ("game", "options", "seed", "id"):
            if key not in data:
                raise RuleError("a saved game lacks its {field}", field=key)
        for key, kinds in types.items():
            value = data.get(key)
            if key in data and (not isinstance(value, kinds) or isinstance(value, bool)):
                raise RuleError("a saved game's {field} has the wrong type", field=key)
        # As deep as a match: what the app reads of `data` (seats, round, ...) has its shape, the options
        # can be read, so no screen meets a bad field later.
        check_saved_game(data["game"], data["options"], data.get("data", {}))
        known = {key: value for key, value in data.items() if key in types}
        return cls(**known, extra={key: value for key, value in data.items() if key not in types})
