"""A short-lived copy of a stored match, for a screen or a game that reads it often (names, totals, the dealer).

The store is the only owner of a match: whoever changes it does so through `Store.change_match`, never by saving
a copy it kept. A digital game or a live table still asks its match for names and totals at every move; reading
and checking the file each time would cost a millisecond a move, so they keep the match they read last and read
it again as soon as its file changed, whoever changed it (a scoreboard of this app, another Store object, another
process, a sync). The file is replaced on every write (`storage`), so its (inode, size, change time) tells a
new version apart; it is looked at (one `stat`) before the copy is used, and before the file is read, so a write
between the two is seen at the next use. A copy is never written back.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from scorekeeper.model.match import Match

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

FileStamp = tuple[int, int, int, int]


class StoredMatch:
    """The stored match `match_id`, read again whenever its file changed (see the module's docstring)."""

    def __init__(self, store: Store, match: Match) -> None:
        self.store = store
        self.id = match.id
        self._copy = match
        self._stamp: FileStamp | None = None  # not known to be the stored one: read at the first use

    def _file_stamp(self) -> FileStamp | None:
        with contextlib.suppress(OSError, AttributeError):  # gone (deleted), or a store without files (tests)
            stat = os.stat(self.store.matches.path(self.id))
            return stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns
        return None

    def get(self) -> Match:
        """The match as stored now (the last one read while the file is unchanged; the last one known when the
        match was deleted meanwhile)."""
        stamp = self._file_stamp()
        if stamp is None or stamp != self._stamp:
            found = self.store.get_match(self.id)
            if found is not None:
                self._copy = found
            self._stamp = stamp
        return self._copy

    def saved(self, match: Match) -> Match:
        """Take `match`, just returned by the store, as the copy; the file is looked at again at the next use
        (another writer may already have followed)."""
        self._copy = match
        self._stamp = None
        return match
