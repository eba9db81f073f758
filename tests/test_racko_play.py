"""Digital Racko: deal, turns, stock refill, Blitz, the turn guard, hidden information and replay."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import State
from scorekeeper.games.racko import (
    TURN_LIMIT,
    RackoOptions,
    RackoState,
    RuleError,
    is_racko,
    may_call,
    new_round,
    replay,
    score_result,
    validate_result,
)
from scorekeeper.games.racko.bots import BaselineBot

VIEW_FIELDS = {
    "phase",
    "seat",
    "rack",
    "discard_top",
    "drawn",
    "drawn_from",
    "deck_size",
    "discards",
    "match_scores",
    "is_over",
    "round_points",
    "options",
    "current_player",
    "turn",
    "stock_count",
    "pile",
    "known",
    "players_out",
}


def everything(state: RackoState) -> tuple:
    """All of a state's observable content, to compare states."""
    views = tuple(state.view(s) for s in range(state.options.players))
    return (
        views,
        tuple(state.log),
        tuple(state.stock),
        tuple(state.pile),
        state.phase,
        state.current_player,
        tuple(state.legal_actions()),
    )


def all_cards(state: RackoState) -> list[int]:
    cards = [c for rack in state.racks if rack is not None for c in rack if c is not None]
    cards += state.stock + state.pile
    if state.drawn is not None:
        cards.append(state.drawn)
    return sorted(cards)


def test_state_protocol_and_json_view() -> None:
    state = new_round(RackoOptions(3), 5)
    assert isinstance(state, State)
    view = state.view(0)
    assert {f.name for f in dataclasses.fields(view)} == VIEW_FIELDS
    json.dumps(dataclasses.asdict(view))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.phase = "call"  # type: ignore[misc]


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 1), (4, 3)])
def test_deal_one_card_at_a_time_from_slot_50(players: int, dealer: int) -> None:
    opts = RackoOptions(players)
    deck = list(range(1, opts.deck_size + 1))
    random.Random(11).shuffle(deck)
    state = new_round(opts, 11, dealer=dealer)
    order = [(dealer + k) % players for k in range(1, players + 1)]
    for k, seat in enumerate(order):
        assert state.racks[seat][9] == deck[-1 - k]  # first card dealt to each seat lands in slot 50
        assert state.racks[seat][8] == deck[-1 - players - k]
        assert state.racks[seat][0] == deck[-1 - 9 * players - k]
    assert state.view(0).discard_top == deck[-1 - 10 * players]
    assert state.view(0).discards == (deck[-1 - 10 * players],)
    assert len(state.stock) == opts.deck_size - 10 * players - 1
    assert state.current_player == order[0] and state.phase == "draw"


def test_turn_exchange_and_discard() -> None:
    state = new_round(RackoOptions(2), 3)
    seat = state.current_player
    top = state.view(seat).discard_top
    assert state.legal_actions() == ["stock", "discard_pile"]
    state.apply("discard_pile")
    assert state.legal_actions() == list(range(10))  # a pile card must be kept
    old = state.racks[seat][4]
    state.apply(4)
    assert state.racks[seat][4] == top and state.view(seat).discard_top == old
    assert state.view(seat).known[seat] == (top,)
    other = state.current_player
    assert other != seat
    state.apply("stock")
    drawn = state.drawn
    assert state.view(other).drawn == drawn and state.view(seat).drawn is None  # stock card is private
    assert "discard" in state.legal_actions()
    state.apply("discard")
    assert state.view(seat).discard_top == drawn and state.view(seat).discards[-2:] == (old, drawn)


def test_stock_refill_turns_the_pile_over_first_discard_on_top() -> None:
    state = new_round(RackoOptions(2, two_player_rule=False), 8)
    state.stock = [state.stock[-1]]
    first, second = state.pile[-1], 99
    state.pile = [first]
    state.apply("stock")
    drawn = state.drawn
    state.pile.append(second)  # pretend another card was discarded after the first
    state.apply("discard")
    if state.phase == "call":
        state.apply("wait")
    assert state.pile == [] and state.stock == [drawn, second, first]
    assert state.legal_actions() == ["stock"]  # the pile is empty until the next discard
    state.apply("stock")
    assert state.drawn == first


def test_stock_refill_reshuffle_is_seeded() -> None:
    def run() -> list[int]:
        state = new_round(RackoOptions(2, reshuffle=True, two_player_rule=False), 8)
        state.stock = [state.stock[-1]]
        state.pile = [1, 2, 3, 4, 5, 6, 7, 8][: len(state.pile)] or state.pile
        pile_before = list(state.pile)
        state.apply("stock")
        drawn = state.drawn
        state.apply("discard")
        if state.phase == "call":
            state.apply("wait")
        assert sorted(state.stock) == sorted([*pile_before, drawn]) and state.pile == []
        return list(state.stock)

    assert run() == run()


def test_discard_only_for_a_stock_card_and_pile_only_when_not_empty() -> None:
    state = new_round(RackoOptions(2), 4)
    state.apply("discard_pile")
    with pytest.raises(RuleError, match="kept"):
        state.apply("discard")
    state.apply(0)
    state.pile = []
    if state.phase == "call":
        state.apply("wait")
    with pytest.raises(RuleError, match="empty"):
        state.apply("discard_pile")


