"""Digital Racko in a real browser at phone size: one person against computer players plays whole rounds to
the round result, starts the next round and reaches the end of the match; a game resumes after the server was
killed mid-round; screenshots of the play screens (phone and tablet, English and German)."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest
from conftest import OUTPUT, PHONE, UI, browser_tabs, free_port, served, start_server, wait_http
from steps import acts, present, tap_act

from scorekeeper.digital.session import PlaySession
from scorekeeper.store import Store

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"width": 1024, "height": 768}


def play_until(ui: UI, done: str, timeout: float = 240) -> None:
    """Play the person's turns (draw from the stock, discard; call Racko when offered) until `done` shows."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if present(ui, done):
            return
        offered = acts(ui)
        if 'act-"call"' in offered:
            tap_act(ui, 'act-"call"')
        elif 'act-"stock"' in offered:
            tap_act(ui, 'act-"stock"')
        elif 'act-"discard"' in offered:
            tap_act(ui, 'act-"discard"')
        elif offered:
            tap_act(ui, offered[0])
        else:
            ui.page.wait_for_timeout(200)
    raise AssertionError(f"{done} did not appear; screen:\n{ui.all_text()[:1500]}")


def shoot(ui: UI, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    for label, size in (("phone", PHONE), ("tablet", TABLET)):
        ui.resize(size)
        ui.page.wait_for_timeout(300)
        (OUTPUT / f"play-racko-{name}-{label}.png").write_bytes(ui.still())
    ui.resize(PHONE)


def start(ui: UI, target: str, pace: str = "instant") -> None:
    ui.tap("play-racko")
    ui.wait("start-game")
    ui.tap(f"pace-{pace}", count=False)
    ui.fill("option-target", target)
    ui.tap("start-game")
    ui.wait("play-panel", timeout=30_000)


def test_one_person_plays_racko_to_the_match_result(ui: UI) -> None:
    start(ui, "80")
    shoot(ui, "turn-vs-computers")
    play_until(ui, "round-result")
    shoot(ui, "round-result")
    if not present(ui, "match-result"):
        tap_act(ui, "next-round")
        ui.wait("play-panel", timeout=30_000)
        play_until(ui, "round-result")
    for _ in range(6):
        if present(ui, "match-result"):
            break
        tap_act(ui, "next-round")
        play_until(ui, "round-result")
    ui.wait("match-result")
    shoot(ui, "match-result")


def rack_labels(ui: UI) -> set[int]:
    """The cards the screen names in its rack slots ("Slot 20: 17")."""
    return {int(card) for card in re.findall(r"(?:Slot|Schlitz) \d+: (\d+)", ui.all_text())}


def racks(data: Path) -> tuple[list[set[int]], int]:
    """Every seat's rack and the seat to move, from the saved game on disk (replayed as the app does)."""
    with Store.open(data) as store:
        [saved] = store.list_digital_games()
        session = PlaySession.load(store, saved.id)
        assert session is not None
        return [set(session.state.view(seat).rack) for seat in range(len(session.seats))], session.to_act


def reveal_and_draw(ui: UI, data: Path, language: str) -> None:
    """From the hand-over screen: reveal, only the mover's own rack shows, draw from the stock; a screenshot
    of each screen in `language`."""
    shoot(ui, f"hand-over-{language}")
    tap_act(ui, "reveal")
    ui.wait("play-panel")
    cards, mover = racks(data)
    assert rack_labels(ui) == cards[mover] and not rack_labels(ui) & cards[1 - mover]
    shoot(ui, f"turn-{language}")
    tap_act(ui, 'act-"stock"')
    shoot(ui, f"drawn-{language}")


def seat_two_people(ui: UI) -> None:
    """From home: the Racko setup with Ben and Ann in the seats (the default seats of you and two computer
    players taken out): a pass-and-play game once started."""
    seat_people(ui, "racko", ["Ann", "Ben"])


def seat_people(ui: UI, game: str, names: list[str]) -> None:
    """From home: the setup of `game` with only these people in the seats (the default seats of you and two
    computer players taken out; the first name is added last, in place of "You")."""
    ui.tap(f"play-{game}")
    ui.wait("start-game")
    ui.tap("seat-2-remove", count=False)
    ui.tap("seat-1-remove", count=False)

    def add(name: str) -> None:
        ui.fill("new-player-name", name)
        ui.page.keyboard.press("Enter")
        ui.wait_text(name)

    for name in names[1:]:
        add(name)
    ui.tap("seat-0-remove", count=False)  # several people: each by name, nobody called "You"
    add(names[0])


def test_pass_and_play_in_english_and_german(ui: UI, tmp_path: Path) -> None:
    """Two people on one device: the hand-over screen shows no cards until `reveal`; then the same screens in
    German after a reload (which also resumes the game from the store)."""
    shoot(ui, "home-en")
    seat_two_people(ui)
    shoot(ui, "setup-en")
    ui.tap("start-game")
    ui.wait("reveal", timeout=30_000)
    assert not present(ui, "play-panel") and not acts(ui)
    reveal_and_draw(ui, tmp_path / "data", "en")
    tap_act(ui, 'act-"discard"')
    ui.wait("reveal")  # the other person's turn: hidden again
    assert not present(ui, "play-panel") and not acts(ui) and not rack_labels(ui)
    play_route = ui.page.url.split("/", 3)[3]
    ui.open("/settings", ready="language-de")
    ui.tap("language-de", count=False)
    ui.open("/" + play_route, ready="reveal")
    reveal_and_draw(ui, tmp_path / "data", "de")


def saved_logs(data: Path) -> list[str]:
    return [path.read_text()[-600:] for path in data.rglob("*.json") if "digital" in str(path)]


def test_resume_after_the_server_was_killed(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with browser_tabs(chromium, url) as tab:  # the page outlives both servers: closed however the test ends
        ui = tab("resume", PHONE)
        page = ui.page
        server = start_server(data, port)
        try:
            wait_http(url)
            ui.open("/")
            start(ui, "500", pace="normal")  # computer moves drawn one by one from their thread
            turns, deadline = 0, time.monotonic() + 120
            while turns < 3 and time.monotonic() < deadline:  # the person's turns; the computers move between
                offered = acts(ui)
                if 'act-"stock"' in offered:
                    tap_act(ui, 'act-"stock"')
                elif 'act-"discard"' in offered:
                    tap_act(ui, 'act-"discard"')
                    turns += 1
                else:
                    ui.page.wait_for_timeout(200)
            assert turns == 3, (acts(ui), ui.all_text(), saved_logs(data))
            deadline = time.monotonic() + 60
            while not acts(ui) and time.monotonic() < deadline:
                ui.page.wait_for_timeout(200)
            before_acts = acts(ui)
            before_screen = ui.all_text()
            route = page.url.split("/", 3)[3]
        finally:
            server.send_signal(signal.SIGKILL)  # no shutdown code runs: what is on disk is all there is
            server.wait(timeout=10)
        with served(data) as url:
            ui2 = UI(page, url, "resume")
            ui2.open("/" + route, ready="play-panel")
            ui2.page.wait_for_timeout(500)
            assert acts(ui2) == before_acts
            # a notice above the screen after the restart says the page reconnected: its close button has a name
            # since issue 52 ("Dismiss"); the game's screen itself is the same
            assert [
                line for line in ui2.all_text().splitlines() if line != "Dismiss"
            ] == before_screen.splitlines()
            assert "Slot 5:" in before_screen, before_screen[:800]
