"""Score keeping at a live table in a real browser: three phones enter their Racko racks on the slots and number
pad of the round-entry screen (screenshots at 390x844), the round is saved, and a change the host makes on the
normal screens (undo of that round) reaches the board and every phone without a reload."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DESKTOP, PHONE, UI, browser_tabs, served
from test_table_screens import join_phones, new_table, shoot, wait_says

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RACKS = {
    "Anna": [1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
    "Ben": [20, 18, 16, 14, 12, 10, 8, 6, 4, 2],
    "Cleo": [30, 29, 28, 27, 26, 25, 24, 23, 22, 21],
}


def enter_rack(phone: UI, rack: list[int], *, shots: str | None = None) -> None:
    phone.wait("slot-9", timeout=30_000)
    for index, card in enumerate(rack):
        phone.tap(f"num-{card}")
        if shots and index == 3:
            shoot(phone, f"{shots}-rack-half", PHONE)
    if shots:
        shoot(phone, f"{shots}-rack-full", PHONE)


def test_phones_keep_score_for_a_racko_round_and_the_hosts_undo_reaches_them(
    chromium, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        host = tab("host", DESKTOP)
        code = new_table(host, "racko", 3, "table-mode-keep")
        phones = dict(zip(RACKS, join_phones(tab, code, list(RACKS)), strict=True))
        wait_says(host, "Cleo")
        host.tap("start-table")
        host.wait("board-parts")
        enter_rack(phones["Anna"], RACKS["Anna"], shots="keep-racko")
        phones["Anna"].tap("part-called")
        phones["Anna"].tap("part-submit")
        wait_says(phones["Anna"], "your part is in")
        shoot(phones["Anna"], "keep-racko-sent", PHONE)
        for name in ("Ben", "Cleo"):
            enter_rack(phones[name], RACKS[name])
            phones[name].tap("part-submit")
        wait_says(host, "Round 2")  # saved: the board asks for the next round's parts
        wait_says(phones["Ben"], "Round 2")

        host.open(f"/table/{code}", ready="open-scoreboard")  # the host's normal screens
        host.tap("open-scoreboard")
        host.wait("undo")
        host.tap("undo")  # takes the round back: every phone is back at round 1, without a reload
        for phone in phones.values():
            wait_says(phone, "Round 1:")
        shoot(phones["Cleo"], "keep-racko-after-undo", PHONE)
