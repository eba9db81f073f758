"""An older duplicate's address in a real browser at phone size: two devices each continued a digital match
before they synced, so it has two live games of the same round. /play/<older id> shows the game the match
resumes, and the address bar follows (`Shell.follow`): a bookmark, a shared link or a reload carry the resumed
game's id, not the one set aside. Before, the screen showed the resumed game under the older id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import DESKTOP, PHONE
from play_support import one_move
from steps import phone_on, screenshot

from scorekeeper.digital.session import PlaySession, Seat, computer_seat
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame

pytestmark = pytest.mark.browser


def two_live_games(folder: Path) -> dict[str, str]:
    """A digital Racko match whose game was set aside, then continued twice with a move in each (as two
    devices leave it after they sync): the ids of the older and the newer game (the one continuing resumes)."""
    with Store.open(folder) as store:
        seats = [Seat("person", "anna", "Anna"), computer_seat("normal", 1, "Computer 2")]
        session = PlaySession.create(store, "racko", {}, seats, seed=5)
        one_move(session)
        store.set_aside_digital_game(session.saved.id)
        ids = []
        for seed in (7, 8):  # each device deals the round again with its own seed
            saved = SavedGame.new(
                "racko",
                session.match.options,
                seed,
                match_id=session.match.id,
                data={"seats": [seat.to_dict() for seat in seats], "round": 0, "over": False},
            )
            store.save_digital_game(saved)
            played = PlaySession.load(store, saved.id)
            assert played is not None
            one_move(played)
            ids.append(saved.id)
    return {"older": ids[0], "newer": ids[1]}


def test_an_older_duplicates_address_becomes_the_resumed_games(chromium: Any, tmp_path: Path) -> None:
    with phone_on(chromium, tmp_path / "data", two_live_games, "duplicate-address") as (ui, ids):
        ui.open("/", ready="new-game")
        ui.open(f"/play/{ids['older']}", ready="turn-status")
        ui.page.wait_for_url(f"**/play/{ids['newer']}", timeout=15_000)
        assert ui.page.url.endswith(f"/play/{ids['newer']}")
        ui.wait_text("Your turn.")  # the computer player's move is made: the screen stands still
        screenshot(ui, "duplicate-address-play-phone", PHONE)
        screenshot(ui, "duplicate-address-play-desktop", DESKTOP)
        ui.resize(PHONE)
        resumed = ui.all_text()
        # Flet can only push the address: Back returns to the older one, which shows the same game (not the
        # round set aside there), and pushes nothing, so a second Back leaves.
        ui.page.go_back()
        ui.page.wait_for_url(f"**/play/{ids['older']}", timeout=15_000)
        ui.wait("turn-status")
        ui.wait_text("Your turn.")
        assert ui.all_text() == resumed
        screenshot(ui, "duplicate-address-back-phone", PHONE)
        ui.page.go_back()  # home, as the page was loaded before the older address was (a page load of its own)
        ui.page.wait_for_url(ui.url.rstrip("/") + "/", timeout=15_000)
        ui.open(f"/play/{ids['newer']}", ready="turn-status")  # a reload of the address as it became
        assert ui.page.url.endswith(f"/play/{ids['newer']}")
