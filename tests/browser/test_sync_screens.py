"""Sync in a real browser: two app instances (two data folders, two ports) syncing through the real WsgiDAV
server; a round saved on one appears on the other's scoreboard without a restart; a match in conflict shown on
both (English and German) and resolved on one; the first sync set up in Settings with its progress, failure and
outcome. Screenshots at phone and desktop size go to tests/browser/output/ (sync-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import DESKTOP, OUTPUT, PHONE, UI, browser_tabs, served
from steps import wait_totals
from sync_servers import DavServer, Fault, wsgidav_server
from sync_support import change
from test_store_support import new_match

from scorekeeper.server.sync_runtime import INTERVAL_ENV, TARGET_KEY
from scorekeeper.store import Store
from scorekeeper.sync import credentials
from scorekeeper.sync.credentials import FileVault
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.targets import target_from

pytestmark = pytest.mark.browser


def R(a: int, b: int, c: int, out: int) -> dict:
    hands = [a, b, c]
    hands[out] = 0
    return {"hands": hands, "out": out}


@pytest.fixture
def dav(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DavServer]:
    """The WebDAV server, and a config folder (for the password) that the served apps share."""
    monkeypatch.setenv(credentials.ENV_CONFIG, str(tmp_path / "config"))
    monkeypatch.setenv(INTERVAL_ENV, "3")
    credentials.reset()
    with wsgidav_server(tmp_path / "server") as server:
        yield server
    credentials.reset()


def scroll_to_bottom(ui: UI, pixels: int = 5000) -> None:
    """Scroll the screen's content down the way a mouse wheel does (the Sync section is the last one)."""
    size = ui.page.viewport_size or PHONE
    ui.page.mouse.move(size["width"] / 2, size["height"] / 2)
    ui.page.mouse.wheel(0, pixels)
    ui.page.wait_for_timeout(700)


def wait_in(ui: UI, identifier: str, text: str, seconds: float = 20) -> None:
    """Wait until the control tagged `identifier` says `text` (a status refilled in place)."""
    for _ in range(int(seconds * 10)):
        try:
            if text in ui.text_of(identifier):
                return
        except Exception:
            pass
        ui.page.wait_for_timeout(100)
    raise AssertionError(f"{identifier} does not say {text!r}: {ui.diagnosis()}")


def language(ui: UI, code: str) -> None:
    """Settings' language pills are at the top."""
    scroll_to_bottom(ui, -5000)
    ui.tap(f"language-{code}")
    scroll_to_bottom(ui)


