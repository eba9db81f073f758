"""The hot path's short cuts for the engine's own racks count as the rules do."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.racko.fast import ascending_count, may_call_fast
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.racko.rules import _ascending, may_call

RACKS = st.lists(st.integers(min_value=1, max_value=40), min_size=10, max_size=10, unique=True)


@given(rack=RACKS)
def test_the_ascending_count_is_the_rules(rack: list[int]) -> None:
    assert ascending_count(rack) == _ascending(rack)


@given(rack=RACKS | RACKS.map(sorted) | st.permutations(list(range(1, 11))), run_rule=st.booleans())
def test_the_call_test_is_the_rules(rack: list[int], run_rule: bool) -> None:
    options = RackoOptions(2, two_player_rule=run_rule)
    assert may_call_fast(rack, run_rule) == may_call(rack, options)
