"""The match model for Racko: the target with 'play on while the top is tied', partners, chips, Blitz."""

from __future__ import annotations

import pytest

from scorekeeper.games import RuleError
from scorekeeper.model.match import Match


def quick(counts: list[int | None], callers: list[int], runs: list[int | None] | None = None) -> dict:
    return {"counts": counts, "runs": runs, "callers": callers, "blitz": False}


def racko(players: int = 2, **options: object) -> Match:
    return Match.new(
        "racko",
        dict(options),
        [f"p{i}" for i in range(players)],
        names=["Ann", "Ben", "Cleo", "Dan"][:players],
    )


def test_target_reached_with_top_tied_plays_on_until_one_leads() -> None:
    match = racko(two_player_rule=False, target=125)
    match = match.with_round(quick([None, 10], [0]))  # 75 / 50
    match = match.with_round(quick([10, None], [1]))  # 125 / 125: both at the target, tied
    assert match.totals() == [125, 125]
    assert not match.is_over and match.winners() == []
    assert [row.place for row in match.standings()] == [1, 1]
    match = match.with_round(quick([None, 4], [0]))
    assert match.totals() == [200, 145]
    assert match.is_over and match.winners() == [0]


def test_detailed_racks_score_through_the_rules() -> None:
    match = racko(players=3, variant="bonus")
    racks = [
        [1, 2, 3, 4, 12, 20, 30, 40, 45, 50],  # Racko with a run of 4: 75 + 100
        [5, 6, 8, 11, 13, 21, 37, 22, 41, 42],  # ascending count 7
        [49, 9, 10, 14, 15, 16, 17, 18, 19, 23],  # ascending count 1
    ]
    match = match.with_round({"racks": racks, "callers": [0], "blitz": False})
    assert match.round_scores() == [[175, 35, 5]]
    assert match.dealer == 1


def test_wrong_caller_is_refused_with_the_players_name() -> None:
    match = racko(players=3)
    racks = [
        [1, 2, 3, 4, 12, 20, 30, 40, 45, 50],
        [5, 6, 8, 11, 13, 21, 37, 22, 41, 42],
        [49, 9, 10, 14, 15, 16, 17, 18, 19, 23],
    ]
    with pytest.raises(RuleError, match="Ben"):
        match = match.with_round({"racks": racks, "callers": [1], "blitz": False})
    assert match.rounds == []


def test_partners_add_their_scores_and_win_together() -> None:
    match = racko(players=4, partners=True, target=200)
    match = match.with_round(quick([None, 4, 6, 2], [0]))  # 75 20 30 10: team A 105, team B 30
    assert match.team_totals() == [105, 30]
    assert [row.total for row in match.standings()] == [105, 105, 30, 30]
    match = match.with_round(quick([5, 3, None, 1], [2]))  # 25 15 75 5: team A 205, team B 50
    assert match.is_over and sorted(match.winners()) == [0, 2]


def test_chips_game_pays_caps_and_puts_players_out() -> None:
    match = racko(players=3, variant="chips", chips_start=3, rounds=5)
    assert match.totals() == [3, 3, 3]
    # Payer basis: Ben's longest run 4 -> pays 3, Cleo none -> pays 1.
    match = match.with_round(quick([None, 2, 2], [0], runs=[3, 4, 1]))
    assert match.round_scores() == [[4, -3, -1]]
    assert match.totals() == [7, 0, 2]
    assert match.players_out() == [1]
    # Ben is out: he sits the next round out, and the deal skips him.
    assert match.dealer == 2 and match.dealer_after == 0
    with pytest.raises(RuleError, match="Ben is out"):
        match = match.with_round(quick([None, 2, 2], [0], runs=[3, 1, 1]))
    # Cleo owes 9 (run of 6) but has 2: she pays what she has and the game ends with one player holding chips.
    match = match.with_round(quick([None, None, 3], [0], runs=[3, None, 6]))
    assert match.totals() == [9, 0, 0]
    assert match.is_over and match.winners() == [0]
    assert sum(match.totals()) == 9


def test_chips_game_ends_after_the_agreed_rounds() -> None:
    match = racko(players=2, variant="chips", rounds=2, two_player_rule=False)
    match = match.with_round(quick([None, 3], [0], runs=[3, 1]))
    assert match.rounds_planned() == 2 and not match.is_over
    match = match.with_round(quick([3, None], [1], runs=[2, 5]))
    assert match.is_over
    assert match.totals() == [25, 25] and match.winners() == [0, 1]


def test_blitz_round_lets_several_callers_score_100() -> None:
    match = racko(players=3, blitz=True)
    match = match.with_round(quick([None, None, 3], [0, 1]) | {"blitz": True})
    assert match.round_scores() == [[100, 100, 15]]
