"""Racko rules: RULES.md 1.4-1.8 examples and decisions, scoring tables, validation and fuzzing."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.racko import (
    BONUS_TABLE,
    CHIP_TABLE,
    LOWER_WINS,
    Options,
    RackoOptions,
    RuleError,
    ascending_count,
    chip_payments,
    is_racko,
    longest_run,
    may_call,
    quick_chip_payments,
    quick_round_points,
    round_points,
    score_result,
    settle_chips,
    validate_quick_round,
    validate_result,
    validate_round,
)

# Abb. 3: 37 in slot 30 followed by 22 in slot 35 -> ascending count 6 (30 points).
ABB3 = [3, 8, 14, 19, 25, 37, 22, 29, 33, 39]
SORTED = [1, 5, 9, 13, 17, 21, 25, 29, 33, 37]  # a Racko without any direct run
WITH_RUN3 = [1, 5, 9, 13, 17, 28, 29, 30, 33, 37]  # Abb. 4: 28, 29, 30


def racks_2p(caller_rack: list[int]) -> list[list[int]]:
    """A legal 2-player round: the caller's rack plus another rack of unused cards."""
    rest = [c for c in range(1, 41) if c not in caller_rack][:10]
    return [caller_rack, rest]


# --- runs and counts ------------------------------------------------------------------------------------


def test_abb3_example_counts_six_cards_thirty_points() -> None:
    assert ascending_count(ABB3) == 6
    caller = [1, 2, 4, 5, 6, 7, 9, 10, 11, 12]
    third = [c for c in range(1, 51) if c not in caller and c not in ABB3][:10]
    assert round_points([caller, ABB3, third], 0, RackoOptions(3))[:2] == [75, 30]


def test_slot_10_lower_than_slot_5_scores_only_5() -> None:
    rack = [20, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert ascending_count(rack) == 1
    assert not is_racko(rack)


def test_runs() -> None:
    assert longest_run(WITH_RUN3) == 3
    assert longest_run(SORTED) == 1
    assert longest_run([1, 2, 4, 5, 6, 7, 9, 10, 30, 31]) == 4
    assert longest_run(list(range(31, 41))) == 10
    assert is_racko(SORTED) and is_racko(WITH_RUN3)


def test_primitives_reject_malformed_racks() -> None:
    for bad in ([1, 2, 3], None, "rack", [1] * 9 + [True]):
        with pytest.raises(RuleError):
            ascending_count(bad)  # type: ignore[arg-type]


# --- options --------------------------------------------------------------------------------------------


def test_options_defaults_and_round_trip() -> None:
    assert Options is RackoOptions and LOWER_WINS is False
    two = RackoOptions(2)
    assert two.two_player_rule is True and two.deck_size == 40
    assert RackoOptions(3).two_player_rule is False and RackoOptions(4).deck_size == 60
    chips = RackoOptions(3, variant="chips")
    assert chips.rounds == 10
    for opts in (two, chips, RackoOptions(4, partners=True, blitz=True, variant="bonus")):
        data = dataclasses.asdict(opts)
        json.dumps(data)
        assert RackoOptions(**data) == opts == RackoOptions.from_dict(data)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 5},
        {"players": True},
        {"players": 2, "variant": "gold"},
        {"players": 3, "partners": True},
        {"players": 3, "two_player_rule": True},
        {"players": 3, "variant": "chips", "blitz": True},
        {"players": 4, "variant": "chips", "partners": True},
        {"players": 2, "rounds": 5},
        {"players": 2, "variant": "chips", "rounds": 0},
        {"players": 2, "target": 0},
        {"players": 2, "chip_basis": "bank"},
        {"players": 2, "reshuffle": "yes"},
    ],
)
def test_bad_options_are_rule_errors(kwargs: dict) -> None:
    with pytest.raises(RuleError):
        RackoOptions(**kwargs)


def test_options_from_dict_rejects_unknown_keys() -> None:
    with pytest.raises(RuleError, match="colour"):
        RackoOptions.from_dict({"players": 2, "colour": "red"})
    with pytest.raises(RuleError):
        RackoOptions.from_dict([2])


