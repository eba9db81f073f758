"""Ruck Zuck rules: board data, adjacency, penalties and what a score keeper may enter (RULES.md 2)."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.ruckzuck import (
    JOKER,
    LOWER_WINS,
    Options,
    RuckZuckOptions,
    adjacent_numbers,
    board,
    penalty,
    score_result,
    validate_hands,
    validate_result,
)

# --- board ---------------------------------------------------------------------------------------------


def test_red_side_is_the_natural_order_of_rules_2_1() -> None:
    assert board.RED[0] == tuple(range(1, 14))
    assert board.RED[1] == (14, 15, "J", 16, 17, 18, 19, 20, 21, 22, "J", 23, 24)
    assert board.RED[2] == (25, 26, 27, 28, 29, 30, "S", 31, 32, 33, 34, 35, 36)
    assert board.RED[3] == tuple(range(37, 50))


@pytest.mark.parametrize("side", ["red", "blue"])
def test_each_side_has_49_numbers_two_joker_fields_and_the_stock_field(side: str) -> None:
    fields = board.layout(side)
    assert len(fields) == 52
    assert sorted(f for f in fields if isinstance(f, int)) == list(range(1, 50))
    assert [p for p, f in enumerate(fields) if f == "J"] == [15, 23]
    assert [p for p, f in enumerate(fields) if f == "S"] == [32]


def test_blue_side_is_scrambled() -> None:
    assert board.layout("blue") != board.layout("red")
    moved = sum(1 for a, b in zip(board.layout("red"), board.layout("blue"), strict=True) if a != b)
    assert moved > 40


def test_neighbours_are_the_eight_surrounding_fields() -> None:
    assert len(board.neighbours(14 + 13)) == 8  # an inner field
    assert sorted(board.neighbours(0)) == [1, 13, 14]  # a corner
    assert len(board.neighbours(5)) == 5  # top edge
    for p in range(52):
        for q in board.neighbours(p):
            assert p in board.neighbours(q)


def test_unknown_side_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="red and a blue"):
        board.layout("green")


# --- adjacency: the seed's examples --------------------------------------------------------------------


def test_21_touches_the_seed_list() -> None:
    assert adjacent_numbers(21) == {8, 9, 10, 20, 22, 31, 32, 33}


def test_22_reaches_11_and_34_diagonally_but_not_23_across_the_joker_field() -> None:
    touching = adjacent_numbers(22)
    assert {11, 34} <= touching
    assert 23 not in touching
    assert touching == {9, 10, 11, 21, 32, 33, 34}


def test_stock_field_separates_30_from_31_and_19_from_43() -> None:
    assert 31 not in adjacent_numbers(30)
    assert 43 not in adjacent_numbers(19)
    assert 30 not in adjacent_numbers(31)
    # but corner to corner one gets past it
    assert {19, 43} <= adjacent_numbers(30)
    assert {30, 31} <= adjacent_numbers(19)
    assert {30, 31} <= adjacent_numbers(43)


def test_seed_chain_8_7_19_30() -> None:
    chain = [21, 8, 7, 19, 30]
    for before, after in itertools.pairwise(chain):
        assert after in adjacent_numbers(before)


def test_joker_and_stock_fields_are_not_numbers() -> None:
    for n in range(1, 50):
        assert adjacent_numbers(n) <= set(range(1, 50))
        assert n not in adjacent_numbers(n)
    assert adjacent_numbers(15) == {1, 2, 3, 14, 25, 26, 27}  # 15 touches the left joker field, not 16


@pytest.mark.parametrize("side", ["red", "blue"])
def test_adjacency_is_symmetric(side: str) -> None:
    for n in range(1, 50):
        for m in adjacent_numbers(n, side):
            assert n in adjacent_numbers(m, side)


def test_blue_adjacency_follows_the_blue_layout() -> None:
    # blue row 0 starts 39, 36, ...; row 1 starts 20, 30
    assert adjacent_numbers(39, "blue") == {36, 20, 30}


@pytest.mark.parametrize("bad", [0, 50, -1, True, "7", None, 2.0])
def test_adjacent_numbers_rejects_non_numbers(bad: object) -> None:
    with pytest.raises(RuleError, match="1 to 49"):
        adjacent_numbers(bad)  # type: ignore[arg-type]


# --- penalty -------------------------------------------------------------------------------------------


def test_penalty_example_from_the_notation() -> None:
    assert penalty([3, 17, JOKER]) == 120
    assert JOKER == "J"


def test_penalty_of_nothing_and_of_everything() -> None:
    assert penalty([]) == 0
    assert penalty([*range(1, 50), "J", "J"]) == 1425


cards = st.one_of(st.integers(1, 49), st.just("J"))


@given(st.lists(cards, max_size=12), st.lists(cards, max_size=12))
def test_penalty_is_additive_and_order_free(a: list, b: list) -> None:
    assert penalty(a + b) == penalty(a) + penalty(b)
    assert penalty(list(reversed(a))) == penalty(a)
    assert penalty(a) >= len(a)


@given(st.lists(st.integers(1, 49), max_size=10), st.integers(0, 2))
def test_a_joker_costs_100(numbers: list[int], jokers: int) -> None:
    assert penalty(numbers + ["J"] * jokers) == sum(numbers) + 100 * jokers


@pytest.mark.parametrize("bad", [[0], [50], ["j"], [None], [1.5], "123", None, 7])
def test_penalty_rejects_non_cards(bad: object) -> None:
    with pytest.raises(RuleError):
        penalty(bad)  # type: ignore[arg-type]


# --- options -------------------------------------------------------------------------------------------


def test_options_defaults_and_round_trip() -> None:
    o = RuckZuckOptions(4)
    assert (o.players, o.rounds, o.side, o.planned_rounds) == (4, None, "red", 4)
    assert Options(**dataclasses.asdict(o)) == o
    assert RuckZuckOptions(3, rounds=6, side="blue").planned_rounds == 6
    assert LOWER_WINS is True


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "2 to 6 players"),
        ({"players": 7}, "2 to 6 players"),
        ({"players": True}, "2 to 6 players"),
        ({"players": 3, "rounds": 0}, "at least 1"),
        ({"players": 3, "rounds": 2.5}, "at least 1"),
        ({"players": 3, "side": "green"}, "red or blue"),
    ],
)
def test_bad_options_are_rule_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        RuckZuckOptions(**kwargs)


# --- what a score keeper enters ------------------------------------------------------------------------


def test_valid_hands_and_totals_pass() -> None:
    validate_hands([[3, 17, "J"], [], 45, [1, 2]])
    validate_hands([0, 10], RuckZuckOptions(2))
    validate_hands([1425, 0])


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([[3], [3]], "Player 2: card 3 is entered also in the hand of Player 1"),
        ([[5, 5], [1]], "Player 1: card 5 is entered twice"),
        ([["J"], ["J", "J"]], "Player 2: there are only 2 jokers"),
        ([[], []], "Player 1 and Player 2 both have no cards left"),
        ([0, []], "Player 1 and Player 2 both have no cards left"),
        ([[50], [1]], "Player 1: 50 is not a card"),
        ([[1], [0]], "Player 2: 0 is not a card"),
        ([[1], ["x"]], "Player 2: x is not a card"),
        ([[1], [None]], "Player 2: that entry is not a card"),
        ([1426, 3], "Player 1: a penalty total must lie between 0 and 1,425"),
        ([-1, 3], "Player 1: a penalty total"),
        ([[1], "12"], "Player 2: enter the cards"),
        ([[1]], "2 to 6 players"),
        ([[1]] * 7, "2 to 6 players"),
        ([1400, 100], "more than all cards"),
        ([list(range(1, 49)), 1300], "more than all cards"),
        ("abc", "one hand or penalty total per player"),
    ],
)
def test_bad_hands_name_the_player_and_card(hands: object, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        validate_hands(hands)  # type: ignore[arg-type]


def test_player_count_must_match_the_options() -> None:
    with pytest.raises(RuleError, match="This game has 3 players, but 2 hands"):
        validate_hands([[1], [2]], RuckZuckOptions(3))


junk = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 2000),
        st.floats(allow_nan=True),
        st.text(max_size=3),
        st.just("J"),
    ),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=30,
)


@settings(max_examples=300)
@given(junk)
def test_validate_hands_raises_only_rule_errors(hands: object) -> None:
    try:
        validate_hands(hands)  # type: ignore[arg-type]
    except RuleError as error:
        text = str(error)
        # what was typed is echoed (even "<"); no object repr or traceback is
        assert text and "Traceback" not in text and " object at 0x" not in text and "<class" not in text
    # any other exception fails the test


@settings(max_examples=300)
@given(junk, st.one_of(junk, st.integers(-2, 8)), st.integers(-1, 6))
def test_validate_result_raises_only_rule_errors(hands: object, out: object, round_index: int) -> None:
    try:
        validate_result({"hands": hands, "out": out}, RuckZuckOptions(3), dealer=0, round_index=round_index)
    except RuleError as error:
        assert str(error)


@given(
    st.permutations([*range(1, 50), "J", "J"]),
    st.integers(2, 6),
    st.lists(st.integers(0, 8), min_size=6, max_size=6),
)
def test_any_real_deal_of_remaining_cards_is_valid(deck: list, players: int, sizes: list[int]) -> None:
    hands: list = []
    rest = deck[1:]  # one card always lies on the board
    for k in range(players):
        size = max(sizes[k], 1) if k else sizes[k]
        hands.append(rest[:size])
        rest = rest[size:]
    validate_hands(hands, RuckZuckOptions(players))
    assert score_result(
        {"hands": hands, "out": 0 if not hands[0] else None},
        RuckZuckOptions(players),
        dealer=0,
        round_index=0,
    ) == [penalty(h) for h in hands]


# --- round results -------------------------------------------------------------------------------------


def test_score_result_mixes_hands_and_totals() -> None:
    o = RuckZuckOptions(3)
    result = {"hands": [[], [3, 17, "J"], 45], "out": 0}
    assert score_result(result, o, dealer=2, round_index=0) == [0, 120, 45]
    assert score_result({"hands": [0, [3], 45], "out": 0}, o, dealer=2, round_index=1) == [0, 3, 45]


def test_stock_ran_out_nobody_needs_an_empty_hand() -> None:
    o = RuckZuckOptions(2)
    assert score_result({"hands": [[4], [5]], "out": None}, o, dealer=0, round_index=0) == [4, 5]
    assert score_result({"hands": [[], [5]], "out": None}, o, dealer=0, round_index=0) == [0, 5]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"hands": [[1], [2]], "out": 0}, "Player 1 went out, so they have no cards left"),
        ({"hands": [[1], 7], "out": 1}, "Player 2 went out"),
        ({"hands": [[], [2]], "out": 2}, "one of the 2 players"),
        ({"hands": [[], [2]], "out": "0"}, "one of the 2 players"),
        ({"hands": [[], []], "out": 0}, "only one player can go out"),
        ({"out": 0}, "needs the hands"),
        ([[1], [2]], "needs the hands"),
    ],
)
def test_bad_results(result: object, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        validate_result(result, RuckZuckOptions(2), dealer=0, round_index=0)  # type: ignore[arg-type]


def test_round_index_beyond_the_planned_rounds() -> None:
    with pytest.raises(RuleError, match="only 2 rounds"):
        validate_result({"hands": [[], [2]], "out": 0}, RuckZuckOptions(2), dealer=0, round_index=2)
    validate_result({"hands": [[], [2]], "out": 0}, RuckZuckOptions(2, rounds=3), dealer=0, round_index=2)
