"""The static build syncs from the browser itself (issue 54), in Chromium at phone size (390 x 844): the site served
by `http.server` from one origin, a real WebDAV server (WsgiDAV with CORS for that origin) from another, both on
loopback; the "laptop" is a data folder on the host that syncs with the same server through the WebDAV target, as
the served app does.

- The phone keeps a Racko round with notes, a place and a photo while offline, chooses the server in Settings
  (which says it is offline and where the password is kept), comes online and syncs: the laptop gets the game
  with its notes, place and photo.
- The laptop's edit of the notes and a game of its own reach the phone ("Sync now"); the laptop's deletion of
  the phone's game reaches the phone, and the phone's deletion of the laptop's game reaches the laptop.
- The network is cut in the middle of a push (the server holds the phone's first log upload until the browser
  has gone offline): nothing is lost, the next sync online brings the game to the laptop.
- A server that does not allow the site's origin (rclone 1.60's `serve webdav` has no CORS at all) gets the one
  sentence that says what to change.

Screenshots: tests/browser/output/static-sync-*.png.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from cheroot import wsgi
from conftest import OUTPUT, PHONE, free_port
from sync_servers import PASSWORD, USER, DavServer, Fault, FaultLayer, rclone_server
from test_static_site import StaticUI, keep_racko_round, serve
from test_store_photos import picture
from wsgidav.wsgidav_app import WsgiDAVApp

from scorekeeper.bench.hub_server import hub_server
from scorekeeper.server.dav_files import AtomicFilesystemProvider
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget

pytestmark = pytest.mark.browser

SYNC_WAIT_MS = 120_000


@pytest.fixture(scope="module")
def built(static_site: Path) -> Path:
    return static_site


@contextmanager
def cors_dav(base: Path, origin: str) -> Iterator[DavServer]:
    """WsgiDAV on loopback with CORS for `origin` (what a user turns on in the server's settings)."""
    root, uploads = base / "dav", base / "dav-uploads"
    (root / "sync").mkdir(parents=True)
    uploads.mkdir()
    config = {
        "host": "127.0.0.1",
        "port": 0,
        "provider_mapping": {"/": AtomicFilesystemProvider(root, uploads)},
        "simple_dc": {"user_mapping": {"*": {USER: {"password": PASSWORD}}}},
        "http_authenticator": {"accept_basic": True, "accept_digest": False, "default_to_digest": False},
        "lock_storage": True,
        "dir_browser": {"enable": False},
        "property_manager": None,
        "verbose": 0,
        "logging": {"enable": False, "enable_loggers": []},
        "cors": {
            "allow_origin": [origin],
            "allow_headers": ["Authorization", "Content-Type", "Depth", "If-Match", "If-None-Match"],
            "allow_methods": ["GET", "HEAD", "PUT", "DELETE", "PROPFIND", "MKCOL", "OPTIONS"],
            "expose_headers": ["ETag"],
            "max_age": 600,
        },
    }
    layer = FaultLayer(WsgiDAVApp(config))
    server = wsgi.Server(("127.0.0.1", 0), layer, numthreads=8, timeout=10)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    dav = DavServer(f"http://127.0.0.1:{server.bind_addr[1]}/", root, USER, PASSWORD, layer)
    try:
        yield dav
    finally:
        dav.close_targets()
        layer.release.set()
        server.stop()
        thread.join(10)


@contextmanager
def phone_at(chromium: Any, site_dir: Path, name: str) -> Iterator[StaticUI]:
    port = free_port()
    server = serve(site_dir, port)
    context = chromium.new_context(viewport=PHONE, owner=False)
    try:
        ui = StaticUI(context.new_page(), f"http://127.0.0.1:{port}/", name)
        ui.console = []  # type: ignore[attr-defined]
        ui.page.on("console", lambda message: ui.console.append(f"[{message.type}] {message.text}"))  # type: ignore[attr-defined]
        yield ui
    finally:
        context.close()
        server.kill()
        server.wait(timeout=10)


def origin_of(ui: StaticUI) -> str:
    return ui.url.rstrip("/")


def choose_server(ui: StaticUI, address: str) -> None:
    """Settings, Sync: a WebDAV server by its address, user name and password; "Use for sync"."""
    ui.start("/settings", ready="sync-section")
    ui.fill("sync-address", address)
    ui.fill("sync-user", USER)
    ui.fill("sync-password", PASSWORD)
    ui.tap("sync-save")


def wait_for(ui: StaticUI, text: str, timeout_ms: int = SYNC_WAIT_MS) -> None:
    try:
        ui.wait_text(text, timeout=timeout_ms)
    except AssertionError:
        raise AssertionError(f"{text!r} not shown: {ui.diagnosis()}") from None


def sync_now(ui: StaticUI) -> None:
    ui.start("/settings", ready="sync-now")
    before = ui.all_text()
    ui.tap("sync-now")
    for _ in range(SYNC_WAIT_MS // 100):  # until the last sync's line is a new one
        text = ui.all_text()
        if "Last sync:" in text and "Syncing" not in text and text != before:
            return
        ui.page.wait_for_timeout(100)
    raise AssertionError(f"the sync did not finish: {ui.diagnosis()}")


def shot_sync(ui: StaticUI, name: str) -> None:
    """Settings' sync section at phone size (scrolled to the end of the screen)."""
    ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
    ui.page.mouse.wheel(0, 8000)
    ui.page.wait_for_timeout(800)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"static-sync-settings-{name}.png").write_bytes(ui.still())


def notes_place_photo(ui: StaticUI) -> None:
    """On the scoreboard: notes, a new place and a photo from the phone's camera roll."""
    ui.tap("notes")
    ui.tap("notes-field", count=False, settle=False)
    ui.page.locator("textarea").last.wait_for(state="attached", timeout=10_000)
    ui.page.keyboard.type("Kept offline")
    ui.page.wait_for_timeout(300)
    ui.tap("notes-save")
    wait_for(ui, "Kept offline", 15_000)
    ui.tap("place")
    ui.fill("place-field", "Café Uhu")
    ui.tap("place-save")
    wait_for(ui, "Café Uhu", 15_000)
    with ui.page.expect_file_chooser(timeout=30_000) as chooser:
        ui.tap("photo-add")
    chooser.value.set_files(files={"name": "table.jpg", "mimeType": "image/jpeg", "buffer": picture()})
    ui.wait("photo-0", timeout=60_000)


def only_match(store: Store) -> Any:
    matches = store.list_matches()
    assert len(matches) == 1, matches
    found = store.get_match(matches[0].id)
    assert found is not None
    return found


def test_a_phone_keeps_a_game_offline_and_syncs_it_from_the_browser(
    chromium: Any, built: Path, tmp_path: Path
) -> None:
    laptop = Store.open(tmp_path / "laptop")
    try:
        with phone_at(chromium, built, "static-sync") as ui, cors_dav(tmp_path / "s", origin_of(ui)) as dav:
            address = f"{dav.url}sync"
            ui.start()
            ui.offline_copy_ready()
            ui.page.context.set_offline(True)
            keep_racko_round(ui)
            notes_place_photo(ui)
            choose_server(ui, address)
            wait_for(ui, "No network")
            assert "Kept in this browser only; clearing the site's data forgets it." in ui.all_text()
            shot_sync(ui, "offline")

            ui.page.context.set_offline(False)  # the browser's "online": it syncs by itself
            wait_for(ui, "Last sync:")
            shot_sync(ui, "synced")
            with dav.target() as target:
                sync_once(laptop, target)
                kept = only_match(laptop)
                assert (kept.notes, kept.place, len(kept.photos)) == ("Kept offline", "Café Uhu", 1)
                assert laptop.photos.image(kept.photos[0]) is not None

                # The laptop's edit reaches the phone.
                laptop.change_match(kept.id, lambda m: dataclasses.replace(m, notes="Ben won"))
                sync_once(laptop, target)
            sync_now(ui)
            ui.start(f"/match/{kept.id}", ready="notes")
            wait_for(ui, "Ben won", 15_000)

            # The laptop deletes the game: gone on the phone too.
            laptop.delete_match(kept.id)
            with dav.target() as target:
                sync_once(laptop, target)
            sync_now(ui)
            ui.start("/history", ready="history-nights")
            assert "No games yet" in ui.all_text(), ui.diagnosis()

            # The network is cut while the phone pushes its next game: nothing is lost.
            held = Fault(0, "PUT", path="/log/", times=1)  # the server holds the first log upload...
            dav.faults.append(held)
            keep_racko_round(ui)
            for _ in range(SYNC_WAIT_MS // 100):
                if held.hits:
                    break
                ui.page.wait_for_timeout(100)
            assert held.hits == 1, ui.diagnosis()
            ui.page.context.set_offline(True)  # ...until the browser has gone offline
            dav.layer.release.set()
            with dav.target() as target:
                sync_once(laptop, target)
            assert laptop.list_matches() == []  # no head names what was pushed before the cut
            ui.start("/settings", ready="sync-section")
            for _ in range(SYNC_WAIT_MS // 100):  # the push failed: said (offline, or the server's 503)
                if "No network" in ui.all_text() or "had a problem" in ui.all_text():
                    break
                ui.page.wait_for_timeout(100)
            assert "No network" in ui.all_text() or "had a problem" in ui.all_text(), ui.diagnosis()
            ui.page.context.set_offline(False)
            sync_now(ui)
            with dav.target() as target:
                sync_once(laptop, target)
            again = only_match(laptop)
            assert len(again.rounds) == 1 and again.game == "racko"

            # A server that does not let this site in: one sentence, what to change there.
            with rclone_server(tmp_path / "r") as refusing:
                ui.fill("sync-address", f"{refusing.url}sync")
                ui.fill("sync-user", USER)
                ui.fill("sync-password", PASSWORD)
                ui.tap("sync-test")
                wait_for(ui, "refuses requests from this web app", 60_000)
                assert f"--allow-origin {origin_of(ui)}" in ui.all_text()
                shot_sync(ui, "refused")
    finally:
        laptop.close()


def test_a_phone_opens_the_app_from_the_owners_server_and_syncs_with_its_hub(
    chromium: Any, built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same origin: the static build served at `/app/` by the owner's server, whose hub is at `/sync/`; the
    phone, paired with that server in this browser, chooses "My own server" and "Use this browser's pairing"
    (nothing typed), and its game reaches the hub (no CORS at all)."""
    monkeypatch.setenv("SCOREKEEPER_STATIC_DIR", str(built))
    with hub_server(tmp_path / "home") as hub:
        origin = hub.url.removesuffix("/sync/")
        # bypass_csp: the test's own waits evaluate strings, which the server's policy forbids (the app under
        # that policy, and its fetch to /sync/, are tested in test_sync_hub_screens.py)
        context = chromium.new_context(viewport=PHONE, owner=False, bypass_csp=True)
        # this browser is an owner device of that server (paired through the served app at the same origin)
        context.add_init_script(
            f"localStorage.setItem('flutter.scorekeeper.owner_device', {json.dumps(json.dumps(hub.password))})"
        )
        try:
            ui = StaticUI(context.new_page(), f"{origin}/app/", "static-sync-hub")
            ui.console = []  # type: ignore[attr-defined]
            ui.page.on("console", lambda message: ui.console.append(f"[{message.type}] {message.text}"))  # type: ignore[attr-defined]
            ui.start()
            keep_racko_round(ui)
            ui.start("/settings", ready="sync-section")
            ui.tap("sync-kind-hub")
            ui.tap("sync-use-pairing")  # the token this browser keeps for this origin: nothing to type
            ui.page.wait_for_timeout(500)
            ui.tap("sync-save")
            wait_for(ui, "Last sync:")
            shot_sync(ui, "hub")
        finally:
            context.close()
        other = Store.open(tmp_path / "other")
        try:
            sync_once(other, FolderTarget(hub.root))
            kept = only_match(other)
            assert kept.game == "racko" and len(kept.rounds) == 1
        finally:
            other.close()