def shots(ui: UI, name: str, *, bottom: bool = False) -> None:
    """sync-<name>-phone.png and sync-<name>-desktop.png (scrolled to the bottom after each re-layout)."""
    OUTPUT.mkdir(exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ui.resize(size)
        ui.page.wait_for_timeout(1500)  # a loaded machine paints a page just opened late
        if bottom:
            scroll_to_bottom(ui)
        (OUTPUT / f"sync-{name}-{label}.png").write_bytes(ui.still())
    ui.resize(PHONE)


def device(folder: Path, server: DavServer, language: str) -> Store:
    store = Store.open(folder)
    store.set_setting("language", language)
    store.set_setting(TARGET_KEY, {"address": f"{server.url}sync", "user": server.user})
    return store


def test_two_devices_share_rounds_and_show_a_conflict(chromium, tmp_path: Path, dav: DavServer) -> None:
    address = f"{dav.url}sync"
    FileVault().set(address, dav.user, dav.password)
    target = target_from(address, dav.user, dav.password)
    a, b = device(tmp_path / "a", dav, "en"), device(tmp_path / "b", dav, "de")
    shared = a.save_match(new_match(a))  # no round yet
    split = a.save_match(new_match(a, rounds=1, seed=2))
    for _ in range(2):
        sync_once(a, target), sync_once(b, target)
    change(a, split.id, lambda m: m.with_round(R(1, 1, 1, 0)))  # the same round, differently on each device
    change(b, split.id, lambda m: m.with_round(R(2, 2, 2, 1)))
    for _ in range(2):
        sync_once(b, target), sync_once(a, target)
    assert a.conflicts() and b.conflicts()
    a.close(), b.close()
    with (
        served(tmp_path / "a") as url_a,
        served(tmp_path / "b") as url_b,
        browser_tabs(chromium, url_a) as tab_a,
        browser_tabs(chromium, url_b) as tab_b,
    ):
        board = tab_b("sync-board-de", PHONE)
        board.open(f"/match/{shared.id}", ready="enter-round")
        phone = tab_a("sync-phone-en", PHONE)
        phone.open(f"/match/{shared.id}", ready="enter-round")
        # A round on the phone (Anna out, Ben 3 + 17 + joker = 120, Cleo typed 45) ...
        phone.tap("enter-round")
        phone.tap("out-0")
        for card in ("3", "17", "J"):
            phone.tap(f"card-{card}")
        phone.tap("next-seat")
        phone.tap("hand-mode-total")
        phone.fill("total-2", "45")
        phone.tap("save-round")
        wait_totals(phone, 0, 120, 45)
        # ... reaches the other device's open scoreboard by itself (sync after the save, then the interval)
        for seat, total in enumerate((0, 120, 45)):
            board.wait_total(seat, total, within=30)  # it comes by sync, a few seconds
        shots(board, "scoreboard-after-sync-de")

        # The match in conflict: on both devices, each in its language
        board.open("/history", ready="history-game-all")
        wait_in(
            board, f"history-{split.id}", "Auf einem anderen Gerät anders geändert: zum Auswählen öffnen."
        )
        shots(board, "history-conflict-de")
        board.open(f"/match/{split.id}", ready="conflict-panel")
        wait_in(board, "conflict-question", "hat dieses Spiel anders geändert. Welche Fassung behältst du?")
        shots(board, "conflict-de")
        phone.open(f"/match/{split.id}", ready="conflict-panel")
        wait_in(phone, "conflict-question", "changed this game differently. Which version do you keep?")
        shots(phone, "conflict-en")
        # Resolved on the phone: the other device's open scoreboard drops its panel with the next sync
        phone.tap("conflict-keep-other")
        gone(phone, "conflict-panel", 10)
        gone(board, "conflict-panel", 40)
        shots(board, "conflict-resolved-de")


def gone(ui: UI, identifier: str, seconds: float) -> None:
    for _ in range(int(seconds * 10)):
        if ui.page.locator(f'[flt-semantics-identifier="{identifier}"]').count() == 0:
            return
        ui.page.wait_for_timeout(100)
    raise AssertionError(f"{identifier} is still shown: {ui.diagnosis()}")


def test_first_sync_set_up_in_settings_shows_progress_and_outcome(
    chromium, tmp_path: Path, dav: DavServer
) -> None:
    address = f"{dav.url}sync"
    target = target_from(address, dav.user, dav.password)
    other = Store.open(tmp_path / "other")  # another device put three games there, in three syncs
    for seed in (1, 2, 3):
        other.save_match(new_match(other, rounds=1, seed=seed))
        sync_once(other, target)
    other.close()
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("sync-settings-en", PHONE)
        ui.open("/settings", ready="sync-section")
        scroll_to_bottom(ui)
        ui.fill("sync-address", address)
        ui.fill("sync-user", dav.user)
        ui.fill("sync-password", "wrong")
        ui.tap("sync-test")
        ui.wait_text("refused the user name or password")
        shots(ui, "settings-wrong-password-en", bottom=True)
        ui.fill("sync-password", dav.password)
        ui.tap("sync-test")
        ui.wait_text("The connection works.")
        # the second of the other device's log files does not come (until the test lets it fail): progress
        dav.faults.append(Fault(0, "GET", "/log/", after=1, times=1))
        ui.tap("sync-save")
        scroll_to_bottom(ui)
        wait_in(ui, "sync-progress", "Syncing… 1 of 4")
        shots(ui, "progress-en", bottom=True)
        language(ui, "de")
        wait_in(ui, "sync-progress", "Synchronisiere… 1 von 4")
        shots(ui, "progress-de", bottom=True)
        # the held request is answered 503 (or the client has given up): the sync tries again by itself
        dav.layer.release.set()
        wait_in(ui, "sync-last", "3 neue Spiele", 40)
        shots(ui, "settings-done-de", bottom=True)
        ui.tap("sync-now")
        wait_in(ui, "sync-last", "Nichts Neues", 30)
        language(ui, "en")
        wait_in(ui, "sync-last", "Nothing new")
        shots(ui, "settings-done-en", bottom=True)
