"""The live table in a real browser (loopback only): a host, the board and two phones (plus a computer player)
play a Racko round to the end; a phone reloads mid-round and is back in its seat; a wrong code and a stolen seat
are refused. Screenshots of the lobby, the join screen, a phone's seat and the board go to tests/browser/output."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import DESKTOP, PHONE, UI, browser_tabs, served
from steps import computer_tables, present, screenshot, set_language, tap_first

from tests.test_table_ui import setting_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV = {"width": 1920, "height": 1080}


def one_move(ui: UI) -> bool:
    """A phone's move when it is its turn: call Racko when offered, else stock, then discard."""
    return tap_first(ui, ('act-"call"', 'act-"stock"', 'act-"discard"'))


def says(ui: UI) -> str:
    """Everything the accessibility tree says: texts and the labels of merged nodes (list tiles, buttons)."""
    return ui.page.evaluate(
        "() => [...document.querySelectorAll('flt-semantics-host *')]"
        ".map(n => (n.getAttribute('aria-label') || '') + ' ' + (n.childElementCount ? '' : n.textContent))"
        ".join(' ')"
    )


def wait_says(ui: UI, text: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in says(ui):
            return
        ui.page.wait_for_timeout(200)
    raise AssertionError(f"{text!r} not on screen: {says(ui)[:1500]}")


def shoot(ui: UI, name: str, size: dict[str, int]) -> Path:
    return screenshot(ui, f"table-{name}", size, pause=600)


def reopen(ui: UI, ready: str) -> None:
    ui.page.reload()
    ui.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    ui.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    ui.wait(ready, timeout=60_000)


def new_table(host: UI, game: str, players: int, *choices: str) -> str:
    """The host sets up a table (tapping `choices`, e.g. the mode) and opens its lobby; returns the code."""
    host.open("/", ready="host-table")
    for identifier in setting_up(game, players, *choices):
        host.tap(identifier)
    host.wait("table-code")
    return host.text_of("table-code")


def join_phones(tab, code: str, names: list[str]) -> list[UI]:  # type: ignore[no-untyped-def]
    """A phone per name joins the table, seat 1 onwards, and waits for the game to start."""
    phones = []
    for seat, name in enumerate(names, start=1):
        phone = tab(name, PHONE)
        phone.open(f"/join/{code}", ready="join-name")
        phone.fill("join-name", name)
        phone.tap(f"take-seat-{seat}")
        phone.tap("join-submit")
        phone.wait("seat-waiting")
        phones.append(phone)
    return phones


def test_a_table_plays_a_racko_round_with_phones_and_a_board(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        host = tab("host", DESKTOP)
        code = new_table(host, "racko", 3)
        assert len(code) == 6, code
        assert f"/join/{code}" in host.text_of("join-address")
        shoot(host, "lobby", DESKTOP)

        guesser = tab("guesser", PHONE)  # a wrong code gets a clear message
        guesser.open("/join/AAAAAA", ready="join-code")
        wait_says(guesser, "There is no table with the code AAAAAA")
        guesser.page.close()  # done: an open tab keeps drawing and takes the machine's time from the round below

        phones = []
        for seat, name in ((1, "Anna"), (2, "Ben")):
            phone = tab(name, PHONE)
            phone.open(f"/join/{code}", ready="join-name")
            phone.fill("join-name", name)
            phone.tap(f"take-seat-{seat}")
            if seat == 1:
                shoot(phone, "join", PHONE)
            phone.tap("join-submit")
            phone.wait("seat-waiting")
            phones.append(phone)

        thief = tab("thief", PHONE)  # no token: the seat screen sends it to joining, never to a seat
        thief.open(f"/table/{code}/seat", ready="join-name")
        assert not present(thief, "play-panel")
        thief.page.close()

        wait_says(host, "Anna")  # the lobby hears of each join without a reload
        wait_says(host, "Ben")
        host.tap("computer-3")
        host.tap("start-table")
        host.wait("board-turn")
        for phone in phones:
            phone.wait("turn-status", timeout=30_000)

        deadline = time.monotonic() + 600  # the round ends when someone has Racko: mostly the computer player
        moves = 0
        reloaded = False
        shot = False
        while time.monotonic() < deadline and not present(phones[0], "round-result"):
            moved = any([one_move(phone) for phone in phones])
            moves += moved
            if moves >= 6 and not shot:
                shoot(phones[0], "seat", PHONE)
                shoot(host, "board", TV)
                shot = True
            if moves >= 8 and not reloaded:  # a reload mid-round: back in the seat without typing
                reopen(phones[1], ready="turn-status")
                assert present(phones[1], "play-panel") or present(phones[1], "round-result")
                wait_says(phones[1], "Ben")
                reloaded = True
            if not moved:
                phones[0].page.wait_for_timeout(300)
        assert reloaded and present(phones[0], "round-result"), phones[0].all_text()[:1500]
        phones[1].wait("round-result", timeout=30_000)
        wait_says(host, "Round 1 is over.")
        shoot(phones[0], "round-result", PHONE)
        shoot(host, "board-end", TV)


def test_boards_of_rage_and_ruck_zuck_after_a_host_restart(chromium, tmp_path: Path) -> None:
    """Tables saved by an earlier host process come back when the app starts again; the TV board of each."""
    data = tmp_path / "data"
    data.mkdir()
    codes = computer_tables(data, [("rage", 4), ("ruckzuck", 3)])
    with served(data) as url, browser_tabs(chromium, url) as tab:
        board = tab("board", TV)
        for game, part in (("rage", "board-trump"), ("ruckzuck", "board-grid")):
            board.open(f"/table/{codes[game]}/board", ready=part)
            board.wait("board-score-0")
            shoot(board, f"board-{game}", TV)


def test_a_table_keeps_score_for_a_rage_round(chromium, tmp_path: Path) -> None:
    """Keep score: the host picks it, three phones enter bids (the dealer last) then tricks in parallel, the
    board shows who is done; a part that makes the round wrong is refused, corrected, and the round is saved."""
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:

        def part(phone: UI, field: str, value: int) -> None:
            phone.wait(f"part-{field}-{value}", timeout=30_000)
            phone.tap(f"part-{field}-{value}")  # one tap, as on the round-entry screens
            phone.tap("part-submit")

        host = tab("host", DESKTOP)
        code = new_table(host, "rage", 3, "table-mode-keep")
        phones = join_phones(tab, code, ["Anna", "Ben", "Cleo"])
        wait_says(host, "Cleo")
        host.tap("start-table")
        host.wait("board-parts")
        board = tab("board", TV)
        board.open(f"/table/{code}/board", ready="board-parts")
        for phone in phones:
            phone.wait("keep-part", timeout=30_000)
        wait_says(phones[0], "Anna deals.")  # the first dealer is seat 1: Anna bids last
        part(phones[1], "bid", 3)
        part(phones[2], "bid", 3)
        wait_says(board, "done")
        shoot(phones[0], "keep-bid", PHONE)
        part(phones[0], "bid", 2)
        part(phones[1], "tricks", 3)
        part(phones[2], "tricks", 5)
        part(phones[0], "tricks", 4)  # 3 + 5 + 4 = 12 tricks of 10: refused, nothing saved
        wait_says(phones[0], "The tricks add up to 12")
        shoot(board, "keep-board", TV)
        part(phones[0], "tricks", 2)
        wait_says(board, "Round 2")  # saved: the next round's parts are asked for
        wait_says(phones[1], "Round 2")
        shoot(board, "keep-board-saved", TV)


@pytest.mark.parametrize("language", ["en", "de"])
def test_joining_waiting_and_moving_on_after_a_round(chromium, tmp_path: Path, language: str) -> None:
    """A full table says so before a name is typed; the waiting screen shows the phone's name and who else has
    joined; after the round, "Next round" on Anna's phone leaves Ben's result on his phone until he moves on
    too (then the next round is dealt for both)."""
    data = tmp_path / "data"
    data.mkdir()
    english = language == "en"
    with served(data) as url, browser_tabs(chromium, url) as tab:
        host = tab("host", DESKTOP)
        if not english:
            set_language(host, language, "Sprache")
        code = new_table(host, "racko", 3)
        host.tap("computer-3")
        phones = join_phones(tab, code, ["Anna", "Ben"])
        wait_says(phones[0], "Ben")  # Anna's waiting screen hears of Ben without a reload
        if english:
            wait_says(phones[0], "You sit at seat 1 as Anna.")
            wait_says(phones[0], "At the table: Anna, Ben, Computer 3")
        shoot(phones[0], f"waiting-{language}", PHONE)
        late = tab("late", PHONE)
        late.open(f"/join/{code}", ready="join-name")
        if english:
            wait_says(late, "All seats are taken.")  # before a name is typed
        late.page.wait_for_timeout(1_000)  # its first frame (the text is in the tree before it is painted)
        shoot(late, f"join-full-{language}", PHONE)
        late.page.close()
        host.tap("start-table")
        for phone in phones:
            phone.wait("turn-status", timeout=30_000)
        deadline = time.monotonic() + 600  # the round ends when someone has Racko: mostly the computer player
        while time.monotonic() < deadline and not all(present(phone, "round-result") for phone in phones):
            if not any([one_move(phone) for phone in phones]):
                phones[0].page.wait_for_timeout(300)
        anna, ben = phones
        ben.wait("next-round", timeout=30_000)
        anna.tap("next-round")
        anna.wait("next-waiting", timeout=30_000)
        if english:
            wait_says(anna, "Waiting for the others to move on: Ben.")
        # Ben still sees his result. Anna's move-on changes who is waiting, so his result is sent anew as her page
        # changes (in German no text is waited for first): looked at until his page shows it whole.
        deadline, shown = time.monotonic() + 15, False
        while not shown and time.monotonic() < deadline:
            shown = present(ben, "round-result") and present(ben, "next-round")
            if not shown:
                ben.page.wait_for_timeout(100)
        assert shown, "Ben's result and his Next round button are gone"
        shoot(anna, f"next-waiting-{language}", PHONE)
        shoot(ben, f"next-result-{language}", PHONE)
        host.open(f"/table/{code}", ready="host-next-round")
        shoot(host, f"lobby-next-round-{language}", DESKTOP)
        ben.tap("next-round")
        for phone in phones:
            phone.wait("turn-status", timeout=30_000)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(present(phone, "round-result") for phone in phones):
            anna.page.wait_for_timeout(300)
        assert not any(present(phone, "round-result") for phone in phones)
