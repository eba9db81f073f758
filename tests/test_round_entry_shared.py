"""What the round-entry screens and a phone's part at a score-keeping table share: Rage's hook rule asked of one
engine function (`rage.dealer_barred`) with one refusal (`rage.hook_refusal`), the one-tap count field that never
shows a barred value as chosen, and the typed drafts each round screen starts from."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.rage import part as rage_part
from scorekeeper.games.rage.rules import dealer_barred, forbidden_dealer_bid, hook_refusal, validate_round
from scorekeeper.games.spec import spec
from scorekeeper.model.match import Match
from scorekeeper.ui.components.fields import CountField
from scorekeeper.ui.views.rounds.host import PartsDraft
from scorekeeper.ui.views.rounds.racko import HOST as RACKO_HOST
from scorekeeper.ui.views.rounds.racko import entry_of
from scorekeeper.ui.views.rounds.rage import HOST as RAGE_HOST
from scorekeeper.ui.views.rounds.ruckzuck import HOST

HOOKED = spec("rage").options(4, hook_rule=True)
SIZE = 10  # the first round deals 10 cards


def test_the_dealer_is_barred_only_once_every_other_seat_has_bid() -> None:
    assert dealer_barred([3, None, 4, None], 3, SIZE, HOOKED) is None  # seat 1 has not bid yet
    assert dealer_barred([3, 2, 4, None], 3, SIZE, HOOKED) == 1  # 3 + 2 + 4 + 1 = 10
    assert dealer_barred([3, 2, 4, 0], 3, SIZE, HOOKED) == 1  # the dealer's own bid does not count
    assert dealer_barred([6, 5, 0, None], 3, SIZE, HOOKED) is None  # 11 already: no bid completes the sum
    unhooked = spec("rage").options(4, hook_rule=False)
    assert dealer_barred([3, 2, 4, None], 3, SIZE, unhooked) is None


@settings(max_examples=200, deadline=None)
@given(
    bids=st.lists(st.integers(0, SIZE), min_size=4, max_size=4),
    dealer=st.integers(0, 3),
)
def test_the_round_screen_a_phone_and_the_engine_agree_on_the_hook(bids: list[int], dealer: int) -> None:
    """The barred bid (round screen, phone) is exactly the dealer's bid the engine refuses, with one sentence."""
    barred = dealer_barred(bids, dealer, SIZE, HOOKED)
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    assert barred == forbidden_dealer_bid(others, SIZE, HOOKED)
    parts = [{"bid": bid} for bid in bids]
    phone = rage_part.barred("bid", dealer, parts, HOOKED, dealer, 0)
    assert phone == (set() if barred is None else {barred})
    tricks = [SIZE] + [0] * 3
    if barred is None or bids[dealer] != barred:
        validate_round(bids, tricks, [0] * 4, [0] * 4, SIZE, dealer, HOOKED)
        rage_part.check(dealer, 0, {"bid": bids[dealer]}, parts, HOOKED, dealer, 0)
        return
    refusal = str(hook_refusal(dealer, barred, SIZE))
    with pytest.raises(RuleError) as engine:
        validate_round(bids, tricks, [0] * 4, [0] * 4, SIZE, dealer, HOOKED)
    with pytest.raises(RuleError) as sent:
        rage_part.check(dealer, 0, {"bid": barred}, parts, HOOKED, dealer, 0)
    said_before = rage_part.why_barred("bid", dealer, {barred}, HOOKED, 0)
    assert str(engine.value) == str(sent.value) == str(said_before) == refusal


def test_a_count_field_never_shows_a_barred_value_as_chosen() -> None:
    field = CountField(range(5), lambda _value: None, prefix="bid-3")
    assert field.show(2) == 2
    assert field.show(2, {2}) is None
    assert field.show(None, {2}) is None
    assert field.show(3, {2}) == 3


def seeded(game: str, result: dict[str, object], **options: object) -> Match:
    match = Match.new(game, options, ["a", "b", "c"], names=["Ann", "Ben", "Cy"])
    match = match.with_round(result)
    return match


def test_a_racko_draft_starts_empty_or_from_the_round_edited() -> None:
    racks = [list(range(1, 11)), list(range(11, 21)), [21, 22, 23, 24, 25, 26, 27, 28, 29, 30]]
    match = seeded("racko", {"racks": racks, "callers": [0], "blitz": False})
    shape = match.spec.table_part
    assert shape is not None
    new = entry_of(PartsDraft.start(shape, match, None, RACKO_HOST))
    assert new.mode == "racks" and new.pad.racks == [[None] * 10] * 3 and new.callers == []
    assert (new.pad.seat, new.pad.slot) == (0, 0)
    edited = entry_of(PartsDraft.start(shape, match, 0, RACKO_HOST))
    assert edited.pad.racks == racks and edited.callers == [0] and edited.blitz is False


def test_a_racko_quick_round_edited_keeps_its_counts_and_runs() -> None:
    match = seeded("racko", {"counts": [10, 4, 6], "runs": [None, 3, None], "callers": [0], "blitz": False})
    shape = match.spec.table_part
    assert shape is not None
    edited = PartsDraft.start(shape, match, 0, RACKO_HOST)
    assert entry_of(edited).mode == "quick" and entry_of(edited).callers == [0]
    assert [seat.values["count"] for seat in edited.seats] == [10, 4, 6]
    assert [seat.values["run"] for seat in edited.seats] == [None, 3, None]


def test_rage_and_ruckzuck_drafts_start_from_the_round_edited() -> None:
    rage = Match.new("rage", {}, ["a", "b", "c"], names=["Ann", "Ben", "Cy"])
    size = rage.rules.hand_size(rage.opts, 0)
    bids, tricks = [1, 0, 0], [size, 0, 0]
    rage = rage.with_round({"bids": bids, "tricks": tricks, "bonus": [0] * 3, "minus": [0] * 3})
    rage_shape = rage.spec.table_part
    assert rage_shape is not None
    draft = PartsDraft.start(rage_shape, rage, 0, RAGE_HOST)  # an edit opens at the result, the bids stand
    assert draft.step == 1
    assert [seat.values["bid"] for seat in draft.seats] == bids
    assert [seat.values["tricks"] for seat in draft.seats] == tricks
    new = PartsDraft.start(rage_shape, rage, None, RAGE_HOST)
    assert new.step == 0 and not any(seat.values for seat in new.seats)
    ruck = seeded("ruckzuck", {"hands": [[], [7, 9], 12], "out": 0})
    shape = ruck.spec.table_part
    assert shape is not None
    hands = PartsDraft.start(shape, ruck, 0, HOST)
    parts = [seat.values for seat in hands.seats]
    assert parts[0]["out"] and parts[1]["hand"] == [7, 9] and parts[2]["hand"] == 12 and not hands.nobody
    empty = PartsDraft.start(shape, ruck, None, HOST)
    assert not any(seat.values for seat in empty.seats) and not empty.nobody  # who went out: not said yet
    stock = seeded("ruckzuck", {"hands": [[1], [7, 9], 12], "out": None})
    assert PartsDraft.start(shape, stock, 0, HOST).nobody == {"out"}  # the stock ran out
