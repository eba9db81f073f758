"""Racko's hot path, kept apart from the rules' state machine (`play.py`): the action words, what a deal's
table fixes for a round (`seating`), the call test for the engine's own racks, and the simulator's loop
(`play_trusted`), which plays a turn's two moves (draw, place) without asking the state what it already knows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from scorekeeper.games.base import Action, seats_from_left_of
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.racko.rules import SLOTS, TWO_PLAYER_MIN_RUN
from scorekeeper.games.racko.view import RackoView

STOCK = "stock"
PILE = "discard_pile"
DISCARD = "discard"
CALL = "call"
WAIT = "wait"

NEW_VIEW = object.__new__
ALL_SLOTS: list[Action] = list(range(SLOTS))
SLOTS_OR_DISCARD: list[Action] = [*range(SLOTS), DISCARD]
"""The place phase's legal actions, copied for each caller (a copy costs less than building the list)."""


@lru_cache(maxsize=64)
def seating(
    options: RackoOptions, dealer: int, out: tuple[int, ...], scores: tuple[int, ...]
) -> tuple[tuple[int, ...], dict[int, int], tuple[dict[str, Any], ...]]:
    """What a deal's table fixes for the round, made once for the many rounds a simulation deals alike: the
    seats in playing order, the seat after each, and each seat's view fields that do not change in a round
    (in the dataclass's order; read only, as templates of the views)."""
    order = tuple(s for s in seats_from_left_of(dealer, options.players) if s not in out)
    after = {seat: order[(k + 1) % len(order)] for k, seat in enumerate(order)}
    fixed = {
        "seat": -1,
        "options": options,
        "current_player": -1,
        "turn": 0,
        "is_over": False,
        "match_scores": scores,
        "round_points": None,
        "phase": "",
        "rack": (),
        "discard_top": None,
        "drawn": None,
        "drawn_from": None,
        "deck_size": options.deck_size,
        "discards": (),
        "stock_count": 0,
        "pile": (),
        "known": (),
        "players_out": out,
    }
    return order, after, tuple({**fixed, "seat": seat} for seat in range(options.players))


def may_call_fast(rack: list[int], run_rule: bool) -> bool:
    """`rules.may_call` for a full rack of the engine's own (no checks of the rack's shape needed)."""
    # One chained comparison (it stops at the first slot out of order, as most racks are at once): asked
    # after every turn of every simulated round.
    a, b, c, d, e, f, g, h, i, j = rack
    if not a < b < c < d < e < f < g < h < i < j:
        return False
    if not run_rule:
        return True
    run = 1
    for i in range(1, SLOTS):
        run = run + 1 if rack[i] == rack[i - 1] + 1 else 1
        if run >= TWO_PLAYER_MIN_RUN:
            return True
    return False


def ascending_count(rack: list[int]) -> int:
    """`rules._ascending` of a full rack of the engine's own: the cards in ascending order from slot 5 up
    (a test compares both; counted once per seat at the end of every simulated round)."""
    for count in range(1, SLOTS):
        if rack[count] < rack[count - 1]:  # a rack's cards are all different
            return count
    return SLOTS


def placing_view(drawing: RackoView, state: Any) -> RackoView:
    """The view of the seat that has just drawn, made from its view before the draw (`drawing`): the same
    value as `state._view(seat)` (a test compares both)."""
    view = NEW_VIEW(RackoView)
    fields = view.__dict__
    fields.update(drawing.__dict__)
    placing_fields(fields, state)
    return view


def placing_fields(fields: dict[str, Any], state: Any) -> None:
    """Turn the fields of the drawing seat's view before its draw into those after it: only what a draw
    changes is set again (the phase, the drawn card, and the stock's count or the pile and the cards known
    to be taken from it)."""
    fields["phase"] = "place"
    fields["drawn"] = state.drawn  # the seat's own card, whichever pile it came from
    if state.drawn_from == STOCK:
        fields["drawn_from"] = STOCK
        fields["stock_count"] -= 1
        return
    fields["drawn_from"] = PILE
    pile = fields["pile"][:-1]
    fields["pile"] = pile
    fields["discard_top"] = pile[-1] if pile else None
    fields["known"] = state.known


