"""Racko's search bot (`games/racko/search.py`): legal, decides from the seat's view alone, reproducible."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from scorekeeper.games.racko import RackoOptions, new_round
from scorekeeper.games.racko.hard import HardBot, _unseen
from scorekeeper.games.racko.play import PILE, STOCK, RackoState, RackoView
from scorekeeper.games.racko.playout import PACE, bands, baseline_targets, kept_slots, sample
from scorekeeper.games.racko.search import SearchBot

SEARCHED = RackoOptions(2, two_player_rule=False)


def _bot() -> SearchBot:
    # no clock: a fixed number of deals, so that a loaded machine cannot change a decision
    return SearchBot(time_budget=None, deals=12)


def _is_legal(action: object, legal: list) -> bool:
    return any(type(action) is type(a) and action == a for a in legal)


def _searched_places(seed: int, limit: int = 4, phase: str = "place") -> list[RackoState]:
    """States of a hard-bot round where seat 0 makes a searched decision: it places a card with at least two
    close choices, or (`phase="draw"`) it draws with a card on the discard pile."""
    state = new_round(SEARCHED, seed, dealer=seed % 2)
    bot, probe = HardBot(), _bot()
    found: list[RackoState] = []
    while not state.is_over and len(found) < limit:
        seat = state.current_player
        view = state.view(seat)
        legal = state.legal_actions()
        if seat == 0 and view.phase == phase and _searched(probe, view, legal):
            found.append(RackoState.replay(state.options, state.seed, list(state.log), dealer=state.dealer))
        state.apply(bot.choose(view, legal))
    return found


def _searched(probe: SearchBot, view: RackoView, legal: list) -> bool:
    if view.phase == "draw":
        return PILE in legal
    return len(probe._close(view, legal)) >= 2


@pytest.mark.parametrize(
    "opts",
    [SEARCHED, RackoOptions(2), RackoOptions(3, two_player_rule=False), RackoOptions(4, variant="bonus")],
    ids=lambda o: f"{o.players}p-{o.variant}-rule{o.two_player_rule}",
)
def test_search_bot_plays_legal_rounds(opts: RackoOptions) -> None:
    for seed in range(3):
        state = new_round(opts, seed, dealer=seed % opts.players)
        bots: list[HardBot] = [HardBot() for _ in range(opts.players)]
        # the other racks played on as slot targeting, or as planners
        bots[0] = SearchBot(time_budget=None, deals=12, opponent="plan" if seed == 2 else "baseline")
        while not state.is_over:
            seat = state.current_player
            legal = state.legal_actions()
            action = bots[seat].choose(state.view(seat), legal)
            assert _is_legal(action, legal)
            state.apply(action)


def test_close_placements_are_searched_in_ordinary_rounds() -> None:
    assert sum(len(_searched_places(seed)) for seed in range(6)) >= 3


@pytest.mark.parametrize("phase", ["place", "draw"])
def test_same_view_same_decision(phase: str) -> None:
    for seed in range(6):
        for state in _searched_places(seed, phase=phase):
            view, legal = state.view(0), state.legal_actions()
            assert _bot().choose(view, legal) == _bot().choose(view, legal)


@pytest.mark.parametrize("phase", ["place", "draw"])
def test_decides_from_the_view_alone(phase: str) -> None:
    """Other deals that look the same to the seat (the unseen cards of the other rack and of the stock
    exchanged) give the same decision, for placements and for draws."""
    checked = 0
    for seed in range(6):
        for state in _searched_places(seed, phase=phase):
            view, legal = state.view(0), state.legal_actions()
            decision = _bot().choose(view, legal)
            rng = random.Random(seed)
            for _ in range(3):
                other = RackoState.replay(state.options, state.seed, list(state.log), dealer=state.dealer)
                rack = other.racks[1]
                assert rack is not None
                hidden = [s for s, c in enumerate(rack) if c not in other.known[1]]
                pool = [int(c) for c in (rack[s] for s in hidden) if c is not None] + other.stock
                rng.shuffle(pool)
                for s in hidden:
                    rack[s] = pool.pop()
                other.stock[:] = pool
                assert other.view(0) == view
                assert _bot().choose(other.view(0), legal) == decision
                checked += 1
    assert checked >= 3


def test_bands_follow_the_kept_cards() -> None:
    rack = [3, 30, 9, 12, 2, 20, 24, 27, 35, 38]
    unseen = [c for c in range(1, 41) if c not in rack]
    kept = kept_slots(rack, unseen, 40, 14.0)
    assert kept == sorted(kept) and all(rack[a] < rack[b] for a, b in pairwise(kept))
    target = bands(rack, kept, 40)
    for slot in kept:
        assert target[rack[slot]] == slot
    # a card between two kept neighbours is meant for a slot between them
    for a, b in pairwise(kept):
        for card in range(rack[a] + 1, rack[b]):
            assert a < target[card] < b or b == a + 1


def test_draws_are_searched_and_can_overrule_the_heuristic() -> None:
    """With enough deals the play-outs sometimes find the other draw clearly better (about 3% of draws)."""
    searcher, heuristic = SearchBot(time_budget=None, deals=64), HardBot()
    overruled = 0
    for seed in range(4, 12):
        for state in _searched_places(seed, limit=12, phase="draw"):
            view, legal = state.view(0), state.legal_actions()
            choice = searcher.choose(view, legal)
            assert choice in (PILE, STOCK)
            overruled += choice != heuristic.choose(view, legal)
    assert overruled >= 1


@pytest.mark.parametrize("players", [2, 3])
def test_sampled_deals_match_the_view(players: int) -> None:
    """A sampled deal is one the seat could be in: every other rack holds its seen cards and ten in all, the
    stock has the view's count, and racks and stock together are exactly the cards the seat cannot place."""
    options = RackoOptions(players, two_player_rule=False)
    for seed in range(4):
        state = new_round(options, seed, dealer=seed % players)
        bot = HardBot()
        while not state.is_over:
            seat = state.current_player
            view, legal = state.view(seat), state.legal_actions()
            if view.phase == "draw":
                unseen = _unseen(view)
                order = [(seat + k) % players for k in range(1, players)]
                base = baseline_targets(view.deck_size)
                others, stock = sample(view, unseen, order, base, random.Random(seed), PACE)
                assert len(stock) == view.stock_count
                for other, rack in zip(order, others, strict=True):
                    assert len(rack) == 10 and set(view.known[other]) <= set(rack)
                dealt = [c for rack in others for c in rack] + stock
                seen_there = {c for other in order for c in view.known[other]}
                assert sorted(dealt) == sorted(set(unseen) | seen_there)
            state.apply(bot.choose(view, legal))
