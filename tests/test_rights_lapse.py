"""Rights end when they are taken away (issue 50, finding 1): no control outlives the screen its role may see.

Driven as the audit drove it: a tab speaking Flet's protocol to the real served app (tests/rights_lapse_support.py).
A member opens a match's scoreboard, starts sending a photo (the picker's `result`, the PUT to the signed URL)
and opens a photo's dialog. Then its right ends: its device is unpaired, or the owner turns "Everyone who opens
the app is a member" off (the owner's own tab taps the switch). Its next ordinary tap is refused and sends it to
the join page; then it sends what outlived the screen: the picker's `upload` (the file already on the server),
a new `result` (which asked for a signed URL), and the dialog's Delete. Nothing may be added or deleted, and no
URL handed out.

A right a member got with the owner's PIN lapses when the owner stops letting members delete: the delete dialog
opened before, tapped after, deletes nothing.

There are no menus (no PopupMenu, Dropdown or menu bar) in the app; the one timer that redraws a screen (a game
night's running clock, components/evening.py) redraws through `Shell.show`, which asks the rights (the
in-process test at the end).

Each wait ends on what the server shows: the attack's effect, or the shell's "dropped" line in its log."""

from __future__ import annotations

import dataclasses
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from scorekeeper.bench.owner_harness import OWNER_TOKEN
from scorekeeper.model.match import Match
from scorekeeper.server import owner_devices as owners
from scorekeeper.server import owner_session as owner_ui
from scorekeeper.server import permissions
from scorekeeper.server.owner_session import LINK_KEY, MEMBER_DEVICE_KEY
from scorekeeper.store import Store
from tests.browser.conftest import served
from tests.rights_lapse_support import UPDATE, Tab, log_count
from tests.test_server_roles import PHONE_IP, Device
from tests.test_ui_core_harness import settle_all

DROPPED = "dropped "


def jpeg(colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(buffer, "JPEG")
    return buffer.getvalue()


@dataclasses.dataclass
class Host:
    data: Path
    match_id: str
    photo_id: str
    member_token: str
    member_id: str
    finished_id: str

    def match_photos(self) -> list[str]:
        record = json.loads((self.data / "matches" / f"{self.match_id}.json").read_text())
        return list(record["tables"]["match"]["1"].get("photos", []))

    def setting(self, key: str) -> object:
        record = json.loads((self.data / "settings.json").read_text())
        return record["tables"]["settings"]["1"].get(key)

    def photo_files(self) -> int:
        return len(list((self.data / "photos").glob("*.jpg")))

    def has_match(self, match_id: str) -> bool:
        return (self.data / "matches" / f"{match_id}.json").is_file()

    def log(self) -> Path:
        (log,) = self.data.parent.glob("server-*.log")
        return log


def make_host(root: Path, settings: dict[str, Any]) -> Host:
    data = root / "data"
    store = Store.open(str(data))
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    match = store.save_match(Match.new("racko", {"players": 2}, ids, names=["Anna", "Ben"]))
    photo_id = store.photos.add(jpeg((200, 10, 10)))
    store.change_match(match.id, lambda m: dataclasses.replace(m, photos=[photo_id]), "photo")
    done = Match.new("racko", {"players": 2, "target": 50}, ids, names=["Anna", "Ben"])
    done = done.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    finished = store.save_match(done)
    if settings:
        store.update_settings(settings)
    store.close()
    token, device = owners.members_of(data).add("a member's phone")
    return Host(data, match.id, photo_id, token, device.id, finished.id)


@pytest.fixture
def host(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Host, str]]:
    settings = getattr(request, "param", {})
    made = make_host(tmp_path, settings)
    with served(made.data) as url:
        yield made, url


