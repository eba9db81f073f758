"""The two checks of a match's rounds (docs/DATA.md): a stored round need only *be readable and scorable*, a
round entered now *follows today's rules*. A rule tightened since a round was saved never refuses the stored
round, and never lets a new one in."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games import RuleError
from scorekeeper.games.racko import RackoOptions, score_result, score_stored
from scorekeeper.games.ruckzuck import RuckZuckOptions, read_options
from scorekeeper.model.match import Match

OLD_QUICK = {"counts": [None, 6], "runs": None, "callers": [0]}
"""A 2-player quick-form round as versions before the caller's-run rule saved it."""


def stored(game: str, options: dict[str, Any], players: int, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    names = ["Anna", "Ben", "Cleo", "Dirk"][:players]
    return {
        "game": game,
        "options": {**options, "players": players},
        "players": [name.lower() for name in names],
        "names": names,
        "rounds": rounds,
        "status": "active",
    }


def test_ruck_zuck_with_fewer_rounds_than_players_is_read_but_not_started() -> None:
    match = Match.from_dict(
        stored("ruckzuck", {"rounds": 1}, 3, [{"hands": [[], [5, 12, "J"], [1, 2]], "out": 0}])
    )
    assert (match.totals(), match.is_over, match.rounds_planned()) == ([0, 117, 3], True, 1)
    with pytest.raises(RuleError, match="at least one round per player"):
        Match.new("ruckzuck", {"rounds": 1}, ["a", "b", "c"])
    with pytest.raises(RuleError, match="whole number of at least 1"):
        read_options(players=3, rounds=0)  # what no version accepted stays unreadable
    kept = read_options(players=3, rounds=1)
    assert isinstance(kept, RuckZuckOptions) and (kept.rounds, kept.planned_rounds) == (1, 1)


def test_an_old_two_player_quick_round_stays_while_new_rounds_follow_todays_rule() -> None:
    match = Match.from_dict(stored("racko", {}, 2, [OLD_QUICK]))
    assert match.totals() == [75, 30]
    with pytest.raises(RuleError, match="longest run of Anna"):
        match.with_round(OLD_QUICK)  # entered now: the 2-player rule asks the caller's run
    with pytest.raises(RuleError, match="longest run of Anna"):
        match.with_round_edited(0, OLD_QUICK)  # re-entered: the same
    later = match.with_round({"counts": [None, 4], "runs": [5, None], "callers": [0]})
    assert later.totals() == [150, 50] and later.rounds[0] == OLD_QUICK
    assert later.without_round(1).rounds == [OLD_QUICK]  # the stored round still reads after a deletion
    assert later.with_round_edited(1, {"counts": [5, None], "runs": [None, 4], "callers": [1]}).totals() == [
        100,
        105,
    ]


def test_a_racko_round_without_a_caller_is_stored_but_not_entered() -> None:
    racks = [list(range(1, 11)), [12, 31, 25, 17, 33, 22, 40, 18, 34, 26]]
    no_caller = {"racks": racks, "callers": []}
    match = Match.from_dict(stored("racko", {"two_player_rule": False}, 2, [no_caller]))
    assert len(match.rounds) == 1
    with pytest.raises(RuleError, match="Say who called Racko"):
        match.with_round(no_caller)


def test_what_no_version_accepted_is_still_unreadable() -> None:
    with pytest.raises(RuleError, match="Round 1"):
        Match.from_dict(stored("racko", {}, 2, [{"counts": [None, 6], "runs": [2, None], "callers": [0]}]))
    with pytest.raises(RuleError, match="Round 1"):
        Match.from_dict(stored("ruckzuck", {"rounds": 1}, 3, [{"hands": [[], [5, 5], [1]], "out": 0}]))


QUICK_ROUND = st.fixed_dictionaries(
    {
        "counts": st.lists(st.one_of(st.none(), st.integers(0, 11)), min_size=2, max_size=2),
        "runs": st.one_of(
            st.none(), st.lists(st.one_of(st.none(), st.integers(0, 11)), min_size=2, max_size=2)
        ),
        "callers": st.sampled_from([[], [0], [1], [0, 1]]),
    }
)


@settings(max_examples=300, deadline=None)
@given(QUICK_ROUND, st.sampled_from(["standard", "bonus", "chips"]), st.booleans())
def test_a_round_todays_rules_accept_scores_the_same_when_stored(
    round_: dict, variant: str, blitz: bool
) -> None:
    """Readable is wider than today's rules and never scores differently."""
    try:
        options = RackoOptions(2, variant=variant, blitz=blitz)
        expected = score_result(round_, options)
    except RuleError:
        return
    assert score_stored(round_, options) == expected
