"""The data folder as one JSON-safe document (`build_export`): every player, the settings, every match and
saved game, in the shape of `FORMAT`. What a snapshot keeps (snapshots.py, the last resort of recovery) and what
the JSON export writes (`scorekeeper.exchange.transfer`); the import's check (`scorekeeper.exchange.import_check`)
reads it back. Here, in the store, because the store's own snapshots are made of it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from scorekeeper.model.stamps import now_iso
from scorekeeper.store.errors import CorruptFileError, NewerFileError
from scorekeeper.store.matches import Matches
from scorekeeper.store.people import Players, Settings
from scorekeeper.store.saved import SavedGames
from scorekeeper.store.schema import CURRENT_SCHEMA
from scorekeeper.store.storage import is_tmp, read_envelope

FORMAT = "scorekeeper-export"
"""The document's "format": what tells an export (or a snapshot) from any other JSON file."""


def build_export(
    players_part: Players,
    settings_part: Settings,
    matches_part: Matches,
    saved_part: SavedGames,
    *,
    for_snapshot: bool = False,
) -> dict[str, Any]:
    """Everything in the store as one JSON-safe document. Snapshots read the files as stored (no rules
    check, no recovery) so that taking one never changes anything."""
    players = [p.to_dict() for p in players_part.list_players(include_archived=True)]
    players.sort(key=lambda p: (p["created"], p["id"]))
    layout = matches_part.layout
    if for_snapshot:
        matches = _raw_records(layout.matches, "match", "match")
        games = _raw_records(layout.digital, "digital", "game")
    else:
        # Matches a newer version made go out as they are (`Matches.newer_records`).
        matches = [*(m.to_dict() for m in matches_part.iterate()), *matches_part.newer_records()]
        games = [g.to_dict() for g in saved_part.list_digital_games()]
    matches.sort(key=lambda m: (m["created"], m["id"]))
    games.sort(key=lambda g: (g["created"], g["id"]))
    return {
        "format": FORMAT,
        "schema": CURRENT_SCHEMA,
        "exported": now_iso(),
        "players": players,
        "settings": settings_part.settings(),
        "matches": matches,
        "digital_games": games,
    }


def _raw_records(folder: Path, kind: str, table: str) -> list[dict[str, Any]]:
    records = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".json") and not is_tmp(entry.name):
            try:
                tables = read_envelope(Path(entry.path), kind)
                record = tables[table]["1"] if tables else None
            except (CorruptFileError, NewerFileError, KeyError, TypeError, OSError):
                continue
            if isinstance(record, dict) and isinstance(record.get("created"), str) and "id" in record:
                records.append(record)
    return records
