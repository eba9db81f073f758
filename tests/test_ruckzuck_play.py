"""Digital Ruck Zuck: the round state machine (RULES.md 2.2, 2.3)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.ruckzuck import (
    RuckZuckOptions,
    RuckZuckState,
    board,
    new_round,
    penalty,
    replay,
    score_result,
)
from scorekeeper.games.ruckzuck.play import START_JOKER_FIELD

ALL = [*range(1, 50), "J", "J"]


def position(
    cards_on_board: dict,
    hands: list[list],
    *,
    stock: list | None = None,
    stock_size: int = 10,
    current: int = 0,
) -> RuckZuckState:
    """A hand-built position; the stock is `stock` (bottom to top) or the first `stock_size` cards not named
    elsewhere; the cards left over are parked in the last hand so the 51 cards stay complete."""
    named = [*cards_on_board.values(), *(c for h in hands for c in h), *(stock or [])]
    rest = list(ALL)
    for card in named:
        rest.remove(card)
    if stock is None:
        stock, park = rest[:stock_size], rest[stock_size:]
    else:
        park = rest
    hands = [list(h) for h in hands]
    hands[-1].extend(park)
    return RuckZuckState.from_position(
        RuckZuckOptions(len(hands)), hands, cards_on_board, stock, current=current
    )


def state_key(state: RuckZuckState) -> tuple:
    return (
        tuple(state.view(s) for s in range(state.options.players)),
        json.dumps(state.log),
        tuple(sorted(map(str, state.all_cards()))),
    )


# --- placing -------------------------------------------------------------------------------------------


def test_only_cards_touching_the_board_may_be_placed() -> None:
    s = position({21: 21}, [[8, 22, 23, 40], [1]])
    assert s.legal_actions() == [["place", 8, 8], ["place", 22, 22], "draw"]


def test_chain_around_the_stock_field() -> None:
    s = position({30: 30}, [[31, 19, 42, 43, 1], [2]])
    legal = s.legal_actions()
    assert ["place", 31, 31] not in legal  # 30 and 31 do not touch across the stock field
    assert ["place", 19, 19] in legal and ["place", 42, 42] in legal and ["place", 43, 43] in legal
    s.apply(["place", 19, 19])
    assert ["place", 31, 31] in s.legal_actions()  # 19 reaches 31 corner to corner
    s.apply(["place", 31, 31])
    assert s.legal_actions()[-1] == "end"
    assert "draw" not in s.legal_actions()
    s.apply("end")
    assert s.current_player == 1
    assert s.view(0).hand == (1, 42, 43)


def test_seed_chain_from_21() -> None:
    s = position({21: 21}, [[30, 19, 7, 8, 49], [2]])
    for card in (8, 7, 19, 30):
        assert ["place", card, card] in s.legal_actions()
        s.apply(["place", card, card])
    assert s.view(0).hand == (49,)


def test_an_empty_joker_field_connects_nothing_but_a_joker_on_it_does() -> None:
    s = position({22: 22}, [[23, "J", 5], [2]])
    assert ["place", 23, 23] not in s.legal_actions()
    assert ["place", "J", "J2"] in s.legal_actions()
    assert ["place", "J", "J1"] not in s.legal_actions()  # nowhere near a card
    s.apply(["place", "J", "J2"])
    assert ["place", 23, 23] in s.legal_actions()


def test_joker_goes_on_any_touching_empty_number_field_and_connects() -> None:
    s = position({1: 1}, [["J", 3, 9], [2]])
    legal = s.legal_actions()
    assert ["place", "J", 2] in legal and ["place", "J", 14] in legal and ["place", "J", 15] in legal
    assert ["place", 3, 3] not in legal
    s.apply(["place", "J", 2])
    assert ["place", 3, 3] in s.legal_actions()
    assert s.view(0).board[board.position_of(2)] == "J"


def test_number_cards_only_go_on_their_own_field() -> None:
    s = position({1: 1}, [[2, 9, "J"], [3]])
    with pytest.raises(RuleError, match="Card 2 goes only on field 2"):
        s.apply(["place", 2, 14])
    with pytest.raises(RuleError, match="has no card 3 in hand"):
        s.apply(["place", 3, 3])
    with pytest.raises(RuleError, match="Field 9 does not touch any card"):
        s.apply(["place", 9, 9])
    with pytest.raises(RuleError, match="Field 1 is already taken"):
        s.apply(["place", "J", 1])
    with pytest.raises(RuleError, match="no such field J3"):
        s.apply(["place", "J", "J3"])


# --- joker swap ----------------------------------------------------------------------------------------


def test_joker_swap_then_the_joker_must_be_played_at_once() -> None:
    s = position({30: "J", 29: 29}, [[30, 5], [2]])
    legal = s.legal_actions()
    assert ["swap", 30] in legal
    assert ["place", 30, 30] not in legal
    with pytest.raises(RuleError, match="swap it for card 30"):
        s.apply(["place", 30, 30])
    s.apply(["swap", 30])
    view = s.view(0)
    assert view.joker_pending and view.hand == (5, "J")
    assert view.board[board.position_of(30)] == 30
    legal = s.legal_actions()
    assert legal and all(a[:2] == ["place", "J"] for a in legal)
    assert "end" not in legal and "draw" not in legal
    with pytest.raises(RuleError, match="must place it now"):
        s.apply("end")
    with pytest.raises(RuleError, match="must place it now"):
        s.apply(["place", 5, 5])
    with pytest.raises(RuleError, match="must place it now"):
        s.apply(["place", "J", 31])  # 31 touches neither 29 nor 30 (the stock field lies between)
    s.apply(["place", "J", 19])
    assert s.view(0).hand == (5,)
    assert "end" in s.legal_actions()


def test_a_swapped_joker_counts_as_placing_so_the_turn_may_end() -> None:
    s = position({30: "J"}, [[30, 1, "J"], [2]])
    s.apply(["swap", 30])
    s.apply(["place", "J", 18])
    assert s.legal_actions()[-1] == "end"
    s.apply(["place", "J", 19])
    s.apply("end")
    assert s.current_player == 1 and s.view(0).hand == (1,)


def test_a_joker_on_a_joker_field_stays() -> None:
    s = position({22: 22, "J2": "J"}, [[23, 11], [2]])
    assert ["swap", 23] not in s.legal_actions()
    assert ["place", 23, 23] in s.legal_actions()


def test_swap_is_offered_only_for_a_joker_on_that_number() -> None:
    s = position({30: "J"}, [[31, 29], [2]])
    assert ["swap", 31] not in s.legal_actions()
    with pytest.raises(RuleError, match="No joker lies on field 31"):
        s.apply(["swap", 31])


# --- drawing and round end -----------------------------------------------------------------------------


def test_placing_nothing_means_drawing_and_the_card_waits() -> None:
    s = position({1: 1}, [[40], [45]], stock_size=5)
    top = s._stock[-1]
    with pytest.raises(RuleError, match="must draw"):
        s.apply("end")
    s.apply("draw")
    assert s.current_player == 1
    assert top in s.hand(0)
    assert s.view(1).stock_size == 4


def test_no_draw_after_placing() -> None:
    s = position({1: 1}, [[2, 40], [45]])
    s.apply(["place", 2, 2])
    with pytest.raises(RuleError, match="ends the turn instead of drawing"):
        s.apply("draw")


def test_going_out_ends_the_round_at_once() -> None:
    s = position({1: 1}, [[2, 3], [45]])
    s.apply(["place", 2, 2])
    s.apply(["place", 3, 3])
    assert s.is_over and s.legal_actions() == []
    result = s.result()
    assert result["out"] == 0 and result["hands"][0] == []
    assert score_result(result, s.options, dealer=1, round_index=0) == [0, penalty(result["hands"][1])]
    with pytest.raises(RuleError, match="over"):
        s.apply("end")


def test_last_draw_may_still_be_placed_then_the_round_ends() -> None:
    s = position({1: 1}, [[40], [45]], stock=[2])
    s.apply("draw")
    assert s.current_player == 0 and s.view(0).last_draw and s.view(0).stock_size == 0
    assert s.legal_actions() == [["place", 2, 2], "end"]
    s.apply(["place", 2, 2])
    assert not s.is_over
    s.apply("end")
    assert s.is_over
    result = s.result()
    assert result["out"] is None and result["hands"][0] == [40]
    assert result["hands"][1][-2:] == ["J", "J"] and len(result["hands"][1]) == 51 - 3


def test_last_draw_can_go_out() -> None:
    s = position({1: 1}, [[], [45]], stock=[2])
    s.apply("draw")
    s.apply(["place", 2, 2])
    assert s.is_over and s.result()["out"] == 0


def test_last_draw_with_nothing_to_place() -> None:
    s = position({1: 1}, [[40], [45]], stock=[49])
    s.apply("draw")
    assert s.legal_actions()[-1] == "end" and "draw" not in s.legal_actions()
    s.apply("end")
    assert s.is_over and s.result()["out"] is None


def test_result_before_the_end_is_refused() -> None:
    with pytest.raises(RuleError, match="not over"):
        new_round(RuckZuckOptions(3), 1).result()


# --- dealing -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal(players: int) -> None:
    s = new_round(RuckZuckOptions(players), 7, dealer=1)
    v = s.view(0)
    assert v.hand_sizes == (5,) * players
    assert v.stock_size == 51 - 5 * players - 1
    assert sum(c is not None for c in v.board) == 1
    assert s.current_player == 2 % players
    assert sorted(map(str, s.all_cards())) == sorted(map(str, ALL))


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    o = RuckZuckOptions(4)
    assert new_round(o, "abc").view(0) == new_round(o, "abc").view(0)
    assert new_round(o, 1).view(0) != new_round(o, 2).view(0)


def test_a_joker_start_card_goes_on_field_25() -> None:
    for side in ("red", "blue"):
        seed = next(
            seed for seed in range(2000) if new_round(RuckZuckOptions(3, side=side), seed).start_card == "J"
        )
        view = new_round(RuckZuckOptions(3, side=side), seed).view(0)
        assert view.board[board.position_of(START_JOKER_FIELD, side)] == "J"
        assert sum(c is not None for c in view.board) == 1


def test_a_number_start_card_lies_on_its_field() -> None:
    s = new_round(RuckZuckOptions(2, side="blue"), 3)
    card = s.start_card
    assert card != "J"
    assert s.view(0).board[board.position_of(card, "blue")] == card


# --- hidden information, replay ------------------------------------------------------------------------


def test_views_hide_other_hands_and_the_stock_order() -> None:
    a = position({1: 1}, [[2, 3], [4, 5, 6]], stock_size=5)
    b = position({1: 1}, [[2, 3], [4, 5, 6]], stock_size=5)
    # swap a card between seat 1 and the stock, and reorder the stock: seat 0 must not notice
    card = b._hands[1][0]
    b._hands[1][0], b._stock[0] = b._stock[0], card
    b._stock.reverse()
    assert a.view(0) == b.view(0)
    assert a.view(1) != b.view(1)


def test_view_of_a_missing_seat() -> None:
    with pytest.raises(RuleError, match="no seat 3"):
        new_round(RuckZuckOptions(3), 1).view(3)


def play_randomly(state: RuckZuckState, rng: random.Random, limit: int = 2000) -> int:
    steps = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
        assert steps < limit
    return steps


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.sampled_from(["red", "blue"]), st.integers(0, 10**6), st.integers(0, 5))
def test_random_rounds_keep_the_cards(players: int, side: str, seed: int, dealer: int) -> None:
    """Ruck Zuck's own invariants under random play (the shared contract: tests/test_conformance.py)."""
    options = RuckZuckOptions(players, side=side)
    dealer %= players
    state = new_round(options, seed, dealer=dealer)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal
        state.apply(rng.choice(legal))
        assert sorted(map(str, state.all_cards())) == sorted(map(str, ALL))
        assert len(state.log) < 2000
    if state.result()["out"] is None:
        assert state.view(0).stock_size == 0


def test_replay_of_a_bad_log_names_the_move() -> None:
    o = RuckZuckOptions(2)
    with pytest.raises(RuleError, match="Move 1 of the saved round"):
        replay(o, 5, ["end"])  # nothing placed yet: the first player must draw
