"""Rage digital play: deal, trump reveal, bidding, follow suit, action cards, invariants (RULES.md 3.2-3.3)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.rage import RageOptions, arranged_round, deck, new_round, validate_result
from scorekeeper.games.rage.cards import sort_key
from scorekeeper.games.rage.play import RageState

SEED4 = RageOptions(4)


def play_out(state: RageState, bids: list[int], cards: list[str]) -> None:
    for bid in bids:
        state.apply(["bid", bid])
    for card in cards:
        state.apply(["play", card])


def snapshot(state: RageState) -> Any:
    return (
        [state.view(s) for s in range(state.players)],
        json.dumps(state.log),
        state.talon_size,
        list(state.trump_pile),
        state.trump,
    )


# --- deal, trump reveal, bidding ------------------------------------------------------------------------


def test_deal_one_by_one_from_dealers_left() -> None:
    opts = RageOptions(3)
    state = new_round(opts, 7, dealer=1, round_index=3)  # 7 cards each
    cards = deck(opts)
    random.Random(7).shuffle(cards)
    assert list(state.hands[2]) == sorted(cards[0:21:3], key=sort_key)
    assert list(state.hands[0]) == sorted(cards[1:21:3], key=sort_key)
    assert list(state.hands[1]) == sorted(cards[2:21:3], key=sort_key)
    assert state.trump_pile[0] == cards[21]
    assert state.current_player == 2 and state.phase == "bid"


def test_action_cards_turned_up_are_covered_until_a_number_card() -> None:
    state = arranged_round(RageOptions(2), [["r1"], ["r2"]], ["NT", "+5", "W", "g7", "b1"])
    assert state.trump == "g" and state.trump_pile == ["NT", "+5", "W", "g7"] and state.talon_size == 1
    assert state.view(0).trump == "g" and state.view(0).trump_top == "g7"


def test_talon_running_out_leaves_the_round_without_trump() -> None:
    state = arranged_round(RageOptions(2), [["r1", "TC"], ["r2", "g3"]], ["NT", "TC"], dealer=1)
    assert state.trump is None and state.view(1).trump is None and state.talon_size == 0
    assert state.trump_pile == ["NT", "TC"] and state.view(0).trump_top == "TC"
    play_out(state, [1, 0], ["r1", "r2", "g3", "TC"])
    assert state.tricks == [0, 2] and state.trump is None and state.is_over


def test_trump_change_with_an_empty_talon_ends_trump() -> None:
    state = arranged_round(RageOptions(2), [["TC", "b1"], ["r2", "r9"]], ["b5"], dealer=1)
    assert state.trump == "b" and state.talon_size == 0
    play_out(state, [0, 0], ["TC", "r2"])  # TC: no card left to show, no trump for the rest of the round
    assert state.trump is None and state.tricks == [0, 1]
    state.apply(["play", "r9"])
    state.apply(["play", "b1"])  # b would have been trump
    assert state.tricks == [0, 2]


def test_bidding_order_and_hook_rule() -> None:
    state = new_round(SEED4, 3, dealer=1, round_index=6)  # 4 cards
    assert state.current_player == 2
    for seat, bid in ((2, 1), (3, 0), (0, 2)):
        assert state.current_player == seat and state.view(seat).forbidden_bid is None
        state.apply(["bid", bid])
    assert state.current_player == 1 and state.view(1).forbidden_bid == 1
    assert ["bid", 1] not in state.legal_actions() and ["bid", 0] in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(RuleError, match="Player 2 deals and may not bid 1"):
        state.apply(["bid", 1])
    assert snapshot(state) == before
    with pytest.raises(RuleError, match="may bid 0 to 4"):
        state.apply(["bid", 5])
    with pytest.raises(RuleError, match="bids first"):
        state.apply(["play", state.hands[1][0]])
    state.apply(["bid", 2])
    assert state.phase == "play" and state.current_player == 2  # left of the dealer leads


def test_no_hook_rule_in_amigo() -> None:
    state = new_round(RageOptions(3, "amigo"), 1, dealer=2, round_index=9)  # 1 card
    state.apply(["bid", 0])
    state.apply(["bid", 0])
    assert ["bid", 1] in state.legal_actions()


# --- follow suit and jokers -----------------------------------------------------------------------------


def test_follow_suit_only_number_cards_of_the_led_colour_oblige() -> None:
    hands = [["g3", "r1"], ["g5", "W"], ["b1", "W"]]
    state = arranged_round(RageOptions(3), hands, ["y1"], dealer=2)
    play_out(state, [1, 0, 0], ["g3"])
    assert state.legal_actions() == [["play", "g5"]]  # holding green: no joker, no other colour
    before = snapshot(state)
    for bad, message in (
        (["play", "W:g"], "must follow green: play one of green 5"),
        (["play", "r1"], "hold"),
    ):
        with pytest.raises(RuleError, match=message):
            state.apply(bad)
        assert snapshot(state) == before
    state.apply(["play", "g5"])
    assert sorted(a[1] for a in state.legal_actions()) == sorted(
        ["b1", "W:r", "W:b", "W:g", "W:y", "W:o", "W:v"]
    )


def test_led_colour_is_the_first_coloured_card() -> None:
    hands = [["NT", "r1"], ["b5", "g9"], ["b1", "y3"]]
    state = arranged_round(RageOptions(3), hands, ["y1"], dealer=2)
    play_out(state, [1, 0, 0], ["NT"])
    assert state.view(1).led is None and len(state.legal_actions()) == 2  # anything after an action card
    state.apply(["play", "g9"])
    assert state.view(2).led == "g" and len(state.legal_actions()) == 2  # no green: anything
    state.apply(["play", "y3"])  # y is trump, but the NT trick has none
    assert state.tricks == [0, 1, 0]


def test_joker_colour_sets_the_led_colour_and_must_be_named() -> None:
    hands = [["W", "r1"], ["b5", "b9"], ["b1", "y3"]]
    state = arranged_round(RageOptions(3), hands, ["g1"], dealer=2)
    play_out(state, [1, 0, 0], [])
    with pytest.raises(RuleError, match="name a colour for the joker"):
        state.apply(["play", "W"])
    with pytest.raises(RuleError, match="not a Rage card"):
        state.apply(["play", "W:x"])
    state.apply(["play", "W:b"])
    assert state.legal_actions() == [["play", "b5"], ["play", "b9"]]
    play_out(state, [], ["b9", "b1"])
    assert state.tricks == [1, 0, 0]  # joker above 15


def test_two_jokers_the_later_ranks_higher() -> None:
    hands = [["r3", "r1"], ["W", "b1"], ["W", "b2"], ["g1", "g2"]]
    state = arranged_round(SEED4, hands, ["y1"], dealer=3)
    play_out(state, [0, 0, 1, 0], ["r3", "W:r", "W:r", "g1"])
    assert state.tricks == [0, 0, 1, 0]
    assert state.last_trick == [(0, "r3"), (1, "W:r"), (2, "W:r"), (3, "g1")]


def test_joker_named_trump_beats_trump_fifteen() -> None:
    hands = [["r3", "r1"], ["W", "b1"], ["y15", "b2"], ["g1", "g2"]]
    state = arranged_round(SEED4, hands, ["y1"], dealer=3)
    play_out(state, [0, 0, 1, 0], ["r3", "W:y", "y15", "g1"])
    assert state.tricks == [0, 1, 0, 0]


# --- no-trump and trump-change --------------------------------------------------------------------------

TALON = ["r5", "b2", "y7", "o1", "v3"]


def test_no_trump_then_trump_change() -> None:
    """NT took effect first: the trick stays without trump; the TC's trump counts from the next trick."""
    hands = [["g3", "g9"], ["NT", "b1"], ["TC", "o9"], ["b15", "r15"]]
    state = arranged_round(SEED4, hands, TALON, dealer=3)
    assert state.trump == "r"
    play_out(state, [1, 0, 0, 0], ["g3", "NT"])
    assert state.view(2).trump is None and state.view(2).trump_top is None  # turned down at once
    state.apply(["play", "TC"])
    assert state.view(3).trump is None and state.view(3).trump_top == "b2"
    state.apply(["play", "b15"])  # the new trump does not count in this trick
    assert state.tricks == [1, 0, 0, 0]
    assert state.trump == "b" and state.talon_size == len(TALON) - 2  # no second reveal
    play_out(state, [], ["g9", "b1", "o9", "r15"])
    assert state.tricks == [1, 1, 0, 0]  # b1 is trump now


