"""Undo and redo of a match: the history kept in its file beside it, as plain data (no files read here).

The history is the match file's table "history": `head`, the version of the match it belongs to, and the `undo`
and `redo` stacks of whole earlier states, each with what the change was ("Round 3 added") and when. A match
written any other way (an import, an older version of the app, which reads the "match" table only and ignores
the history) leaves `head` behind, so nothing stale can be undone. `store/matches.py` reads and writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.model.stamps import change_stamp
from scorekeeper.store.errors import InputError

HISTORY_TABLE = "history"
HISTORY_KEEP = 25
"""Changes kept for undo per match (the app promises at least 20)."""


@dataclass(frozen=True)
class MatchHistory:
    """What undo and redo would do to the stored match: the description of the change each takes back or
    brings back (None: nothing), and the stored version they apply to."""

    version: int
    undo: str | None
    redo: str | None


def state_of(data: dict[str, Any]) -> dict[str, Any]:
    """A stored match without its edit stamp (what undo goes back to)."""
    return {key: value for key, value in data.items() if key not in ("version", "updated")}


def history_after_change(
    stored: dict[str, Any], history: dict[str, Any], version: int, what: str, at: str
) -> dict[str, Any]:
    """The history once the stored match becomes `version` by a change described by `what` at `at`: the stored
    state goes on the undo stack (of at most HISTORY_KEEP), and nothing is left to redo."""
    earlier = history.get("undo", []) if history.get("head") == stored["version"] else []
    undo = [*earlier, {"before": state_of(stored), "what": what, "at": at}]
    return {"head": version, "undo": undo[-HISTORY_KEEP:], "redo": []}


def what_undo_and_redo_do(stored: dict[str, Any], history: dict[str, Any]) -> MatchHistory:
    """What undo and redo would take back or bring back of the stored match, by its history."""
    version = stored["version"]

    def top(stack: str) -> str | None:
        entries = (history.get(stack) or []) if history.get("head") == version else []
        entry = entries[-1] if entries else None
        return str(entry.get("what") or "") if isinstance(entry, dict) else None

    return MatchHistory(version, top("undo"), top("redo"))


def stepped(
    match_id: str, stored: dict[str, Any], history: dict[str, Any], take: str, give: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The match data and its history after an undo (`take` "undo", `give` "redo") or a redo (the other way
    round) of the stored match: its state of before (or after) the latest change, at the next version.
    InputError when there is nothing to undo (or redo)."""
    version = stored["version"]
    entries = list(history.get(take) or []) if history.get("head") == version else []
    entry = entries[-1] if entries else None
    state = (
        (entry.get("before") if take == "undo" else entry.get("after")) if isinstance(entry, dict) else None
    )
    if not isinstance(entry, dict) or not isinstance(state, dict) or state.get("id") != match_id:
        raise InputError("There is nothing to undo." if take == "undo" else "There is nothing to redo.")
    data = {**state, "version": version + 1, "updated": change_stamp()}
    back = {"what": entry.get("what", ""), "at": data["updated"]}
    back["after" if take == "undo" else "before"] = state_of(stored)
    others = [*(history.get(give) or []), back][-HISTORY_KEEP:]
    return data, {"head": data["version"], take: entries[:-1], give: others}
