"""The matches a store wrote last, kept as the values they are while their files are still those writes.

A save is followed at once by a screen that shows the match (the scoreboard after "Save round"), and the next
save starts from the match as stored. Both read the file just written and check every round of it again
(`Match.from_dict`), work that grows with the game. A `Match` is an immutable value, so the store keeps the
one it wrote, with its file's fingerprint (inode, size, time to the nanosecond: what the index keeps, see
index.py), and gives it back while the file still has that fingerprint. Any other write of the file (a sync,
another process, a restore) makes a new file (`os.replace`) with another fingerprint, which is then read as
before; a file gone is read as before too (recovery from a backup)."""

from __future__ import annotations

import os
from pathlib import Path

from scorekeeper.model.match import Match
from scorekeeper.store.index import Fingerprint, fingerprint

KEPT = 8
"""Matches kept (the ones on screen: a scoreboard, a tablet's board or two); the oldest write goes first."""


class WrittenMatches:
    """Match id -> (its file's fingerprint after the write, the match written)."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Fingerprint, Match]] = {}

    def forget(self, match_id: str) -> None:
        """Before the match's file is written again: a write that fails leaves nothing kept for it."""
        self._kept.pop(match_id, None)

    def remember(self, match: Match, stat: os.stat_result) -> None:
        """`match` was written to a file that now has `stat` (the writer holds the folder's lock)."""
        self._kept.pop(match.id, None)
        self._kept[match.id] = (fingerprint(stat), match)
        while len(self._kept) > KEPT:
            del self._kept[next(iter(self._kept))]

    def get(self, match_id: str, path: Path, version: int | None = None) -> Match | None:
        """The match written last to `path`, while the file is still that write (and, with `version`, only
        at that version); else None: read the file."""
        known = self._kept.get(match_id)
        if known is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        if fingerprint(stat) != known[0] or (version is not None and known[1].version != version):
            return None
        return known[1]
