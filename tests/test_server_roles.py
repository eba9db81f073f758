"""Host and guests: guests keep score but cannot reach the whole
data set, the host's files or the settings, unless the host allows it (with a PIN if set). The host is the
desktop window or a browser that proved to be an owner device (an owner link's token); every other served
session is a guest, whatever its address, loopback included.
In-process sessions through the UI harness; `page.client_ip` is what Flet's server sets per browser."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.model.match import Match
from scorekeeper.server import owner_devices as owners
from scorekeeper.server import owner_session as owner_ui
from scorekeeper.server import permissions
from scorekeeper.store import Store
from scorekeeper.ui.components.layout import screen_body
from tests.run_alone import run_alone
from tests.test_ui_core_harness import App, settle_all


class Device(App):
    """A session from `client_ip` (None: the desktop window), optionally served as a web app; `owner`: it opened
    an owner link (a served session without one is a guest)."""

    def __init__(
        self,
        data_dir: Path,
        client_ip: str | None,
        *,
        served: bool = True,
        owner: bool = False,
        member: bool = False,
    ) -> None:
        super().__init__(data_dir, served=served, client_ip=client_ip)
        if owner:
            assert owner_ui.redeem_link(self.ctx, owners.LINKS.mint())
        if member:
            assert owner_ui.redeem_member_link(self.ctx, owners.MEMBER_LINKS.mint())
        if owner or member:
            self.ctx.rerender()
            settle_all()


PHONE_IP = "192.168.1.23"


def finished_match(store: Store) -> str:
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    match = Match.new("racko", {"players": 2, "target": 50}, ids, names=["Anna", "Ben"])
    match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    assert match.is_over
    return store.save_match(match).id


@pytest.mark.parametrize("ip", ["127.0.0.1", "::1", "::ffff:127.0.0.1", "192.168.1.23", "", None])
def test_a_served_session_without_the_owner_token_is_a_guest(tmp_path: Path, ip: str | None) -> None:
    """Behind a proxy or a tunnel every visitor comes from loopback, so the address proves nothing."""
    device = Device(tmp_path, ip)
    assert device.ctx.guest
    assert not device.ctx.may(permissions.EXPORT)
    device.go("/settings")
    assert not device.has("data-dir") and not device.has("export-json")
    device.go("/table/new")
    assert device.ctx.route == "/join"


def test_the_desktop_window_is_the_owner(tmp_path: Path) -> None:
    desktop = Device(tmp_path, None, served=False)
    assert not desktop.ctx.guest and desktop.ctx.may(permissions.EXPORT)


def test_an_owner_link_makes_the_session_the_host_once(tmp_path: Path) -> None:
    token = owners.LINKS.mint()
    first = Device(tmp_path, "127.0.0.1")
    assert owner_ui.redeem_link(first.ctx, token)
    assert not first.ctx.guest and first.ctx.may(permissions.EXPORT)
    second = Device(tmp_path, "127.0.0.1")
    assert not owner_ui.redeem_link(second.ctx, token)  # good once
    assert second.ctx.guest
    second.go("/")
    assert second.has(owner_ui.LINK_REFUSED)


def test_a_signed_out_device_is_a_guest_from_its_next_check(tmp_path: Path) -> None:
    host = Device(tmp_path, "127.0.0.1", owner=True)
    other = Device(tmp_path, "192.168.1.23", owner=True)
    assert other.ctx.may(permissions.EXPORT)
    devices = owner_ui.registry(host.store)
    assert devices.revoke_others(str(host.ctx.owner_device)) == 1
    assert not other.ctx.may(permissions.EXPORT) and other.ctx.guest
    assert host.ctx.may(permissions.EXPORT)


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
    entered = permissions.pin_fingerprint(settings) if unlocked else ""
    verdict = permissions.allowed(action, guest=True, settings=settings, unlocked=entered)
    if action not in permissions.HOST_ONLY:
        assert verdict
    elif allowed is not True:
        assert not verdict  # only an explicit yes from the host opens the host-only actions
    else:
        assert verdict == (unlocked or not (isinstance(pin, str) and pin.strip()))


def test_guest_cannot_delete_history_or_archive(tmp_path: Path) -> None:
    host = Device(tmp_path, "127.0.0.1", owner=True)
    match_id = finished_match(host.store)
    guest = Device(tmp_path, PHONE_IP, member=True)
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


@pytest.mark.parametrize("member", [False, True])
def test_guest_settings_hide_path_transfer_and_backups(tmp_path: Path, member: bool) -> None:
    guest = Device(tmp_path, PHONE_IP, member=member)
    guest.go("/settings")
    screen = guest.screen_text()
    assert str(tmp_path) not in screen
    assert not guest.has("data-dir") and not guest.has("import-file") and not guest.has("export-json")
    assert not guest.has("back-up-now") and not guest.has("guests-allowed")
    assert not guest.has("member-devices") and not guest.has("everyone-member")
    assert "version" not in screen.lower()  # the version is the owner's to read
    if member:
        assert "host computer" in guest.screen_text()
        assert guest.has("guest-note")
    else:  # a visitor: its language and theme, and how to become a member
        assert guest.has("visitor-note") and guest.has("language-de") and not guest.has("guest-pin")


def test_guest_language_stays_in_its_session(tmp_path: Path) -> None:
    guest = Device(tmp_path, PHONE_IP)
    guest.go("/settings")
    guest.tap("language-de")
    assert guest.ctx.t.language == "de"
    assert guest.store.settings().get("language", "en") == "en"


def test_host_allows_guests_with_pin(tmp_path: Path) -> None:
    host = Device(tmp_path, "::1", owner=True)
    host.go("/settings")
    host.set_value("guests-allowed", True)
    assert host.store.settings()[permissions.GUESTS_ALLOWED] is True
    host.store.set_setting(permissions.GUEST_PIN, "4711")
    visitor = Device(tmp_path, "192.168.1.98")  # the setting is for members: a visitor never gets any of it
    visitor.go("/settings")
    assert not visitor.has("guest-pin") and not visitor.ctx.may(permissions.IMPORT)
    guest = Device(tmp_path, PHONE_IP, member=True)
    guest.go("/settings")
    assert not guest.has("import-file")
    guest.type_text("guest-pin", "1234")
    guest.tap("guest-unlock")
    assert not guest.ctx.unlocked
    guest.type_text("guest-pin", "4711")
    guest.tap("guest-unlock")
    assert guest.ctx.unlocked and guest.has("import-file") and guest.has("data-dir")
    other = Device(tmp_path, "192.168.1.99", member=True)  # the PIN counts per session
    assert not other.ctx.may(permissions.IMPORT)
    host.store.set_setting(permissions.GUEST_PIN, "0815")  # a new PIN ends what the old one gave
    assert not guest.ctx.may(permissions.IMPORT)
    guest.go("/settings")
    assert not guest.has("import-file") and guest.has("guest-pin")


def test_host_withdraws_permission_for_connected_guests(tmp_path: Path) -> None:
    host = Device(tmp_path, "127.0.0.1", owner=True)
    host.store.set_setting(permissions.GUESTS_ALLOWED, True)
    guest = Device(tmp_path, PHONE_IP, member=True)
    assert guest.ctx.may(permissions.EXPORT)
    assert not Device(tmp_path, PHONE_IP).ctx.may(permissions.EXPORT)  # a visitor: never
    host.store.set_setting(permissions.GUESTS_ALLOWED, False)
    assert not guest.ctx.may(permissions.EXPORT)


def test_where_the_data_lives(tmp_path: Path) -> None:
    """Served to a browser, the data is on the computer running the app."""
    desktop = Device(tmp_path, None, served=False)
    desktop.go("/settings")
    assert "stored on this device" in desktop.find("data-where").value
    host_browser = Device(tmp_path, "127.0.0.1", served=True, owner=True)
    host_browser.go("/settings")
    assert "computer that serves this app" in host_browser.find("data-where").value
    assert host_browser.has("data-dir")
    phone = Device(tmp_path, PHONE_IP, served=True, member=True)
    phone.go("/settings")
    assert "host computer" in phone.find("data-where").value
    assert "this device" not in phone.screen_text()


def test_a_guest_is_sent_to_join_instead_of_a_tables_setup_or_lobby(tmp_path: Path) -> None:
    """A phone joins a table by its code; the table's setup and lobby stay with the host."""
    guest = Device(tmp_path / "data", PHONE_IP)
    for route in ("/table/new", "/table/ACK39X"):
        guest.go(route)
        assert guest.ctx.route == "/join", route
        assert guest.has("join-name") or guest.has("join-code")
    member = Device(tmp_path / "data", PHONE_IP, member=True)
    for route in ("/table/new", "/table/ACK39X", "//table/new"):
        member.go(route)
        assert member.ctx.route == "/", route  # a member: home
    guest.store.close()
    host = Device(tmp_path / "data", "127.0.0.1", owner=True)
    host.go("/table/new")
    assert host.ctx.route == "/table/new"


