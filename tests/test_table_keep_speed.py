"""What a part sent at a score-keeping table costs each device:
another phone's part changes one line on a phone (who is still to send) and one on the board (who is done), and
only that is built and sent; a phone's own fields (its rack pad with what it entered) are built again only for a
new round or step, or when the rules bar other values for it; no device reads the match from disk to draw.
Counts and sizes, never times."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_table_speed import Recorded, deliver, sent
from test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: the autouse fixture)

from scorekeeper.table.host import HOST
from scorekeeper.ui.components import keyed
from scorekeeper.ui.views.table import board as table_board

RACKS = (
    [3, 7, 9, 12, 15, 20, 21, 22, 33, 40],
    [1, 2, 4, 5, 6, 8, 10, 11, 13, 14],
    [16, 17, 18, 19, 23, 24, 25, 26, 27, 28],
)


def keeping_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> dict[str, Any]:
    """A score-keeping table of `game` with 3 phones and a TV board, started; each screen's parts recorded."""
    Recorded.made = []
    monkeypatch.setattr(keyed, "KeyedParts", Recorded)  # the phones' (TableScreen)
    host, code = host_table(tmp_path, 3, game, "table-mode-keep")
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben", "Cleo"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    Recorded.made = []
    for phone in phones:
        phone.go(f"/table/{code}/seat")
    parts = Recorded.made[:3]
    board = Recorded()
    monkeypatch.setattr(table_board, "KeyedParts", lambda: board)
    tv = app(tmp_path, "tv", width=1920)
    tv.go(f"/table/{code}/board")
    return {
        "code": code,
        "table": HOST.tables[code],
        "phones": phones,
        "parts": parts,
        "tv": tv,
        "board": board,
    }


