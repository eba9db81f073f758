"""Whether a saved digital game can still be continued: its moves replayed by today's engine.

A saved game's file is checked for its shape when it is read (`store/saved_data.py`); whether its moves are still
legal is only known by replaying them (docs/DATA.md, "Saved digital games"). Home asks here, so a game that
cannot be continued says so where it is listed and can be set aside there, instead of only once opened.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from scorekeeper.games.base import RuleError
from scorekeeper.play.session import PlaySession
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import ASIDE

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

_CACHE_SIZE = 64
# The answer per stored version of a saved game: home is drawn again on every resize and every save on another
# device, and a replay of a long round is not free. A move or a repair writes a new version, so a stale answer
# is never used; the engine does not change while the app runs.
_answers: OrderedDict[tuple[int, str, int, str], RuleError | None] = OrderedDict()
_lock = threading.Lock()


def is_set_aside(saved: SavedGame) -> bool:
    """The player set this game aside (`Store.set_aside_digital_game`): it is kept, but not offered."""
    return ASIDE in saved.data


def replay_problem(store: Store, saved: SavedGame) -> RuleError | None:
    """Why `saved` cannot be continued (a move today's engine refuses, seats that do not match its players), or
    None when it can be, or when there is nothing to replay against (its match is gone: opening it says so)."""
    key = (id(store), saved.id, saved.version, saved.updated)
    with _lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    answer = _replay(store, saved)
    with _lock:
        _answers[key] = answer
        while len(_answers) > _CACHE_SIZE:
            _answers.popitem(last=False)
    return answer


def _replay(store: Store, saved: SavedGame) -> RuleError | None:
    match = store.get_match(saved.match_id) if saved.match_id is not None else None
    if match is None:
        return None
    try:
        # The same rebuild as opening the game (a round its log finished goes into the match, as there).
        PlaySession(store, SavedGame.from_dict(saved.to_dict()), match)
    except RuleError as error:
        return error
    return None