def test_owner_devices_in_settings_sign_out_and_pairing(tmp_path: Path) -> None:
    """Settings on an owner device lists the owner devices; one signed out there is a guest; pairing
    shows a fresh one-time link (and its QR code) that makes another browser an owner device once."""
    host = Device(tmp_path, "127.0.0.1", owner=True)
    phone = Device(tmp_path, PHONE_IP, owner=True)
    guest = Device(tmp_path, PHONE_IP)
    guest.go("/settings")
    assert not guest.has("owner-devices") and guest.has("owner-hint")
    host.go("/settings")
    assert host.has("owner-devices")
    assert host.has(f"owner-device-{host.ctx.owner_device}") and host.has(
        f"owner-device-{phone.ctx.owner_device}"
    )
    host.tap(f"owner-device-sign-out-{phone.ctx.owner_device}")
    assert not host.has(f"owner-device-{phone.ctx.owner_device}")
    assert not phone.ctx.may(permissions.EXPORT)
    host.tap("owner-pair")
    link = host.find("owner-pair-link").value
    assert host.has("owner-pair-qr") and "#owner=" in link
    newcomer = Device(tmp_path, PHONE_IP)
    assert owner_ui.redeem_link(newcomer.ctx, link.split("#owner=", 1)[1])
    assert not owner_ui.redeem_link(Device(tmp_path, PHONE_IP).ctx, link.split("#owner=", 1)[1])
    host.go("/settings")
    assert host.has(f"owner-device-{newcomer.ctx.owner_device}")
    assert not host.has("owner-pairing")  # its link is used: the code is gone
    host.tap("owner-sign-out-others")
    assert [d.id for d in owner_ui.registry(host.store).devices()] == [host.ctx.owner_device]
    assert newcomer.ctx.guest or not newcomer.ctx.may(permissions.EXPORT)