def wait(condition: Any, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def switch(tab: Tab, identifier: str, value: bool) -> None:
    """Flip a switch as the browser does: its value first, then its change event."""
    control = tab.tagged[identifier]
    tab.send([UPDATE, {"id": control, "props": {"value": value}}])
    tab.event(control, "change", value)


def until_either(tab: Tab, host: Host, dropped_before: int, effect: Any) -> None:
    """Read the member's frames until the attack had its effect or the server dropped the event."""
    assert tab.pump(lambda: effect() or log_count(host.log(), DROPPED) > dropped_before, 30), (
        "no answer at all"
    )


UNPAIRED, SWITCHED_OFF = "unpaired", "switch off"


@pytest.mark.parametrize(
    ("host", "how"),
    [({}, UNPAIRED), ({permissions.EVERYONE_MEMBER: True}, SWITCHED_OFF)],
    indirect=["host"],
    ids=[UNPAIRED, SWITCHED_OFF],
)
def test_what_outlived_the_screen_changes_nothing_once_the_right_is_gone(
    host: tuple[Host, str], how: str
) -> None:
    made, url = host
    storage = {MEMBER_DEVICE_KEY: made.member_token} if how == UNPAIRED else {}
    member = Tab(url, f"/match/{made.match_id}", storage)
    owner = Tab(url, "/settings", {LINK_KEY: OWNER_TOKEN}) if how == SWITCHED_OFF else None
    try:
        member.wait_for("photo-add")
        (picker,) = member.services["FilePicker"]
        first, second = jpeg((10, 200, 10)), jpeg((10, 10, 200))
        # while a member: a photo on its way (its URL handed out, the file PUT), and a photo's dialog open
        member.event(picker, "result", {"files": [{"id": 0, "name": "a.jpg", "size": len(first)}]})
        assert member.pump(lambda: len(member.uploads) == 1), "no upload URL while still a member"
        assert member.put(member.uploads[0], first) == 200
        member.tap("photo-0")
        delete = member.wait_for("photo-delete")
        # the right ends
        if how == UNPAIRED:
            assert owners.members_of(made.data).revoke(made.member_id)
        else:
            assert owner is not None
            owner.wait_for("everyone-member")
            switch(owner, "everyone-member", False)
            assert wait(lambda: made.setting(permissions.EVERYONE_MEMBER) is False)
        # the next ordinary tap is refused, and the tab sent to the join page
        member.tap("enter-round")
        member.wait_for("join-code")
        photos, files = made.match_photos(), made.photo_files()
        assert photos == [made.photo_id]

        def changed() -> bool:
            return made.match_photos() != photos or made.photo_files() != files

        # the picker's upload of the file already on the server
        dropped = log_count(made.log(), DROPPED)
        member.event(picker, "upload", {"file_name": "a.jpg", "progress": 1.0, "error": None})
        until_either(member, made, dropped, changed)
        # a new pick: a signed URL for it would let the file in
        dropped = log_count(made.log(), DROPPED)
        member.event(picker, "result", {"files": [{"id": 1, "name": "b.jpg", "size": len(second)}]})
        until_either(member, made, dropped, lambda: len(member.uploads) > 1)
        if len(member.uploads) > 1:  # handed out: the attack goes on as the audit's did
            member.put(member.uploads[1], second)
            dropped = log_count(made.log(), DROPPED)
            member.event(picker, "upload", {"file_name": "b.jpg", "progress": 1.0, "error": None})
            until_either(member, made, dropped, changed)
        # the dialog opened before: its Delete
        dropped, before = log_count(made.log(), DROPPED), made.match_photos()
        member.event(delete, "click")
        until_either(member, made, dropped, lambda: made.match_photos() != before)
        assert made.match_photos() == [made.photo_id], "a photo was added or deleted after the right ended"
        assert made.photo_files() == files, "a photo file was written after the right ended"
        assert len(member.uploads) == 1, "an upload URL was handed out after the right ended"
    finally:
        member.close()
        if owner is not None:
            owner.close()


PIN = "2468"


@pytest.mark.parametrize(
    "host", [{permissions.GUESTS_ALLOWED: True, permissions.GUEST_PIN: PIN}], indirect=True, ids=["pin"]
)
def test_a_delete_dialog_opened_with_the_pin_deletes_nothing_once_the_right_lapses(
    host: tuple[Host, str],
) -> None:
    made, url = host
    member = Tab(url, "/settings", {MEMBER_DEVICE_KEY: made.member_token})
    owner = Tab(url, "/settings", {LINK_KEY: OWNER_TOKEN})
    try:
        field = member.wait_for("guest-pin")
        member.send([UPDATE, {"id": field, "props": {"value": PIN}}])
        member.tap("guest-unlock")
        assert member.pump(lambda: member.seen("The host lets this device change everything.")), (
            "not unlocked"
        )
        member.event(1, "route_change", {"route": f"/history/{made.finished_id}"})
        member.wait_for("history-delete")
        member.tap("history-delete")
        confirm = member.wait_for("history-delete-confirm")
        owner.wait_for("guests-allowed")
        switch(owner, "guests-allowed", False)
        assert wait(lambda: made.setting(permissions.GUESTS_ALLOWED) is False)
        member.event(confirm, "click")
        assert member.pump(
            lambda: (
                not made.has_match(made.finished_id)
                or member.seen("Only the host device can do this.")
                or log_count(made.log(), DROPPED) > 0
            )
        ), "no answer at all"
        assert made.has_match(made.finished_id), "the game was deleted after the PIN's right lapsed"
    finally:
        member.close()
        owner.close()


def test_a_timers_redraw_after_unpairing_shows_the_join_page(tmp_path: Path) -> None:
    """What a game night's running clock does each minute (components/evening.py `_tick`: `ctx.rerender` on
    the session's thread): after the device was unpaired it draws the join page, not the scoreboard."""
    made = make_host(tmp_path, {})
    phone = Device(made.data, PHONE_IP)
    assert owner_ui.redeem_member_link(phone.ctx, owners.MEMBER_LINKS.mint())
    phone.go(f"/match/{made.match_id}")
    assert phone.has("photo-add")
    assert owners.members_of(made.data).revoke(str(phone.ctx.member_device))
    phone.ctx.rerender()
    settle_all()
    assert phone.ctx.route == "/join" and not phone.has("photo-add")
    assert "Anna" not in phone.screen_text()
