"""The hard Ruck Zuck bot (determinized look-ahead): legal, reproducible, blind to hidden cards; its fast
round model plays the baseline's rounds exactly as the engine does."""

from __future__ import annotations

import random

import pytest

from scorekeeper.games.base import play_out
from scorekeeper.games.ruckzuck import RuckZuckOptions, new_round
from scorekeeper.games.ruckzuck.bots import BOTS, BaselineBot
from scorekeeper.games.ruckzuck.hard import SearchBot
from scorekeeper.games.ruckzuck.rollout import JK, Round, field_numbers


def _model(state) -> Round:  # type: ignore[no-untyped-def]
    """The engine's position as the fast model holds it (tests may look into the state)."""
    pos, printed = field_numbers(state.options.side)
    code = lambda c: JK if c == "J" else int(c)  # noqa: E731
    cells = [0 if c is None else code(c) for c in state._board]
    hands = [[code(c) for c in h] for h in state._hands]
    return Round(cells, hands, [code(c) for c in state._stock], pos, printed)


@pytest.mark.parametrize("side", ["red", "blue"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_model_plays_greedy_rounds_as_the_engine_does(players: int, side: str) -> None:
    for seed in range(15):
        state = new_round(RuckZuckOptions(players, side=side), seed, dealer=seed % players)
        game = _model(state)
        first = state.current_player
        play_out(state, [BaselineBot() for _ in range(players)])
        game.play_out(first, first, [Round.greedy_turn] * players)
        assert [sorted(h) for h in game.hands] == [
            sorted(JK if c == "J" else c for c in state.hand(s)) for s in range(players)
        ], seed


def _actions(seed: int, players: int, side: str) -> list:
    state = new_round(RuckZuckOptions(players, side=side), seed, dealer=seed % players)
    bots = [SearchBot(time_budget=None, deals=6) if s == 0 else BaselineBot() for s in range(players)]
    play_out(state, bots)  # an illegal action raises RuleError
    return list(state.log)


@pytest.mark.parametrize("side", ["red", "blue"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_hard_plays_only_legal_actions_and_repeats_itself(players: int, side: str) -> None:
    for seed in range(3):
        assert _actions(seed, players, side) == _actions(seed, players, side)


def test_hard_plays_legally_among_every_level() -> None:
    rng = random.Random(7)
    for seed in range(6):
        state = new_round(RuckZuckOptions(4), seed, dealer=seed % 4)
        play_out(state, [BOTS[rng.choice(list(BOTS))]() for _ in range(4)])


def test_hard_decides_from_the_view_alone() -> None:
    """Two states that differ only in cards the seat cannot see get the same decisions, turn after turn."""
    for seed in range(4):
        a = new_round(RuckZuckOptions(4), seed, dealer=3)
        b = new_round(RuckZuckOptions(4), seed, dealer=3)
        hidden = b._stock + b._hands[1] + b._hands[2] + b._hands[3]
        random.Random(seed).shuffle(hidden)
        sizes = [len(b._hands[s]) for s in (1, 2, 3)]
        b._hands[1], b._hands[2] = hidden[: sizes[0]], hidden[sizes[0] : sizes[0] + sizes[1]]
        b._hands[3] = hidden[sizes[0] + sizes[1] : sum(sizes)]
        b._stock = hidden[sum(sizes) :]
        bot_a, bot_b = SearchBot(time_budget=None, deals=6), SearchBot(time_budget=None, deals=6)
        assert a.view(0) == b.view(0)
        assert bot_a.choose(a.view(0), a.legal_actions()) == bot_b.choose(b.view(0), b.legal_actions())


def test_the_search_keeps_the_heuristic_unless_clearly_better() -> None:
    from scorekeeper.games.paired import clearly_best
    from scorekeeper.games.ruckzuck.hard import SURE

    # rows: draw, one card, all cards
    noisy = [[1, 0, 1, 0], [0, 1, 1, 1], [1, 0, 1, 0]]  # "one" gains 0.25 a deal, but with much spread
    assert clearly_best(noisy, 0, SURE) == 0
    clear = [[0.0] * 20, [1.0] * 20, [0.5] * 20]
    assert clearly_best(clear, 0, SURE) == 1


def test_the_clock_stops_the_search_after_the_least_deals() -> None:
    """An anytime search: out of time, it decides on the deals judged so far (here the fewest allowed)."""
    from scorekeeper.games.ruckzuck import hard

    ticks = iter(range(10_000))
    hurried = SearchBot(time_budget=0.5, clock=lambda: float(next(ticks)))
    short = SearchBot(time_budget=None, deals=hard.MIN_DEALS)
    for seed in range(3):
        a = new_round(RuckZuckOptions(4), seed, dealer=3)
        b = new_round(RuckZuckOptions(4), seed, dealer=3)
        bots_a = [hurried if s == 0 else BaselineBot() for s in range(4)]
        bots_b = [short if s == 0 else BaselineBot() for s in range(4)]
        play_out(a, bots_a)
        play_out(b, bots_b)
        assert a.log == b.log