def test_trump_change_then_no_trump() -> None:
    """TC shows a new trump; the NT after it turns it down; after the trick another trump is shown."""
    hands = [["g3", "g9"], ["TC", "b1"], ["NT", "o9"], ["b15", "y15"]]
    state = arranged_round(SEED4, hands, TALON, dealer=3)
    play_out(state, [1, 0, 0, 0], ["g3", "TC"])
    assert state.view(2).trump == "b" and state.view(2).trump_top == "b2"
    play_out(state, [], ["NT", "b15"])
    assert state.tricks == [1, 0, 0, 0]
    assert state.trump == "y" and state.trump_pile == ["r5", "b2", "y7"]
    play_out(state, [], ["g9", "b1", "o9", "y15"])
    assert state.tricks == [1, 0, 0, 1]


def test_trump_change_counts_in_its_own_trick() -> None:
    hands = [["g3", "g9"], ["TC", "b1"], ["b0", "o9"], ["g15", "y15"]]
    state = arranged_round(SEED4, hands, TALON, dealer=3)
    play_out(state, [1, 0, 0, 0], ["g3", "TC", "b0", "g15"])
    assert state.tricks == [0, 0, 1, 0] and state.trump == "b"


def test_no_trump_alone_shows_a_new_trump_after_the_trick() -> None:
    hands = [["g3", "g9"], ["NT", "b1"], ["r0", "o9"], ["g1", "y15"]]
    state = arranged_round(SEED4, hands, TALON, dealer=3)
    play_out(state, [1, 0, 0, 0], ["g3", "NT", "r0", "g1"])  # r0 would have trumped
    assert state.tricks == [1, 0, 0, 0] and state.trump == "b" and state.view(0).trump_top == "b2"


