"""Live rack feedback (scorekeeper.games.racko.live): the ascending count and runs of a partly entered rack."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.racko.live import rack_progress
from scorekeeper.games.racko.rules import ascending_count, longest_run

EMPTY: list[int | None] = [None] * 10


def test_empty_rack_counts_nothing() -> None:
    progress = rack_progress(EMPTY)
    assert (progress.ascending_from_front, progress.runs, progress.filled) == (0, (), 0)
    assert not progress.complete and progress.longest_run == 1


def test_count_grows_as_cards_go_in_from_the_front() -> None:
    rack: list[int | None] = list(EMPTY)
    for index, card in enumerate([3, 9, 14, 20]):
        rack[index] = card
        assert rack_progress(rack).ascending_from_front == index + 1


def test_first_drop_stops_the_count() -> None:
    # RULES.md 1.4 seed example: 37 in slot 30 followed by 22 in slot 35 gives ascending count 6.
    rack = [2, 8, 15, 19, 30, 37, 22, None, None, None]
    assert rack_progress(rack).ascending_from_front == 6


def test_a_gap_stops_the_count_until_it_is_filled() -> None:
    rack: list[int | None] = [1, 2, None, 10, 11, 12, None, None, None, None]
    assert rack_progress(rack).ascending_from_front == 2
    rack[2] = 5
    assert rack_progress(rack).ascending_from_front == 6
    rack[2] = 40  # a drop right after it: 40 > 10 does not hold
    assert rack_progress(rack).ascending_from_front == 3


def test_empty_front_slot_counts_zero_even_with_cards_behind() -> None:
    assert rack_progress([None, 2, 3, 4, 5, 6, 7, 8, 9, 10]).ascending_from_front == 0


def test_runs_are_filled_adjacent_slots_rising_by_one() -> None:
    rack = [4, 5, 6, None, 20, 21, 30, 29, 30, 31]
    progress = rack_progress(rack)
    assert progress.runs == (range(0, 3), range(4, 6), range(7, 10))
    assert progress.longest_run == 3
    assert progress.run_slots == {0, 1, 2, 4, 5, 7, 8, 9}


def test_a_gap_splits_a_run() -> None:
    assert rack_progress([4, 5, None, 6, None, None, None, None, None, None]).runs == (range(0, 2),)
    assert rack_progress([4, None, 5, None, None, None, None, None, None, None]).runs == ()


def test_rising_by_more_than_one_is_no_run() -> None:
    assert rack_progress([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]).runs == ()


@pytest.mark.parametrize(
    "slots",
    [
        [1] * 9,
        [None] * 11,
        [0, *[None] * 9],
        ["5", *[None] * 9],
        [True, *[None] * 9],
        "1234567890",
    ],
)
def test_bad_input_is_a_rule_error(slots: object) -> None:
    with pytest.raises(RuleError):
        rack_progress(slots)  # type: ignore[arg-type]


racks = st.lists(st.integers(1, 60), min_size=10, max_size=10, unique=True)


@given(racks)
def test_a_full_rack_gives_the_final_figures(rack: list[int]) -> None:
    progress = rack_progress(rack)
    assert progress.complete and progress.filled == 10
    assert progress.ascending_from_front == ascending_count(rack)
    assert progress.longest_run == longest_run(rack)


@given(racks, st.sets(st.integers(0, 9)))
def test_a_partial_rack_never_promises_more_than_it_will_give(rack: list[int], hidden: set[int]) -> None:
    """Filling the empty slots can only add to the count; runs seen so far stay runs in the full rack."""
    partial: list[int | None] = [None if i in hidden else card for i, card in enumerate(rack)]
    progress = rack_progress(partial)
    full = rack_progress(rack)
    assert progress.filled == 10 - len(hidden)
    assert progress.ascending_from_front <= full.ascending_from_front
    assert progress.run_slots <= full.run_slots
    if not hidden or min(hidden) >= full.ascending_from_front:
        assert progress.ascending_from_front == min(full.ascending_from_front, min(hidden, default=10))
