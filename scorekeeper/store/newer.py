"""Match files made by a newer version of the app, read as far as this version can (docs/DATA.md, "Newer
data"): a file of a newer schema, or a record of a game this version does not know (`match_data.made_by_newer`).
Such a match is never damage: it is kept as it is, listed read-only with what its record tells
(`MatchSummary.of_newer`), exported (a game this version does not know) and synced on."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scorekeeper.model.match_data import made_by_newer
from scorekeeper.store.errors import CorruptFileError, NewerFileError
from scorekeeper.store.records import MatchSummary
from scorekeeper.store.storage import read_envelope, read_json

_KIND = _TABLE = "match"
"""A match file's kind and table (`matches._KIND`, `_TABLE`: that module imports this one)."""


def newer_file_record(path: Path) -> Any:
    """What a file of a newer schema holds as its match record, if it reads as one (else None)."""
    with contextlib.suppress(OSError, CorruptFileError, ValueError, KeyError, TypeError):
        return read_json(path)["tables"][_TABLE]["1"]
    return None


def newer_summary(path: Path, match_id: str) -> MatchSummary | None:
    """The summary of the match in `path` if a newer version made it (a newer file, a game this version does
    not know); None for any other file, or none."""
    try:
        tables = read_envelope(path, _KIND)
        data = tables[_TABLE]["1"] if tables else None
    except NewerFileError:
        return MatchSummary.of_newer(match_id, newer_file_record(path))
    except (CorruptFileError, KeyError, TypeError, OSError):
        return None
    return MatchSummary.of_newer(match_id, data) if made_by_newer(data) else None


def exported_records(files: Iterable[tuple[str, Path]]) -> list[dict[str, Any]]:
    """Of the (id, file) of listed newer matches, the records an export carries as they are: those of a game
    this version does not know. A file of a newer schema stays on this device: its record is in a shape only
    that version knows, and an export says its schema is this one's."""
    records = []
    for match_id, path in files:
        with contextlib.suppress(CorruptFileError, NewerFileError, KeyError, TypeError, OSError):
            tables = read_envelope(path, _KIND)
            data = tables[_TABLE]["1"] if tables else None
            if made_by_newer(data) and isinstance(data.get("created"), str) and data.get("id") == match_id:
                records.append(data)
    return records
