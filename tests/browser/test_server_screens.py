"""What a browser sees of the server's session handling.

- A reloaded tab shows what is stored, not the screen it left (Flet re-attaches a reloaded tab to its session).
- A phone on the network (the app served on 0.0.0.0 and opened through the machine's network address, so the
  session's client address is not loopback) is a guest: settings say the data lives on the host computer and
  show no path, no export/import, no backups; the host's own browser still sees them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.bench.owner_harness import owner_env
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from tests.browser.conftest import PHONE, ROOT, browser_tabs, free_port, served, wait_http
from tests.browser.steps import phone_on

pytestmark = pytest.mark.browser


def seed(data: Path) -> str:
    store = Store.open(data)
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    match = store.save_match(Match.new("racko", {"target": 100_000}, ids, names=["Anna", "Ben"]))
    store.close()
    return match.id


def test_reload_shows_the_stored_state(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with phone_on(chromium, data, seed, "reload") as (ui, match_id):
        ui.open(f"/match/{match_id}", ready="total-0")
        ui.wait_total(0, 0)
        # Another device (another process with its own store) saves a round meanwhile: this screen is stale.
        other = Store.open(data)
        match = other.get_match(match_id)
        assert match is not None
        match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
        match = other.save_match(match)
        other.close()
        ui.page.reload()
        ui.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
        ui.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        ui.wait("total-0", timeout=60_000)
        ui.wait_total(0, 75)
        ui.shot("after-reload")


def network_address() -> str | None:
    """This machine's address on its network (not loopback), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.fixture
def lan_app(tmp_path: Path) -> Iterator[str]:
    """The app served on all interfaces, as `main.py --web --host 0.0.0.0`; yields the network URL."""
    address = network_address()
    if address is None:
        pytest.skip("this machine has no network address besides loopback")
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1", "FLET_WEB_NO_CDN": "1", **owner_env()}
    code = f"from scorekeeper.ui.app import run; run(True, '0.0.0.0', {port}, {str(data)!r})"
    with open(tmp_path / "server.log", "wb") as log:
        server = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            wait_http(f"http://127.0.0.1:{port}/")
            yield f"http://{address}:{port}/"
        finally:
            server.terminate()
            server.wait(timeout=10)


def test_phone_on_the_network_is_a_visitor(chromium, lan_app: str) -> None:
    with browser_tabs(chromium, lan_app) as tab:
        guest = tab("guest", PHONE, owner=False)
        guest.open("/settings", ready="visitor-note")
        for hidden in (
            "data-dir",
            "data-where",
            "export-json",
            "import-file",
            "back-up-now",
            "guests-allowed",
        ):
            assert guest.page.locator(f'[flt-semantics-identifier="{hidden}"]').count() == 0, hidden
        guest.open("/", ready="join-code")  # home is a member's: a visitor's way in is a table's code
        guest.page.wait_for_timeout(500)
        guest.shot("settings")

    host_url = lan_app.replace(lan_app.split("//")[1].split(":")[0], "127.0.0.1")
    with browser_tabs(chromium, host_url) as tab:
        host = tab("host", PHONE)
        host.open("/settings", ready="data-dir")
        assert "computer that serves this app" in host.text_of("data-where")
        host.wait("guests-allowed")
        host.page.wait_for_timeout(500)
        host.shot("settings")


def test_home_and_history_page_their_lists(chromium, tmp_path: Path) -> None:
    """A page of games, and "Show more" for the rest."""
    from scorekeeper.bench.ui import seed_many
    from scorekeeper.ui.paging import HOME_PAGE_SIZE, PAGE_SIZE

    data = tmp_path / "data"
    seed_many(str(data), 2 * (HOME_PAGE_SIZE + 5))  # 15 in progress, 15 finished
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("paging", PHONE)
        ui.open("/", ready="home-more")
        assert "Show more games with real cards (5 more)" in ui.text_of("home-more")
        ui.shot("home")
        ui.tap("home-more", count=False)
        ui.page.wait_for_timeout(300)
        assert ui.page.locator('[flt-semantics-identifier="home-more"]').count() == 0
        ui.open("/history", ready="history-game-all")
        ui.wait_text(f"Finished games: {HOME_PAGE_SIZE + 5}")
        assert PAGE_SIZE >= HOME_PAGE_SIZE + 5  # one page: no "Show more" here
        assert ui.page.locator('[flt-semantics-identifier="history-more"]').count() == 0


def test_home_says_which_list_each_show_more_extends(chromium, tmp_path: Path) -> None:
    """Both lists of games in progress long: each "Show more" stands under its list and names it (before, two
    buttons "Show more (N more)", one between the lists); each tap extends its own list."""
    from scorekeeper.bench.ui import seed_many
    from scorekeeper.ui.paging import HOME_PAGE_SIZE
    from tests.play_support import racko_moves_in

    data = tmp_path / "data"
    seed_many(str(data), 2 * (HOME_PAGE_SIZE + 3))  # 8 in progress with real cards (and 8 finished)
    with Store.open(data) as store:
        for seed in range(HOME_PAGE_SIZE + 2):  # 7 in the app
            racko_moves_in(store, "anna", seed=seed, moves=1)
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("two-lists", PHONE)
        ui.open("/", ready="home-more")
        assert ui.text_of("home-more-digital") == "Show more games in the app (2 more)"
        assert ui.text_of("home-more") == "Show more games with real cards (3 more)"
        ui.shot("home")
        ui.tap("home-more")
        ui.wait_text("Show more games in the app (2 more)")  # the other list as it was
        ui.page.locator('[flt-semantics-identifier="home-more"]').wait_for(state="detached")
        ui.tap("home-more-digital")
        ui.page.locator('[flt-semantics-identifier="home-more-digital"]').wait_for(state="detached")
        ui.shot("home-all")