# --- points ---------------------------------------------------------------------------------------------


def test_standard_points_caller_75_others_5_per_card() -> None:
    opts = RackoOptions(2)
    racks = racks_2p(WITH_RUN3)
    assert round_points(racks, 0, opts) == [75, 5 * ascending_count(racks[1])]


def test_nobody_called_everyone_scores_their_count() -> None:
    opts = RackoOptions(3)
    racks = [ABB3, [c for c in range(1, 51) if c not in ABB3][:10], [44, 45, 46, 15, 16, 47, 48, 49, 50, 43]]
    assert round_points(racks, None, opts) == [30, 50, 15]


@pytest.mark.parametrize(
    ("run", "points"), [(1, 75), (2, 75), (3, 125), (4, 175), (5, 275), (6, 475), (9, 475)]
)
def test_bonus_table(run: int, points: int) -> None:
    rack = list(range(1, run + 1)) + [run + 2 * k + 2 for k in range(10 - run)]
    assert longest_run(rack) == run
    opts = RackoOptions(3, variant="bonus")
    others = [c for c in range(1, 51) if c not in rack]
    scored = round_points([rack, others[:10], others[10:20]], 0, opts)
    assert scored[0] == points
    assert dict(BONUS_TABLE)[3] == 50


def test_only_the_caller_gets_a_bonus() -> None:
    opts = RackoOptions(3, variant="bonus")
    runner = list(range(41, 51))  # a 10-run Racko held by a non-caller
    caller = SORTED
    other = [c for c in range(1, 51) if c not in runner and c not in caller][:10]
    assert round_points([caller, runner, other], 0, opts)[:2] == [75, 50]


def test_two_player_rule() -> None:
    racks = racks_2p(SORTED)
    with pytest.raises(RuleError, match="2-player rule"):
        validate_round(racks, 0, RackoOptions(2))
    validate_round(racks, 0, RackoOptions(2, two_player_rule=False))
    validate_round(racks_2p(WITH_RUN3), 0, RackoOptions(2))
    assert not may_call(SORTED, RackoOptions(2)) and may_call(SORTED, RackoOptions(3))


def test_caller_must_hold_a_racko() -> None:
    with pytest.raises(RuleError, match="slot 35"):
        validate_round(racks_2p(ABB3), 0, RackoOptions(2))


def test_blitz_each_caller_scores_100() -> None:
    opts = RackoOptions(3, blitz=True)
    a = [1, 2, 3, 10, 11, 12, 20, 21, 22, 30]
    b = [4, 5, 6, 13, 14, 15, 23, 24, 25, 31]
    c = [50, 49, 48, 47, 46, 45, 44, 43, 42, 41]
    assert round_points([a, b, c], [0, 1], opts, blitz=True) == [100, 100, 5]
    with pytest.raises(RuleError, match="Only one player"):
        round_points([a, b, c], [0, 1], opts)
    with pytest.raises(RuleError, match="not played"):
        round_points([a, b, c], [0], RackoOptions(3), blitz=True)
    with pytest.raises(RuleError, match="at least one"):
        round_points([a, b, c], [], opts, blitz=True)


# --- chips ----------------------------------------------------------------------------------------------


def _run_rack(run: int, base: int) -> list[int]:
    """A Racko-free rack (descending tail) whose longest run is `run`, using cards from `base` upward."""
    head = list(range(base, base + run))
    tail = [base + run + 2 * k + 1 for k in range(10 - run)]
    return head + tail


def test_chip_table_payer_basis() -> None:
    assert dict(CHIP_TABLE) == {1: 1, 3: 2, 4: 3, 5: 5, 6: 9}
    opts = RackoOptions(4, variant="chips")
    caller = SORTED  # 1..37 step 4, no run
    p3 = [2, 3, 4, 50, 51, 52, 53, 54, 58, 60]  # run 3 (2,3,4) and run 5 (50..54): longest 5
    p2 = [41, 42, 43, 44, 45, 46, 6, 7, 10, 11]  # run 6
    p4 = [55, 56, 57, 8, 12, 14, 15, 16, 18, 19]  # run 3
    payments = chip_payments([caller, p2, p3, p4], 0, opts)
    assert payments == [-(9 + 5 + 2), 9, 5, 2]


