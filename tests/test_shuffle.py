"""The deal's written-out shuffle orders cards as `random.Random(seed).shuffle` does, for any seed and size,
and leaves the generator where `Random.shuffle` leaves it."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.shuffle import shuffle


@given(
    seed=st.one_of(st.integers(min_value=0, max_value=2**64), st.text(max_size=12)),
    size=st.integers(min_value=0, max_value=300),
)
def test_the_shuffle_is_randoms(seed: int | str, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))
    rng = shuffle(seed, ours)
    reference = random.Random(seed)
    reference.shuffle(theirs)
    assert ours == theirs
    assert rng.getstate() == reference.getstate()
