"""Games in progress list most recently played first, the same on every run: a change is stamped to the
microsecond and later than the one before (`stamps.change_stamp`). Before, stamps were to the second, so games
played within one second tied and their random ids decided the order, which differed from run to run."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

import flet as ft
import pytest
from play_support import one_move, racko_moves_in
from test_ui_core_harness import App, walk

from scorekeeper.digital.session import PlaySession
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import change_stamp
from scorekeeper.store import Store
from scorekeeper.store.saved import Played, SavedGames
from scorekeeper.ui.paging import page_of_matches, players_of


def game(name: str, match_id: str) -> Match:
    match = Match.new("ruckzuck", {}, [f"{name}1", f"{name}2"], names=[name, f"{name} 2"])
    # ids against the order of play: a tie broken by id would list them oldest first
    return dataclasses.replace(match, id=match_id)


def first_names(store: Store) -> str:
    return "".join(s.names[0] for s in page_of_matches(store, status="active").items)


def test_games_saved_within_one_second_list_most_recent_first(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    for name, match_id in zip("ABCDE", ("e" * 32, "d" * 32, "c" * 32, "b" * 32, "a" * 32), strict=True):
        store.save_match(game(name, match_id))
    assert first_names(store) == "EDCBA"


def test_a_round_played_in_an_older_game_brings_it_to_the_top(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    matches = [store.save_match(game(name, name.lower() * 32)) for name in "ABC"]
    first = matches[0]
    first = first.with_round({"hands": [[], [7]], "out": 0})
    first = store.save_match(first)
    assert first_names(store) == "ACB"
    store.close()
    assert first_names(Store.open(tmp_path / "data")) == "ACB"  # and so after a restart


def test_the_history_shows_that_order(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with Store.open(folder) as store:
        ids = []
        for name, match_id in zip("ABC", ("c" * 32, "b" * 32, "a" * 32), strict=True):
            store.save_match(game(name, match_id))
            ids.append(match_id)
    app = App(folder)
    app.go("/history")
    tags = [node.identifier for node in walk(app.view) if isinstance(node, ft.Semantics) and node.identifier]
    listed = [tag.removeprefix("history-continue-") for tag in tags if tag.startswith("history-continue-")]
    assert listed == ids[::-1]


def test_stamps_only_go_forward_and_sort_with_an_older_versions_times() -> None:
    stamps = [change_stamp() for _ in range(2_000)]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    second = stamps[-1][:19]  # "YYYY-MM-DDTHH:MM:SS"
    older_same_second, older_next_second = f"{second}+00:00", f"{second[:-1]}{int(second[-1]) + 1}+00:00"
    if second.endswith("9"):
        return  # the next second's text would carry into the tens: the example below needs no carry
    assert older_same_second < stamps[-1] < older_next_second


def digital(store: Store, name: str, seed: int) -> PlaySession:
    """A digital Racko match of `name` and a computer, its first round dealt (and saved)."""
    return racko_moves_in(store, f"{name}1", name, seed=seed, moves=0)


def test_a_move_in_a_digital_match_brings_it_to_the_top_before_its_round_ends(tmp_path: Path) -> None:
    """A digital match's own change moves only when a round ends; its saved game is saved at every move."""
    with Store.open(tmp_path / "data") as store:
        first, _ = digital(store, "A", 5), digital(store, "B", 6)
        assert first_names(store) == "BA"
        one_move(first)
        assert first.match.round_index == 0  # the round goes on: the match itself is unchanged
        assert first_names(store) == "AB"
        row = page_of_matches(store, status="active").items[0]
        assert row.updated == store.last_played()[row.id] > first.match.updated  # its date is that move's
        assert list(players_of(store, status="active").values())[:1] == ["A"]  # named as in the latest
    assert first_names(Store.open(tmp_path / "data")) == "AB"  # and so after a restart


def test_a_game_set_aside_does_not_count_as_played(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data") as store:
        first, _ = digital(store, "A", 5), digital(store, "B", 6)
        store.set_aside_digital_game(first.saved.id)
        assert first_names(store) == "BA"


def test_the_games_are_looked_at_again_only_when_one_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the folder of saved games unchanged since well before, a list drawn again looks at none of them;
    a move (or any save) is seen at once."""
    scans: list[int] = []
    scan = SavedGames._scan

    def counted(self: SavedGames) -> dict[str, Played]:
        scans.append(1)
        return scan(self)

    monkeypatch.setattr(SavedGames, "_scan", counted)
    with Store.open(tmp_path / "data") as store:
        first, _ = digital(store, "A", 5), digital(store, "B", 6)
        long_ago = time.time() - 60
        os.utime(tmp_path / "data" / "digital", (long_ago, long_ago))
        assert first_names(store) == "BA"
        scans.clear()
        for _ in range(3):
            assert first_names(store) == "BA" and players_of(store, status="active")
        assert scans == []
        one_move(first)
        assert first_names(store) == "AB" and scans == [1]


def test_a_folder_changed_just_now_is_looked_at_every_time(tmp_path: Path) -> None:
    """A save in the same tick of a coarse clock would leave the folder's time as it was: until it is older
    than that, every list looks at the games (their files are read again only when changed)."""
    with Store.open(tmp_path / "data") as store:
        first, _ = digital(store, "A", 5), digital(store, "B", 6)
        now = os.stat(tmp_path / "data" / "digital").st_mtime_ns
        assert first_names(store) == "BA"
        one_move(first)
        os.utime(tmp_path / "data" / "digital", ns=(now, now))  # as if the move fell in the same tick
        assert first_names(store) == "AB"
