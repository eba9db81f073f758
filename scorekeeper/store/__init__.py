"""Storage that never loses a game: the data folder only. TinyDB over atomic files, sharded per match, with
recovery, schema migrations, snapshots, photos, saved games, the match index and conflict detection. The exchange
formats (JSON, CSV, BG Stats) are `scorekeeper.exchange`'s, functions over a `Store`. No Flet here.

May import: `scorekeeper.model`, `scorekeeper.games` and the platform modules (`capabilities`, `spans`). The
public surface is below (`Store`, its errors and records); a module of this package imports its siblings' own
modules, never this `__init__`."""

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
