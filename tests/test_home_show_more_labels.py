"""With both lists of games in progress long, home's two "Show more" buttons say which list each extends, in every
language, and each stands directly under its own list: before, both read "Show more (N more)", one between the two
lists, and a player could not tell which list it would extend."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest
from test_home_digital_paging import PLAYING, seed, tags
from test_ui_core_harness import App, walk

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.ui.paging import HOME_PAGE_SIZE

TRACKED = HOME_PAGE_SIZE + 3


def both_long(folder: Path, language: str = "en") -> None:
    """`PLAYING - 1` digital games in progress and a match dealt again (`seed`), `TRACKED` tracked matches."""
    seed(folder)
    with Store.open(folder) as store:
        for _ in range(TRACKED - 1):  # `seed` made one
            store.save_match(Match.new("racko", {}, ["anna", "ben"], names=["Anna", "Ben"]))
        store.set_setting("language", language)


def order(app: App) -> list[str]:
    """The tagged cards and buttons of home's games in progress, top to bottom: "digital", "tracked" for a card,
    the button's tag for a button."""
    found: list[str] = []
    for node in walk(app.view):
        name = node.identifier if isinstance(node, ft.Semantics) and node.identifier else ""
        if name.startswith("resume-") or (name.startswith("continue-") and name[9:] in digital_matches(app)):
            found.append("digital")
        elif name.startswith("continue-"):
            found.append("tracked")
        elif name in ("home-more", "home-more-digital"):
            found.append(name)
    return found


def digital_matches(app: App) -> set[str]:
    return {summary.id for summary in app.store.list_matches(status="active") if summary.mode == "digital"}


def label(app: App, identifier: str) -> str:
    button = app.find(identifier)
    assert isinstance(button, ft.TextButton) and isinstance(button.content, str)
    return button.content


def test_each_show_more_names_its_list_and_stands_under_it(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    both_long(folder)
    app = App(folder)
    app.go("/")
    shown = (
        ["digital"] * HOME_PAGE_SIZE + ["home-more-digital"] + ["tracked"] * HOME_PAGE_SIZE + ["home-more"]
    )
    assert order(app) == shown
    assert label(app, "home-more-digital") == f"Show more games in the app ({PLAYING - HOME_PAGE_SIZE} more)"
    assert label(app, "home-more") == f"Show more games with real cards ({TRACKED - HOME_PAGE_SIZE} more)"
    app.tap("home-more")  # extends the tracked list only
    assert order(app) == shown[: HOME_PAGE_SIZE + 1] + ["tracked"] * TRACKED
    app.tap("home-more-digital")  # and this the digital one
    assert order(app).count("digital") == 2 * HOME_PAGE_SIZE and "home-more-digital" in order(app)
    assert len(tags(app, "resume-")) + 1 == 2 * HOME_PAGE_SIZE  # the match dealt again is among them


@pytest.mark.parametrize("language", ["de", "nl", "fr"])
def test_the_two_labels_differ_in_every_language(tmp_path: Path, language: str) -> None:
    folder = tmp_path / "data"
    both_long(folder, language)
    app = App(folder)
    app.go("/")
    digital, tracked = label(app, "home-more-digital"), label(app, "home-more")
    assert str(PLAYING - HOME_PAGE_SIZE) in digital and str(TRACKED - HOME_PAGE_SIZE) in tracked
    # not just the counts: the words differ (before: "Mehr zeigen (noch 7)", "Mehr zeigen (noch 3)")
    assert digital.replace(str(PLAYING - HOME_PAGE_SIZE), "{n}") != tracked.replace(
        str(TRACKED - HOME_PAGE_SIZE), "{n}"
    )
    assert "Show more" not in digital + tracked  # translated
