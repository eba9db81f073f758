"""Host and guests (issue 9 item 5, issue 8 item 10): sessions from other machines keep score but cannot reach
the whole data set, the host's files or the settings, unless the host allows it (with a PIN if set).
In-process sessions through the UI harness; `page.client_ip` is what Flet's server sets per browser."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.match import Match
from scorekeeper.store import Store
from scorekeeper.ui import permissions
from scorekeeper.ui.app import make_main
from tests.test_ui_core_harness import App, RecordingConnection, Session


class Device(App):
    """A session from `client_ip` (None: the desktop window), optionally served as a web app."""

    def __init__(self, data_dir: Path, client_ip: str | None, *, served: bool = True) -> None:
        self.connection = RecordingConnection()
        self.session = Session(self.connection)
        self.page = self.session.page
        self.session.apply_page_patch({"route": "/", "width": 390, "height": 844})
        self.connection.send_message(SimpleNamespace(action=0, body=self.session.get_page_patch()))
        self.page.client_ip = client_ip
        self.store = Store.open(data_dir)
        make_main(store=self.store, served=served)(self.page)
        self.ctx = self.page.data


PHONE_IP = "192.168.1.23"


def finished_match(store: Store) -> str:
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    match = Match.new("racko", {"players": 2, "target": 50}, ids, names=["Anna", "Ben"])
    match.add_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    assert match.is_over
    return store.save_match(match).id


@pytest.mark.parametrize(
    ("ip", "loopback"),
    [
        (None, True),
        ("", True),
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("192.168.1.23", False),
        ("10.0.0.2", False),
        ("fe80::1%eth0", False),
        ("localhost.evil", False),
    ],
)
def test_loopback(ip: str | None, loopback: bool) -> None:
    assert permissions.is_loopback(ip) is loopback


@given(
    action=st.sampled_from([*sorted(permissions.HOST_ONLY), "keep_score", "view"]),
    allowed=st.one_of(st.none(), st.booleans(), st.text(max_size=3)),
    pin=st.one_of(st.none(), st.text(max_size=4)),
    unlocked=st.booleans(),
)
def test_host_always_guest_only_when_allowed(
    action: str, allowed: object, pin: object, unlocked: bool
) -> None:
    settings = {permissions.GUESTS_ALLOWED: allowed, permissions.GUEST_PIN: pin}
    assert permissions.allowed(action, guest=False, settings=settings)
    verdict = permissions.allowed(action, guest=True, settings=settings, unlocked=unlocked)
    if action not in permissions.HOST_ONLY:
        assert verdict
    elif allowed is not True:
        assert not verdict  # only an explicit yes from the host opens the host-only actions
    else:
        assert verdict == (unlocked or not (isinstance(pin, str) and pin.strip()))


def test_guest_cannot_delete_history_or_archive(tmp_path: Path) -> None:
    host = Device(tmp_path, "127.0.0.1")
    match_id = finished_match(host.store)
    guest = Device(tmp_path, PHONE_IP)
    assert guest.ctx.guest and not host.ctx.guest
    guest.go(f"/history/{match_id}")
    assert not guest.has("history-delete")
    host.go(f"/history/{match_id}")
    assert host.has("history-delete")
    guest.go("/players")
    assert "Archive" not in [getattr(c, "tooltip", None) for c in _all(guest)]
    host.go("/players")
    assert "Archive" in [getattr(c, "tooltip", None) for c in _all(host)]


def _all(app: App) -> list[object]:
    from tests.test_ui_core_harness import walk

    return [node for root in app.roots() for node in walk(root)]


def test_guest_settings_hide_path_transfer_and_backups(tmp_path: Path) -> None:
    guest = Device(tmp_path, PHONE_IP)
    guest.go("/settings")
    screen = guest.screen_text()
    assert str(tmp_path) not in screen
    assert not guest.has("data-dir") and not guest.has("import-file") and not guest.has("export-json")
    assert not guest.has("back-up-now") and not guest.has("guests-allowed")
    assert "host computer" in guest.screen_text()
    assert guest.has("guest-note")


def test_guest_language_stays_in_its_session(tmp_path: Path) -> None:
    guest = Device(tmp_path, PHONE_IP)
    guest.go("/settings")
    guest.tap("language-de")
    assert guest.ctx.t.language == "de"
    assert guest.store.settings().get("language", "en") == "en"


def test_host_allows_guests_with_pin(tmp_path: Path) -> None:
    host = Device(tmp_path, "::1")
    host.go("/settings")
    host.set_value("guests-allowed", True)
    assert host.store.settings()[permissions.GUESTS_ALLOWED] is True
    host.store.set_setting(permissions.GUEST_PIN, "4711")
    guest = Device(tmp_path, PHONE_IP)
    guest.go("/settings")
    assert not guest.has("import-file")
    guest.type_text("guest-pin", "1234")
    guest.tap("guest-unlock")
    assert not guest.ctx.unlocked
    guest.type_text("guest-pin", "4711")
    guest.tap("guest-unlock")
    assert guest.ctx.unlocked and guest.has("import-file") and guest.has("data-dir")
    other = Device(tmp_path, "192.168.1.99")  # the PIN counts per session
    assert not other.ctx.may(permissions.IMPORT)


def test_host_withdraws_permission_for_connected_guests(tmp_path: Path) -> None:
    host = Device(tmp_path, "127.0.0.1")
    host.store.set_setting(permissions.GUESTS_ALLOWED, True)
    guest = Device(tmp_path, PHONE_IP)
    assert guest.ctx.may(permissions.EXPORT)
    host.store.set_setting(permissions.GUESTS_ALLOWED, False)
    assert not guest.ctx.may(permissions.EXPORT)


def test_where_the_data_lives(tmp_path: Path) -> None:
    """Issue 8 item 10: served to a browser the data is on the computer running the app."""
    desktop = Device(tmp_path, None, served=False)
    desktop.go("/settings")
    assert "stored on this device" in desktop.find("data-where").value
    host_browser = Device(tmp_path, "127.0.0.1", served=True)
    host_browser.go("/settings")
    assert "computer that serves this app" in host_browser.find("data-where").value
    assert host_browser.has("data-dir")
    phone = Device(tmp_path, PHONE_IP, served=True)
    phone.go("/settings")
    assert "host computer" in phone.find("data-where").value
    assert "this device" not in phone.screen_text()
