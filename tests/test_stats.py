"""Statistics over matches: every figure checked against hand-worked matches, and against the match model."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.model.match import Match
from scorekeeper.stats.overview import (
    PlayerGameStats,
    facts,
    filter_matches,
    player_game_stats,
    progression,
    win_shares,
)

# Two-player racks from disjoint numbers of the 1..40 deck.
CALLER_RUN3 = [1, 2, 3, 5, 7, 9, 11, 13, 15, 17]  # a Racko whose longest direct run is 3 (1, 2, 3)
LOW_RACK = [40, 4, 6, 8, 10, 12, 14, 16, 18, 20]  # ascending count 1, longest run 1


def racko_round(callers: list[int] | None = None) -> dict[str, Any]:
    return {
        "racks": [CALLER_RUN3, LOW_RACK],
        "callers": callers if callers is not None else [0],
        "blitz": False,
    }


def make(game: str, options: dict[str, Any], players: list[str], rounds: list[dict[str, Any]]) -> Match:
    match = Match.new(game, options, players, names=[p.title() for p in players])
    for result in rounds:
        match = match.with_round(result)
    return match


def record(records: list[PlayerGameStats], player: str, game: str) -> PlayerGameStats:
    (found,) = [r for r in records if r.player == player and r.game == game]
    return found


def rage_rounds() -> list[dict[str, Any]]:
    """Amigo, 3 players, hands 10..1: seat 0 always takes every trick; it bids them in even rounds only."""
    rounds = []
    for index in range(10):
        size = 10 - index
        bid0 = size if index % 2 == 0 else 0
        rounds.append({"bids": [bid0, 0, 0], "tricks": [size, 0, 0], "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    return rounds


def test_racko_standard_counts_games_wins_rounds_calls_and_runs() -> None:
    match = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    assert match.is_over  # 150 : 10 after two rounds
    records = player_game_stats([match])
    ann, bob = record(records, "ann", "racko"), record(records, "bob", "racko")
    assert (ann.games, ann.wins, ann.win_rate) == (1, 1, 1.0)
    assert (bob.games, bob.wins, bob.win_rate) == (1, 0, 0.0)
    assert (ann.rounds, ann.points, ann.average_round, ann.best_round) == (2, 150, 75.0, 75)
    assert (bob.average_round, bob.best_round) == (5.0, 5)
    assert (ann.calls, bob.calls) == (2, 0)
    assert (ann.longest_run, bob.longest_run) == (3, 1)
    assert ann.bonus_points == bob.bonus_points == 0  # no bonus outside Bonus Racko
    assert ann.name == "Ann"


def test_bonus_racko_bonus_points_are_the_run_bonus_of_the_caller() -> None:
    # RULES 1.5: a caller with a longest run of 3 scores 75 + 50 = 125; only the caller gets a bonus.
    match = make("racko", {"variant": "bonus", "target": 200}, ["ann", "bob"], [racko_round(), racko_round()])
    assert match.round_scores() == [[125, 5], [125, 5]]
    records = player_game_stats([match])
    assert record(records, "ann", "racko").bonus_points == 100
    assert record(records, "bob", "racko").bonus_points == 0


def test_quick_form_runs_count_for_the_longest_run() -> None:
    quick = {"counts": [None, 3], "runs": [3, 2], "callers": [0], "blitz": False}
    match = make("racko", {"variant": "bonus", "target": 200}, ["ann", "bob"], [quick, racko_round()])
    records = player_game_stats([match])
    assert record(records, "bob", "racko").longest_run == 2
    assert record(records, "ann", "racko").longest_run == 3


def test_ruck_zuck_best_round_is_the_lowest_and_times_out_are_counted() -> None:
    rounds = [{"hands": [[], [3, 17, "J"]], "out": 0}, {"hands": [[5], 10], "out": None}]
    match = make("ruckzuck", {}, ["ann", "bob"], rounds)
    assert match.round_scores() == [[0, 120], [5, 10]]  # RULES 2.3: [3, 17, J] is 120
    records = player_game_stats([match])
    ann, bob = record(records, "ann", "ruckzuck"), record(records, "bob", "ruckzuck")
    assert (ann.wins, bob.wins) == (1, 0)
    assert (ann.best_round, bob.best_round) == (0, 10)
    assert (ann.average_penalty, bob.average_penalty) == (2.5, 65.0)
    assert (ann.times_out, bob.times_out) == (1, 0)


def test_a_shared_first_place_is_a_win_for_each() -> None:
    rounds = [{"hands": [7, 7], "out": None}, {"hands": [4, 4], "out": None}]
    match = make("ruckzuck", {}, ["ann", "bob"], rounds)
    records = player_game_stats([match])
    assert [record(records, p, "ruckzuck").wins for p in ("ann", "bob")] == [1, 1]
    shares = win_shares([match])
    assert {s.player: (s.wins, s.share) for s in shares} == {"ann": (1, 0.5), "bob": (1, 0.5)}


def test_rage_exact_bid_rate() -> None:
    match = make("rage", {"edition": "amigo"}, ["ann", "bob", "cy"], rage_rounds())
    assert match.is_over
    records = player_game_stats([match])
    assert record(records, "ann", "rage").exact_bid_rate == 0.5
    assert record(records, "bob", "rage").exact_bid_rate == 1.0
    assert record(records, "ann", "rage").exact_bids == 5


def test_unfinished_matches_do_not_count() -> None:
    running = make("racko", {"target": 500}, ["ann", "bob"], [racko_round()])
    done = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    assert not running.is_over
    records = player_game_stats([running, done])
    ann = record(records, "ann", "racko")
    assert (ann.games, ann.rounds) == (1, 2)
    assert filter_matches([running, done]) == [done]
    assert filter_matches([running, done], only_finished=False) == [running, done]


def test_stats_are_kept_per_game_and_ordered_by_game() -> None:
    racko = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    rage = make("rage", {"edition": "amigo"}, ["ann", "bob", "cy"], rage_rounds())
    records = player_game_stats([rage, racko])
    assert [r.game for r in records] == ["racko", "racko", "rage", "rage", "rage"]
    assert record(records, "ann", "racko").games == record(records, "ann", "rage").games == 1
    assert filter_matches([racko, rage], game="rage") == [rage]
    assert filter_matches([racko, rage], player="cy") == [rage]


def test_win_shares_add_up_to_one_and_list_most_wins_first() -> None:
    ann_wins = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    ann_again = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    # Rage: ann scores 80 (exact in the even rounds only), bob and cy 10 x 10 = 100 and share the win.
    rage = make("rage", {"edition": "amigo"}, ["ann", "bob", "cy"], rage_rounds())
    assert rage.totals() == [80, 100, 100]
    shares = win_shares([ann_wins, ann_again, rage])
    assert [(s.player, s.wins) for s in shares] == [("ann", 2), ("bob", 1), ("cy", 1)]
    assert [s.share for s in shares] == [0.5, 0.25, 0.25]


def test_progression_starts_at_zero_and_ends_at_the_totals() -> None:
    match = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    series = progression(match)
    assert [s.values for s in series] == [(0, 75, 150), (0, 5, 10)]
    assert [s.label for s in series] == ["Ann", "Bob"]


def test_progression_of_the_chips_game_starts_with_the_chips() -> None:
    # 3 players (1..50): the caller's rack is a Racko; both payers have no run of 3 and pay 1 chip each.
    racks = [
        [1, 2, 3, 5, 7, 9, 11, 13, 15, 17],
        [50, 4, 6, 8, 10, 12, 14, 16, 18, 20],
        [49, 21, 23, 25, 27, 29, 31, 33, 35, 37],
    ]
    result = {"racks": racks, "callers": [0], "blitz": False}
    match = make("racko", {"variant": "chips", "rounds": 2}, ["ann", "bob", "cy"], [result, result])
    series = progression(match)
    assert [s.values[-1] for s in series] == match.totals()
    assert series[0].values[0] == 25
    assert series[1].values == (25, 24, 23)


def test_progression_of_partners_shows_the_teams() -> None:
    racks = [
        [1, 2, 3, 5, 7, 9, 11, 13, 15, 17],
        [60, 4, 6, 8, 10, 12, 14, 16, 18, 19],
        [21, 22, 24, 26, 28, 30, 32, 34, 36, 38],
        [59, 23, 25, 27, 29, 31, 33, 35, 37, 39],
    ]
    match = make(
        "racko",
        {"partners": True, "target": 100},
        ["ann", "bob", "cy", "di"],
        [{"racks": racks, "callers": [0], "blitz": False}],
    )
    series = progression(match)
    assert [s.seats for s in series] == [(0, 2), (1, 3)]
    assert [s.values for s in series] == [(0, 125), (0, 10)]
    assert series[0].label == "Ann & Cy"
    assert [s.values[-1] for s in series] == match.team_totals()


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda n: st.lists(st.lists(st.integers(1, 300), min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_stats_agree_with_the_match_model(penalties: list[list[int]]) -> None:
    players = [f"p{i}" for i in range(len(penalties[0]))]
    match = make("ruckzuck", {}, players, [{"hands": row, "out": None} for row in penalties])
    assert match.is_over
    records = player_game_stats([match])
    totals = match.totals()
    for seat, player in enumerate(players):
        mine = record(records, player, "ruckzuck")
        assert mine.points == totals[seat]
        assert mine.best_round == min(row[seat] for row in penalties)
        assert mine.wins == (seat in match.winners())
    assert [s.values[-1] for s in progression(match)] == totals
    assert sum(s.wins for s in win_shares([match])) == len(match.winners())


def test_facts_ask_each_match_once_and_give_the_same_figures() -> None:
    running = make("racko", {"target": 500}, ["ann", "bob"], [racko_round()])
    racko = make("racko", {"target": 100}, ["ann", "bob"], [racko_round(), racko_round()])
    rage = make("rage", {"edition": "amigo"}, ["ann", "bob", "cy"], rage_rounds())
    rage = dataclasses.replace(rage, updated="2026-01-01T00:00:00+00:00")
    racko = dataclasses.replace(racko, updated="2026-02-01T00:00:00+00:00")
    known = facts([racko, running, rage])
    assert [f.match for f in known] == [rage, racko]  # finished only, oldest first
    assert known[1].winners == frozenset({0}) and known[1].scores == racko.round_scores()
    assert player_game_stats(known) == player_game_stats([racko, running, rage])
    assert win_shares(known) == win_shares([rage, racko])
