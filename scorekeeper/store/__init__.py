"""Storage that never loses a game: TinyDB over atomic files, sharded per match, with recovery, schema
migrations, conflict detection and export/import. No Flet here."""

from scorekeeper.store.errors import (
    ConflictError,
    ImportFileError,
    InputError,
    NewerVersionError,
    StoreError,
    WriteError,
)
from scorekeeper.store.paths import resolve_data_dir
from scorekeeper.store.records import MatchSummary, Player, SavedGame
from scorekeeper.store.repo import Store
from scorekeeper.store.undo import MatchHistory

__all__ = [
    "ConflictError",
    "ImportFileError",
    "InputError",
    "MatchHistory",
    "MatchSummary",
    "NewerVersionError",
    "Player",
    "SavedGame",
    "Store",
    "StoreError",
    "WriteError",
    "resolve_data_dir",
]
