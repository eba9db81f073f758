"""Score keeping at a live table in a real browser: three phones enter their Racko racks on the slots and number
pad of the round-entry screen (screenshots at 390x844), the round is saved, and a change the host makes on the
normal screens (undo of that round) reaches the board and every phone without a reload."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DESKTOP, PHONE, UI, browser_tabs, served
from steps import present, set_language
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


TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_rage_round_that_does_not_add_up_is_shown_on_every_phone_and_the_board(
    chromium, tmp_path: Path, language: str
) -> None:
    """Ben 5 tricks, Cleo 4, Oma 2 of 10: every phone and the board show the problem (not only the phone that
    sent last), the round is not saved, and Cleo (not the last to send) corrects her part, which saves it.
    Before that the dealer's phone explains the bid the hook rule forbids and shows the others' bids."""
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        host = tab("host", DESKTOP)
        if language != "en":
            set_language(host, language, "Sprache")
        code = new_table(host, "rage", 3, "table-mode-keep")
        names = ["Ben", "Cleo", "Oma"]
        phones = dict(zip(names, join_phones(tab, code, names), strict=True))
        wait_says(host, "Oma")
        host.tap("start-table")
        host.wait("board-parts")
        for phone in phones.values():
            phone.wait("keep-part", timeout=30_000)

        def part(name: str, field: str, value: int) -> None:
            phones[name].wait(f"part-{field}-{value}", timeout=30_000)
            phones[name].tap(f"part-{field}-{value}")
            phones[name].tap("part-submit")

        part("Cleo", "bid", 4)  # Ben, seat 1, deals and bids last
        part("Oma", "bid", 6)  # 4 + 6 = 10: Ben may not bid 0
        phones["Ben"].wait("part-why", timeout=30_000)
        if language == "en":
            wait_says(
                phones["Ben"], "Ben deals and may not bid 0: all bids would add up to the 10 cards in hand."
            )
            wait_says(phones["Ben"], "Bids: Ben –, Cleo 4, Oma 6")
            wait_says(host, "Ben deals. Cards this round: 10. Now: Bids.")
        shoot(phones["Ben"], f"keep-hook-{language}", PHONE)
        part("Ben", "bid", 1)
        phones["Oma"].wait("keep-mine", timeout=30_000)
        for name, tricks in zip(names, (5, 4, 2), strict=True):
            part(name, "tricks", tricks)
        for name, phone in phones.items():
            phone.wait("keep-problem", timeout=30_000)
            if language == "en":
                wait_says(phone, "The tricks add up to 11, but 10 tricks were played.")
                wait_says(phone, "does not check out: please check your part")
            shoot(phone, f"keep-problem-{name}-{language}", PHONE)
        host.wait("board-problem")
        if language == "en":
            wait_says(host, "Please check your parts: Ben, Cleo, Oma.")
        shoot(host, f"keep-problem-board-tablet-{language}", TABLET)
        shoot(host, f"keep-problem-board-tv-{language}", TV)
        part("Cleo", "tricks", 3)  # Cleo corrects hers: 5 + 3 + 2 = 10, the round is saved
        host.wait("board-last-round", timeout=30_000)
        assert not present(host, "board-problem")
        for phone in phones.values():
            phone.wait("keep-score-0", timeout=30_000)
            assert not present(phone, "keep-problem")
        shoot(host, f"keep-saved-board-tv-{language}", TV)
        shoot(phones["Oma"], f"keep-saved-phone-{language}", PHONE)
