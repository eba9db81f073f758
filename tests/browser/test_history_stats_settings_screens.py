"""History, statistics, rules and settings in a real browser, on stored data (three finished games of the three
games and one running), at phone and desktop size; screenshots go to tests/browser/output/extras-*.png."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DESKTOP, OUTPUT, PHONE, UI, browser_tabs, served
from PIL import Image
from steps import extras_seed_data, other_device_export, set_language

from scorekeeper.store import Store

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seeded_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, Path]]:
    """The app served on data stored before it starts, as a user who has played for a while has it."""
    data = tmp_path_factory.mktemp("extras") / "data"
    data.mkdir()
    with Store.open(data) as store:
        seeded = extras_seed_data().seed_store(store)
    with served(data) as url:
        yield url, seeded, data


@pytest.fixture
def extras(chromium: Any, seeded_app: tuple[str, Any, Path]) -> Iterator[tuple[UI, Any, Path]]:
    url, seeded, data = seeded_app
    with browser_tabs(chromium, url) as tab:
        yield tab("extras", PHONE), seeded, data


def scroll_down(ui: UI, pixels: int = 700) -> None:
    """Scroll the screen's content the way a mouse wheel does (Flutter listens to wheel events)."""
    size = ui.page.viewport_size or PHONE
    ui.page.mouse.move(size["width"] / 2, size["height"] / 2)
    ui.page.mouse.wheel(0, pixels)
    ui.page.wait_for_timeout(600)


def shots(ui: UI, screen: str, after_resize: Callable[[], None] | None = None) -> None:
    """Screenshots at phone and desktop size. The app re-lays out a screen when the width class changes, and a
    screen with charts takes a moment to do so, hence the longer wait than conftest's `UI.shot`; a re-laid-out
    screen starts at the top again, so `after_resize` scrolls back where the picture should be."""
    OUTPUT.mkdir(exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ui.page.set_viewport_size(size)
        ui.page.wait_for_timeout(1500)
        if after_resize is not None:
            after_resize()
        (OUTPUT / f"extras-{screen}-{label}.png").write_bytes(ui.still())
    ui.page.set_viewport_size(PHONE)
    ui.page.wait_for_timeout(1000)


def test_history_list_filter_and_detail(extras: tuple[UI, Any, Path]) -> None:
    ui, seeded, _ = extras
    ui.open("/history", ready="history-game-all")
    ui.wait_text("Finished games: 3")
    ui.wait_text("Won by Bob")  # the Ruck Zuck game: lowest penalty
    assert "Ann: 530 · Bob: 110" in ui.all_text()
    ui.wait(f"history-{seeded.racko}")
    shots(ui, "history")
    ui.tap("history-game-rage")
    ui.wait_text("Finished games: 1")
    assert "Ann: 125 · Cy: 100 · Bob: 40" in ui.all_text()
    ui.tap(f"history-{seeded.rage}")
    ui.wait("progression-chart")
    ui.wait_text("Won by Ann")
    shots(ui, "history-detail")
    shots(ui, "history-detail-rounds", lambda: scroll_down(ui))


def test_statistics(extras: tuple[UI, Any, Path]) -> None:
    ui, seeded, _ = extras
    ui.open("/stats", ready="stats-game-all")
    ui.wait("win-share-chart")
    ui.wait_text("Ann · wins: 2 (66.7%)")
    ui.wait_text("Bob · wins: 1 (33.3%)")
    shots(ui, "stats")
    ui.wait(f"stats-racko-{seeded.players['Ann']}")
    shots(ui, "stats-players", lambda: scroll_down(ui, 900))
    ui.tap("stats-game-ruckzuck")
    ui.wait_text("Bob · wins: 1 (100%)")


def test_rules_follow_the_language(extras: tuple[UI, Any, Path]) -> None:
    ui, _, _ = extras
    ui.open("/rules?game=ruckzuck", ready="rules-text-ruckzuck")
    ui.wait_text("100 for each joker")
    shots(ui, "rules")
    set_language(ui, "de", "Sprache")
    ui.open("/rules?game=rage", ready="rules-text-rage")
    ui.wait_text("Ansagen")
    shots(ui, "rules-de")
    set_language(ui, "en", "Language")


def test_settings_theme_and_a_copy_in_the_data_folder(extras: tuple[UI, Any, Path]) -> None:
    ui, _, data = extras
    ui.open("/settings", ready="language-en")
    ui.wait_text(str(data))
    shots(ui, "settings")
    ui.tap("theme-dark")
    # Plain text is drawn light on the dark background (it was black there: the emoji font's text theme had no
    # colour of its own and replaced Material's). Flutter animates the change of theme, which under load takes
    # longer than any fixed pause: look until the text is light, for at most 15 s.
    deadline = time.monotonic() + 15
    light = 0
    ui.page.get_by_text(str(data)).first.scroll_into_view_if_needed()  # settings are longer than a screen
    while light <= 50 and time.monotonic() < deadline:
        path = ui.page.get_by_text(str(data)).first.bounding_box()
        assert path is not None
        raw = Image.open(io.BytesIO(ui.page.screenshot(clip=path))).convert("L").tobytes()
        light = sum(1 for value in raw if value > 180)
        ui.page.wait_for_timeout(100)
    assert light > 50, "the text is not drawn light in dark mode"
    ui.tap("save-copy")
    ui.wait_text("Saved to")
    assert list((data / "exports").glob("scorekeeper-*.json"))
    shots(ui, "settings-dark")
    ui.tap("theme-system")


def test_import_through_the_browsers_file_chooser(
    extras: tuple[UI, Any, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The Import button opens the browser's file chooser (a client action inside the tap); the chosen export
    of another device is imported, and its finished game shows up in the history."""
    ui, _, _ = extras
    export = other_device_export(tmp_path_factory.mktemp("other-device"))
    ui.open("/settings", ready="import-file")
    with ui.page.expect_file_chooser(timeout=15_000) as chooser:
        ui.tap("import-file")
    chooser.value.set_files(str(export))
    ui.wait_text("Imported: 1 new game, 0 updated, 0 already here, 2 new players.")
    assert ui.text_of("import-result").startswith("Imported: 1 new game")  # on the screen, under the buttons
    shots(ui, "settings-imported")
    ui.open("/history", ready="history-game-all")
    ui.wait_text("Finished games: 4")
    ui.wait_text("Won by Eve")  # Eve 7 penalty points, Dee 9


def test_export_is_a_download_in_the_browser(extras: tuple[UI, Any, Path]) -> None:
    ui, _, _ = extras
    ui.open("/settings", ready="export-json")
    with ui.page.expect_download(timeout=15_000) as download:
        ui.tap("export-json")
    saved = Path(download.value.path())
    assert download.value.suggested_filename.startswith("scorekeeper-")
    assert download.value.suggested_filename.endswith(".json")
    assert "matches" in json.loads(saved.read_text(encoding="utf-8"))
    ui.wait_text("Download started: scorekeeper-")
