"""Whether a saved digital game can still be continued: its moves replayed by today's engine.

A saved game's file is checked for its shape when it is read (`store/saved_data.py`); whether its moves are still
legal is only known by replaying them (docs/DATA.md, "Saved digital games"). Home asks here, so a game that
cannot be continued says so where it is listed and can be set aside there, instead of only once opened.
A game set aside can be tried again (`bring_back`): a newer version may replay it; nothing is deleted either way.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from scorekeeper.digital import duplicates
from scorekeeper.digital.session import PlaySession
from scorekeeper.games.base import RuleError
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import ASIDE

if TYPE_CHECKING:  # the types only (no import at run time: no cycle)
    from scorekeeper.model.match import Match
    from scorekeeper.store import Store

_GAMES_KEPT = 4096
# The answer per saved game, with the stored version it was given for: home is drawn again on every resize and
# every save on another device, and a replay of a long round is not free (~3 ms). One entry a game, replaced
# when the game is saved again (a move or a repair writes a new version), so a stale answer is never used and
# however many games are in progress a redraw replays only those that changed; the engine does not change while
# the app runs. Per store (a server serves several), gone with it. The bound only keeps the answers of games
# since deleted from piling up in a long-running app: it is far above the games anyone keeps in progress.
_answers: WeakKeyDictionary[Store, OrderedDict[str, tuple[tuple[int, str], RuleError | None]]] = (
    WeakKeyDictionary()
)
_lock = threading.Lock()


def is_set_aside(saved: SavedGame) -> bool:
    """The player set this game aside (`Store.set_aside_digital_game`): it is kept, but not offered."""
    return ASIDE in saved.data


def replay_problem(store: Store, saved: SavedGame) -> RuleError | None:
    """Why `saved` cannot be continued (a move today's engine refuses, seats that do not match its players), or
    None when it can be, or when there is nothing to replay against (its match is gone: opening it says so)."""
    stamp = (saved.version, saved.updated)
    with _lock:
        known = _answers.setdefault(store, OrderedDict())
        if saved.id in known and known[saved.id][0] == stamp:
            known.move_to_end(saved.id)
            return known[saved.id][1]
    answer = _replay(store, saved)
    with _lock:
        known[saved.id] = (stamp, answer)
        known.move_to_end(saved.id)
        while len(known) > _GAMES_KEPT:
            known.popitem(last=False)
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


def resumed_games(store: Store, games: list[SavedGame]) -> list[SavedGame]:
    """Of `games` (every saved game, most recently saved first, as `list_digital_games` gives them), the one per
    match that continuing the match resumes (`PlaySession.continue_match`: `digital.duplicates.resumed`, of its games
    not set aside the one furthest along in the match, then the most recently saved), in the same order. A match
    has one saved game for all its rounds, but `continue_match` makes a new one when it finds none to resume: two
    devices that each continue a match whose game was set aside before they sync leave the match two games of the
    same round, of which only the first to finish scores it (on one folder it is found or made under the write
    lock, so two sessions at once resume one). Continuing the match or opening the other sets the other aside
    (`digital.duplicates`); until then home offers the match once, the game continuing it resumes, as history
    lists it; a game without a match stands alone."""
    live: dict[str, list[SavedGame]] = {}
    for saved in games:
        if not is_set_aside(saved):
            live.setdefault(saved.match_id or f"saved:{saved.id}", []).append(saved)
    kept = [duplicates.resumed(store, each) for each in live.values()]
    ids = {saved.id for saved in kept if saved is not None}
    return [saved for saved in games if saved.id in ids]


def set_aside_games(store: Store) -> list[SavedGame]:
    """The saved games the player set aside, the most recently set aside first."""
    aside = [saved for saved in store.list_digital_games() if is_set_aside(saved)]
    return sorted(aside, key=lambda saved: str(saved.data[ASIDE]), reverse=True)


def matches_to_deal_again(store: Store, games: list[SavedGame]) -> list[Match]:
    """The digital matches in progress whose saved game was set aside and that no other saved game continues
    (`games`: every saved game, as `list_digital_games` gives them): home offers them under "Continue a game",
    where continuing deals the round again with a new seed (`PlaySession.continue_match`)."""
    continued = {saved.match_id for saved in games if not is_set_aside(saved)}
    waiting = dict.fromkeys(  # in the order of `games`, each match once (a match may have set aside several)
        saved.match_id for saved in games if is_set_aside(saved) and saved.match_id not in continued
    )
    matches = [store.get_match(match_id) for match_id in waiting if match_id is not None]
    return [match for match in matches if match is not None and _in_progress(match)]


def bring_back(store: Store, saved_id: str) -> SavedGame | None:
    """Try a set-aside game again: when its match still waits for the round it holds and today's engine replays
    its moves, its mark is cleared and it is offered to be continued again. RuleError (why it stays set
    aside, a sentence for the player) otherwise; nothing is deleted either way. None when there is no such
    game (any more)."""
    saved = store.get_digital_game(saved_id)
    if saved is None or not is_set_aside(saved):
        return saved
    problem = _why_it_stays(store, saved)
    if problem is not None:
        raise problem
    return store.bring_back_digital_game(saved_id)


def _in_progress(match: Match) -> bool:
    return match.status == "active" and not match.is_over


def _why_it_stays(store: Store, saved: SavedGame) -> RuleError | None:
    match = store.get_match(saved.match_id) if saved.match_id is not None else None
    if match is None:
        return RuleError("Its scoreboard is no longer in the history, so it stays set aside.")
    others = [
        other
        for other in store.list_digital_games()
        if other.match_id == match.id and other.id != saved.id and not is_set_aside(other)
    ]
    # The match was continued without it (the round dealt again, maybe finished): two games of one round
    # would score it twice, so the match is continued where it is now.
    if others or not _in_progress(match) or match.round_index != int(saved.data.get("round", 0)):
        return RuleError(
            "Its scoreboard went on without it (the round was dealt again), so it stays set aside."
        )
    problem = replay_problem(store, saved)
    if problem is not None:
        return RuleError(
            "It still cannot be continued with this version of the app: {reason}", reason=problem
        )
    return None
