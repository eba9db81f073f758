"""Game nights (`scorekeeper.stats.game_nights`): which matches are one night, and the combined ranking."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.stats.game_nights import (
    ALONE,
    Night,
    Result,
    group,
    joined,
    night_of,
    rank_points,
    ranking,
    span_of,
    taken_out,
)

T0 = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Fake:
    """What grouping reads of a match (as a `MatchSummary` holds it)."""

    id: str
    created: str
    updated: str
    place: str = ""
    clock: list[Any] = field(default_factory=list)
    night: str = ""


def at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


def fake(
    match_id: str, start: float, end: float, place: str = "", night: str = "", clock: bool = False
) -> Fake:
    """A match from `start` to `end` (minutes after T0), by its clock or by created/updated."""
    if clock:
        return Fake(match_id, at(start), at(end + 600), place, [[at(start), at(end)]], night)
    return Fake(match_id, at(start), at(end), place, [], night)


def partition(nights: list[Night]) -> set[frozenset[str]]:
    return {frozenset(n.ids) for n in nights}


def test_same_place_within_four_hours_is_one_night() -> None:
    matches = [
        fake("a", 0, 60, "Anna's"),
        fake("b", 90, 150, " anna's "),  # the same place, spaces and case aside
        fake("c", 150 + 239, 450, "Anna's"),  # 3 h 59 after b ended
        fake("d", 450 + 241, 700, "Anna's"),  # 4 h 01 after c ended: the next night
        fake("e", 30, 60, "Club"),  # another place
        fake("f", 40, 50),  # no place: only with no place
        fake("g", 70, 80, ""),
    ]
    assert partition(group(matches)) == {
        frozenset("abc"),
        frozenset("d"),
        frozenset("e"),
        frozenset("fg"),
    }


def test_the_clock_is_the_time_played_and_a_late_note_does_not_stretch_the_night() -> None:
    # a's clock ends at 60 though it was changed 10 hours later (a note): b at 60 + 5 h is another night
    a = fake("a", 0, 60, "x", clock=True)
    assert span_of(a).end == T0 + timedelta(minutes=60)
    b = fake("b", 60 + 300, 400, "x")
    assert partition(group([a, b])) == {frozenset("a"), frozenset("b")}
    # without a clock, an `updated` days later counts as at most six hours after the start
    late = Fake("c", at(0), at(60 * 48), "y")
    assert span_of(late).end == T0 + timedelta(hours=6)


def test_hand_made_choices() -> None:
    matches = [
        fake("a", 0, 60, "home"),
        fake("b", 70, 120, "home", night=ALONE),  # taken out
        fake("c", 130, 200, "home"),
        fake("d", 80, 100, "pub", night="a"),  # put into a's night though elsewhere
        fake("e", 90, 100, "pub", night="b"),  # put with b (alone): a night of the two
        fake("f", 100, 110, "pub", night="gone"),  # a link to a deleted match: grouped by place and time
        fake("g", 115, 120, "pub"),
    ]
    assert partition(group(matches)) == {frozenset("acd"), frozenset("be"), frozenset("fg")}


def test_joining_and_taking_out_give_the_choices_that_do_it() -> None:
    matches = [fake("a", 0, 60, "home"), fake("b", 70, 120, "home"), fake("x", 0, 10, "pub")]
    nights = group(matches)
    home = night_of(nights, "a")
    assert home is not None and set(home.ids) == {"a", "b"}
    x = joined("x", home)
    matches[2] = fake("x", 0, 10, "pub", night=x)
    assert partition(group(matches)) == {frozenset("abx")}
    home = night_of(group(matches), "a")
    assert home is not None
    # taking out a, the match x was linked to: x stays in the night through b
    changes = taken_out("a", home, {m.id: m.night for m in matches})
    assert changes == {"a": ALONE, "x": "b"}
    matches = [
        fake("a", 0, 60, "home", night=ALONE),
        fake("b", 70, 120, "home"),
        fake("x", 0, 10, "pub", night="b"),
    ]
    assert partition(group(matches)) == {frozenset("a"), frozenset("bx")}


times = st.integers(min_value=0, max_value=60 * 24 * 3)
places = st.sampled_from(["", "home", "Home ", "pub"])


@st.composite
def histories(draw: Any) -> list[Fake]:
    count = draw(st.integers(min_value=0, max_value=25))
    ids = [f"m{i:02d}" for i in range(count)]
    matches = []
    for match_id in ids:
        start = draw(times)
        length = draw(st.integers(min_value=0, max_value=400))
        night = draw(st.sampled_from(["", "", "", ALONE, "nowhere", *ids]))
        matches.append(fake(match_id, start, start + length, draw(places), night, draw(st.booleans())))
    return matches


@settings(max_examples=200, deadline=None)
@given(histories(), st.randoms(use_true_random=False))
def test_every_match_in_exactly_one_night_whatever_the_order(matches: list[Fake], rnd: random.Random) -> None:
    nights = group(matches)
    listed = [i for n in nights for i in n.ids]
    assert sorted(listed) == sorted(m.id for m in matches)  # each exactly once
    shuffled = list(matches)
    rnd.shuffle(shuffled)
    assert group(shuffled) == nights  # the same nights, listed the same way
    by_id = {m.id: m for m in matches}
    for m in matches:
        night = night_of(nights, m.id)
        assert night is not None
        if m.night in by_id and m.night != m.id:  # put by hand into another match's night
            assert m.night in night.ids
        if m.night == ALONE:  # taken out: only with matches put into it by hand
            assert all(by_id[i].night not in ("", ALONE) or i == m.id for i in night.ids if i != m.id)
        if m.night == "" or m.night not in (ALONE, *by_id):  # grouped by place and time: same place
            for other in night.ids:
                o = by_id[other]
                if o.night == "" or o.night not in (ALONE, *by_id):
                    assert o.place.strip().casefold() == m.place.strip().casefold()


def test_grouping_ten_thousand_matches() -> None:
    matches = [fake(f"{i:05d}", i * 37, i * 37 + 30, ("home", "pub", "")[i % 3]) for i in range(10_000)]
    nights = group(matches)
    assert sum(len(n.ids) for n in nights) == 10_000


# ------------------------------------------------------------------------------------------------- ranking
def test_rank_points_share_ties() -> None:
    assert rank_points([1, 2, 3]) == [2, 1, 0]
    assert rank_points([1, 1, 3]) == [1.5, 1.5, 0]
    assert rank_points([2, 1]) == [0, 1]
    assert rank_points([1, 1, 3, 3]) == [2.5, 2.5, 0.5, 0.5]  # partners: the team's place


def test_ranking_over_a_night_of_three_games() -> None:
    racko = Result(["a", "b"], ["Anna", "Ben"], [1, 2])  # Anna 1, Ben 0
    rage = Result(["a", "b", "c", "d"], ["Anna", "Ben", "Cleo", "Dan"], [4, 1, 2, 2])  # 0, 3, 1.5, 1.5
    ruck = Result(["c", "a", "d"], ["Cleo", "Anna", "Dan"], [1, 2, 2])  # 2, 0.5, 0.5
    rows = ranking([racko, rage, ruck])
    assert [(r.name, r.points, r.wins, r.matches, r.place) for r in rows] == [
        ("Cleo", 3.5, 1, 2, 1),
        ("Ben", 3.0, 1, 2, 2),
        ("Dan", 2.0, 0, 2, 3),
        ("Anna", 1.5, 1, 3, 4),
    ]


def test_ranking_ties_are_broken_by_wins_then_fewer_matches_then_shared() -> None:
    one = Result(["a", "b", "c"], ["Anna", "Ben", "Cleo"], [1, 2, 3])  # 2, 1, 0
    two = Result(["b", "c"], ["Ben", "Cleo"], [1, 2])  # Ben 1 -> 2 points, 1 win, 2 matches
    rows = ranking([one, two])
    assert [(r.name, r.points, r.place) for r in rows] == [("Anna", 2, 1), ("Ben", 2, 2), ("Cleo", 0, 3)]
    # the same points and wins: fewer matches first
    three = Result(["a", "b"], ["Anna", "Ben"], [2, 1])
    four = Result(["a", "c"], ["Anna", "Cleo"], [1, 2])
    five = Result(["a", "c"], ["Anna", "Cleo"], [2, 2])
    rows = ranking([three, four, five])  # Anna 0 + 1 + 0.5 = 1.5 (1 win, 3), Ben 1 (1, 1), Cleo 0.5
    assert [(r.name, r.points, r.wins, r.matches) for r in rows] == [
        ("Anna", 1.5, 1, 3),
        ("Ben", 1, 1, 1),
        ("Cleo", 0.5, 0, 2),
    ]
    same = ranking(
        [
            Result(["a", "b"], ["Anna", "Ben"], [1, 2]),
            Result(["c", "d", "b"], ["Cleo", "Dan", "Ben"], [1, 3, 3]),
        ]
    )
    # Anna 1 point, 1 win, 1 match; Cleo 2 points; Ben 0 + 0.5; Dan 0.5: Ben and Dan equal but Dan played fewer
    assert [(r.name, r.points, r.matches, r.place) for r in same] == [
        ("Cleo", 2, 1, 1),
        ("Anna", 1, 1, 2),
        ("Dan", 0.5, 1, 3),
        ("Ben", 0.5, 2, 4),
    ]
    # equal in everything: the place is shared
    tie = ranking([Result(["a", "b"], ["Anna", "Ben"], [1, 1])])
    assert [(r.name, r.points, r.place) for r in tie] == [("Anna", 0.5, 1), ("Ben", 0.5, 1)]


def test_a_renamed_player_is_one_line_with_the_latest_name() -> None:
    rows = ranking([Result(["a", "b"], ["Ann", "Ben"], [1, 2]), Result(["a", "b"], ["Anna", "Ben"], [1, 2])])
    assert [(r.name, r.points, r.matches) for r in rows] == [("Anna", 2, 2), ("Ben", 0, 2)]


def test_grouped_keeps_the_nights_of_the_same_list_only() -> None:
    from scorekeeper.stats.game_nights import Grouped

    grouped = Grouped()
    matches = [fake("a", 0, 60, "home"), fake("b", 70, 120, "home")]
    first = grouped(matches)
    assert grouped(matches) is first  # the same list: not grouped again
    changed = [*matches[:1], fake("b", 70, 120, "home", night=ALONE)]
    assert partition(grouped(changed)) == {frozenset("a"), frozenset("b")}  # a new list is grouped