def test_owner_devices_are_kept_hashed(tmp_path: Path) -> None:
    devices = owners.OwnerDevices(tmp_path)
    token, device = devices.add("Firefox · Linux")
    saved = (tmp_path / owners.FILE).read_text()
    assert token not in saved and owners.digest(token) in saved
    again = owners.OwnerDevices(tmp_path)  # another process
    assert again.check(token) == owners.OwnerDevice(device.id, device.name, device.added, device.last_seen)
    assert again.check("x" + token) is None
    assert again.revoke(device.id)
    assert devices.check(token) is None  # the change on disk is seen


def test_the_configured_owner_token_works_every_time_unless_too_short(monkeypatch) -> None:
    links = owners.LinkTokens()
    monkeypatch.setenv(owners.ENV_TOKEN, "s3cret-and-long-enough")
    assert links.redeem("s3cret-and-long-enough") and links.redeem("s3cret-and-long-enough")
    assert not links.redeem("s3cret-and-long-enougH")
    monkeypatch.setenv(owners.ENV_TOKEN, "1234")
    assert not links.redeem("1234")


def test_link_tokens_expire_and_work_once() -> None:
    now = [100.0]
    links = owners.LinkTokens(clock=lambda: now[0])
    short, lasting = links.mint(60), links.mint()
    now[0] += 61
    assert not links.redeem(short)
    assert links.redeem(lasting) and not links.redeem(lasting)
    assert not links.redeem("")


def test_device_names_from_user_agents() -> None:
    android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36"
    iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
    assert owner_ui.device_name(android) == "Chrome · Android"
    assert owner_ui.device_name(iphone) == "Safari · iPhone"
    assert (
        owner_ui.device_name("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0")
        == "Firefox · Linux"
    )
    assert owner_ui.device_name("") == "?"


