"""Tables that live outside a play session's save: lobbies (not started yet) and score-keeping tables.

A digital table, once started, is saved inside its play session's saved game (see `table.Table._persist`). Before
that, and for a score-keeping table (whose rounds are a tracked match in the store), the host keeps
`tables.json` in the data folder: code, game, options, mode, the seats with their token hashes, the board token
hashes, and the match id of a score-keeping table with the parts of its round entered so far. It is rewritten on
every change at such a table, so a host restart in the lobby (or during score keeping) brings the table back, with
every part entered, and the phones and boards reconnect with their tokens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.store.storage import atomic_write_bytes
from scorekeeper.table.keeping import Keeping
from scorekeeper.table.seats import TableSeat
from scorekeeper.table.table import PLAY, Table, boards_of

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

FILE = "tables.json"


def path_of(store: Store) -> Path | None:
    """Where the file lives (None: a store without a data folder, as in the in-memory tests)."""
    layout = getattr(store, "layout", None)
    root = getattr(layout, "root", None)
    return Path(root) / FILE if root is not None else None


def outside_session(table: Table) -> bool:
    """Whether `table` is saved here: a lobby, or a score-keeping table."""
    return table.session is None


def entry(table: Table) -> dict[str, Any]:
    return {
        "code": table.code,
        "game": table.game,
        "options": table.options,
        "mode": table.mode,
        "seats": [seat.to_dict() for seat in table.seats],
        "match": table.keeping.match.id if table.keeping is not None else None,
        "parts": table.keeping.saved() if table.keeping is not None else None,
        "boards": list(table.board_hashes),
    }


def save(store: Store, tables: list[Table]) -> None:
    """Write every lobby and score-keeping table of this host (all at once, all-or-nothing)."""
    path = path_of(store)
    if path is None:
        return
    data = [entry(table) for table in tables if outside_session(table)]
    atomic_write_bytes(path, json.dumps({"tables": data}).encode())


def load(store: Store) -> list[Table]:
    """The saved lobbies and score-keeping tables (a finished or unreadable one is skipped)."""
    path = path_of(store)
    if path is None or not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    tables = []
    for item in data.get("tables", []) if isinstance(data, dict) else []:
        try:
            table = Table(
                item["code"], item["game"], dict(item["options"]), len(item["seats"]), item.get("mode", PLAY)
            )
            table.seats = [TableSeat.from_dict(seat) for seat in item["seats"]]
            table.board_hashes = boards_of(item)
            if item.get("match"):
                match = store.get_match(item["match"])
                if match is None or match.is_over:
                    continue
                table.keeping = Keeping(store, match, table.match_changed)
                table.keeping.restore(item.get("parts"))
        except (KeyError, TypeError, ValueError):
            continue
        tables.append(table)
    return tables