def test_chip_table_caller_basis() -> None:
    opts = RackoOptions(3, variant="chips", chip_basis="caller")
    caller = [1, 2, 3, 4, 10, 20, 30, 40, 45, 50]  # run 4 -> everyone pays 3
    a = [c for c in range(5, 50) if c not in caller][:10]
    b = [c for c in range(5, 50) if c not in caller and c not in a][:10]
    assert chip_payments([caller, a, b], 0, opts) == [-6, 3, 3]


def test_chips_seat_out_pays_nothing_and_no_caller_no_payment() -> None:
    opts = RackoOptions(3, variant="chips")
    a = SORTED
    b = [c for c in range(1, 51) if c not in a][:10]
    assert chip_payments([a, None, b], 0, opts) == [-chips_of(b), 0, chips_of(b)]
    assert chip_payments([a, None, b], None, opts) == [0, 0, 0]
    with pytest.raises(RuleError):
        chip_payments([a, None, None], 0, opts)
    with pytest.raises(RuleError, match="out of the game"):
        chip_payments([a, None, b], 1, opts)
    with pytest.raises(RuleError):
        round_points([a, None, b], 0, RackoOptions(3))


def chips_of(rack: list[int]) -> int:
    return {1: 1, 2: 1, 3: 2, 4: 3, 5: 5}.get(longest_run(rack), 9)


def test_settle_chips_caps_at_balance() -> None:
    assert settle_chips([-6, 3, 3], [10, 2, 5]) == [5, -2, -3]
    assert settle_chips([-2, 1, 1], [1, 0, 4]) == [1, 0, -1]
    assert settle_chips([0, 0, 0], [1, 1, 1]) == [0, 0, 0]


