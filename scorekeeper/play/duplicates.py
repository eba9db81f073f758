"""A digital match resumes one saved game: the others of the match are set aside when it is continued.

A match has one saved game for all its rounds; `PlaySession.continue_match` makes a new one (the round dealt
again, a new seed) when it finds none it can resume. Two devices that each continue such a match before they
sync leave it two live games of the same round, of which only the first to finish would score it. Continuing the
match, or opening one of its games, settles this: the game continuing resumes (the most recently saved one not
set aside, as `play.checks.resumed_games` and history pick it) is kept, every other live game of the match is set
aside (kept with its moves, listed under Settings' set-aside games, never deleted), and opening an older one opens
the kept one instead, so no one plays a round that will never count. Looked up and settled under the data
folder's write lock, the lock every store write takes, so two sessions of one server (or two processes on one
folder) continuing the match at the same moment resume the same game instead of each making one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scorekeeper.store.errors import StoreError
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import ASIDE

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store


def settle(store: Store, match_id: str) -> SavedGame | None:
    """The match's saved game that continuing it resumes (its most recently saved one not set aside), None when
    there is none; every other of its games not set aside is set aside. The caller holds the folder's write lock
    (`store.files.lock.held()`) when it goes on to make a game should there be none."""
    with store.files.lock.held():
        live = [
            saved
            for saved in store.list_digital_games()  # most recently saved first
            if saved.match_id == match_id and ASIDE not in saved.data
        ]
        for older in live[1:]:  # a duplicate left by two devices continuing the match before they synced
            try:
                store.set_aside_digital_game(older.id)
            except StoreError:  # a read-only folder: it stays as it is, the newer one is still the one opened
                pass
        return live[0] if live else None


def to_open(store: Store, saved_id: str) -> str:
    """The saved game to open when `saved_id` is asked for: itself, or, when it is a live game of a match that
    another of its games continues, that one (`saved_id` is then set aside). A game set aside, without a match
    or not found opens as it is (the screen says why it cannot be continued, or that it is gone)."""
    saved = store.get_digital_game(saved_id)
    if saved is None or saved.match_id is None or ASIDE in saved.data:
        return saved_id
    # Asked on every draw of the play screen: without a duplicate (nearly always) no lock, no copies.
    others = store.list_digital_games(read_only=True)
    if not any(o.match_id == saved.match_id and o.id != saved_id and ASIDE not in o.data for o in others):
        return saved_id
    kept = settle(store, saved.match_id)
    return kept.id if kept is not None else saved_id
