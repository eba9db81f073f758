"""Steps the browser tests share beyond conftest's served app and `UI` (holds no tests itself): a page on a
seeded data folder, a seeded fixture in both test languages, the extras seed data, the language switch and
the scoreboard's totals."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import PHONE, ROOT, UI, seeded_ui, served


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


def extras_seed_data() -> Any:
    """tests/test_ui_extras_data.py (one folder up, so not importable by name from here), loaded once; its
    `seed_store(store)` stores three finished games and a running Racko."""
    if "extras_seed_data" in sys.modules:
        return sys.modules["extras_seed_data"]
    spec = importlib.util.spec_from_file_location(
        "extras_seed_data", ROOT / "tests" / "test_ui_extras_data.py"
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
