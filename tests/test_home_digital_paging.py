"""Home lists the digital games in progress a page at a time, like the tracked ones: `HOME_PAGE_SIZE` cards, the
most recently played first, then "Show more games in the app (N more)" for the rest (its own count in the
session). A match whose game was set aside ("dealt again") is one entry of the same list: paging neither loses nor
repeats it.
Before, every saved game was drawn at once (1,000 unfinished games: 1,000 cards on home)."""

from __future__ import annotations

from pathlib import Path

import flet as ft
from play_support import racko_moves_in
from test_ui_core_harness import App, walk

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame
from scorekeeper.ui.paging import HOME_PAGE_SIZE

PLAYING = 2 * HOME_PAGE_SIZE + 2  # saved games in progress, one of them set aside (its match dealt again)


def seed(folder: Path) -> tuple[list[str], str, str, str]:
    """`PLAYING` digital games in progress (a real one and copies, each with its own match), one of them set
    aside, one game over and one tracked match. Returns the saved games in progress most recently played first,
    the match to deal again, the game over and the tracked match."""
    with Store.open(folder) as store:
        first = racko_moves_in(store, "anna", "Anna", seed=5, moves=4)
        template = first.saved.to_dict()
        copies: list[tuple[str, str]] = []  # (saved game id, match id)
        for i in range(PLAYING):  # the real one, PLAYING - 1 copies and one that is over
            match = Match.new("racko", {}, ["anna", "comp2"], names=["Anna", "Computer 2"], mode="digital")
            match = store.save_match(match)
            data = dict(template["data"], over=True) if i == PLAYING - 1 else template["data"]
            saved = SavedGame.from_dict(
                dict(template, id=f"{i:032x}", version=0, match_id=match.id, data=data)
            )
            copies.append((store.save_digital_game(saved).id, match.id))
        over = copies.pop()[0]
        aside_id, again = copies[3]
        store.set_aside_digital_game(aside_id)
        tracked = Match.new("rage", {}, ["anna", "ben"], names=["Anna", "Ben"])
        tracked = store.save_match(tracked)
        playing = [saved.id for saved in store.list_digital_games() if saved.id not in (aside_id, over)]
    assert len(playing) == PLAYING - 1 and first.saved.id in playing
    return playing, again, over, tracked.id


def tags(app: App, prefix: str) -> list[str]:
    return [
        node.identifier[len(prefix) :]
        for root in app.roots()
        for node in walk(root)
        if isinstance(node, ft.Semantics) and node.identifier and node.identifier.startswith(prefix)
    ]


def test_home_pages_the_digital_games_in_progress(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    playing, again, over, tracked = seed(folder)
    app = App(folder)
    app.go("/")
    assert tags(app, "resume-") == playing[:HOME_PAGE_SIZE]  # the most recently played first
    assert f"Show more games in the app ({PLAYING - HOME_PAGE_SIZE} more)" in app.screen_text()
    assert app.has(f"continue-{tracked}") and not app.has("home-more")  # the tracked list, its own paging
    pages = 1
    while app.has("home-more-digital"):
        app.tap("home-more-digital")
        pages += 1
        assert app.ctx.route == "/" and len(tags(app, "resume-")) + (again in tags(app, "continue-")) == min(
            PLAYING, pages * HOME_PAGE_SIZE
        )
    assert pages == 3 and app.ctx.session.shown == {"home_digital_shown": 3 * HOME_PAGE_SIZE}
    listed = tags(app, "resume-")
    assert sorted(listed) == sorted(playing) and len(listed) == len(set(listed)) and over not in listed
    assert tags(app, "continue-").count(again) == 1  # dealt again: listed once, not lost
    assert "The round in progress was set aside and is dealt again." in app.screen_text()
    assert app.has(f"continue-{tracked}")


def test_a_few_digital_games_have_no_show_more(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with Store.open(folder) as store:
        saved = racko_moves_in(store, "anna", "Anna", moves=2).saved
    app = App(folder)
    app.go("/")
    assert app.has(f"resume-{saved.id}") and not app.has("home-more-digital")