# --- validation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("racks", "message"),
    [
        ([WITH_RUN3, [41, *range(11, 20)]], "1 to 40"),
        ([WITH_RUN3, [0, *range(11, 20)]], "1 to 40"),
        ([WITH_RUN3, [2, 2, 3, 4, 6, 7, 8, 10, 11, 12]], "twice"),
        ([WITH_RUN3, [1, 2, 3, 4, 6, 7, 8, 10, 11, 12]], "both Player 1 and Player 2"),
        ([WITH_RUN3, [2, 3, 4, 6, 7, 8, 10, 11, 12]], "9 cards"),
        ([WITH_RUN3], "each of the 2"),
        ([WITH_RUN3, None], "Enter the rack of Player 2"),
        ([WITH_RUN3, [2, 3, 4, 6, 7, 8, 10, 11, 12, "x"]], "card number"),
    ],
)
def test_validate_round_rejects(racks: list, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        validate_round(racks, 0, RackoOptions(2))


def test_caller_must_be_a_seat() -> None:
    racks = racks_2p(WITH_RUN3)
    for caller in (2, -1, True, "0", 1.0):
        with pytest.raises(RuleError):
            validate_round(racks, caller, RackoOptions(2))


# --- quick form -----------------------------------------------------------------------------------------


def test_quick_form_points() -> None:
    opts = RackoOptions(3, variant="bonus")
    assert quick_round_points([None, 6, 10], [4, 2, 10], 0, opts) == [175, 30, 50]
    assert quick_round_points([10, 6, 1], None, 0, RackoOptions(3)) == [75, 30, 5]
    assert quick_round_points([2, 6, 1], None, None, RackoOptions(3)) == [10, 30, 5]


def test_quick_form_chips() -> None:
    opts = RackoOptions(4, variant="chips")
    assert quick_chip_payments([1, 6, None, 3], 0, opts) == [-11, 9, 0, 2]
    caller_basis = RackoOptions(3, variant="chips", chip_basis="caller")
    assert quick_chip_payments([5, 6, 1], 0, caller_basis) == [-10, 5, 5]


@pytest.mark.parametrize(
    ("counts", "runs", "caller", "opts", "message"),
    [
        ([None, None], None, 0, RackoOptions(2, two_player_rule=False), "ascending count of Player 2"),
        ([None, None], None, 0, RackoOptions(2), "2-player rule needs"),  # the caller's run
        ([None, 11], None, 0, RackoOptions(2, two_player_rule=False), "1 to 10"),
        ([9, 3], None, 0, RackoOptions(2), "count of Player 1 is 10"),
        ([None, 3], [2, 1], 0, RackoOptions(2), "2-player rule"),
        ([None, 3], None, 0, RackoOptions(2, variant="bonus"), "longest direct run"),
        ([None, 3], [None, 1], 0, RackoOptions(2, variant="bonus"), "sets the bonus"),
        ([None, 3], [3, 8], 0, RackoOptions(2), "longer than 7"),
        ([None, 3, None], [3, 1, None], 0, RackoOptions(3, variant="chips"), None),
        ([None, 3, 4], [3, 1, None], 0, RackoOptions(3, variant="chips"), "Player 3"),
        ([None, None, None], [3, None, None], 0, RackoOptions(3, variant="chips"), "at least 2"),
        ([None, 3, 4], [3, 1, 1], [0, 1], RackoOptions(3), "Only one"),
    ],
)
def test_quick_form_validation(counts, runs, caller, opts, message) -> None:
    if message is None:
        validate_quick_round(counts, runs, caller, opts)
        return
    with pytest.raises(RuleError, match=message):
        validate_quick_round(counts, runs, caller, opts)


def test_non_caller_may_hold_an_uncalled_racko() -> None:
    validate_quick_round([None, 10], [3, 10], 0, RackoOptions(2, variant="bonus"))


# --- result dicts (games/racko/results.py) -------------------------------------------------------


def test_result_dicts_both_forms() -> None:
    opts = RackoOptions(2)
    racks = racks_2p(WITH_RUN3)
    detailed = {"racks": racks, "callers": [0], "blitz": False}
    validate_result(detailed, opts, dealer=1, round_index=3)
    points = score_result(detailed, opts, dealer=1, round_index=3)
    quick = {"counts": [None, ascending_count(racks[1])], "runs": [3, None], "callers": [0], "blitz": False}
    assert score_result(quick, opts, dealer=1, round_index=3) == points
    chips = RackoOptions(2, variant="chips", two_player_rule=False)
    assert score_result(detailed, chips, dealer=0, round_index=0) == [2, -2]  # payer run 2,3,4
    assert score_result(
        {"counts": [None, 2], "runs": [3, 4], "callers": [0]}, chips, dealer=0, round_index=0
    ) == [
        3,
        -3,
    ]
    assert score_result({"racks": racks, "callers": [], "blitz": False}, opts, dealer=0, round_index=0) == [
        5 * ascending_count(racks[0]),
        5 * ascending_count(racks[1]),
    ]


@pytest.mark.parametrize(
    "result",
    [
        None,
        [],
        {"callers": [0]},
        {"racks": [], "counts": [], "callers": []},
        {"racks": [WITH_RUN3, list(range(11, 21))], "callers": 0},
        {"racks": [WITH_RUN3, list(range(11, 21))], "callers": [0], "extra": 1},
        {"racks": [WITH_RUN3, list(range(11, 21))], "callers": [0], "blitz": "no"},
        {"racks": [WITH_RUN3, list(range(11, 21))]},
    ],
)
def test_result_dict_rejects(result) -> None:
    with pytest.raises(RuleError):
        validate_result(result, RackoOptions(2), dealer=0, round_index=0)
    with pytest.raises(RuleError):
        score_result(result, RackoOptions(2), dealer=0, round_index=0)


def test_result_dealer_must_be_a_seat() -> None:
    detailed = {"racks": racks_2p(WITH_RUN3), "callers": [0], "blitz": False}
    with pytest.raises(RuleError):
        validate_result(detailed, RackoOptions(2), dealer=2, round_index=0)


# --- properties -----------------------------------------------------------------------------------------


@st.composite
def rounds(draw: st.DrawFn) -> tuple[RackoOptions, list, list[int]]:
    """A legal detailed round: random options, random racks, a caller (or none) holding a Racko with a run."""
    players = draw(st.integers(2, 4))
    variant = draw(st.sampled_from(["standard", "bonus", "chips"]))
    opts = RackoOptions(
        players,
        variant=variant,
        two_player_rule=draw(st.booleans()) if players == 2 else None,
        chip_basis=draw(st.sampled_from(["payer", "caller"])),
    )
    deck = list(range(1, opts.deck_size + 1))
    cards = draw(st.permutations(deck))
    caller = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    racks: list = [list(cards[10 * s : 10 * s + 10]) for s in range(players)]
    if caller is not None:
        start = draw(st.integers(1, opts.deck_size - 2))
        run = [start, start + 1, start + 2]
        rest = [c for c in cards if c not in run]
        pick = sorted(run + list(rest[:7]))
        others = rest[7:]
        racks = [None] * players
        racks[caller] = pick
        k = 0
        for s in range(players):
            if s != caller:
                racks[s] = list(others[10 * k : 10 * k + 10])
                k += 1
    if variant == "chips" and players > 2:
        out = draw(st.integers(0, players - 1))
        if out != caller:
            racks[out] = None
    return opts, racks, ([] if caller is None else [caller])


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_scores_are_within_the_rules(case) -> None:
    opts, racks, callers = case
    validate_round(racks, callers, opts)
    points = round_points(racks, callers, opts)
    for seat, value in enumerate(points):
        if seat in callers:
            assert value >= 75 and value in {75, 125, 175, 275, 475}
        elif racks[seat] is None:
            assert value == 0
        else:
            assert value in range(5, 55, 5)
    payments = chip_payments(racks, callers, opts)
    assert sum(payments) == 0
    assert all(p >= 0 for s, p in enumerate(payments) if s not in callers)
    counts = [None if r is None else ascending_count(r) for r in racks]
    runs = [None if r is None else longest_run(r) for r in racks]
    quick = {"counts": counts, "runs": runs, "callers": callers, "blitz": False}
    detailed = {"racks": racks, "callers": callers, "blitz": False}
    assert score_result(quick, opts, dealer=0, round_index=0) == score_result(
        detailed, opts, dealer=0, round_index=0
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.floats(allow_nan=True) | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=11) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=40,
)
result_like = st.fixed_dictionaries(
    {},
    optional={
        "racks": json_values,
        "counts": json_values,
        "runs": json_values,
        "callers": json_values,
        "blitz": json_values,
    },
)
options_pool = [
    RackoOptions(2),
    RackoOptions(3, variant="bonus"),
    RackoOptions(4, variant="chips"),
    RackoOptions(3, blitz=True),
]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(options_pool),
    json_values | result_like,
    json_values,
    json_values,
    json_values,
    st.booleans(),
)
def test_validators_raise_only_rule_errors(opts, result, a, b, c, blitz) -> None:
    calls = [
        lambda: validate_result(result, opts, dealer=0, round_index=0),
        lambda: score_result(result, opts, dealer=0, round_index=0),
        lambda: validate_round(a, b, opts, blitz=blitz),
        lambda: round_points(a, b, opts, blitz=blitz),
        lambda: chip_payments(a, b, opts),
        lambda: validate_quick_round(a, b, c, opts, blitz),
        lambda: quick_round_points(a, b, c, opts, blitz),
        lambda: quick_chip_payments(a, b, opts),
    ]
    for call in calls:
        try:
            call()
        except RuleError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from([f.name for f in dataclasses.fields(RackoOptions)]), json_values))
def test_options_raise_only_rule_errors(data) -> None:
    try:
        RackoOptions.from_dict(data)
    except RuleError:
        pass
