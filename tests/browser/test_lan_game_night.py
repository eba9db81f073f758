"""A game night on the home network, in a real browser at phone size: the owner hosts, a member pairs by the
member QR code's link and sees the history, a visitor joins by the table's code and sees only its seat; the
visitor's other ways in (home, the history, the host's screens in another spelling, the table's saved game) all
end at the join page. Screenshots of each step go to tests/browser/output/."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PHONE, UI, browser_tabs, served
from steps import present, screenshot
from test_owner_screens import start, to_bottom
from test_table_screens import new_table

from scorekeeper.model.match import Match
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


def finished_game(data: Path) -> None:
    """Last week's Ruck Zuck game: Dee beat Eve."""
    with Store.open(data) as store:
        dee, eve = store.add_player("Dee").id, store.add_player("Eve").id
        match = Match.new("ruckzuck", {}, [dee, eve], names=["Dee", "Eve"])
        match = match.with_round({"hands": [[], [7]], "out": 0})
        match = match.with_round({"hands": [[9], []], "out": 1})
        match = store.save_match(match)


def link_of(ui: UI, identifier: str) -> str:
    """The link a pairing panel shows (selectable text, named by the link for screen readers)."""
    return str(ui.node(identifier).locator("[aria-label]").first.get_attribute("aria-label"))


def at_join_page(ui: UI, route: str) -> None:
    ui.open(route, ready="join-code")
    ui.page.wait_for_url("**/join", timeout=10_000)  # the address follows the screen shown
    for hidden in ("new-game", "history-game-all", "table-code", "host-table", "reveal"):
        assert not present(ui, hidden), (route, hidden)


def test_owner_hosts_members_pair_by_qr_and_visitors_join_by_code(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    finished_game(data)
    with served(data) as url, browser_tabs(chromium, url) as tab:
        # the owner (its browser opened the owner link) pairs a member device in Settings
        owner = tab("night-owner", PHONE)
        owner.open("/settings", ready="member-devices")
        owner.tap("member-pair")
        owner.wait("member-pair-qr")
        member_link = link_of(owner, "member-pair-link")
        assert "#member=" in member_link
        to_bottom(owner)
        screenshot(owner, "night-owner-member-qr", PHONE, pause=600)

        # a member's phone opens the QR code's link: a member device, the token gone from the address
        member = tab("night-member", PHONE, owner=False)
        start(member, member_link, ready="member-welcome")
        assert "member" not in member.page.url
        member.wait("new-game")
        assert not present(member, "host-table")  # hosting is the owner's
        screenshot(member, "night-member-home", PHONE, pause=600)
        member.open("/history", ready="history-game-all")
        member.wait_text("Dee")
        member.open("/settings", ready="guest-note")  # a member: not the owner's rights
        assert not present(member, "member-devices") and not present(member, "export-json")
        member.open("/table/new", ready="new-game")  # the host's screens stay the owner's: home
        assert "/table" not in member.page.url

        # the owner hosts a table; the used member link works no more
        code = new_table(owner, "racko", 2)
        screenshot(owner, "night-owner-lobby", PHONE, pause=600)
        late = tab("night-late", PHONE, owner=False)
        start(late, member_link, ready="member-link-refused")

        # a visitor joins by the code: its seat, and nothing else
        visitor = tab("night-visitor", PHONE, owner=False)
        visitor.open(f"/join/{code}", ready="join-name")
        visitor.fill("join-name", "Vera")
        visitor.tap("take-seat-1")
        visitor.tap("join-submit")
        visitor.wait("seat-waiting")
        screenshot(visitor, "night-visitor-seat", PHONE, pause=600)
        # (a doubled slash in the address does not even load the page in a browser: tests/test_hosting_routes.py
        # sends those spellings with Flet's protocol)
        for route in ("/", "/history", "/stats", "/table/new/", f"/table/{code}", f"/table/{code}/"):
            at_join_page(visitor, route)
        screenshot(visitor, "night-visitor-refused", PHONE, pause=600)
        visitor.open("/settings", ready="visitor-note")
        screenshot(visitor, "night-visitor-settings", PHONE, pause=600)

        # the owner's switch makes every visitor a member for the evening, and off again
        owner.open("/settings", ready="everyone-member")
        owner.tap("everyone-member")
        owner.wait_text("Anyone who can open this address")
        visitor.open("/history", ready="history-game-all")
        owner.tap("everyone-member")
        owner.wait_text("Other browsers are visitors")
        at_join_page(visitor, "/stats")
