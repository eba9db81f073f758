"""A match as stored data (`Match.to_dict`): the one declaration of the match record, and the checks a loaded
one passes before it is rebuilt. A file written by another version, or edited by hand, is refused with a
sentence that says what is wrong rather than with a Python error.

`FIELDS` is the only list of a match's fields. The `Match` dataclass has the same fields in the same order (a
test checks it), and everything else that names them is made from it: the check of saved data
(`check_saved`), `Match.to_dict` / `from_dict` (`record` and `split`), the import's writer in
`exchange/transfer.py` (`record`), the match's columns of the CSV export (`CSV_FIELDS`) and the fields a sync
conflict names when they differ (`differing`). Adding a field to a match is one line here, one in `Match`, and
its screen (docs/ARCHITECTURE.md, "Add a field to a match").

Forward compatibility (docs/DATA.md, "Newer data"): a field this version does not know is no damage. It is
kept beside the known ones (`Match.extra`) and written back unchanged, at the top level where it was.

This is the first half of "can be read and scored" (docs/DATA.md); the options and the rounds are the second
(`GameSpec.stored_options`, `tally.readable_scores`). Neither judges stored data by rules tightened since it
was saved: that is only for what is entered now (`tally.follows_rules`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from scorekeeper.games.base import N_, RuleError
from scorekeeper.games.spec import find
from scorekeeper.model.playtime import played_seconds

ROUNDS = "rounds"
"""How sync merges a field: by round position (a round changed on one side only takes that side's value)."""
VALUE = "value"
"""How sync merges a field: as one value, three-way against the common ancestor (changed on both: conflict)."""
LOCAL = "local"
"""Not merged: each device keeps its own (the edit counter and time, `sync.versions.UNSYNCED`)."""


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()
"""A field's `default` when it has none (a required field, or one `Match` makes anew, such as the id)."""


@dataclass(frozen=True)
class CsvColumn:
    """A match field's column in the CSV export: its header, its place among the match's columns, and how the
    stored value is written (the start day of `created`, the title of `game`)."""

    header: str
    position: int
    cell: Callable[[Any], Any] = lambda value: value
    after_round: bool = False
    """After the round's columns: a column added later goes at the end, so a spreadsheet made from an older
    export finds every earlier column where it was."""
    whole: bool = False
    """`cell` is given the whole stored record, not only the field's value (a cell that needs another field)."""


@dataclass(frozen=True)
class Field:
    """One field of the match record.

    - `kind`: its type in the stored JSON (a bool is no whole number).
    - `default` / `factory`: what a record without it has (`NO_DEFAULT` and None: the record needs it).
    - `only_when_set`: `to_dict` writes it only when it differs from its default, so a match that does not
      use a field added later is written as an older version wrote it (and read by one exactly as before).
    - `csv`: its column in the CSV export, if it has one.
    - `merge`: how sync merges two versions of it (`ROUNDS`, `VALUE` or `LOCAL`).
    - `summary`: how a sync conflict names it when the two versions differ in it (None: not named; the
      rounds and totals are shown anyway)."""

    name: str
    kind: type
    default: Any = NO_DEFAULT
    factory: Callable[[], Any] | None = None
    only_when_set: bool = False
    csv: CsvColumn | None = None
    merge: str = VALUE
    summary: str | None = None

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT and self.factory is None

    def default_value(self) -> Any:
        return self.factory() if self.factory is not None else self.default


def _title(key: Any) -> Any:
    game = find(key)
    return str(game.title) if game is not None else key


def _minutes_cell(values: Mapping[str, Any]) -> Any:
    """The minutes played: a clock left running counts up to the last change of the match once it is idle."""
    seconds = played_seconds(values.get("clock") or [], heard=values.get("updated"))
    return "" if seconds is None else round(seconds / 60)


FIELDS: tuple[Field, ...] = (
    Field("game", str, csv=CsvColumn("game", 2, _title)),
    Field("options", dict, summary=N_("options")),
    Field("players", list, summary=N_("seats")),
    Field("names", list, summary=N_("names")),
    Field("first_dealer", int, 0, summary=N_("first dealer")),
    Field("rounds", list, factory=list, merge=ROUNDS),
    Field("id", str, csv=CsvColumn("match_id", 0)),  # Match makes a new one when none is given
    Field("version", int, 0, merge=LOCAL),
    Field("status", str, "active", csv=CsvColumn("status", 4), summary=N_("status")),
    Field("mode", str, "tracked", csv=CsvColumn("mode", 3)),
    Field("created", str, csv=CsvColumn("started", 1, lambda value: value[:10])),  # Match: now
    Field("updated", str, merge=LOCAL),  # Match: now
    # The evening around the game (written only when set, so a match without them is stored as before):
    Field(
        "notes", str, "", only_when_set=True, csv=CsvColumn("notes", 5, after_round=True), summary=N_("notes")
    ),
    Field(
        "place", str, "", only_when_set=True, csv=CsvColumn("place", 6, after_round=True), summary=N_("place")
    ),
    Field("photos", list, factory=list, only_when_set=True, summary=N_("photos")),  # photo ids (store/photos)
    Field(
        "clock",
        list,
        factory=list,
        only_when_set=True,
        csv=CsvColumn("minutes_played", 7, _minutes_cell, after_round=True, whole=True),
        summary=N_("time played"),
    ),  # [[start, end or null], ...]: the spans of play, a pause between two (scorekeeper.model.playtime)
    Field("final_totals", list, factory=list, only_when_set=True, summary=N_("totals")),  # rounds unknown
    Field("night", str, "", only_when_set=True, summary=N_("game night")),  # a hand-made choice (game_nights)
)
"""The match record, in the order of the `Match` dataclass. `id`, `created` and `updated` have no default
here: `Match` makes a fresh one, which is not something a stored record may lack and be read the same."""

BY_NAME: Mapping[str, Field] = {field.name: field for field in FIELDS}
NAMES = frozenset(BY_NAME)
REQUIRED = ("game", "options", "players", "names")
"""What a saved match cannot do without (the other fields have defaults)."""
CSV_FIELDS: tuple[Field, ...] = tuple(
    sorted((field for field in FIELDS if field.csv is not None), key=lambda f: f.csv.position if f.csv else 0)
)
"""The match's own columns of the CSV export, in their order (the round's columns follow them, then those
declared `after_round`)."""
EXTRA_SUMMARY = N_("fields of a newer version")
"""How a conflict names fields this version does not know (`Match.extra`) when the two versions differ in them."""


def check_saved(data: Any) -> None:
    """RuleError unless `data` is a saved match's data: an object with the required fields, every known field
    of its type (a bool is no whole number) and the players and names text. A field this version does not
    know is no error: it is kept (`split`). The rules check the options and the rounds when the match is
    rebuilt."""
    if not isinstance(data, dict):
        raise RuleError("A saved game must be an object with its game, players and rounds.")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise RuleError("A saved game lacks {fields}.", fields=", ".join(missing))
    for field in FIELDS:
        value = data.get(field.name)
        kind = field.kind
        if field.name in data and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise RuleError("A saved game's {field} has the wrong type.", field=field.name)
    if not all(isinstance(p, str) for p in [*data["players"], *data["names"]]):
        raise RuleError("A saved game's players and names must be text.")


def split(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A stored record as (its known fields, the fields this version does not know), each as stored."""
    known = {key: value for key, value in data.items() if key in NAMES}
    extra = {key: value for key, value in data.items() if key not in NAMES}
    return known, extra


def record(values: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The stored record of a match whose known fields are `values` (by name) and whose unknown ones are
    `extra`: the known fields in declaration order (one left out while it has its default when the
    declaration says `only_when_set`), then the unknown ones as they came. A shallow copy: the values are the
    match's own (a caller that changes them copies first). A field written only when set may be missing from
    `values` (a record written without it)."""
    written = {
        field.name: values[field.name]
        for field in FIELDS
        if not (
            field.only_when_set and values.get(field.name, field.default_value()) == field.default_value()
        )
    }
    for key, value in extra.items():
        written.setdefault(key, value)  # a known name is never overwritten by an unknown field
    return written


def differing(left: Mapping[str, Any], right: Mapping[str, Any]) -> list[str]:
    """The summaries (message ids, `Field.summary`) of the fields in which two stored versions of a match
    differ, in declaration order; `EXTRA_SUMMARY` last when they differ in fields this version does not know."""
    named = [
        field.summary
        for field in FIELDS
        if field.summary is not None and left.get(field.name) != right.get(field.name)
    ]
    if split(left)[1] != split(right)[1]:
        named.append(EXTRA_SUMMARY)
    return named


def csv_headers(after_round: bool = False) -> tuple[str, ...]:
    """The headers of the match's own columns before the round's columns (or after them)."""
    return tuple(f.csv.header for f in CSV_FIELDS if f.csv is not None and f.csv.after_round is after_round)


def csv_cells(values: Mapping[str, Any], after_round: bool = False) -> list[Any]:
    """The match's own cells of a CSV row before the round's cells (or after them), from its stored values (a
    field written only when set has its default where the record leaves it out)."""
    return [
        field.csv.cell(values if field.csv.whole else values.get(field.name, field.default_value()))
        for field in CSV_FIELDS
        if field.csv is not None and field.csv.after_round is after_round
    ]


def made_by_newer(data: Any) -> TypeGuard[dict[str, Any]]:
    """Whether `data` is a match this version keeps but cannot score: a record of the right shape
    (`check_saved`) of a game this version does not know, made by a newer version. It is listed read-only,
    exported, synced on and written back unchanged; it is never damage (docs/DATA.md, "Newer data")."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) or find(data["game"]) is not None:
        return False
    try:
        check_saved(data)
    except RuleError:
        return False
    return True
