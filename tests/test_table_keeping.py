"""Score keeping at the table, in process: each phone's part, the hook rule, validation, saving once, corrections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.digital import engine
from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.table.host import TableHost
from scorekeeper.table.parts import RoundParts
from scorekeeper.table.table import KEEP, Table, TableError
from tests.test_play_session import MemoryStore

RAGE = {"edition": "amigo", "hook_rule": True}


def keeping(game: str, options: dict[str, Any], players: int = 3) -> tuple[Table, list[str], MemoryStore]:
    store = MemoryStore()
    table = TableHost().create(game, options, players)
    table.mode = KEEP
    tokens = [table.claim(seat, f"P{seat + 1}") for seat in range(players)]
    table.start_keeping(store)
    return table, tokens, store


def stored(table: Table, store: MemoryStore) -> Match:
    assert table.keeping is not None
    found = store.get_match(table.keeping.match.id)
    assert found is not None
    return found


def test_a_rage_round_is_saved_once_every_part_is_in() -> None:
    table, tokens, store = keeping("rage", RAGE)
    dealer = table.keeping.match.dealer  # type: ignore[union-attr]
    assert stored(table, store).rounds == []  # the match exists from the start (a restart finds it)
    others = [seat for seat in range(3) if seat != dealer]
    for seat, bid in zip(others, (3, 4), strict=True):
        assert table.enter_part(seat, tokens[seat], {"bid": bid}) is False
    assert table.keeping.parts.done() == [seat != dealer for seat in range(3)]  # type: ignore[union-attr]
    # Hook rule: 10 cards, 3 + 4 bid already, so the dealer may not bid 3.
    with pytest.raises(RuleError, match="may not bid"):
        table.enter_part(dealer, tokens[dealer], {"bid": 3})
    assert table.enter_part(dealer, tokens[dealer], {"bid": 2}) is False
    assert table.keeping.parts.stage == 1  # type: ignore[union-attr]
    tricks = {others[0]: 3, others[1]: 5, dealer: 2}
    for seat in (others[0], dealer):
        assert table.enter_part(seat, tokens[seat], {"tricks": tricks[seat], "bonus": 0, "minus": 0}) is False
    assert stored(table, store).rounds == []  # nothing saved before the last part
    assert table.enter_part(others[1], tokens[others[1]], {"tricks": 5, "bonus": 1, "minus": 0}) is True
    match = stored(table, store)
    assert len(match.rounds) == 1
    bids = [0, 0, 0]
    bids[others[0]], bids[others[1]], bids[dealer] = 3, 4, 2
    assert match.rounds[0]["bids"] == bids
    assert table.keeping.parts.stage == 0  # type: ignore[union-attr]  # the next round starts empty


def bids_in(table: Table, tokens: list[str], bids: int = 2) -> tuple[int, list[int]]:
    """Every seat bids `bids` (the dealer last); returns (dealer, the other seats)."""
    dealer = table.keeping.match.dealer  # type: ignore[union-attr]
    others = [seat for seat in range(len(tokens)) if seat != dealer]
    for seat in [*others, dealer]:
        table.enter_part(seat, tokens[seat], {"bid": bids})
    return dealer, others


def test_a_round_that_does_not_add_up_keeps_every_part_and_asks_every_seat_it_concerns() -> None:
    """Ben 5 tricks, Cleo 4, Oma 2 of 10: nobody is blamed for sending last; all three are asked, nothing is
    saved, and any of them corrects their part, which checks the round again."""
    table, tokens, store = keeping("rage", RAGE)
    keep = table.keeping
    assert keep is not None
    bids_in(table, tokens)
    for seat, tricks in enumerate((5, 4)):
        assert table.enter_part(seat, tokens[seat], {"tricks": tricks}) is False
    assert keep.problem is None  # not every part is in yet
    assert table.enter_part(2, tokens[2], {"tricks": 2}) is False  # no refusal for the last to send
    assert str(keep.problem) == "The tricks add up to 11, but 10 tricks were played."
    assert keep.involved == [0, 1, 2]
    assert [keep.parts.mine(seat)["tricks"] for seat in range(3)] == [5, 4, 2]  # every part kept
    assert stored(table, store).rounds == []
    assert table.enter_part(1, tokens[1], {"tricks": 3}) is True  # Cleo (not the last) corrects hers
    assert stored(table, store).rounds[0]["tricks"] == [5, 3, 2]
    assert keep.problem is None and keep.involved == []


def test_too_many_plus_five_cards_concern_the_seats_that_entered_them() -> None:
    table, tokens, store = keeping("rage", RAGE)  # Amigo has three +5 cards
    keep = table.keeping
    assert keep is not None
    bids_in(table, tokens)
    table.enter_part(0, tokens[0], {"tricks": 5, "bonus": 2})
    table.enter_part(1, tokens[1], {"tricks": 3})
    table.enter_part(2, tokens[2], {"tricks": 2, "bonus": 2})
    assert "4 +5 cards were entered, but the Amigo edition has only 3" in str(keep.problem)
    assert keep.involved == [0, 2]
    assert table.enter_part(2, tokens[2], {"tricks": 2, "bonus": 1}) is True
    assert stored(table, store).rounds[0]["bonus"] == [2, 0, 1]


def test_a_racko_card_in_two_racks_names_both_players_and_concerns_only_them() -> None:
    table, tokens, store = keeping("racko", {"target": 150})
    keep = table.keeping
    assert keep is not None
    racks = [list(range(1, 11)), [20, 11, 12, 13, 14, 15, 16, 17, 18, 5], list(range(30, 20, -1))]
    for seat, rack in enumerate(racks):
        assert table.enter_part(seat, tokens[seat], {"rack": rack, "called": seat == 0}) is False
    assert str(keep.problem) == "Card 5 is in the racks of both P1 and P2."
    assert keep.involved == [0, 1]
    racks[1][9] = 19
    assert table.enter_part(1, tokens[1], {"rack": racks[1], "called": False}) is True
    assert stored(table, store).rounds[0]["racks"][1][9] == 19


def test_two_seats_that_both_went_out_are_asked_to_check() -> None:
    table, tokens, store = keeping("ruckzuck", {"rounds": 3})
    keep = table.keeping
    assert keep is not None
    table.enter_part(0, tokens[0], {"hand": 0, "out": True})
    table.enter_part(1, tokens[1], {"hand": 4})
    assert table.enter_part(2, tokens[2], {"hand": 0, "out": True}) is False
    assert "P1 and P3 both say they went out; only one player can go out." in str(keep.problem)
    assert keep.involved == [0, 2]
    assert stored(table, store).rounds == []
    assert table.enter_part(0, tokens[0], {"hand": 7}) is True


def test_a_round_that_does_not_check_out_is_still_shown_after_a_host_restart(tmp_path: Path) -> None:
    from scorekeeper.store import Store

    before = TableHost()
    before.resume(Store.open(tmp_path))
    table = before.create("rage", RAGE, 3, KEEP)
    tokens = [table.claim(seat, f"P{seat + 1}") for seat in range(3)]
    table.start_keeping(before.store)
    bids_in(table, tokens)
    for seat, tricks in enumerate((5, 4, 2)):
        table.enter_part(seat, tokens[seat], {"tricks": tricks})
    after = TableHost()
    after.resume(Store.open(tmp_path))
    back = after.get(table.code)
    assert back is not None and back.keeping is not None
    assert "add up to 11" in str(back.keeping.problem) and back.keeping.involved == [0, 1, 2]


def test_a_refused_part_names_the_player_not_the_seat() -> None:
    table, tokens, _store = keeping("rage", RAGE)
    dealer = table.keeping.match.dealer  # type: ignore[union-attr]
    others = [seat for seat in range(3) if seat != dealer]
    for seat, bid in zip(others, (3, 4), strict=True):
        table.enter_part(seat, tokens[seat], {"bid": bid})
    with pytest.raises(RuleError) as refused:
        table.enter_part(dealer, tokens[dealer], {"bid": 3})
    assert str(refused.value).startswith(f"P{dealer + 1} deals and may not bid 3")


def test_a_seat_enters_only_its_own_part_and_may_correct_it_before_the_round_is_saved() -> None:
    table, tokens, store = keeping("rage", RAGE)
    with pytest.raises(TableError):
        table.enter_part(0, tokens[1], {"bid": 1})
    with pytest.raises(RuleError, match="wait"):
        table.enter_part(0, tokens[0], {"tricks": 1})  # tricks only once every bid is in
    dealer = table.keeping.match.dealer  # type: ignore[union-attr]
    seat = (dealer + 1) % 3
    table.enter_part(seat, tokens[seat], {"bid": 1})
    table.enter_part(seat, tokens[seat], {"bid": 5})  # a correction replaces the part
    assert table.keeping.parts.mine(seat) == {"bid": 5}  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="dealer bids last"):
        table.enter_part(dealer, tokens[dealer], {"bid": 0})
    assert stored(table, store).rounds == []


def test_the_host_entering_the_round_on_the_normal_screens_voids_the_phones_parts() -> None:
    table, tokens, store = keeping("ruckzuck", {"rounds": 3})
    table.enter_part(0, tokens[0], {"hand": 12})
    match = stored(table, store)
    store.save_match(match.with_round({"hands": [0, 5, 7], "out": 0}))  # the host's round entry
    table.enter_part(1, tokens[1], {"hand": 3})
    parts = table.keeping.parts  # type: ignore[union-attr]
    assert parts.mine(0) == {} and parts.mine(1) == {"hand": 3, "out": False}
    assert table.enter_part(0, tokens[0], {"hand": 0, "out": True}) is False
    assert table.enter_part(2, tokens[2], {"hand": 9}) is True
    assert stored(table, store).rounds[1]["hands"] == [0, 3, 9]


def test_a_play_table_is_not_a_score_keeping_table() -> None:
    store = MemoryStore()
    table = TableHost().create("racko", {"target": 150}, 2)
    tokens = [table.claim(seat, f"P{seat + 1}") for seat in range(2)]
    table.start(store, seed=3)
    with pytest.raises(TableError):
        table.enter_part(0, tokens[0], {"rack": [1] * 10})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10)), max_size=12))
def test_parts_never_count_as_complete_until_every_seat_entered_every_step(
    entries: list[tuple[int, int]],
) -> None:
    """Invariant: whatever bids arrive in whatever order, stage 1 opens only when all three seats bid."""
    parts = RoundParts("rage", 3)
    match = Match.new("rage", RAGE, ["a", "b", "c"])
    entered: set[int] = set()
    for seat, bid in entries:
        try:
            parts.enter(seat, {"bid": bid}, match.opts, match.dealer, 0)
            entered.add(seat)
        except RuleError:
            pass
        assert (parts.stage >= 1) == (entered == {0, 1, 2})
        assert not parts.complete()


def test_a_lobby_and_a_score_keeping_table_come_back_after_a_host_restart(tmp_path: Path) -> None:
    from scorekeeper.store import Store
    from scorekeeper.table.host import TableHost

    before = TableHost()
    before.resume(Store.open(tmp_path))
    lobby = before.create("racko", {"target": 150}, 3)
    anna = lobby.claim(0, "Anna")
    keep = before.create("rage", RAGE, 3, KEEP)
    tokens = [keep.claim(seat, f"P{seat + 1}") for seat in range(3)]
    keep.start_keeping(before.store)
    after = TableHost()  # the host restarts
    after.resume(Store.open(tmp_path))
    back = after.get(lobby.code)
    assert back is not None and not back.started and back.seat_of(anna) == 0 and back.seats[0].name == "Anna"
    assert back.free_seats() == [1, 2]
    kept = after.get(keep.code)
    assert kept is not None and kept.mode == KEEP and kept.keeping is not None
    assert kept.keeping.match.id == keep.keeping.match.id  # type: ignore[union-attr]
    dealer = kept.keeping.match.dealer
    seat = (dealer + 1) % 3
    assert (
        kept.enter_part(seat, tokens[seat], {"bid": 2}) is False
    )  # the phones' tokens still hold their seats


@pytest.mark.parametrize("game", ["racko", "ruckzuck", "rage"])
def test_the_boards_move_log_describes_every_games_moves_in_words(game: str) -> None:
    """Every game has its describe module now: no board line is the plain fallback "{who} played {action}"."""
    options = {"racko": {"target": 150}, "ruckzuck": {"rounds": 3}, "rage": RAGE}[game]
    table = TableHost().create(game, options, 3)
    for seat in range(3):
        table.set_computer(seat, engine.strengths(game)[0])
    table.start(MemoryStore(), seed=5)
    for _ in range(6):
        table.step_computer()
    lines = table.board().moves
    assert lines and all(line.template != "{who} played {action}." for line in lines)


def test_a_racko_round_from_three_racks_and_who_called() -> None:
    table, tokens, store = keeping("racko", {"target": 150})
    racks = [
        list(range(1, 11)),
        [20, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        [30, 29, 21, 22, 23, 24, 25, 26, 27, 28],
    ]
    with pytest.raises(RuleError, match="rack"):
        table.enter_part(1, tokens[1], {"rack": "eleven", "called": False})
    table.enter_part(0, tokens[0], {"rack": racks[0], "called": True})
    table.enter_part(1, tokens[1], {"rack": racks[1], "called": False})
    assert table.enter_part(2, tokens[2], {"rack": racks[2], "called": False}) is True
    saved = stored(table, store).rounds[0]
    assert saved["racks"] == racks and saved["callers"] == [0]


def test_the_dealers_phone_is_told_the_bid_the_hook_rule_forbids_once_every_other_bid_is_in() -> None:
    table, tokens, _store = keeping("rage", RAGE)
    match = table.keeping.match  # type: ignore[union-attr]
    parts = table.keeping.parts  # type: ignore[union-attr]
    dealer = match.dealer
    others = [seat for seat in range(3) if seat != dealer]
    barred = parts.shape.barred
    table.enter_part(others[0], tokens[others[0]], {"bid": 3})
    assert barred("bid", dealer, parts.parts[0], match.opts, dealer, 0) == set()  # not every bid is in yet
    table.enter_part(others[1], tokens[others[1]], {"bid": 4})
    assert barred("bid", dealer, parts.parts[0], match.opts, dealer, 0) == {3}
    assert barred("bid", others[0], parts.parts[0], match.opts, dealer, 0) == set()