def test_only_the_first_action_card_of_a_type_counts() -> None:
    hands = [["g3", "g9"], ["NT", "b1"], ["TC", "o9"], ["NT", "y15"]]
    state = arranged_round(SEED4, hands, TALON, dealer=3)
    play_out(state, [1, 0, 0, 0], ["g3", "NT", "TC", "NT"])  # the second NT does not turn down b2
    assert state.trump == "b" and state.trump_pile == ["r5", "b2"]


def test_fundex_no_trump_lasts_until_a_trump_change() -> None:
    fundex = RageOptions(4, "fundex")
    hands = [["g3", "r2", "g9"], ["NT", "b1", "TC"], ["r9", "r10", "b0"], ["g4", "r1", "o1"]]
    state = arranged_round(fundex, hands, TALON, dealer=3)
    play_out(state, [1, 0, 0, 0], ["g3", "NT", "r9", "g4"])
    assert state.tricks == [0, 0, 0, 1] and state.trump is None and state.talon_size == len(TALON) - 1
    play_out(state, [], ["r1", "r2", "b1", "r10"])  # still no trump: r10 wins the red trick
    assert state.tricks == [0, 0, 1, 1] and state.view(0).trump is None
    play_out(state, [], ["b0", "o1", "g9", "TC"])  # decision: a later TC brings a trump back at once
    assert state.trump == "b" and state.tricks == [0, 0, 2, 1]


