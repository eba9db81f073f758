"""Home and history a page at a time: with many games a screen builds controls for one page
(5 on home, and in history 5 in progress and 15 finished) and offers the rest with "Show more"; filters run on the index. The figures at 10,000 games come from
`python -m scorekeeper.bench ui --json` (home/history_paint_ratio_10k)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.bench.ui import seed_many
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.ui.paging import HOME_PAGE_SIZE, PAGE_SIZE, Page, page_of_matches, players_of
from tests.test_ui_core_harness import App, walk

GAMES = 100  # 50 in progress, 50 finished


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("paging") / "data"
    seed_many(str(folder), GAMES)
    return folder


def tagged(app: App, prefix: str) -> list[str]:
    import flet as ft

    return [
        node.identifier
        for root in app.roots()
        for node in walk(root)
        if isinstance(node, ft.Semantics) and node.identifier and node.identifier.startswith(prefix)
    ]


def test_home_lists_a_page_of_games_in_progress(data: Path) -> None:
    app = App(data)
    app.go("/")
    assert len(tagged(app, "continue-")) == HOME_PAGE_SIZE
    assert f"Show more games with real cards ({GAMES // 2 - HOME_PAGE_SIZE} more)" in app.screen_text()
    while app.has("home-more"):
        app.tap("home-more")
    assert len(tagged(app, "continue-")) == GAMES // 2
    assert not app.has("home-more")


def test_history_lists_a_page_and_filters_on_the_index(data: Path) -> None:
    app = App(data)
    finished = {f"history-{s.id}" for s in app.store.list_matches(status="finished")}
    app.go("/history")
    assert len(set(tagged(app, "history-")) & finished) == PAGE_SIZE
    assert "Finished games: 50" in app.screen_text()
    while app.has("history-more"):
        app.tap("history-more")
    assert len(set(tagged(app, "history-")) & finished) == GAMES // 2
    assert not app.has("history-more")
    active = {f"history-{s.id}" for s in app.store.list_matches(status="active")}
    assert len(set(tagged(app, "history-")) & active) == HOME_PAGE_SIZE  # games in progress: a home page
    assert "Games in progress: 50" in app.screen_text()
    while app.has("history-active-more"):
        app.tap("history-active-more")
    assert len(set(tagged(app, "history-")) & active) == GAMES // 2
    app.go("/history?game=rage")
    assert "No game matches this filter." in app.screen_text()  # Games in progress are listed too (8.14)


@settings(max_examples=30, deadline=None)
@given(offset=st.integers(-5, 120), limit=st.integers(0, 60))
def test_pages_cover_the_list_once(data: Path, offset: int, limit: int) -> None:
    store = Store.open(data)
    everything = store.list_matches(status="finished")
    page = page_of_matches(store, status="finished", offset=offset, limit=limit)
    assert isinstance(page, Page) and page.total == len(everything)
    start = max(0, offset)
    assert [s.id for s in page.items] == [s.id for s in everything[start : start + limit]]
    assert page.remaining == max(0, len(everything) - start - len(page.items))
    store.close()


def test_cached_lists_follow_every_change(tmp_path: Path) -> None:
    """The per-process list cache is keyed by the index files: a save or delete is seen at once."""
    seed_many(str(tmp_path), 4)
    store = Store.open(tmp_path)
    before = page_of_matches(store, status="active")
    assert before.total == 2
    match = store.get_match(before.items[0].id)
    assert match is not None
    match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    match = store.save_match(match)
    assert page_of_matches(store, status="active").total == 1
    assert page_of_matches(store, status="finished").total == 3
    store.delete_match(match.id)
    assert page_of_matches(store, status="finished").total == 2
    assert sorted(players_of(store, status="finished").values()) == ["Anna", "Ben"]
    carla = store.add_player("Carla").id
    ids = [p.id for p in store.list_players() if p.name == "Anna"] + [carla]
    store.save_match(Match.new("racko", {"target": 50}, ids, names=["Anna", "Carla"]))
    players_of(store, status="active").clear()  # a caller changing its answer changes no cached one
    assert sorted(players_of(store, status="active").values()) == ["Anna", "Ben", "Carla"]
    store.close()


def test_players_of_finished_games(data: Path) -> None:
    store = Store.open(data)
    assert sorted(players_of(store, status="finished").values()) == ["Anna", "Ben"]
    store.close()
