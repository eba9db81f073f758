"""Score keeping at a live table, in process: a phone enters its Racko rack on the same slots and number pad as
the round-entry screen (`components.rack_pad`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
from test_table_speed import deliver
from test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: the autouse fixture)

from scorekeeper.table.host import HOST
from tests.test_ui_core_harness import App

RACKS = ([3, 7, 9, 12, 15, 20, 21, 22, 33, 40], [1, 2, 4, 5, 6, 8, 10, 11, 13, 14])


def slots(phone) -> list[str]:  # type: ignore[no-untyped-def]
    """What the ten slots show (slot 5 first)."""
    shown = []
    for index in range(10):
        column = phone.find(f"slot-{index}").content
        shown.append(str(column.controls[1].value))
    return shown


def test_a_phone_enters_its_racko_rack_on_the_number_pad(tmp_path: Path) -> None:
    host, code = host_table(tmp_path, 2, "racko", "table-mode-keep")
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    keeping = HOST.tables[code].keeping
    assert keeping is not None
    anna = phones[0]
    anna.go(f"/table/{code}/seat")
    assert anna.has("slot-0") and anna.has("slot-9") and anna.has("num-1") and anna.has("num-40")
    assert not anna.has("num-41")  # a two-player deck has 40 cards
    assert not isinstance(anna.find("part-rack"), ft.TextField)  # no text field any more
    for card in RACKS[0][:4]:
        anna.tap(f"num-{card}")
    assert slots(anna)[:5] == ["3", "7", "9", "12", "–"]
    assert anna.find("num-7").disabled  # a card placed is greyed out
    anna.tap("rack-back")  # takes the last card back
    assert slots(anna)[3] == "–" and not anna.find("num-12").disabled
    for card in RACKS[0][3:]:
        anna.tap(f"num-{card}")
    assert slots(anna) == [str(card) for card in RACKS[0]]
    assert "ascending 10" in anna.screen_text()
    anna.set_value("part-called", True)
    anna.tap("part-submit")
    assert keeping.parts.mine(0) == {"rack": RACKS[0], "called": True}
    anna.go(f"/table/{code}/seat")  # drawn again (another device's change): the rack is still shown
    assert slots(anna) == [str(card) for card in RACKS[0]]
    ben = phones[1]
    ben.go(f"/table/{code}/seat")
    for card in RACKS[1][:9]:
        ben.tap(f"num-{card}")
    ben.tap("part-submit")  # nine cards: refused, nothing kept
    assert keeping.parts.mine(1) == {}
    ben.tap(f"num-{RACKS[1][9]}")
    ben.tap("part-submit")
    saved = keeping.store.get_match(keeping.match.id)
    assert len(saved.rounds) == 1 and saved.rounds[0]["racks"] == list(RACKS)
    assert saved.rounds[0]["callers"] == [0]


def test_a_round_the_host_saves_on_the_normal_screens_reaches_the_table(tmp_path: Path) -> None:
    host, code = host_table(tmp_path, 3, "ruckzuck", "table-mode-keep")
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben", "Cleo"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    table = HOST.tables[code]
    keeping = table.keeping
    assert keeping is not None
    for phone in phones:
        phone.go(f"/table/{code}/seat")
    phones[0].type_text("part-hand", "12")
    phones[0].tap("part-submit")
    assert keeping.parts.mine(0)
    version = table.version
    host.go(f"/match/{keeping.match.id}/round")  # the host's round entry, not the table's
    host.tap("out-1")
    host.tap("card-7")
    host.tap("hand-seat-2")
    host.tap("card-J")
    host.tap("save-round")
    assert table.version > version  # the table told its devices (pubsub) about the change
    assert len(keeping.match.rounds) == 1 and keeping.parts.mine(0) == {}  # the phones' parts are void
    phones[1].go(f"/table/{code}/seat")  # (the browser test sees it arrive without this: one hub per server)
    assert "Round 2" in phones[1].screen_text()
    version = table.version
    host.go(f"/match/{keeping.match.id}")
    host.tap("undo")
    assert table.version > version and keeping.match.rounds == []
    phones[2].go(f"/table/{code}/seat")
    assert "Round 1" in phones[2].screen_text()


def test_a_seat_handed_to_another_phone_mid_round(tmp_path: Path) -> None:
    """The host frees a vanished phone's seat: that phone is told so, and the phone that takes the seat enters
    the part (the parts already sent stay)."""
    from test_table_speed import deliver

    host, code = host_table(tmp_path, 2, "racko", "table-mode-keep")
    anna, ben = (join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben")))
    host.go(f"/table/{code}")
    host.tap("start-table")
    table = HOST.tables[code]
    keeping = table.keeping
    assert keeping is not None
    for phone in (anna, ben):
        phone.go(f"/table/{code}/seat")
    for card in RACKS[0]:
        anna.tap(f"num-{card}")
    anna.set_value("part-called", True)
    anna.tap("part-submit")
    table.disconnect(1)  # Ben's phone is gone (flat battery) ...
    table.free(1)  # ... and the host opens his seat for another phone
    deliver(ben, code)
    assert ben.has("seat-lost") and not ben.has("part-submit")
    ben.tap("join-again")  # the way back: the join screen, where the seat is free again
    assert ben.ctx.route == f"/join/{code}" and ben.has("take-seat-2")
    bea = join(tmp_path, code, "Bea", 2)
    bea.go(f"/table/{code}/seat")
    assert "Bea, enter your part" in bea.find("keep-status").value
    for card in RACKS[1]:
        bea.tap(f"num-{card}")
    bea.tap("part-submit")
    saved = keeping.store.get_match(keeping.match.id)
    assert len(saved.rounds) == 1 and saved.rounds[0]["racks"] == list(RACKS)


def rage_table(tmp_path: Path) -> tuple[str, list, App, Any]:  # type: ignore[type-arg]
    """A Rage (Amigo, hook rule on) score-keeping table: Ben, Cleo, Oma on phones and a board tablet."""
    host, code = host_table(
        tmp_path, 3, "rage", "table-mode-keep", "option-edition-amigo", "option-hook_rule-True"
    )
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Ben", "Cleo", "Oma"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    for phone in phones:
        phone.go(f"/table/{code}/seat")
    board = app(tmp_path, "board", width=1280)
    board.go(f"/table/{code}/board")
    return code, phones, board, HOST.tables[code]


def everyone(code: str, devices: list) -> None:  # type: ignore[type-arg]
    for device in devices:
        deliver(device, code)


def send(phone: App, **values: int) -> None:
    for name, value in values.items():
        phone.tap(f"part-{name}-{value}")
    phone.tap("part-submit")


def bid_dealer_last(code: str, phones: list[App], devices: list, table: Any) -> int:  # type: ignore[type-arg]
    """Every phone bids, the dealer last: 0 each, the dealer 1. Returns the dealer."""
    dealer = table.keeping.match.dealer
    for seat in [s for s in range(3) if s != dealer] + [dealer]:
        send(phones[seat], bid=0 if seat != dealer else 1)
        everyone(code, devices)
    return dealer


def test_a_round_that_does_not_add_up_is_shown_on_every_phone_and_the_board(tmp_path: Path) -> None:
    """Ben 5 tricks, Cleo 4, Oma 2 of 10: every phone and the board say so, each may correct its part."""
    code, phones, board, table = rage_table(tmp_path)
    devices = [*phones, board]
    bid_dealer_last(code, phones, devices, table)
    for seat, tricks in enumerate((5, 4, 2)):
        send(phones[seat], tricks=tricks)
        everyone(code, devices)
    problem = "The tricks add up to 11, but 10 tricks were played."
    for phone in phones:
        assert phone.find("keep-problem").value == problem
        assert "does not check out: please check your part" in phone.find("keep-status").value
    assert problem in board.screen_text() and board.has("board-problem")
    assert "Ben, Cleo, Oma" in board.find("board-problem").content.controls[1].value
    send(phones[0], tricks=4)  # Ben (not the last to send) corrects his part
    everyone(code, devices)
    assert len(table.keeping.match.rounds) == 1
    assert not board.has("board-problem") and not any(phone.has("keep-problem") for phone in phones)


def test_the_dealer_sees_the_forbidden_bid_explained_and_the_bids_before_sending(tmp_path: Path) -> None:
    code, phones, board, table = rage_table(tmp_path)
    devices = [*phones, board]
    match = table.keeping.match
    dealer, names = match.dealer, ["Ben", "Cleo", "Oma"]
    others = [seat for seat in range(3) if seat != dealer]
    assert f"{names[dealer]} deals. Cards this round: 10. Now: Bids." == board.find("board-facts").value
    phones[dealer].tap("part-bid-3")  # chosen before the others bid: barred later
    for seat, bid in zip(others, (3, 4), strict=True):
        send(phones[seat], bid=bid)
        everyone(code, devices)
    dealer_phone = phones[dealer]
    why = dealer_phone.find("part-why").controls[0].value
    assert why == f"{names[dealer]} deals and may not bid 3: all bids would add up to the 10 cards in hand."
    three = dealer_phone.find("part-bid-3")
    assert three.disabled and three.bgcolor is None  # greyed out, not drawn as chosen
    public = dealer_phone.find("keep-public").controls[0].value
    assert (
        public
        == f"Bids: {', '.join(f'{n} ' + ('–' if s == dealer else str({others[0]: 3, others[1]: 4}[s])) for s, n in enumerate(names))}"
    )
    assert "Player" not in dealer_phone.screen_text()
    send(dealer_phone, bid=2)
    everyone(code, devices)
    assert dealer_phone.find("keep-mine").value == "Your bid: 2"  # the tricks form shows the own bid
    assert "Now: Tricks and +5/-5 cards." in board.find("board-facts").value
    assert all(phone.has("keep-scores") for phone in phones)


def test_the_board_shows_a_saved_rounds_result_until_the_next_round_starts(tmp_path: Path) -> None:
    code, phones, board, table = rage_table(tmp_path)
    devices = [*phones, board]
    dealer = bid_dealer_last(code, phones, devices, table)
    for seat in range(3):
        send(phones[seat], tricks=10 if seat == dealer else 0)
        everyone(code, devices)
    assert len(table.keeping.match.rounds) == 1
    points = table.keeping.match.round_scores()[0]
    assert board.has("board-last-round")
    assert board.find(f"board-last-{dealer}").controls[2].value == f"{points[dealer]:+d}"
    assert f"({points[dealer]:+d})" in phones[0].find(f"keep-score-{dealer}").controls[1].value
    first = (table.keeping.match.dealer + 1) % 3
    send(phones[first], bid=0)  # the next round's first part: the board moves on
    everyone(code, devices)
    assert not board.has("board-last-round")
