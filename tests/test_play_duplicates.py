"""A digital match resumes one saved game (`digital.duplicates`).

`PlaySession.continue_match` makes a new saved game for a match it finds none to resume for (its game set aside,
its start cut short). Two sessions of one server continuing the match at the same moment each made one (it
listed the games, then made one, with no lock); two devices that each continued it before they synced leave two
after the sync. Only the first of them to finish scores the round: the other was still offered at /play/<id>."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from play_support import one_move
from test_home_one_card_per_match import live_games, two_devices_continue
from test_ui_core_harness import App

from scorekeeper.digital import duplicates
from scorekeeper.digital.checks import is_set_aside, set_aside_games
from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame

WAIT = 30.0
"""Only a bound on a wait that the interleaving makes end at once: a hang fails instead of blocking the run."""


def set_aside_match(store: Store) -> str:
    """A digital match whose only saved game was set aside: continuing it makes a new game."""
    seats = [Seat("person", "anna", "Anna"), computer_seat("normal", 1, "Computer 2")]
    session = PlaySession.create(store, "racko", {}, seats, seed=5)
    one_move(session)
    store.set_aside_digital_game(session.saved.id)
    return session.match.id


def test_two_sessions_continuing_at_once_resume_one_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first caller has listed the match's games (none to resume) when the second one starts: the second
    is let go as far as it can before the first goes on (to the folder's write lock, or, without one, through
    its whole find-or-create), so the interleaving is the same on every run."""
    with Store.open(tmp_path / "data") as store:
        match_id = set_aside_match(store)
        match = store.get_match(match_id)
        assert match is not None
        first_listed, second_at_lock = threading.Event(), threading.Event()
        results: dict[str, SavedGame] = {}
        real_list, real_held = store.list_digital_games, store.files.lock.held

        def listing(*, read_only: bool = False) -> list[SavedGame]:
            games = real_list(read_only=read_only)
            if threading.current_thread().name == "first" and not first_listed.is_set():
                first_listed.set()
                assert second_at_lock.wait(WAIT)  # the second caller has gone as far as it can
            return games

        @contextlib.contextmanager
        def held() -> Iterator[None]:
            if threading.current_thread().name == "second":
                second_at_lock.set()  # about to wait for the lock (or, unlocked, about to write its game)
            with real_held():
                yield

        monkeypatch.setattr(store, "list_digital_games", listing)
        monkeypatch.setattr(store.files.lock, "held", held)

        def run(name: str) -> None:
            results[name] = PlaySession.continue_match(store, match)

        first = threading.Thread(target=run, args=("first",), name="first")
        first.start()
        assert first_listed.wait(WAIT)
        second = threading.Thread(target=run, args=("second",), name="second")
        second.start()
        first.join(WAIT)
        second.join(WAIT)
        assert not first.is_alive() and not second.is_alive()
        monkeypatch.undo()
        live = [saved for saved in store.list_digital_games() if not is_set_aside(saved)]
        assert [saved.id for saved in live] == [results["first"].id]  # one game made
        assert results["second"].id == results["first"].id  # the second resumes it


def test_continuing_sets_the_older_duplicate_aside(tmp_path: Path) -> None:
    """After a sync of two devices that each continued the match, continuing it resumes the most recently saved
    game (as home and history pick it) and sets the other aside: kept with its moves, listed in Settings."""
    folder, match_id = two_devices_continue(tmp_path)
    newer, older = live_games(folder, match_id)
    with Store.open(folder) as store:
        match = store.get_match(match_id)
        assert match is not None
        assert PlaySession.continue_match(store, match).id == newer.id
        assert [saved.id for saved in live_games_in(store, match_id)] == [newer.id]
        kept = store.get_digital_game(older.id)
        assert kept is not None and is_set_aside(kept) and kept.log == older.log  # nothing lost
        assert older.id in [saved.id for saved in set_aside_games(store)]


def test_opening_the_older_duplicate_opens_the_game_its_match_resumes(tmp_path: Path) -> None:
    """/play/<older> shows the game the match resumes, not a round that will never count."""
    folder, match_id = two_devices_continue(tmp_path)
    newer, older = live_games(folder, match_id)
    app = App(folder)
    app.go(f"/play/{older.id}")
    assert older.id not in app.ctx.session.play_tables  # the screen is the resumed game's, under its own id
    shown = app.ctx.session.play_tables[newer.id].session
    assert shown.saved.id == newer.id
    assert [saved.id for saved in live_games(folder, match_id)] == [newer.id]
    app.ctx.rerender()  # a redraw (the next round, a resize) stays on the resumed game, not the one set aside
    assert app.ctx.route == f"/play/{newer.id}"
    assert app.ctx.session.play_tables[newer.id].session.saved.id == newer.id
    app.go(f"/play/{newer.id}")  # the one resumed opens as itself
    assert app.ctx.session.play_tables[newer.id].session.saved.id == newer.id


def test_a_game_alone_or_set_aside_opens_as_itself(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data") as store:
        match_id = set_aside_match(store)
        (aside,) = [saved for saved in store.list_digital_games() if saved.match_id == match_id]
        assert duplicates.to_open(store, aside.id) == aside.id  # the screen says it is set aside
        match = store.get_match(match_id)
        assert match is not None
        made = PlaySession.continue_match(store, match)
        assert duplicates.to_open(store, made.id) == made.id
        assert duplicates.to_open(store, "missing") == "missing"
        assert is_set_aside(store.get_digital_game(aside.id) or made)  # still set aside, not brought back


def live_games_in(store: Store, match_id: str) -> list[SavedGame]:
    return [s for s in store.list_digital_games() if s.match_id == match_id and not is_set_aside(s)]


def test_the_address_becomes_the_resumed_games(tmp_path: Path) -> None:
    """/play/<older> shows the resumed game and the address follows: the page's route (the browser's address
    bar, what a bookmark, a shared link or a reload carry) is the resumed game's, not the id set aside."""
    folder, match_id = two_devices_continue(tmp_path)
    newer, older = live_games(folder, match_id)
    app = App(folder)
    app.go(f"/play/{older.id}")
    assert app.page.route == f"/play/{newer.id}"
    app.ctx.rerender()
    assert app.page.route == f"/play/{newer.id}"


def test_the_older_address_opens_the_resumed_game_also_once_set_aside(tmp_path: Path) -> None:
    """Back (or an old bookmark) leads to the older address again after it was set aside: it opens the game
    the match resumes, as before, not the round set aside, which will never count; it stays set aside."""
    folder, match_id = two_devices_continue(tmp_path)
    newer, older = live_games(folder, match_id)
    with Store.open(folder) as store:
        assert duplicates.to_open(store, older.id) == newer.id  # sets it aside
        assert duplicates.to_open(store, older.id) == newer.id  # and once set aside
        kept = store.get_digital_game(older.id)
        assert kept is not None and is_set_aside(kept)
    app = App(folder)
    app.go(f"/play/{older.id}")
    assert app.page.route == f"/play/{newer.id}"
    assert older.id not in app.ctx.session.play_tables