def test_turn_limit_ends_the_round_without_caller() -> None:
    state = new_round(RackoOptions(2), 1)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply("wait" if "wait" in legal else "stock" if "stock" in legal else "discard")
    assert state.turn == TURN_LIMIT
    result = state.result()
    assert result["callers"] == [] and result["blitz"] is False
    validate_result(result, state.options, dealer=0, round_index=0)
    assert state.legal_actions() == [] and state.current_player == -1
    with pytest.raises(RuleError, match="over"):
        state.apply("stock")


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(RuleError):
        new_round(RackoOptions(2), 1).result()


def _blitz_state() -> RackoState:
    """3 players, dealer 0: seats 1 and 2 are dealt a card from each fifth of 1..50, seat 0 a mess."""
    state = new_round(RackoOptions(3, blitz=True), 2)
    seat1 = [1 + 5 * k for k in range(10)]
    seat2 = [2 + 5 * k for k in range(10)]
    seat0 = [50, 45, 40, 35, 30, 25, 20, 15, 10, 5]
    deal = [card for k in range(10) for card in (seat1[k], seat2[k], seat0[k])]
    rest = [c for c in range(1, 51) if c not in deal]
    state.stock = rest + deal[::-1]
    state.stock.pop()  # the first card is already in seat 1's hand
    state.drawn = deal[0]
    return state


def test_blitz_deal_free_placement_and_calls() -> None:
    state = _blitz_state()
    while state.phase == "blitz_place":
        view = state.view(state.current_player)
        assert view.drawn is not None and state.view((view.seat + 1) % 3).drawn is None
        empty = state.legal_actions()
        assert empty == [i for i, c in enumerate(view.rack) if c is None]
        band = (view.drawn - 1) // 5
        state.apply(empty[0] if view.seat == 0 else min(empty, key=lambda s: abs(s - band)))
    assert state.phase == "blitz_call" and state.current_player == 1
    assert is_racko(state.racks[1]) and is_racko(state.racks[2]) and not is_racko(state.racks[0])
    state.apply("call")
    assert state.current_player == 2 and state.phase == "blitz_call"
    state.apply("call")
    result = state.result()
    assert result["callers"] == [1, 2] and result["blitz"] is True
    assert score_result(result, state.options, dealer=0, round_index=0) == [5, 100, 100]


def test_blitz_nobody_calls_play_goes_on() -> None:
    state = _blitz_state()
    while state.phase == "blitz_place":
        state.apply(state.legal_actions()[0])
    while state.phase == "blitz_call":
        state.apply("wait")
    assert state.phase == "draw" and state.current_player == 1 and not state.is_over


def test_chips_seat_out_is_not_dealt() -> None:
    opts = RackoOptions(3, variant="chips")
    state = new_round(opts, 9, dealer=0, scores=[30, 0, 45], out=[1])
    assert state.racks[1] is None and state.current_player == 2
    assert state.view(1).rack == () and state.view(0).match_scores == (30, 0, 45)
    bot = BaselineBot()
    while not state.is_over:
        assert state.current_player != 1
        state.apply(bot.choose(state.view(state.current_player), state.legal_actions()))
    validate_result(state.result(), opts, dealer=0, round_index=0)
    with pytest.raises(RuleError):
        new_round(RackoOptions(3), 9, out=[1])
    with pytest.raises(RuleError):
        new_round(opts, 9, out=[0, 1])


@pytest.mark.parametrize(
    "kwargs", [{"dealer": 2}, {"dealer": True}, {"scores": [1]}, {"scores": ["a", 1]}, {"out": [7]}]
)
def test_new_round_rejects_bad_arguments(kwargs) -> None:
    with pytest.raises(RuleError):
        new_round(RackoOptions(2), 1, **kwargs)
    with pytest.raises(RuleError):
        new_round(RackoOptions(2), 1.5)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        replay(RackoOptions(2), 1, "stock")  # type: ignore[arg-type]


game_options = st.builds(
    RackoOptions,
    players=st.integers(2, 4),
    variant=st.sampled_from(["standard", "bonus"]),
    blitz=st.booleans(),
    reshuffle=st.booleans(),
) | st.builds(RackoOptions, players=st.integers(2, 4), variant=st.just("chips"), reshuffle=st.booleans())


@settings(max_examples=40, deadline=None)
@given(game_options, st.integers(0, 2**32), st.integers(0, 3), st.floats(0.0, 0.5))
def test_random_rounds_keep_the_cards_and_offer_calls_only_to_racks_that_may_call(
    opts, seed, dealer, randomness
) -> None:
    """Racko's own invariants under bot and random play (the shared contract: tests/test_conformance.py)."""
    dealer %= opts.players
    rng = random.Random(seed)
    state = new_round(opts, seed, dealer=dealer)
    bot = BaselineBot()
    deck = list(range(1, opts.deck_size + 1))
    steps = 0
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        assert legal
        view = state.view(seat)
        assert view.phase == state.phase and view.rack == tuple(state.racks[seat])
        if state.phase == "call":
            assert may_call(state.racks[seat], opts)
        action = rng.choice(legal) if rng.random() < randomness else bot.choose(view, legal)
        state.apply(action)
        steps += 1
        assert all_cards(state) == deck
    assert state.turn <= TURN_LIMIT
