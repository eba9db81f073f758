"""Home lists the saved digital games on every redraw: while the folder of saved games is unchanged (since well
before, as `Store.last_played` trusts it) they are not read again; any save is seen at once. Each caller gets
copies of its own, so changing one changes nothing the next caller gets."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from play_support import one_move, racko_moves_in

from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved import SavedGames


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the saved games read from their files, in order."""
    read: list[str] = []
    load = SavedGames._load_saved

    def counted(self: SavedGames, game_id: str) -> SavedGame | None:
        read.append(game_id)
        return load(self, game_id)

    monkeypatch.setattr(SavedGames, "_load_saved", counted)
    return read


def settled(folder: Path) -> None:
    long_ago = time.time() - 60
    os.utime(folder / "digital", (long_ago, long_ago))


def test_an_unchanged_folder_is_not_read_again_and_a_changed_one_is(tmp_path: Path, reads: list[str]) -> None:
    with Store.open(tmp_path / "data") as store:
        first = racko_moves_in(store, "anna", "Anna", seed=5, moves=0)
        racko_moves_in(store, "ben", "Ben", seed=6, moves=0)
        settled(tmp_path / "data")
        reads.clear()
        assert len(store.list_digital_games()) == 2 and len(reads) == 2
        reads.clear()
        for _ in range(3):
            assert len(store.list_digital_games()) == 2
        assert reads == []
        one_move(first)  # a save: the folder changed
        reads.clear()
        listed = store.list_digital_games()
        assert len(reads) == 2 and listed[0].id == first.saved.id and listed[0].log == first.saved.log


def test_a_folder_changed_just_now_is_read_every_time(tmp_path: Path, reads: list[str]) -> None:
    """A save in the same tick of a coarse clock would leave the folder's time as it was."""
    with Store.open(tmp_path / "data") as store:
        racko_moves_in(store, "anna", "Anna", seed=5, moves=0)
        reads.clear()
        for _ in range(2):
            os.utime(tmp_path / "data" / "digital")  # changed just now, however long the test was paused
            store.list_digital_games()
        assert len(reads) == 2


def test_a_game_changed_by_one_caller_is_not_changed_for_the_next(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data") as store:
        racko_moves_in(store, "anna", "Anna", seed=5, moves=2)
        settled(tmp_path / "data")
        game = store.list_digital_games()[0]
        log, seats = list(game.log), [dict(seat) for seat in game.data["seats"]]
        game.log.append(3)
        game.data["seats"][0]["name"] = "Someone else"
        game.version += 7
        again = store.list_digital_games()[0]
        assert again.log == log and again.data["seats"] == seats and again.version == game.version - 7


def test_a_read_only_listing_shares_the_kept_games(tmp_path: Path, reads: list[str]) -> None:
    """Home only looks at the games (it draws a page of them): the kept ones are given, in the same order, and
    not copied; a caller's copies are still its own."""
    with Store.open(tmp_path / "data") as store:
        racko_moves_in(store, "anna", "Anna", seed=5, moves=1)
        racko_moves_in(store, "ben", "Ben", seed=6, moves=1)
        settled(tmp_path / "data")
        shared = store.list_digital_games(read_only=True)
        reads.clear()
        again = store.list_digital_games(read_only=True)
        copies = store.list_digital_games()
        assert reads == [] and [game.id for game in copies] == [game.id for game in shared]
        assert all(a is b for a, b in zip(again, shared, strict=True))
        assert all(c is not s and c.data is not s.data for c, s in zip(copies, shared, strict=True))
        again.pop()  # the list is the caller's own
        assert len(store.list_digital_games(read_only=True)) == 2