def test_bonus_and_minus_cards_go_to_the_trick_winner_once() -> None:
    hands = [["NT", "g1"], ["+5", "g2"], ["+5", "g3"], ["-5", "g4"]]
    state = arranged_round(SEED4, hands, TALON, dealer=3)
    play_out(state, [1, 0, 0, 0], ["NT", "+5", "+5", "-5"])  # no coloured card: the leader wins
    assert state.tricks == [1, 0, 0, 0] and state.bonus == [1, 0, 0, 0] and state.minus == [1, 0, 0, 0]
    play_out(state, [], ["g1", "g2", "g3", "g4"])
    assert state.is_over
    result = state.result()
    assert result == {
        "bids": [1, 0, 0, 0],
        "tricks": [1, 0, 0, 1],
        "bonus": [1, 0, 0, 0],
        "minus": [1, 0, 0, 0],
    }
    assert state.view(0).round_points == (11, 10, 10, -4)
    validate_result(result, SEED4, dealer=3, round_index=8)  # round 9 has 2 cards


def test_result_only_when_over_and_no_moves_after() -> None:
    state = arranged_round(RageOptions(2), [["r1"], ["r2"]], ["g1"])
    with pytest.raises(RuleError, match="not over"):
        state.result()
    play_out(state, [0, 0], ["r2", "r1"])
    assert state.is_over and state.current_player == -1 and state.legal_actions() == []
    with pytest.raises(RuleError, match="over"):
        state.apply(["bid", 0])


@pytest.mark.parametrize(
    "bad", [None, "bid", ["bid"], ["bid", True], ["bid", 1.0], ["pass", 1], ("x", "y"), {}]
)
def test_malformed_actions_change_nothing(bad: Any) -> None:
    state = new_round(SEED4, 5)
    before = snapshot(state)
    with pytest.raises(RuleError):
        state.apply(bad)
    assert snapshot(state) == before


def test_new_round_rejects_bad_arguments() -> None:
    with pytest.raises(RuleError, match="only 19 rounds"):
        new_round(SEED4, 1, round_index=19)
    with pytest.raises(RuleError, match="dealer"):
        new_round(SEED4, 1, dealer=4)
    with pytest.raises(RuleError, match="1 to 10"):
        new_round(SEED4, 1, hand_size=11)
    assert new_round(SEED4, 1, hand_size=3).hand_size == 3


# --- random play over every edition and player count ---------------------------------------------------


def _all_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [s for f in dataclasses.fields(value) for s in _all_strings(getattr(value, f.name))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _all_strings(v)]
    return []


def _check_invariants(state: RageState, full_deck: Counter[str]) -> None:
    places = Counter(c for h in state.hands for c in h)
    places.update(state._talon)
    places.update(state.trump_pile)
    places.update(c if not c.startswith("W:") else "W" for _, c in state.trick)
    places.update(c for pile in state.piles for c in pile)
    assert places == full_deck
    hidden = {c for seat, h in enumerate(state.hands) for c in h} | set(state._talon)
    for seat in range(state.players):
        view = state.view(seat)
        assert list(view.hand) == state.hands[seat]
        others = {c for c in hidden if c not in state.hands[seat] and c[0] in "rbgyov"}
        assert not others & set(_all_strings(view)), "a view shows a hidden card"


EDITION_PLAYERS = st.sampled_from(
    [("seed", n) for n in range(2, 11)]
    + [("amigo", n) for n in range(3, 9)]
    + [("fundex", n) for n in range(2, 9)]
)


@settings(max_examples=60, deadline=None)
@given(EDITION_PLAYERS, st.integers(0, 18), st.integers(0, 2**32), st.integers(0, 9))
def test_random_rounds_keep_every_invariant(ep: tuple[str, int], index: int, seed: int, dealer: int) -> None:
    """Rage's own invariants (the cards, no hidden card in any view; the shared contract: test_conformance)."""
    edition, players = ep
    opts = RageOptions(players, edition)
    index %= len(opts.edition_column.hand_sizes)
    dealer %= players
    state = new_round(opts, seed, dealer=dealer, round_index=index)
    full_deck = Counter(deck(opts))
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal
        state.apply(rng.choice(legal))
        steps += 1
        if steps % 7 == 0:
            _check_invariants(state, full_deck)
    _check_invariants(state, full_deck)
    assert steps == players * (1 + state.hand_size)
    assert sum(state.tricks) == state.hand_size
