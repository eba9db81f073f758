"""Rights are checked on the screen a route resolves to, not on how the route was spelled: every registered route,
in several spellings, as a visitor, a member and the owner, against the one table of rights (`server/rights.py`).
A device unpaired while its screen is open is refused at its next tap. In-process sessions through the UI
harness (tests/test_hosting_routes.py drives the same as an attacker, with Flet's protocol on a real server)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from scorekeeper.model.match import Match
from scorekeeper.server import owner_session as owner_ui
from scorekeeper.server import rights
from scorekeeper.ui.routes import ROUTES, SCREENS, canonical, resolve
from tests.test_server_roles import PHONE_IP, Device
from tests.test_table_ui import fresh_host  # noqa: F401  (autouse: no table left behind)
from tests.test_ui_core_harness import run_on, settle_all

SAMPLE = {"match_id": "m0", "index": "0", "saved_id": "g0", "code": "ACK39X"}


def concrete(pattern: re.Pattern[str]) -> str:
    """A route of `pattern` with sample values for its named parts."""
    text = pattern.pattern.removeprefix("^").removesuffix("$")
    text = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: SAMPLE[m.group(1)], text)
    return text.replace("\\d+", "0")


def spellings(route: str) -> list[str]:
    """`route` as an attacker may spell it: doubled, trailing and dot slashes, another case, percent-encoded,
    with a query."""
    tail = route.lstrip("/")
    return [
        route,
        "//" + tail,
        "///" + tail + "//",
        route + "/",
        route.upper(),
        "/./" + tail,
        "/x/../" + tail,
        "/%" + format(ord(tail[0]), "02X") + tail[1:] if tail else "/%2F",
        route.replace("/", "//"),
        route + "?next=/table/new",
    ]


ROUTES_SEEN = [concrete(pattern) for pattern, _ in ROUTES]


def test_every_screen_has_a_right() -> None:
    modules = {module for _, module in ROUTES}
    assert modules == set(rights.VIEW_RIGHTS), (
        "a screen without a row in rights.VIEW_RIGHTS is the owner's only"
    )
    assert rights.VIEW_RIGHTS["table_lobby"] == rights.OWNER
    assert {m for m, role in rights.VIEW_RIGHTS.items() if role == rights.VISITOR} == {
        "table_join",
        "table_seat",
        "table_board",
        "rules",
        "settings",
    }


@pytest.mark.parametrize("role", rights.ROLES)
def test_every_route_in_every_spelling_shows_only_what_the_role_may_see(tmp_path: Path, role: str) -> None:
    device = Device(tmp_path, PHONE_IP, owner=role == rights.OWNER, member=role == rights.MEMBER, served=True)
    assert device.ctx.role() == role
    for route in ROUTES_SEEN:
        device.go(route)
        expected = (
            device.ctx.route
        )  # the screen of the one spelling (a view may send on: a seat without token)
        if not rights.may_view(role, resolve(route)[0]):
            assert expected == rights.refused_route(role), (role, route, expected)
        for spelled in spellings(route):
            device.go(spelled)
            shown = device.ctx.route
            assert rights.may_view(role, resolve(shown)[0]), (role, spelled, shown)
            assert shown == canonical(shown), (spelled, shown)  # one spelling on screen and in the address
            if canonical(spelled) == canonical(route):  # the same screen, whatever the spelling
                assert shown == expected, (role, spelled, shown)
            # the browser's address is never one the screen did not show
            assert device.page.route == shown, (spelled, device.page.route, shown)


def test_the_host_screens_in_any_spelling_are_the_owners(tmp_path: Path) -> None:
    visitor = Device(tmp_path, PHONE_IP)
    member = Device(tmp_path, PHONE_IP, member=True)
    owner = Device(tmp_path, PHONE_IP, owner=True)
    for spelled in ("//table/new", "/table/new/", "//table/ACK39X", "/table/ACK39X/"):
        visitor.go(spelled)
        assert visitor.ctx.route == "/join" and visitor.has("join-code")
        assert not visitor.has("start-table") and not visitor.has("table-code")
        member.go(spelled)
        assert member.ctx.route == "/"
    owner.go("//table/new")
    assert owner.ctx.route == "/table/new"


def test_a_visitor_sees_nothing_of_the_games(tmp_path: Path) -> None:
    owner = Device(tmp_path, "127.0.0.1", owner=True)
    ids = [owner.store.add_player(name).id for name in ("Anna", "Ben")]
    match = owner.store.save_match(Match.new("racko", {"players": 2}, ids, names=["Anna", "Ben"]))
    visitor = Device(tmp_path, PHONE_IP)
    for route in ("/", "/history", f"/history/{match.id}", f"/match/{match.id}", "/stats", "/players"):
        visitor.go(route)
        assert visitor.ctx.route == "/join", route
        assert "Anna" not in visitor.screen_text()


def test_the_owners_switch_makes_every_visitor_a_member(tmp_path: Path) -> None:
    owner = Device(tmp_path, "127.0.0.1", owner=True)
    visitor = Device(tmp_path, PHONE_IP)
    visitor.go("/history")
    assert visitor.ctx.route == "/join"
    owner.go("/settings")
    assert owner.has("member-devices") and owner.has("everyone-member")
    owner.set_value("everyone-member", True)
    assert visitor.ctx.role() == rights.MEMBER
    visitor.go("/history")
    assert visitor.ctx.route == "/history"
    visitor.go("/table/new")  # the switch makes members, never owners
    assert visitor.ctx.route == "/"
    visitor.go("/history")
    owner.set_value("everyone-member", False)
    assert visitor.ctx.role() == rights.VISITOR
    visitor.go("/history")
    assert visitor.ctx.route == "/join"


def test_member_pairing_in_settings_and_unpairing_refuses_the_next_tap(tmp_path: Path) -> None:
    owner = Device(tmp_path, "127.0.0.1", owner=True)
    owner.go("/settings")
    owner.tap("member-pair")
    link = owner.find("member-pair-link").value
    assert owner.has("member-pair-qr") and "#member=" in link
    phone = Device(tmp_path, PHONE_IP)
    assert owner_ui.redeem_member_link(phone.ctx, link.split("#member=", 1)[1])
    assert not owner_ui.redeem_member_link(Device(tmp_path, PHONE_IP).ctx, link.split("#member=", 1)[1])
    assert phone.ctx.role() == rights.MEMBER
    phone.go("/new")
    assert phone.ctx.route == "/new"
    owner.go("/settings")
    assert not owner.has("member-pairing")  # used: the code is gone
    device_id = phone.ctx.member_device
    assert owner.has(f"member-device-{device_id}")
    owner.tap(f"member-device-sign-out-{device_id}")
    assert not owner.has(f"member-device-{device_id}")
    # the phone's screen is still the new-game form; its next tap (sent as the browser sends it, through the
    # session's dispatch) is refused before any handler runs, and the phone is sent to the join page
    ran: list[object] = []
    button = phone.find("start-game")
    button.on_click = ran.append
    run_on(phone.connection.loop, phone.session.dispatch_event(button._i, "click", None))
    settle_all()
    assert not ran
    assert phone.ctx.role() == rights.VISITOR
    # the screen is drawn again on a thread of its own (as Flet runs handlers): waited for, within seconds
    deadline = time.monotonic() + 10
    while not (phone.ctx.route == "/join" and phone.has("join-code")) and time.monotonic() < deadline:
        time.sleep(0.02)
    settle_all()
    assert phone.ctx.route == "/join" and phone.has("join-code")


def test_a_tap_on_a_screen_the_session_may_see_goes_through(tmp_path: Path) -> None:
    member = Device(tmp_path, PHONE_IP, member=True)
    member.go("/new")
    ran: list[object] = []
    button = member.find("start-game")
    button.on_click = ran.append
    run_on(member.connection.loop, member.session.dispatch_event(button._i, "click", None))
    settle_all()
    assert len(ran) == 1


def test_the_guards_read_the_address_recorded_when_the_session_was_made(tmp_path: Path) -> None:
    """A resumed session's registration applies the client's page patch, `client_ip` included: the wrong-code
    guard and the PIN tries count by the address Flet recorded when it made the session (finding 8)."""
    from scorekeeper.table.host import HOST
    from scorekeeper.ui.views.table.join import find_table

    phone = Device(tmp_path, PHONE_IP)
    phone.session.apply_page_patch({"client_ip": "198.51.100.66"})  # what a resumed REGISTER may send
    assert phone.page.client_ip == "198.51.100.66" and phone.ctx.session.address == PHONE_IP
    with pytest.raises(ValueError):
        find_table(phone.ctx, "AAAAAA")
    counted = HOST.guard.levels["address"]
    assert counted.guessed(PHONE_IP, HOST.guard.clock())
    assert not counted.guessed("198.51.100.66", HOST.guard.clock())


def test_only_the_owner_reads_what_failed(tmp_path: Path) -> None:
    """A failure's own text (an exception's words) tells an attacker about the code: guests read plain words."""
    from scorekeeper.ui.routes import failure_text

    failure = AttributeError("'list' object has no attribute 'partition'")
    for role in (rights.VISITOR, rights.MEMBER):
        guest = Device(tmp_path, PHONE_IP, member=role == rights.MEMBER)
        assert failure_text(guest.ctx, failure) == "Something went wrong"
    owner = Device(tmp_path, PHONE_IP, owner=True)
    assert "partition" in failure_text(owner.ctx, failure)


def test_every_screen_a_route_names_has_a_view_module() -> None:
    """Views are grouped by feature (ui/views/<feature>/): each screen a route resolves to names its module in
    `routes.SCREENS`, and the module builds a view."""
    import importlib

    for _, screen in ROUTES:
        module = importlib.import_module(f"scorekeeper.ui.views.{SCREENS[screen]}")
        assert callable(module.build), screen
