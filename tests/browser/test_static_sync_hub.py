"""The static build syncs from the browser with the owner's own server of ANOTHER origin (issue 54), in Chromium at
phone size (390 x 844): the site served by `http.server` on one loopback port, the served app with its hub on
(`/sync/`, server/dav_hub.py) on another, so every request to the hub is cross-origin and Chromium enforces the
hub's CORS answers for real.

- A phone types the hub's address and the device token an owner pairing made, keeps a Racko round with notes, a
  place and a photo, and syncs: the served app's own data folder gets the game (the server syncs itself with
  its hub folder).
- A second phone (another browser profile: its own IndexedDB, and its own token from a member pairing) chooses
  the same hub and gets the game with its round, notes, place and photo on its scoreboard (the photo's pixels
  on screen: a static phone has no Pillow, so it keeps a received JPEG as it came, `Photos.put`).

Screenshot: tests/browser/output/static-sync-hub-second-phone.png (the second phone's scoreboard).
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, served
from PIL import Image
from steps import wait_totals
from test_static_site import StaticUI, keep_racko_round
from test_static_sync import notes_place_photo, only_match, phone_at, wait_for

from scorekeeper.server import dav_hub
from scorekeeper.server import owner_devices as owners
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def built(static_site: Path) -> Path:
    return static_site


def choose_hub(ui: StaticUI, address: str, token: str) -> None:
    """Settings, Sync: "My own server", its address and the device token; "Use for sync"; its first sync ends."""
    ui.start("/settings", ready="sync-section")
    ui.tap("sync-kind-hub")
    ui.fill("sync-address", address)
    ui.fill("sync-password", token)
    ui.tap("sync-save")
    wait_for(ui, "Last sync:")


def servers_game(data: Path, timeout: float = 120.0) -> Any:
    """The one game in the served app's data folder once it is there with its photo (read by another process
    sharing the folder, as the hub tests do); polls while the served app syncs with its hub folder."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        store = Store.open(data)
        try:
            if store.list_matches():
                found = only_match(store)
                if found.photos and store.photos.path(found.photos[0]).is_file():
                    return found
        finally:
            store.close()
        time.sleep(0.3)  # waiting for the server's sync, not proving that something did not happen
    last = data / "sync" / "last.json"
    said = last.read_text() if last.exists() else "no sync finished"
    raise AssertionError(f"the game never reached the server: {said}")


def test_two_static_phones_sync_through_the_owners_hub_of_another_origin(
    chromium: Any, built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    dav_hub.switch(data, True)
    phone_token, _ = owners.devices_of(data).add("phone")  # the owner's pairing
    member_token, _ = owners.members_of(data).add("Ben's phone")  # a member's pairing
    monkeypatch.setenv("SCOREKEEPER_SYNC_INTERVAL", "1")  # the served app's own sync with its hub folder
    with served(data) as url:
        hub = f"{url}sync/"  # the address the owner's Settings shows
        with phone_at(chromium, built, "static-sync-hub-a") as first:
            assert not hub.startswith(first.url)  # another origin: the hub's CORS decides
            first.start()
            keep_racko_round(first)
            notes_place_photo(first)
            choose_hub(first, hub, phone_token)
        kept = servers_game(data)
        assert (kept.game, len(kept.rounds)) == ("racko", 1)
        assert (kept.notes, kept.place) == ("Kept offline", "Café Uhu")

        with phone_at(chromium, built, "static-sync-hub-b") as second:
            second.start()
            choose_hub(second, hub, member_token)
            second.start(f"/match/{kept.id}", ready="notes")
            wait_for(second, "Kept offline", 60_000)
            wait_totals(second, 75, 20)
            wait_for(second, "Café Uhu", 15_000)
            second.wait("photo-0")
            wait_for_photo(second, "photo-0")
            second.page.mouse.move(195, 422)
            second.page.mouse.wheel(0, 300)  # the place and the notes in view
            OUTPUT.mkdir(exist_ok=True)
            (OUTPUT / "static-sync-hub-second-phone.png").write_bytes(second.still())


def wait_for_photo(ui: StaticUI, identifier: str, timeout: float = 30.0) -> None:
    """Until the thumbnail at `identifier` shows the test photo (red on the left, blue on the right: the
    picture of tests/test_store_photos.py), not the placeholder of a photo this device does not have."""
    end = time.monotonic() + timeout
    while True:
        image = Image.open(io.BytesIO(ui.node(identifier).screenshot())).convert("RGB")
        width, height = image.size
        left, right = image.getpixel((width // 5, height // 2)), image.getpixel((width * 4 // 5, height // 2))
        if left[0] > 150 > left[2] and right[2] > 150 > right[0]:
            return
        if time.monotonic() > end:
            raise AssertionError(
                f"{identifier} does not show the photo: {left} on the left, {right} on the right"
            )
        time.sleep(
            0.3
        )  # the browser decodes the picture: waiting for it, not proving that something did not happen
