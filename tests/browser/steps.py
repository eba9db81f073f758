"""Steps the browser tests share beyond conftest's served app and `UI` (holds no tests itself): a page on a
seeded data folder, a seeded fixture in both test languages, the extras seed data, the language switch and
the scoreboard's totals."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, ROOT, UI, seeded_ui, served

from scorekeeper.exchange.transfer import export_json
from scorekeeper.model.match import Match
from scorekeeper.store import Store


@contextmanager
def phone_on(chromium: Any, data: Path, seed: Callable[[Path], Any], name: str) -> Iterator[tuple[UI, Any]]:
    """A phone-sized page on the app serving the new data folder `data` that `seed(data)` filled before the
    app started; yields the page and what `seed` returned, and closes the page at the end."""
    data.mkdir()
    seeded = seed(data)
    with served(data) as url:
        context = chromium.new_context(viewport=PHONE)
        try:
            yield UI(context.new_page(), url, name), seeded
        finally:
            context.close()


def seeded_in_each_language(seed: Callable[[Any], Any], name: str) -> Any:
    """A fixture called `name`: conftest's `seeded_ui` on data that `seed(store)` filled, once in English and
    once in German (the longer strings); it gives (UI, what `seed` returned, the language's Translator)."""

    @pytest.fixture(params=["en", "de"], name=name)
    def fixture(chromium: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
        with seeded_ui(chromium, tmp_path, request.param, seed, name) as made:
            yield made

    return fixture


def other_device_export(folder: Path) -> Path:
    """A small export of another device: one finished Ruck Zuck game of Dee and Eve (Eve wins)."""
    with Store.open(folder) as store:
        dee, eve = store.add_player("Dee").id, store.add_player("Eve").id
        match = Match.new("ruckzuck", {}, [dee, eve], names=["Dee", "Eve"])
        match = match.with_round({"hands": [[], [7]], "out": 0})
        match = match.with_round({"hands": [[9], []], "out": 1})
        match = store.save_match(match)
        return Path(export_json(store, folder / "export.json"))


def extras_seed_data() -> Any:
    """tests/test_history_stats_data.py (one folder up, so not importable by name from here), loaded once; its
    `seed_store(store)` stores three finished games and a running Racko."""
    if "extras_seed_data" in sys.modules:
        return sys.modules["extras_seed_data"]
    spec = importlib.util.spec_from_file_location(
        "extras_seed_data", ROOT / "tests" / "test_history_stats_data.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass needs to find its module
    spec.loader.exec_module(module)
    return module


def set_language(ui: UI, language: str, word: str) -> None:
    """Choose `language` in Settings and wait until the screen says `word` (a word of that language)."""
    ui.open("/settings", ready=f"language-{language}")
    ui.tap(f"language-{language}")
    ui.wait_text(word)


def wait_totals(ui: UI, *totals: int) -> None:
    """Wait until the scoreboard shows these totals, seat 0 first."""
    for seat, total in enumerate(totals):
        ui.wait_total(seat, total)


def acts(ui: UI) -> list[str]:
    """The identifiers of the play actions offered on screen now (`act-<json>`)."""
    nodes = ui.page.locator("[flt-semantics-identifier^='act-']")
    return sorted(nodes.nth(i).get_attribute("flt-semantics-identifier") or "" for i in range(nodes.count()))


def present(ui: UI, identifier: str) -> bool:
    return ui.page.locator(f"[flt-semantics-identifier='{identifier}']").count() > 0


def tap_act(ui: UI, identifier: str) -> None:
    """Tap an offered action and wait for the app's answer; an action gone meanwhile (the turn moved on, a redraw)
    is let go: the caller's loop looks at the screen again."""
    target = ui.page.locator(f"[flt-semantics-identifier='{identifier}']").first
    sent_before = ui.sent
    try:
        target.click(timeout=5_000)
    except Exception:
        return
    ui.settle(sent_before)
    ui.page.wait_for_timeout(150)


def tap_first(ui: UI, preferred: Sequence[str], offered: list[str] | None = None) -> bool:
    """Tap the first of `preferred` that is offered, else whatever is offered first; False when nothing is."""
    offered = acts(ui) if offered is None else offered
    choice = next((wanted for wanted in preferred if wanted in offered), offered[0] if offered else None)
    if choice is None:
        return False
    tap_act(ui, choice)
    return True


def screenshot(ui: UI, name: str, size: dict[str, int], *, pause: int = 300) -> Path:
    """tests/browser/output/<name>.png at `size`, after `pause` ms for the app to lay out again."""
    OUTPUT.mkdir(exist_ok=True)
    ui.resize(size)
    ui.page.wait_for_timeout(pause)
    path = OUTPUT / f"{name}.png"
    path.write_bytes(ui.still())
    return path


def computer_tables(data: Path, games: Sequence[tuple[str, int]], *, moves: int = 9) -> dict[str, str]:
    """A digital table per (game, players), every seat a normal computer player, dealt with seed 3 and `moves`
    computer moves made, saved in the data folder `data` (as a host process would leave them): game -> code."""
    from scorekeeper.table.host import TableHost

    codes = {}
    with Store.open(data) as store:
        for game, players in games:
            table = TableHost().create(game, {}, players)
            for seat in range(players):
                table.set_computer(seat, "normal")
            table.start(store, seed=3)
            for _ in range(moves):
                table.step_computer()
            codes[game] = table.code
    return codes