def test_every_start_prints_an_owner_link_and_the_first_says_what_changed(tmp_path: Path, capsys) -> None:
    from scorekeeper.ui.app import announce_owner_link

    opened = announce_owner_link(str(tmp_path), "0.0.0.0", 8551)
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2 and "no longer from being on this computer" in printed[0]
    link = printed[1].rsplit(" ", 1)[1]
    assert link.startswith("http://127.0.0.1:8551/#owner=") and opened.startswith(
        "http://127.0.0.1:8551/#owner="
    )
    assert link != opened  # the browser the server opens has a token of its own: the printed one still works
    device = Device(tmp_path, "127.0.0.1")
    assert owner_ui.redeem_link(device.ctx, link.split("#owner=")[1])
    announce_owner_link(str(tmp_path), None, 8551)
    again = capsys.readouterr().out.splitlines()
    assert len(again) == 1 and "#owner=" in again[0]  # an owner device exists: just the link


def test_the_browser_the_server_opens_gets_an_owner_link(tmp_path: Path, monkeypatch, capsys) -> None:
    """`make run` without a window (or `main.py --web`) opens the local browser: with an owner link of its own."""
    from scorekeeper.server import web as server
    from scorekeeper.ui import app

    seen: dict[str, object] = {}
    monkeypatch.setattr(server, "serve", lambda *args, **kwargs: seen.update(kwargs))
    for variable in ("FLET_FORCE_WEB_SERVER", "SCOREKEEPER_TABLE_URL", "FLET_WEB_NO_CDN"):
        monkeypatch.delenv(variable, raising=False)  # and restored afterwards (run() sets two of them)
    app.run(web=True, host="127.0.0.1", port=8552, data_dir=str(tmp_path))
    assert seen["open_browser"] is True
    opened = str(seen["open_url"])
    assert opened.startswith("http://127.0.0.1:8552/#owner=")
    assert opened not in capsys.readouterr().out
    assert owners.LINKS.redeem(opened.split("#owner=")[1])


class BrowserStorage:
    """What a browser keeps in its client storage (the part of SharedPreferences identify uses)."""

    def __init__(self, **kept: str) -> None:
        self.kept = dict(kept)

    async def get(self, key: str) -> str | None:
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> bool:
        self.kept[key] = value
        return True

    async def remove(self, key: str) -> bool:
        self.kept.pop(key, None)
        return True


def test_an_owner_device_opening_another_owner_link_stays_one_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the link was traded for a second device token, and Settings listed the browser twice."""
    browser = BrowserStorage(**{owner_ui.LINK_KEY: owners.LINKS.mint()})
    monkeypatch.setattr(owner_ui, "prefs", lambda _ctx: browser)
    first = Device(tmp_path, "127.0.0.1")
    run_alone(owner_ui.identify(first.ctx))
    assert not first.ctx.guest and owner_ui.DEVICE_KEY in browser.kept
    link = owners.LINKS.mint()
    browser.kept[owner_ui.LINK_KEY] = link
    again = Device(tmp_path, "127.0.0.1")
    run_alone(owner_ui.identify(again.ctx))
    assert not again.ctx.guest and again.ctx.owner_device == first.ctx.owner_device
    assert len(owner_ui.registry(again.store).devices()) == 1
    assert not owners.LINKS.pending(link) and owner_ui.LINK_KEY not in browser.kept  # used up all the same


def test_the_owner_notice_scrolls_with_the_first_screen_and_goes_when_dismissed(tmp_path: Path) -> None:
    """On a phone a notice pinned above the content took an eighth of the screen: it is the content's first
    control instead (it scrolls away with it), and dismissing it leaves no tag over hidden content."""
    device = Device(tmp_path, "127.0.0.1")
    assert owner_ui.redeem_link(device.ctx, owners.LINKS.mint())
    device.go("/settings")
    body = screen_body(device.view)
    assert body is not None and isinstance(body.controls[0], ft.Semantics)
    assert body.controls[0].identifier == owner_ui.WELCOME
    assert not any(getattr(c, "identifier", None) == owner_ui.WELCOME for c in device.view.controls)
    device.tap(f"{owner_ui.WELCOME}-dismiss")  # checks the tags: none over hidden content
    assert body.controls[0].visible is False
    device.go("/settings")
    assert not device.has(owner_ui.WELCOME)