@pytest.fixture
def racko(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    yield keeping_table(tmp_path, monkeypatch, "racko")


def enter_rack(phone: Any, rack: list[int]) -> None:
    for card in rack:
        phone.tap(f"num-{card}")


def test_another_phones_part_changes_one_line_on_each_device(racko: dict[str, Any]) -> None:
    code, phones, parts, tv, board = (racko[k] for k in ("code", "phones", "parts", "tv", "board"))
    anna, ben, cleo = phones
    assert [set(p.built) for p in parts] == [{"status", "dealer", "waiting", "fields", "scores"}] * 3
    enter_rack(ben, RACKS[1])  # Ben has half his rack typed when Anna sends hers
    devices = [ben, cleo, tv]
    whole = {
        id(device): max(map(len, device.connection.sent)) for device in devices
    }  # each one's first screen
    counts = {id(device): len(device.connection.sent) for device in devices}
    before = [dict(p.built) for p in parts]
    board_before = dict(board.built)
    enter_rack(anna, RACKS[0])
    anna.tap("part-submit")
    assert racko["table"].keeping.parts.mine(0)["rack"] == RACKS[0]
    for device in devices:
        deliver(device, code)
        (patch,) = sent(device, counts[id(device)])
        assert len(patch) * 10 < whole[id(device)]
    for n in (1, 2):  # Ben and Cleo: only the line of who is still to send was built again
        assert dict(parts[n].built) == {**before[n], "waiting": before[n]["waiting"] + 1}
        assert "Ben, Cleo" in phones[n].find("keep-waiting").value
    assert dict(board.built) == {**board_before, "done": board_before["done"] + 1}
    assert [
        int(c.content.controls[1].value) for c in map(ben.find, (f"slot-{i}" for i in range(10)))
    ] == RACKS[1]
    # Anna's own screen: her status and the waiting line, her rack pad kept as it is
    assert dict(parts[0].built) == {**before[0], "status": 2, "waiting": 2}
    assert "your part is in" in anna.find("keep-status").value


def test_a_phone_draws_a_change_once_however_often_it_hears_of_it(racko: dict[str, Any]) -> None:
    code, phones, parts = racko["code"], racko["phones"], racko["parts"]
    enter_rack(phones[0], RACKS[0])
    phones[0].tap("part-submit")
    count = len(phones[1].connection.sent)
    deliver(phones[1], code)
    deliver(phones[1], code)  # the same change heard twice: drawn and sent once
    assert len(phones[1].connection.sent) == count + 1
    assert parts[1].built["waiting"] == 2


def test_the_round_saved_clears_every_phones_fields_in_place(racko: dict[str, Any]) -> None:
    """A new round empties the rack pad on screen instead of sending a new one (some 240 controls)."""
    code, phones, parts, table = racko["code"], racko["phones"], racko["parts"], racko["table"]
    whole = [max(map(len, phone.connection.sent)) for phone in phones]  # each one's first screen
    for seat, (phone, rack) in enumerate(zip(phones, RACKS, strict=True)):
        enter_rack(phone, rack)
        if seat == 0:
            phone.set_value("part-called", True)
        counts = [len(phone.connection.sent) for phone in phones]
        phone.tap("part-submit")
        assert table.keeping.parts.mine(seat) or table.keeping.match.rounds, phone.screen_text()
    for phone in phones:
        deliver(phone, code)
    assert len(table.keeping.match.rounds) == 1
    for n, phone in enumerate(phones):  # the round saved reached each phone as a patch, not a new screen
        assert 0 < sum(map(len, sent(phone, counts[n]))) * 2 < whole[n]  # (the slots are drawn anew)
    assert [p.built["fields"] for p in parts] == [1, 1, 1]
    for phone in phones:
        assert "Round 2" in phone.find("keep-status").value
        assert all(phone.find(f"slot-{i}").content.controls[1].value == "–" for i in range(10))
        assert not phone.find("num-40").disabled and phone.find("part-called").value is False
    phones[1].tap("num-5")  # the pad takes taps in the new round
    assert phones[1].find("slot-0").content.controls[1].value == "5"
    assert table.keeping.parts.mine(1) == {}


def test_a_new_round_of_another_hand_size_builds_the_bid_row_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rage deals one card fewer each round: the bid row of 0..10 becomes one of 0..9."""
    data = keeping_table(tmp_path, monkeypatch, "rage")
    phones, parts, table = data["phones"], data["parts"], data["table"]
    keeping = table.keeping
    cards = 10
    dealer = keeping.match.dealer
    bids = {seat: 0 for seat in range(3) if seat != dealer} | {dealer: 1}  # the dealer last; 1 is not 10
    for seat, bid in bids.items():
        phones[seat].tap(f"part-bid-{bid}")
        phones[seat].tap("part-submit")
    tricks = {seat: 0 for seat in range(3)}
    tricks[0] = cards  # seat 1 takes every trick
    for seat, took in tricks.items():
        for phone in phones:
            deliver(phone, data["code"])
        phones[seat].tap(f"part-tricks-{took}")
        phones[seat].tap("part-submit")
    assert len(keeping.match.rounds) == 1, phones[2].screen_text()
    for phone in phones:
        deliver(phone, data["code"])
    assert phones[0].has(f"part-bid-{cards - 1}") and not phones[0].has(f"part-bid-{cards}")
    assert all(part.built["fields"] == 3 for part in parts)  # the bids, the tricks, the bids of round 2


def test_no_device_reads_the_match_from_disk_to_draw(
    racko: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store tells the table of every change to its match, so the match in memory is the stored one."""
    code, phones, tv, table = racko["code"], racko["phones"], racko["tv"], racko["table"]
    store = table.keeping.store
    reads: list[str] = []
    real_get = store.get_match
    monkeypatch.setattr(store, "get_match", lambda match_id: reads.append(match_id) or real_get(match_id))
    enter_rack(phones[0], RACKS[0])
    phones[0].tap("part-submit")
    done = len(reads)  # the part itself is checked against the stored match (once)
    assert done <= 1
    for device in (*phones, tv):
        deliver(device, code)
    assert len(reads) == done


def test_the_dealers_bid_row_greys_out_the_hook_once_the_others_have_bid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_data = keeping_table(tmp_path, monkeypatch, "rage")
    code, phones, parts, table = (table_data[k] for k in ("code", "phones", "parts", "table"))
    match = table.keeping.match
    dealer = match.dealer
    others = [seat for seat in range(3) if seat != dealer]
    for seat in others:
        phones[seat].tap(f"part-bid-{1}")
        phones[seat].tap("part-submit")
    deliver(phones[dealer], code)
    cards = 10  # Rage deals 10 cards in the first round
    hook = cards - 2  # the dealer may not make the bids add up to the cards dealt
    assert phones[dealer].find(f"part-bid-{hook}").disabled
    assert not phones[dealer].find(f"part-bid-{hook - 1}").disabled
    assert parts[dealer].built["fields"] == 2  # built again: the rules bar another value now
    phones[dealer].tap(f"part-bid-{hook - 1}")  # and still takes a tap
    phones[dealer].tap("part-submit")
    assert table.keeping.parts.stage == 1  # every bid is in: the tricks are next
    for seat in others:
        assert parts[seat].built["fields"] == 1


def test_a_tap_on_the_pad_does_not_send_the_keys_styles_again(racko: dict[str, Any]) -> None:
    """Flet's Button makes a new style object on every update; the pad's keys keep theirs while it is equal."""
    anna = racko["phones"][0]
    count = len(anna.connection.sent)
    anna.tap("num-3")
    patch = b"".join(sent(anna, count))
    assert patch and b"disabled" in patch and b"style" not in patch
