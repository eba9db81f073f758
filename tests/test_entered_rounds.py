"""Rounds a score keeper enters, by the rules: statistics over every entry form, the Racko caller a score keeper must name,
refused deletions that say why, Ruck Zuck's minimum rounds, the quick form's runs, partners as teams."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games import RuleError
from scorekeeper.games.racko import RackoOptions, caller_breakdown, check_entry, racko_seats
from scorekeeper.games.racko.quick import quick_run_needed, validate_quick_round
from scorekeeper.games.ruckzuck import RuckZuckOptions
from scorekeeper.model.match import Match
from scorekeeper.stats.overview import player_game_stats

# Three players (cards 1..50), disjoint racks.
CALLER_RUN4 = [1, 2, 3, 4, 12, 20, 30, 40, 45, 50]  # a Racko, longest run 4: Bonus 75 + 100
SEVEN = [5, 6, 8, 11, 13, 21, 37, 22, 41, 42]  # ascending count 7, longest run 2
ONE = [49, 9, 10, 14, 15, 16, 17, 18, 19, 23]  # ascending count 1, longest run 6 (14..19)


def racks(caller: int = 0) -> dict[str, Any]:
    order = [CALLER_RUN4, SEVEN, ONE]
    return {"racks": order, "callers": [caller], "blitz": False}


def quick(counts: list[int | None], runs: list[int | None] | None, callers: list[int]) -> dict[str, Any]:
    return {"counts": counts, "runs": runs, "callers": callers, "blitz": False}


def play(game: str, options: dict[str, Any], rounds: list[dict[str, Any]], players: int = 3) -> Match:
    match = Match.new(
        game, options, [f"p{i}" for i in range(players)], names=["Ann", "Ben", "Cy", "Di"][:players]
    )
    for result in rounds:
        match = match.with_round(result)
    return match


FORMS: dict[str, tuple[str, dict[str, Any], list[dict[str, Any]]]] = {
    "racko racks": ("racko", {"target": 100}, [racks(), racks()]),
    "racko quick": ("racko", {"target": 100}, [quick([None, 7, 1], None, [0]), quick([10, 7, 1], None, [0])]),
    "racko bonus racks": ("racko", {"variant": "bonus", "target": 300}, [racks(), racks()]),
    "racko bonus quick": (
        "racko",
        {"variant": "bonus", "target": 600},
        [quick([None, 7, 1], [6, 2, 6], [0]), quick([None, 7, 1], [4, 2, 6], [0])],
    ),
    "racko bonus mixed": (
        "racko",
        {"variant": "bonus", "target": 600},
        [racks(), quick([None, 7, 1], [6, 2, 6], [0])],
    ),
    "racko blitz": (
        "racko",
        {"blitz": True, "target": 150},
        [{**racks(), "blitz": True}, {"counts": [None, 7, 1], "runs": None, "callers": [0], "blitz": True}],
    ),
    "racko chips racks": ("racko", {"variant": "chips", "rounds": 2}, [racks(), racks()]),
    "racko chips quick": (
        "racko",
        # Ben pays 5 chips for his run of 5 but has 2: he is out, and sits out round 2 (empty entries).
        {"variant": "chips", "rounds": 2, "chips_start": 2},
        [quick([None, 7, 1], [4, 5, 1], [0]), quick([None, None, 1], [None, None, 1], [0])],
    ),
    "ruck zuck hands": (
        "ruckzuck",
        {},
        [{"hands": [[], [3, 17, "J"], [5]], "out": 0}, {"hands": [[4], [], [6, 7]], "out": 1}] * 1
        + [{"hands": [[8], [9], []], "out": 2}],
    ),
    "ruck zuck totals": (
        "ruckzuck",
        {},
        [{"hands": [0, 120, 5], "out": 0}, {"hands": [4, 0, 13], "out": 1}, {"hands": [8, 9, 0], "out": 2}],
    ),
    "rage": (
        "rage",
        {"edition": "amigo"},
        [
            {"bids": [size, 0, 0], "tricks": [size, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]}
            for size in range(10, 0, -1)
        ],
    ),
}


@pytest.mark.parametrize("form", list(FORMS))
def test_statistics_count_every_entry_form_of_every_game(form: str) -> None:
    """Every round a seat played counts, whatever form it was entered in: rounds, points, best
    round and calls agree with the match model, seat by seat."""
    game, options, rounds = FORMS[form]
    match = play(game, options, rounds)
    assert match.is_over, form
    tally = match.tally()
    lower = match.lower_wins
    for record in player_game_stats([match]):
        seat = match.players.index(record.player)
        played = [i for i in range(len(rounds)) if seat not in tally.out[i]]
        scores = [tally.scores[i][seat] for i in played]
        assert record.rounds == len(played), (form, seat)
        assert record.points == sum(scores), (form, seat)
        assert record.best_round == (min(scores) if lower else max(scores)), (form, seat)
        if game == "racko":
            assert record.calls == sum(seat in r["callers"] for r in rounds), (form, seat)


def test_a_bonus_caller_entered_in_the_quick_form_counts_fully() -> None:
    # 175 from racks (run 4), 475 from the quick form (run 6).
    match = play("racko", {"variant": "bonus", "target": 800}, [racks(), quick([None, 7, 1], [6, 2, 6], [0])])
    assert [row[0] for row in match.round_scores()] == [175, 475]
    match = match.with_round(racks())
    ann = next(r for r in player_game_stats([match]) if r.player == "p0")
    assert (ann.rounds, ann.points, ann.best_round, ann.calls) == (3, 825, 475, 3)
    assert ann.bonus_points == 100 + 400 + 100
    assert ann.longest_run == 6


# --- 8.3: a Racko round names its caller -------------------------------------------------------------------


def test_an_entered_racko_round_without_a_caller_is_refused() -> None:
    match = play("racko", {}, [])
    with pytest.raises(RuleError, match="who called Racko"):
        match = match.with_round({**racks(), "callers": []})
    with pytest.raises(RuleError, match="who called Racko"):
        match = match.with_round(quick([10, 7, 1], None, []))
    assert match.rounds == []
    match = match.with_round(racks())
    with pytest.raises(RuleError, match="who called Racko"):
        match = match.with_round_edited(0, {**racks(), "callers": []})
    with pytest.raises(RuleError, match="who called Racko"):
        check_entry({**racks(), "callers": []}, RackoOptions(players=3))


def test_digital_rounds_may_end_without_a_call() -> None:
    # RULES 1.3: the turn limit ends a digital round with nobody calling.
    match = Match.new("racko", {}, ["a", "b", "c"], mode="digital")
    match = match.with_round({**racks(), "callers": []})
    assert match.round_scores() == [[50, 35, 5]]


def test_the_one_rack_that_may_call_is_offered() -> None:
    opts = RackoOptions(players=3)
    assert racko_seats([CALLER_RUN4, SEVEN, ONE], opts) == [0]
    assert racko_seats([CALLER_RUN4, [None] * 10, ONE], opts) == [0]
    two = RackoOptions(players=2)
    assert racko_seats([[1, 5, 9, 13, 17, 21, 25, 29, 33, 37], [2, 3, 4, 6, 7, 8, 10, 11, 12, 14]], two) == [
        1
    ]


# --- 8.4: a refused deletion says why ----------------------------------------------------------------------


def test_deleting_a_rage_round_that_moves_later_rounds_says_why() -> None:
    sizes = [10, 9, 8]
    match = play(
        "rage",
        {"edition": "amigo"},
        [{"bids": [0, 0, 0], "tricks": [n, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]} for n in sizes],
    )
    with pytest.raises(RuleError) as refused:
        match = match.without_round(0)
    text = str(refused.value)
    assert text.startswith("Round 1 cannot be deleted: round 2 was played with 9 cards")
    assert "dealt 10" in text
    assert len(match.rounds) == 3
    match = match.without_round(2)  # the last round moves nothing
    assert len(match.rounds) == 2


# --- 8.13: the caller's points, broken down ----------------------------------------------------------------


def test_caller_breakdown_gives_the_call_and_the_run_bonus() -> None:
    bonus = RackoOptions(players=3, variant="bonus")
    assert caller_breakdown(racks(), bonus) == {0: (75, 100, 4)}
    assert caller_breakdown(quick([None, 7, 1], [6, 2, 6], [0]), bonus) == {0: (75, 400, 6)}
    assert caller_breakdown(racks(), RackoOptions(players=3)) == {0: (75, 0, 4)}
    assert caller_breakdown(racks(), RackoOptions(players=3, variant="chips")) == {}


# --- 8.15: Ruck Zuck is played at least one round per player ---------------------------------------------


def test_ruck_zuck_needs_at_least_one_round_per_player() -> None:
    with pytest.raises(RuleError, match="at least 3 rounds"):
        RuckZuckOptions(players=3, rounds=2)
    with pytest.raises(RuleError):
        Match.new("ruckzuck", {"rounds": 2}, ["a", "b", "c"])
    assert RuckZuckOptions(players=3, rounds=3).planned_rounds == 3
    assert RuckZuckOptions(players=3, rounds=5).planned_rounds == 5


# --- 8.16: the quick form asks the caller's run where a rule needs it, and only there ---------------------


def test_quick_form_two_player_rule_needs_the_callers_run() -> None:
    opts = RackoOptions(players=2)  # the 2-player rule is on
    with pytest.raises(RuleError, match="2-player rule"):
        validate_quick_round([None, 4], None, [0], opts)
    with pytest.raises(RuleError, match="2-player rule"):
        validate_quick_round([None, 4], [2, None], [0], opts)
    validate_quick_round([None, 4], [3, None], [0], opts)
    match = play("racko", {}, [], players=2)
    with pytest.raises(RuleError):
        match = match.with_round(quick([None, 4], None, [0]))


def test_chips_quick_form_paid_by_the_payers_run_does_not_need_the_callers() -> None:
    payer = RackoOptions(players=3, variant="chips")
    validate_quick_round([None, None, None], [None, 2, 1], [0], payer)
    match = play("racko", {"variant": "chips"}, [quick([None, None, None], [None, 3, 1], [0])])
    assert match.round_scores() == [[3, -2, -1]]
    by_caller = RackoOptions(players=3, variant="chips", chip_basis="caller")
    with pytest.raises(RuleError, match="longest run"):
        validate_quick_round([None, None, None], [None, 2, 1], [0], by_caller)


@pytest.mark.parametrize(
    ("options", "caller", "other"),
    [
        ({"players": 3}, False, False),
        ({"players": 2}, True, False),
        ({"players": 2, "two_player_rule": False}, False, False),
        ({"players": 3, "variant": "bonus"}, True, False),
        ({"players": 3, "variant": "chips"}, False, True),
        ({"players": 3, "variant": "chips", "chip_basis": "caller"}, True, True),
    ],
)
def test_which_runs_the_quick_form_needs(options: dict[str, Any], caller: bool, other: bool) -> None:
    opts = RackoOptions(**options)
    assert quick_run_needed(opts, calling=True) is caller
    assert quick_run_needed(opts, calling=False) is other


# --- 8.17: partners as teams -------------------------------------------------------------------------------


def partners_match(target: int = 150) -> Match:
    match = Match.new(
        "racko", {"partners": True, "target": target}, ["a", "b", "c", "d"], names=["Ann", "Ben", "Cy", "Dan"]
    )
    return match


def test_partners_rank_as_teams_places_one_and_two() -> None:
    match = partners_match()
    match = match.with_round(
        quick([None, 4, 3, 2], None, [0])
    )  # Ann + Cy 75 + 15 = 90; Ben + Dan 20 + 10 = 30
    teams = match.team_standings()
    assert teams is not None
    assert [(t.names, t.total, t.place) for t in teams] == [(("Ann", "Cy"), 90, 1), (("Ben", "Dan"), 30, 2)]
    assert sorted(row.place for row in match.standings()) == [1, 1, 2, 2]


def test_a_tie_at_the_target_is_reported_while_the_game_goes_on() -> None:
    match = partners_match(target=100)
    match = match.with_round(quick([None, 4, 3, 2], None, [0]))  # 90 : 30
    match = match.with_round(quick([2, None, 3, 4], None, [1]))  # 90 + 10 + 15 = 115 : 30 + 75 + 20 = 125
    assert match.is_over
    tied = partners_match(target=100)
    tied = tied.with_round(quick([None, 1, 3, 1], None, [0]))  # 90 : 10
    tied = tied.with_round(quick([2, None, 3, 6], None, [1]))  # 115 : 115
    assert tied.team_totals() == [115, 115]
    assert not tied.is_over and tied.tied_at_target() == 115
    assert partners_match().tied_at_target() is None


# --- 8.13: who called, per round -----------------------------------------------------------------------------


def test_round_calls_of_every_round() -> None:
    match = play(
        "racko", {"variant": "bonus", "target": 800}, [racks(), quick([7, 10, 1], [None, 6, None], [1])]
    )
    assert match.round_calls() == [{0: (75, 100, 4)}, {1: (75, 400, 6)}]
    assert play("ruckzuck", {}, []).round_calls() == []
