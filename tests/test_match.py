"""The match model: totals, standings, dealer, hand sizes, game end and changes at any position."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games import RuleError
from scorekeeper.model.match import Match

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def ruckzuck(players: int = 3, **options: object) -> Match:
    return Match.new("ruckzuck", dict(options), [f"p{i}" for i in range(players)], names=NAMES[:players])


def rage(players: int = 4, edition: str = "seed", first_dealer: int = 0) -> Match:
    return Match.new(
        "rage",
        {"edition": edition},
        [f"p{i}" for i in range(players)],
        names=NAMES[:players],
        first_dealer=first_dealer,
    )


def rz_round(totals: list[int], out: int | None = None) -> dict[str, object]:
    return {"hands": list(totals), "out": out}


def rage_round(bids: list[int], tricks: list[int], bonus: list[int] | None = None) -> dict[str, object]:
    zeros = [0] * len(bids)
    return {"bids": bids, "tricks": tricks, "bonus": bonus or zeros, "minus": zeros}


# ---------------------------------------------------------------- Ruck Zuck
def test_ruckzuck_lowest_total_wins_after_as_many_rounds_as_players() -> None:
    match = ruckzuck()
    match = match.with_round(rz_round([0, 45, 120], out=0))
    match = match.with_round({"hands": [[3, 17, "J"], [], [49]], "out": 1})
    assert match.round_scores() == [[0, 45, 120], [120, 0, 49]]
    assert match.totals() == [120, 45, 169]
    assert not match.is_over and match.winners() == []
    match = match.with_round(rz_round([10, 90, 0], out=2))
    assert match.is_over and match.status == "finished"
    assert match.totals() == [130, 135, 169]
    assert [row.name for row in match.standings()] == ["Ann", "Ben", "Cleo"]
    assert match.winners() == [0]
    with pytest.raises(RuleError, match="already over"):
        match = match.with_round(rz_round([1, 0, 2], out=1))


def test_ruckzuck_equal_totals_share_the_place() -> None:
    match = ruckzuck(players=2, rounds=2)  # at least one round per player (RULES 2.3)
    match = match.with_round(rz_round([30, 30]))
    match = match.with_round(rz_round([5, 5]))
    assert [row.place for row in match.standings()] == [1, 1]
    assert match.winners() == [0, 1]


def test_deal_passes_left_every_round() -> None:
    match = Match.new("ruckzuck", {"rounds": 5}, ["a", "b", "c"], first_dealer=2)
    dealers = [match.dealer]
    for _ in range(4):
        match = match.with_round(rz_round([0, 5, 7], out=0))
        dealers.append(match.dealer)
    assert dealers == [2, 0, 1, 2, 0]
    assert [match.dealer_of(i) for i in range(4)] == [2, 0, 1, 2]
    assert match.dealer_after == 1 and match.dealer_of(6) == 2


def test_rejected_round_changes_nothing_and_names_the_player() -> None:
    match = ruckzuck()
    match = match.with_round(rz_round([0, 4, 9], out=0))
    before = match.to_dict()
    with pytest.raises(RuleError) as error:
        match = match.with_round({"hands": [[5], [5], []], "out": 2})
    assert "5" in str(error.value)
    assert "Round 2" in str(error.value)
    assert "Player" not in str(error.value), "messages name the players by their names"
    assert match.to_dict() == before


def test_edit_and_remove_recompute_everything() -> None:
    match = ruckzuck(rounds=4)
    for totals in ([0, 10, 20], [5, 0, 7], [3, 3, 0]):
        match = match.with_round(rz_round(totals, out=totals.index(0)))
    match = match.with_round_edited(1, rz_round([50, 0, 1], out=1))
    assert match.totals() == [53, 13, 21]
    match = match.without_round(0)
    assert match.totals() == [53, 3, 1]
    assert match.dealer == 2
    with pytest.raises(RuleError, match="no round 9"):
        match = match.without_round(8)


# -------------------------------------------------------------------- Rage
def test_rage_seed_schedule_hook_rule_and_exact_bids() -> None:
    match = rage()
    assert match.rounds_planned() == 19
    assert match.next_hand_size() == 10
    # Dealer is seat 0, so seat 0 bids last: 3 + 3 + 3 = 9, and 1 would make the bids add up to 10.
    with pytest.raises(RuleError):
        match = match.with_round(rage_round([1, 3, 3, 3], [1, 3, 3, 3]))
    match = match.with_round(rage_round([2, 3, 3, 3], [2, 3, 3, 2], bonus=[0, 1, 0, 0]))
    assert match.round_scores() == [[12, 18, 13, -3]]
    assert match.next_hand_size() == 9
    assert match.exact_bids() == [1, 1, 1, 0]
    assert match.standings()[0].name == "Ben" and match.standings()[0].exact_bids == 1


def test_rage_amigo_ends_after_ten_rounds() -> None:
    match = rage(edition="amigo", first_dealer=3)
    for size in range(10, 0, -1):
        assert match.next_hand_size() == size
        tricks = [size, 0, 0, 0]
        match = match.with_round(rage_round([size, 0, 0, 0], tricks))
    assert match.is_over and match.next_hand_size() is None
    assert match.winners() == [0]


# ----------------------------------------------------------- serialisation
def test_to_dict_is_json_and_round_trips() -> None:
    match = rage()
    match = match.with_round(rage_round([2, 3, 3, 3], [2, 3, 3, 2]))
    data = json.loads(json.dumps(match.to_dict()))
    again = Match.from_dict(data)
    assert again == match
    assert again.to_dict() == match.to_dict()


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"game": "chess", "options": {}, "players": ["a", "b"], "names": ["a", "b"]},
        {"game": "rage", "options": {"players": 4}, "players": ["a"], "names": ["a"]},
        {"game": "rage", "options": [], "players": ["a", "b", "c"], "names": ["a", "b", "c"]},
        {
            "game": "ruckzuck",
            "options": {"players": 2},
            "players": ["a", "b"],
            "names": ["a", "b"],
            "rounds": [1],
        },
        {
            "game": "ruckzuck",
            "options": {"players": 2},
            "players": ["a", "b"],
            "names": ["a", "b"],
            "first_dealer": "x",
        },
        {"game": "ruckzuck", "options": {"players": 2}, "players": ["a", "a"], "names": ["a", "b"]},
        {"game": "ruckzuck", "options": {"players": "2"}, "players": ["a", "b"], "names": ["a", "b"]},
        {"game": "ruckzuck", "options": {"players": 2}, "players": ["a", "b"]},
    ],
)
def test_from_dict_rejects_bad_data_with_rule_error(data: object) -> None:
    with pytest.raises(RuleError):
        Match.from_dict(data)


def test_from_dict_keeps_what_a_newer_version_added_and_to_dict_writes_it_back() -> None:
    """A field or an option this version does not know is no damage (docs/DATA.md, "Newer data"): the
    match reads, scores as before, and is written back with them unchanged."""
    data = {
        "game": "ruckzuck",
        "options": {"players": 2, "colour": {"deck": "blue"}},
        "players": ["a", "b"],
        "names": ["a", "b"],
        "scribble": "played on the terrace",
        "extra": 1,
    }
    match = Match.from_dict(data)
    assert match.extra == {"scribble": "played on the terrace", "extra": 1}
    assert match.totals() == [0, 0]
    written = match.to_dict()
    assert written["scribble"] == "played on the terrace" and written["extra"] == 1
    assert written["options"] == data["options"]
    assert Match.from_dict(json.loads(json.dumps(written))) == match


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(
    st.fixed_dictionaries(
        {"game": st.sampled_from(["racko", "ruckzuck", "rage"]), "players": st.lists(st.text(), max_size=4)},
        optional={
            "options": json_values,
            "names": json_values,
            "rounds": json_values,
            "first_dealer": json_values,
        },
    )
)
@settings(max_examples=150, deadline=None)
def test_from_dict_never_raises_anything_but_rule_error(data: dict[str, object]) -> None:
    try:
        Match.from_dict(data)
    except RuleError:
        pass


# ---------------------------------------------------------------- property
changes = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "remove"]),
        st.integers(0, 5),
        st.lists(st.integers(0, 120), min_size=3, max_size=3),
    ),
    max_size=12,
)


@given(changes)
@settings(max_examples=80, deadline=None)
def test_totals_equal_sum_of_rounds_after_any_changes(steps: list[tuple[str, int, list[int]]]) -> None:
    match = ruckzuck(rounds=6)
    for kind, index, totals in steps:
        result = rz_round(totals)
        try:
            if kind == "add":
                match = match.with_round(result)
            elif kind == "edit":
                match = match.with_round_edited(index, result)
            else:
                match = match.without_round(index)
        except RuleError:
            pass
        scores = match.round_scores()
        assert len(scores) == len(match.rounds)
        assert match.totals() == [sum(column) for column in zip(*scores, strict=True)] or not scores
        assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match


# ---------------------------------------------------------------- a match is a value


def test_a_change_makes_a_new_match_and_leaves_the_old_one(monkeypatch: pytest.MonkeyPatch) -> None:
    before = ruckzuck()
    checks: list[int] = []
    tally = Match._tally
    monkeypatch.setattr(
        Match, "_tally", lambda self, rounds, *more: checks.append(len(rounds)) or tally(self, rounds, *more)
    )
    after = before.with_round(rz_round([0, 45, 120], out=0))
    assert before.rounds == [] and before.totals() == [0, 0, 0]
    assert after.totals() == [0, 45, 120] and after.id == before.id
    assert checks == [1, 0]  # the new rounds checked once; the old match's own (empty) tally on asking
    edited = after.with_round_edited(0, rz_round([10, 0, 5], out=1))
    assert after.totals() == [0, 45, 120] and edited.totals() == [10, 0, 5]
    assert edited.without_round(0).rounds == [] and len(edited.rounds) == 1
    with pytest.raises(RuleError, match="Round 2"):
        edited.with_round(rz_round([1, 2]))  # two hands at a table of three
    assert len(edited.rounds) == 1


def test_finishing_round_sets_the_status_of_the_new_value_only() -> None:
    match = ruckzuck(players=2).with_round(rz_round([5, 5]))  # two rounds: one per player
    done = match.with_round(rz_round([0, 30], out=0))
    assert done.is_over and done.status == "finished" and match.status == "active"
