"""A digital match resumes one saved game: the others of the match are set aside when it is continued.

A match has one saved game for all its rounds; `PlaySession.continue_match` makes a new one (the round dealt
again, a new seed) when it finds none it can resume. Two devices that each continue such a match before they
sync leave it two live games of the same round, of which only the first to finish would score it. Continuing the
match, or opening one of its games, settles this: the game continuing resumes (`resumed`, the one rule that home,
history and the play screen follow) is kept, every other live game of the match is set aside (kept with its
moves, listed under Settings' set-aside games, never deleted), and opening another one opens the kept one
instead, so no one plays a round that will never count. Looked up and settled under the data folder's write
lock, the lock every store write takes, so two sessions of one server (or two processes on one folder)
continuing the match at the same moment resume the same game instead of each making one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scorekeeper.digital import engine
from scorekeeper.games.base import RuleError
from scorekeeper.store.errors import StoreError
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import ASIDE

if TYPE_CHECKING:  # the types only (no import at run time: no cycle)
    from scorekeeper.model.match import Match
    from scorekeeper.store import Store


def resumed(store: Store, live: list[SavedGame]) -> SavedGame | None:
    """Of a match's games not set aside (`live`, most recently saved first, as `list_digital_games` gives them),
    the one continuing the match resumes: the one furthest along in the match, then the most recently saved.
    Furthest along: the latest round, and of games of a round the match has recorded, one whose moves ended
    that round (it scored it; its "Next round" deals the match's round in progress) before one still playing it
    (its round will never count). So when one device has scored the round and the other, not synced yet, moved
    on in its game of that round, the game that scored it is resumed, although the other was saved later."""
    if len(live) < 2:  # nearly always: nothing to choose, nothing read
        return live[0] if live else None
    latest = max(int(saved.data.get("round", 0)) for saved in live)
    candidates = [saved for saved in live if int(saved.data.get("round", 0)) == latest]  # order kept
    match = store.get_match(candidates[0].match_id) if candidates[0].match_id is not None else None
    if len(candidates) > 1 and match is not None and latest < match.round_index:  # the round is recorded
        ended = [saved for saved in candidates if _ends_its_round(saved, match)]
        return (ended or candidates)[0]
    return candidates[0]


def _ends_its_round(saved: SavedGame, match: Match) -> bool:
    """Whether `saved`'s moves end the round it holds: dealt again and replayed (nothing recorded, nothing
    saved). A game whose moves no longer replay does not."""
    try:
        state = engine.deal(match, saved.seed, int(saved.data.get("round", 0)))
        for action in saved.log:
            state.apply(action)
    except RuleError:
        return False
    return bool(state.is_over)


def settle(store: Store, match_id: str) -> SavedGame | None:
    """The match's saved game that continuing it resumes (`resumed`), None when it has none not set aside;
    every other of its games not set aside is set aside. The caller holds the folder's write lock
    (`store.files.lock.held()`) when it goes on to make a game should there be none."""
    with store.files.lock.held():
        live = [
            saved
            for saved in store.list_digital_games()  # most recently saved first
            if saved.match_id == match_id and ASIDE not in saved.data
        ]
        kept = resumed(store, live)
        for other in live:
            if other is kept:
                continue
            try:  # a duplicate left by two devices continuing the match before they synced
                store.set_aside_digital_game(other.id)
            except StoreError:  # a read-only folder: it stays as it is, the kept one is still the one opened
                pass
        return kept


def to_open(store: Store, saved_id: str) -> str:
    """The saved game to open when `saved_id` is asked for: itself, or, when another game of its match is the
    one continuing the match resumes, that one. A live game is then set aside (`settle`); one set aside already
    (Back to its address, an old bookmark) stays so. A game without a match, not found, or set aside with no other
    game continuing its match opens as it is (the screen says why it cannot be continued, or that it is gone)."""
    saved = store.get_digital_game(saved_id)
    if saved is None or saved.match_id is None:
        return saved_id
    # Asked on every draw of the play screen: without a duplicate (nearly always) no lock, no copies.
    others = store.list_digital_games(read_only=True)
    if not any(o.match_id == saved.match_id and o.id != saved_id and ASIDE not in o.data for o in others):
        return saved_id
    kept = settle(store, saved.match_id)
    return kept.id if kept is not None else saved_id
