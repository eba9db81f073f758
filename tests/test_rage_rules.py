"""Rage rules: editions, notation, hook rule, trick winner, scoring, validation (RULES.md 3)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.rage import (
    EDITIONS,
    LOWER_WINS,
    Options,
    RageOptions,
    deck,
    forbidden_dealer_bid,
    format_card,
    hand_size,
    hand_sizes,
    parse_card,
    round_score,
    score_result,
    trick_winner,
    validate_result,
    validate_round,
)
from scorekeeper.games.rage.cards import COLOURS, NUMBER_CARDS, PLAYED_JOKERS, colour_of, describe, value_of

SEED = RageOptions(4)
AMIGO = RageOptions(4, "amigo")
FUNDEX = RageOptions(4, "fundex")


# --- notation and decks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["r0", "v15", "g7", "W", "W:g", "NT", "TC", "+5", "-5"])
def test_notation_round_trips(text: str) -> None:
    assert format_card(parse_card(text)) == text


@pytest.mark.parametrize("text", ["r16", "x3", "W:x", "", "r", "7r", "nt", "+6", "r-1", "R7"])
def test_bad_notation_is_a_rule_error(text: str) -> None:
    with pytest.raises(RuleError, match="not a Rage card"):
        parse_card(text)


def test_played_joker_needs_colour() -> None:
    with pytest.raises(RuleError, match="colour"):
        parse_card("W", played=True)
    assert parse_card("W:v", played=True).colour == "v"


def test_card_helpers() -> None:
    assert colour_of("o12") == "o" and value_of("o12") == 12
    assert colour_of("W:b") == "b" and value_of("W:b") == 16
    assert colour_of("NT") is None and value_of("+5") is None
    assert describe("r7") == "red 7" and describe("W:g") == "joker (green)"


@pytest.mark.parametrize(
    ("edition", "size", "nt", "tc", "plus", "minus"),
    [("seed", 108, 3, 3, 2, 2), ("amigo", 112, 4, 4, 3, 3), ("fundex", 110, 4, 4, 2, 2)],
)
def test_decks_per_edition(edition: str, size: int, nt: int, tc: int, plus: int, minus: int) -> None:
    cards = deck(RageOptions(4, edition))
    assert len(cards) == size
    assert sorted(c for c in cards if c in NUMBER_CARDS) == sorted(NUMBER_CARDS)
    assert len(NUMBER_CARDS) == 96
    assert (cards.count("W"), cards.count("NT"), cards.count("TC")) == (2, nt, tc)
    assert (cards.count("+5"), cards.count("-5")) == (plus, minus)


# --- options and schedules ------------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "low", "high"), [("seed", 2, 10), ("amigo", 3, 8), ("fundex", 2, 8)])
def test_player_ranges(edition: str, low: int, high: int) -> None:
    RageOptions(low, edition)
    RageOptions(high, edition)
    for bad in (low - 1, high + 1):
        with pytest.raises(RuleError, match=f"{low} to {high} players"):
            RageOptions(bad, edition)


def test_options_reject_bad_values_and_round_trip() -> None:
    with pytest.raises(RuleError, match="editions"):
        RageOptions(4, "deluxe")
    with pytest.raises(RuleError):
        RageOptions(True)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="hook"):
        RageOptions(4, hook_rule="yes")  # type: ignore[arg-type]
    opts = RageOptions(5, "amigo", hook_rule=True)
    assert Options is RageOptions and LOWER_WINS is False
    assert RageOptions(**dataclasses.asdict(opts)) == opts


def test_schedules() -> None:
    assert hand_sizes(SEED) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert hand_sizes(AMIGO) == hand_sizes(FUNDEX) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert hand_size(SEED, 0) == 10 and hand_size(SEED, 9) == 1 and hand_size(SEED, 18) == 10
    assert hand_size(SEED, 19) is None and hand_size(AMIGO, 10) is None and hand_size(FUNDEX, 9) == 1
    with pytest.raises(RuleError):
        hand_size(SEED, -1)


# --- hook rule ------------------------------------------------------------------------------------------


def test_seed_hook_example() -> None:
    """7 players, 6 cards, bids 0, 2, 2, 0, 0, 1 so far: the dealer may bid anything but 1."""
    opts = RageOptions(7)
    assert forbidden_dealer_bid([0, 2, 2, 0, 0, 1], 6, opts) == 1
    dealer = 6  # seats 0..5 bid first, from the dealer's left
    tricks = [0, 2, 2, 0, 0, 1, 1]
    zero = [0] * 7
    with pytest.raises(RuleError, match="Player 7 deals and may not bid 1"):
        validate_round([0, 2, 2, 0, 0, 1, 1], tricks, zero, zero, 6, dealer, opts)
    for bid in (0, 2, 3, 4, 5, 6):
        validate_round([0, 2, 2, 0, 0, 1, bid], tricks, zero, zero, 6, dealer, opts)


def test_hook_rule_per_edition_and_override() -> None:
    assert forbidden_dealer_bid([1, 1, 1], 4, SEED) == 1
    assert forbidden_dealer_bid([3, 3, 1], 4, SEED) is None  # already over: nothing to forbid
    assert forbidden_dealer_bid([1, 1, 1], 4, AMIGO) is None
    assert forbidden_dealer_bid([1, 1, 1], 4, FUNDEX) is None
    assert forbidden_dealer_bid([1, 1, 1], 4, RageOptions(4, "amigo", hook_rule=True)) == 1
    assert forbidden_dealer_bid([1, 1, 1], 4, RageOptions(4, hook_rule=False)) is None
    # amigo: the dealer may make the bids add up
    validate_round([1, 1, 1, 1], [1, 1, 1, 1], [0] * 4, [0] * 4, 4, 3, AMIGO)


# --- scoring --------------------------------------------------------------------------------------------


def test_scoring_per_edition() -> None:
    assert round_score(3, 3) == 13 and round_score(3, 3, options=SEED) == 13
    assert round_score(3, 2, options=SEED) == -3
    assert round_score(0, 0, options=SEED) == 10
    assert round_score(2, 2, 1, 0, SEED) == 17 and round_score(2, 4, 0, 2, SEED) == -11
    assert round_score(3, 2, options=AMIGO) == -3 and round_score(0, 0, options=AMIGO) == 10
    assert round_score(0, 0, options=FUNDEX) == 5  # fundex: +5 for an exact 0
    assert round_score(3, 3, options=FUNDEX) == 13
    assert round_score(3, 1, options=FUNDEX) == 1  # fundex: a missed bid costs nothing
    assert round_score(0, 2, 1, 1, FUNDEX) == 2


@given(
    st.sampled_from(list(EDITIONS)),
    st.integers(0, 10),
    st.integers(0, 10),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_round_score_formula(edition: str, bid: int, tricks: int, bonus: int, minus: int) -> None:
    opts = RageOptions(4, edition)
    rules = EDITIONS[edition]
    if bid == tricks:
        expected = tricks + (rules.exact_zero_points if bid == 0 else rules.exact_points)
    else:
        expected = tricks + rules.missed_points
    assert round_score(bid, tricks, bonus, minus, opts) == expected + 5 * bonus - 5 * minus


def test_score_result_uses_round_index_for_hand_size() -> None:
    result = {"bids": [1, 0, 0, 1], "tricks": [1, 0, 0, 0], "bonus": [1, 0, 0, 0], "minus": [0, 0, 0, 0]}
    assert score_result(result, SEED, dealer=3, round_index=9) == [16, 10, 10, -5]
    with pytest.raises(RuleError, match="add up to 1, but 10"):
        score_result(result, SEED, dealer=3, round_index=0)
    with pytest.raises(RuleError, match="only 10 rounds"):
        validate_result(result, AMIGO, dealer=0, round_index=10)
    with pytest.raises(RuleError, match="missing: minus"):
        validate_result({"bids": [], "tricks": [], "bonus": []}, SEED, dealer=0, round_index=0)
    with pytest.raises(RuleError):
        validate_result([1, 2], SEED, dealer=0, round_index=0)


# --- trick winner ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        (["r3", "r9", "r1"], "g", 1),  # highest of the led colour
        (["r3", "g0", "r15"], "g", 1),  # any trump beats the led colour
        (["r3", "g0", "g4"], "g", 2),  # highest trump
        (["r3", "b15", "r4"], "g", 2),  # off-colour card never wins
        (["r3", "W:r", "r15"], "g", 1),  # joker above 15 in its colour
        (["r3", "W:g", "g15"], "g", 1),  # joker named trump is the highest trump
        (["r3", "W:r", "W:r"], "g", 2),  # two jokers in one colour: the later ranks higher
        (["W:r", "r3", "W:r"], None, 2),
        (["W:b", "r3", "b2"], None, 0),  # joker sets the led colour when first
        (["NT", "+5", "b2", "b7"], "g", 3),  # led colour = first coloured card
        (["NT", "TC", "+5"], "g", 0),  # no coloured card: the leader wins
        (["-5", "NT"], None, 0),
        (["r3", "g9", "r4"], None, 2),  # no trump in force: a trump-colour card is off-colour
        (["r3"], "r", 0),
    ],
)
def test_trick_winner(plays: list[str], trump: str | None, winner: int) -> None:
    assert trick_winner(plays, trump) == winner


def test_trick_winner_rejects_bad_input() -> None:
    with pytest.raises(RuleError):
        trick_winner([], "r")
    with pytest.raises(RuleError, match="colour"):
        trick_winner(["r3", "W"], "r")
    with pytest.raises(RuleError):
        trick_winner(["r3", "x9"], "r")


PLAYED = st.sampled_from([*NUMBER_CARDS, *PLAYED_JOKERS, "NT", "TC", "+5", "-5"])


@given(st.lists(PLAYED, min_size=1, max_size=10, unique=True), st.sampled_from([*COLOURS, None]))
def test_trick_winner_properties(plays: list[str], trump: str | None) -> None:
    i = trick_winner(plays, trump)
    assert 0 <= i < len(plays)
    colours = [colour_of(p) for p in plays]
    if "NT" in plays:  # RULES 3.3: a no-trump card in the trick means the trick has no trump
        trump = None
    if trump is not None and trump in colours:
        assert colours[i] == trump
        assert all(
            value_of(plays[i]) >= value_of(p) for p, c in zip(plays, colours, strict=True) if c == trump
        )  # type: ignore[operator]
    elif any(colours):
        led = next(c for c in colours if c)
        assert colours[i] == led
    else:
        assert i == 0


# --- validation -----------------------------------------------------------------------------------------


def _ok(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "bids": [2, 1, 0, 2],
        "tricks": [2, 1, 0, 1],
        "bonus": [1, 0, 0, 1],
        "minus": [0, 1, 0, 0],
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"bids": [5, 1, 0, 2]}, "Player 1 bid 5, but a bid must be 0 to 4"),
        ({"bids": [2, 1, -1, 2]}, "Player 3: the bid cannot be negative"),
        ({"bids": [2, 1, 0]}, "each of the 4 players"),
        ({"bids": [2, 1, 0, True]}, "Player 4: the bid must be a whole number"),
        ({"bids": "2101"}, "a bid for each"),
        ({"tricks": [2, 1, 0, 2]}, "tricks add up to 5, but 4"),
        ({"tricks": [2, 1, 0, 1.0]}, "whole number"),
        ({"bonus": [0, 0, 1, 0]}, "Player 3 took 1 \\+5 card but won only 0 tricks"),
        ({"minus": [3, 0, 0, 0]}, "Player 1 took 3 -5 cards but won only 2 tricks"),
        ({"bonus": [2, 1, 0, 1]}, "4 \\+5 cards were entered, but the Original edition has only 2"),
    ],
)
def test_validate_round_messages(changes: dict[str, object], message: str) -> None:
    r = _ok(**changes)
    with pytest.raises(RuleError, match=message):
        validate_round(r["bids"], r["tricks"], r["bonus"], r["minus"], 4, 0, SEED)
    with pytest.raises(RuleError, match=message):
        validate_result(r, SEED, dealer=0, round_index=6)  # round 7 has 4 cards


def test_validate_round_accepts_valid_and_checks_dealer_and_limits() -> None:
    r = _ok()
    validate_round(r["bids"], r["tricks"], r["bonus"], r["minus"], 4, 0, SEED)
    with pytest.raises(RuleError, match="dealer"):
        validate_round(r["bids"], r["tricks"], r["bonus"], r["minus"], 4, 4, SEED)
    # amigo has three +5 cards
    validate_round([2, 1, 0, 1], [2, 1, 0, 1], [2, 0, 0, 1], [0] * 4, 4, 0, AMIGO)
    with pytest.raises(RuleError, match="Original edition has only 2"):
        validate_round([2, 1, 0, 2], [2, 1, 0, 1], [2, 0, 0, 1], [0] * 4, 4, 0, SEED)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=20,
)


@given(JUNK, JUNK, JUNK, JUNK, st.integers(-1, 11), st.integers(-1, 5))
def test_validate_round_raises_only_rule_errors(
    bids: object, tricks: object, bonus: object, minus: object, size: int, dealer: int
) -> None:
    try:
        validate_round(bids, tricks, bonus, minus, size, dealer, SEED)
    except RuleError as error:
        assert str(error) and "'" not in str(error).replace("'s", "")  # no Python reprs


RESULT = st.fixed_dictionaries(
    {},
    optional={
        "bids": st.lists(st.integers(-1, 11), min_size=3, max_size=5) | JUNK,
        "tricks": st.lists(st.integers(-1, 11), min_size=3, max_size=5) | JUNK,
        "bonus": st.lists(st.integers(-1, 3), min_size=3, max_size=5) | JUNK,
        "minus": st.lists(st.integers(-1, 3), min_size=3, max_size=5) | JUNK,
    },
)


@given(RESULT | JUNK, st.integers(-2, 21), st.integers(-1, 5), st.sampled_from(list(EDITIONS)))
def test_validate_result_raises_only_rule_errors(
    result: object, index: int, dealer: int, edition: str
) -> None:
    opts = RageOptions(4, edition)
    try:
        scores = score_result(result, opts, dealer=dealer, round_index=index)  # type: ignore[arg-type]
    except RuleError as error:
        assert str(error)
    else:
        assert len(scores) == 4


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        (["r7", "NT", "y3", "r9"], "y", 3),  # the no-trump card makes y3 an ordinary off-colour card
        (["y3", "NT", "r7"], "y", 0),  # y3 led: the highest of the led colour wins
        (["NT", "TC", "g2", "y9"], "y", 2),  # a trump change after it does not bring trump into this trick
        (["W:y", "NT", "r14"], "y", 0),  # a joker named in the old trump colour only ranks in that colour
    ],
)
def test_a_no_trump_card_in_the_trick_means_the_trick_has_no_trump(
    plays: list[str], trump: str, winner: int
) -> None:
    """RULES.md 3.3: with a no-trump card in the trick, trumps count as ordinary off-colour cards."""
    assert trick_winner(plays, trump) == winner