def play_trusted(
    state: Any,
    chooses: Sequence[Callable[[RackoView, list[Action]], Action]],
    times: Sequence[Any],
    rewrite_views: bool = False,
) -> None:
    """`State._play_trusted` for Racko: a turn's draw and place in one pass, the legal actions made from the
    phase (the lists `legal_actions` gives), the placing view made from the drawing one, the moves carried out
    as `apply_unchecked` does. Calls and the Blitz deal go the generic way (`_one_move`). With `rewrite_views`
    (bots that keep nothing of a round) see `_play_rewriting`."""
    if rewrite_views:
        _play_rewriting(state, chooses, times)
        return
    clock = time.perf_counter
    view_of, draw, place, log = state._view, state._draw, state._place, state.log.append
    while not state.is_over:
        seat = state.current_player
        choose, spent = chooses[seat], times[seat]
        if state.phase != "draw":
            _one_move(state, choose, spent)
            continue
        started = clock()  # a choice's time counts the making of its view, as the generic loop's does
        view = view_of(seat)
        legal = [STOCK, PILE] if state.pile else [STOCK]
        action = choose(view, legal)
        spent(clock() - started)
        if action == STOCK:  # `_draw`'s way with a stock card, the most common draw
            state.drawn, state.drawn_from, state.phase = state.stock.pop(), STOCK, "place"
        else:
            draw(action)
        log(action)
        started = clock()
        view = placing_view(view, state)
        legal = (SLOTS_OR_DISCARD if state.drawn_from == STOCK else ALL_SLOTS).copy()
        action = choose(view, legal)
        spent(clock() - started)
        place(action)
        log(action)


def _play_rewriting(
    state: Any, chooses: Sequence[Callable[[RackoView, list[Action]], Action]], times: Sequence[Any]
) -> None:
    """`play_trusted` for bots that keep nothing of a round: each seat's view of its turns is one object, its
    changing fields written again for each move (at the draw every field a round changes; after a stock card
    the four a stock draw changes; after a discard, `placing_fields`) instead of a new view made."""
    clock = time.perf_counter
    view_of, draw, place, log = state._view, state._draw, state._place, state.log.append
    kept: dict[int, tuple[RackoView, dict[str, Any]]] = {}
    while not state.is_over:
        seat = state.current_player
        choose, spent = chooses[seat], times[seat]
        if state.phase != "draw":
            _one_move(state, choose, spent)
            continue
        # a choice's time counts the writing of its view, as the generic loop's counts making it
        started = clock()
        if seat in kept:
            view, fields = kept[seat]
            # What `state._view(seat)` shows when `seat` is to draw: every field a round changes but
            # `current_player`, which is `seat` in every view of its turns (made when it was to draw).
            pile, discards = state.pile, state._discards_seen
            if discards is None:
                discards = state._discards_seen = tuple(state.discards)
            fields["turn"], fields["phase"], fields["rack"] = state.turn, "draw", tuple(state.racks[seat])
            fields["discard_top"], fields["pile"] = (pile[-1], tuple(pile)) if pile else (None, ())
            fields["drawn"] = fields["drawn_from"] = None
            fields["discards"], fields["stock_count"] = discards, len(state.stock)
            fields["known"] = state.known
        else:
            view = view_of(seat)
            fields = view.__dict__
            kept[seat] = view, fields
        legal = [STOCK, PILE] if state.pile else [STOCK]
        action = choose(view, legal)
        spent(clock() - started)
        started = clock()
        if action == STOCK:  # `_draw`'s way with a stock card and `placing_fields`' after it
            card = state.drawn = state.stock.pop()
            state.drawn_from, state.phase = STOCK, "place"
            fields["phase"], fields["drawn"], fields["drawn_from"] = "place", card, STOCK
            fields["stock_count"] -= 1
            legal = SLOTS_OR_DISCARD.copy()
        else:
            draw(action)
            placing_fields(fields, state)
            legal = ALL_SLOTS.copy()
        log(action)
        action = choose(view, legal)
        spent(clock() - started)
        place(action)
        log(action)


def _one_move(state: Any, choose: Callable[[RackoView, list[Action]], Action], spent: Any) -> None:
    """A call or a move of the Blitz deal, the generic way: a new view, the legal list, `apply_unchecked`."""
    legal = state.legal_actions()
    started = time.perf_counter()
    view = state._view(state.current_player)
    action = choose(view, legal)
    spent(time.perf_counter() - started)
    state.apply_unchecked(action)
