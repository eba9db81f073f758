"""What a match file holds and how messages name a match: its tables, the checks before a match is written,
and the sentences that name it (`describe_match`, `conflict_message`). Shared by the store's matches, sync,
the import and conflicts."""

from __future__ import annotations

from typing import Any

import scorekeeper.store.plain as plain
from scorekeeper.games.base import Message, day_of
from scorekeeper.model.match import Match
from scorekeeper.model.match_data import made_by_newer
from scorekeeper.store.errors import InputError
from scorekeeper.store.records import MatchSummary
from scorekeeper.store.schema import Tables
from scorekeeper.store.undo import HISTORY_TABLE

MATCH_KIND = "match"
MATCH_TABLE = "match"


def describe_match(data: dict[str, Any]) -> Message:
    """How messages name a match: "the Rage game of Anna, Ben and Cleo (started 2026-05-01)"."""
    from scorekeeper.model.match import GAME_TITLES

    names = [str(n) for n in data.get("names", [])]
    if len(names) > 1:
        people: str = Message("{players} and {last}", players=", ".join(names[:-1]), last=names[-1])
    else:
        people = "".join(names)
    title = GAME_TITLES.get(str(data.get("game")))
    started = str(data.get("created", ""))[:10]
    if title is None:
        return Message(
            "the saved game of {players} (started {date})" if started else "the saved game of {players}",
            players=people,
            date=day_of(started),
        )
    return Message(
        "the {game} game of {players} (started {date})" if started else "the {game} game of {players}",
        game=title,
        players=people,
        date=day_of(started),
    )


def match_tables(data: dict[str, Any], history: dict[str, Any] | None = None) -> Tables:
    tables: Tables = {MATCH_TABLE: {"1": data}}
    if history and (history.get("undo") or history.get("redo")):
        tables[HISTORY_TABLE] = {"1": history}
    return tables


def check_storable(data: dict[str, Any], made: Match | None = None) -> Match:
    """The match `data` describes, checked by the rules and as plain data, before anything is written. `made`:
    the match `data` was made from (`to_dict`), whose rounds were checked when it was made; their figures are
    kept instead of checking every round again (`Match.from_dict`)."""
    found = plain.problem(data)
    if found is not None:
        raise InputError("This game holds something that cannot be saved ({error}).", error=found)
    return Match.from_dict(data, checked=made)


def check_storable_or_newer(data: dict[str, Any]) -> Match | MatchSummary:
    """`check_storable`, except for a match a newer version made (`match_data.made_by_newer`): it is checked
    as plain data only and stored as it is, its summary standing for it (sync brings it on; docs/DATA.md,
    "Newer data")."""
    if not made_by_newer(data):
        return check_storable(data)
    found = plain.problem(data)
    if found is not None:
        raise InputError("This game holds something that cannot be saved ({error}).", error=found)
    return MatchSummary.of_newer(data["id"], data)


def conflict_message(match: Match, stored: int) -> Message:
    """Why a change made on `match` as a screen showed it was not saved: the stored match is at version
    `stored` now (0: deleted)."""
    what = describe_match(match.to_dict())
    if stored == 0:
        return Message(
            "Your change to {what} was not saved: the game was deleted on another device.", what=what
        )
    return Message(
        "Your change to {what} was not saved: it was changed on another device in the meantime "
        "(saved edit {stored}, this screen showed edit {shown}). Reload the game and enter the change again.",
        what=what,
        stored=stored,
        shown=match.version,
    )
