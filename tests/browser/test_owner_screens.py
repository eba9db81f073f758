"""Host rights come from a secret, never from an address, in a real browser.

Every browser here runs on this computer (127.0.0.1), which used to make it the host. Now: the owner link the
app prints at start makes a browser an owner device (the token leaves the address at once and the rights stay
after a reload); a browser without it is a guest; Settings on an owner device lists the owner devices, pairs
another by a one-time link and QR code, and signs the others out, which makes them guests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DESKTOP, OUTPUT, PHONE, UI, printed_owner_link, served

from scorekeeper.store import Store

pytestmark = pytest.mark.browser

HOST_ONLY = ("data-dir", "export-json", "guests-allowed")


def start(ui: UI, link: str, ready: str) -> None:
    """Open `link` (an address with an owner token, or without) the way a person does, and wait for `ready`."""
    ui.page.goto(link)
    ui.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    ui.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    ui.wait(ready, timeout=60_000)


def to_bottom(ui: UI) -> None:
    """Scroll the screen to its end with the mouse wheel, as a person does (the owner devices and the pairing
    code are near the end of Settings)."""
    ui.page.mouse.move(ui.page.viewport_size["width"] / 2, ui.page.viewport_size["height"] / 2)
    for _ in range(8):
        ui.page.mouse.wheel(0, 400)
        ui.page.wait_for_timeout(100)
    ui.page.wait_for_timeout(700)


def steady(ui: UI, path: Path) -> None:
    """A screenshot once two in a row are the same: a page drawn in a second context of the headless browser
    is painted a while after its accessibility tree is there (its frames come late)."""
    ui.page.bring_to_front()
    ui.page.screenshot()  # the first capture after a while can be a frame from before (seen: "Working...")
    ui.page.wait_for_timeout(1000)
    previous = b""
    for _ in range(20):
        picture = ui.page.screenshot()
        if picture == previous:
            break
        previous = picture
        ui.page.wait_for_timeout(500)
    path.parent.mkdir(parents=True, exist_ok=True)  # the first test of a fresh clone to take a screenshot
    path.write_bytes(previous)


def shots(ui: UI, screen: str, *, bottom: bool = False) -> None:
    """Screenshots at phone and desktop size (tests/browser/output/), scrolled to the end with `bottom`."""
    original = ui.page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ui.resize(size)
        if bottom:
            to_bottom(ui)
        else:
            ui.page.wait_for_timeout(600)
        steady(ui, OUTPUT / f"{ui.name}-{screen}-{label}.png")
    ui.resize(original)


def assert_guest(ui: UI) -> None:
    ui.open("/settings", ready="visitor-note")
    for hidden in HOST_ONLY:
        assert ui.page.locator(f'[flt-semantics-identifier="{hidden}"]').count() == 0, hidden
    ui.wait("owner-hint")


def assert_owner(ui: UI) -> None:
    ui.open("/settings", ready="owner-devices")
    for shown in HOST_ONLY:
        ui.wait(shown)


@pytest.mark.parametrize("language", ["en", "de"])
def test_owner_link_pairing_and_sign_out(chromium, tmp_path: Path, language: str) -> None:
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.set_setting("language", language)
    with served(data) as url:
        link = printed_owner_link(data, url)
        assert link.startswith(url.rstrip("/") + "/#owner=")
        contexts = []
        try:
            # the owner opens the printed link: an owner device, the token gone from the address and history
            contexts.append(chromium.new_context(viewport=PHONE, owner=False))
            owner = UI(contexts[-1].new_page(), url, f"owner-{language}")
            start(owner, link, ready="owner-welcome")
            owner.wait("new-game")
            assert "owner" not in owner.page.url and owner.page.url.rstrip("/") == url.rstrip("/")
            # the tab's history: the blank page it started on and the app, whose entry replaced the link's
            assert owner.page.evaluate("history.length") == 2
            shots(owner, "first-view")
            assert "owner" not in owner.page.evaluate("JSON.stringify(history.state) + location.href")
            # the banner goes when dismissed; a reload keeps the rights (the device token in the browser's storage)
            owner.tap("owner-welcome-dismiss")
            owner.page.reload()
            start(owner, url, ready="new-game")
            assert owner.page.locator('[flt-semantics-identifier="owner-welcome"]').count() == 0
            assert_owner(owner)
            # a new tab of this browser is a new session: the device token from the browser's storage proves it
            again = UI(contexts[0].new_page(), url, f"again-{language}")
            start(again, url, ready="new-game")
            assert_owner(again)
            again.page.close()
            shots(owner, "devices", bottom=True)

            # another browser on this computer, without the link: a guest; the used link does not work again
            contexts.append(chromium.new_context(viewport=PHONE, owner=False))
            stranger = UI(contexts[-1].new_page(), url, f"stranger-{language}")
            start(stranger, link, ready="owner-link-refused")
            assert "owner" not in stranger.page.url
            shots(stranger, "link-refused")
            assert_guest(stranger)
            shots(stranger, "guest-settings")

            # pairing: a fresh one-time link as a QR code and text
            owner.tap("owner-pair")
            owner.wait("owner-pair-qr")
            # selectable text: a read-only field named by the link
            paired_link = (
                owner.node("owner-pair-link").locator("[aria-label]").first.get_attribute("aria-label")
            )
            assert "#owner=" in paired_link and paired_link != link
            shots(owner, "pairing", bottom=True)
            owner.resize(DESKTOP)
            contexts.append(chromium.new_context(viewport=DESKTOP, owner=False))
            paired = UI(contexts[-1].new_page(), url, f"paired-{language}")
            start(paired, paired_link, ready="owner-welcome")
            assert_owner(paired)

            # sign the others out: the paired browser is a guest from its next screen on
            owner.open("/settings", ready="owner-sign-out-others")
            shots(owner, "two-devices", bottom=True)
            owner.tap("owner-sign-out-others")
            owner.page.wait_for_timeout(300)
            paired.page.reload()
            start(paired, url, ready="join-code")
            assert_guest(paired)
            fresh = UI(contexts[2].new_page(), url, f"fresh-{language}")  # a new session of that browser too
            start(fresh, url, ready="join-code")
            assert_guest(fresh)
            assert_owner(owner)
        finally:
            for context in contexts:
                context.close()


def test_the_owner_notice_scrolls_away_with_settings_on_a_phone(chromium, tmp_path: Path) -> None:
    """The welcome notice is there when Settings is the first screen, but it belongs to the content: scrolled
    with it (pinned above, it took an eighth of a phone's screen until dismissed), and still dismissable."""
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url:
        # an owner device: the welcome notice on its first view
        context = chromium.new_context(viewport=PHONE)
        try:
            ui = UI(context.new_page(), url, "owner-notice")
            start(ui, url.rstrip("/") + "/settings", ready="owner-welcome")
            ui.wait("sync-section")
            steady(ui, OUTPUT / "owner-notice-settings-phone.png")
            top = ui.node("owner-welcome").bounding_box()
            assert top is not None and top["y"] < 150  # on the first screen, at the top of the content
            ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
            ui.page.mouse.wheel(0, 600)
            ui.page.wait_for_timeout(800)
            steady(ui, OUTPUT / "owner-notice-settings-scrolled-phone.png")
            moved = ui.node("owner-welcome").bounding_box()
            assert moved is None or moved["y"] + moved["height"] < top["y"], (top, moved)
            ui.page.mouse.wheel(0, -5000)
            ui.page.wait_for_timeout(800)
            ui.resize(DESKTOP)
            steady(ui, OUTPUT / "owner-notice-settings-desktop.png")
            ui.tap("owner-welcome-dismiss")
            ui.page.wait_for_timeout(500)
            assert ui.page.locator('[flt-semantics-identifier="owner-welcome"]').count() == 0
            steady(ui, OUTPUT / "owner-notice-dismissed-desktop.png")
        finally:
            context.close()
