"""Settings, "This server as a sync hub" in a real browser at phone size (issue 54): the owner switches the hub on
and reads the address a device enters and that a paired device signs in with its own token; the hub then
answers that device; switched off, it answers nothing. A visitor's Settings has no such section. Screenshots:
tests/browser/output/sync-hub-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import OUTPUT, PHONE, browser_tabs, served
from test_sync_screens import language, scroll_to_bottom, wait_in

from scorekeeper.server import dav_hub
from scorekeeper.server import owner_devices as owners
from scorekeeper.server.web import STATIC_ENV

pytestmark = pytest.mark.browser


def propfind(url: str, token: str) -> int:
    headers = {"Authorization": f"Bearer {token}", "Depth": "0"}
    return httpx.request("PROPFIND", url + "sync/", headers=headers, timeout=10).status_code


def test_the_owner_switches_the_hub_on_and_reads_what_a_device_enters(chromium: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    phone_token, _ = owners.devices_of(data).add("phone")
    with served(data) as url, browser_tabs(chromium, url) as tab:
        assert propfind(url, phone_token) == 404
        ui = tab("sync-hub-en", PHONE)
        ui.open("/settings", ready="hub-section")
        scroll_to_bottom(ui)
        ui.tap("hub-switch")
        wait_in(ui, "hub-address", "/sync/")
        assert ui.text_of("hub-address").strip() == url + "sync/"
        assert "token" in ui.text_of("hub-how")
        assert dav_hub.is_on(data) and propfind(url, phone_token) == 207
        scroll_to_bottom(ui)
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / "sync-hub-on-phone.png").write_bytes(ui.still())
        language(ui, "de")
        wait_in(ui, "hub-how", "Kopplungs-Token")
        (OUTPUT / "sync-hub-on-phone-de.png").write_bytes(ui.still())
        language(ui, "en")
        ui.tap("hub-switch")
        wait_in(ui, "hub-off", "nobody")
        assert propfind(url, phone_token) == 404

        visitor = tab("sync-hub-visitor", PHONE, owner=False)
        visitor.open("/settings", ready="language-en")
        scroll_to_bottom(visitor)
        assert visitor.page.locator("[flt-semantics-identifier=hub-section]").count() == 0


CONTROLLED = """new Promise((resolve) => {
    if (navigator.serviceWorker.controller) resolve(true);
    else navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
})"""
"""Resolves once the site's service worker controls the page (it registers once the app is on screen)."""


@pytest.fixture(scope="module")
def site(static_site: Path) -> Path:
    return static_site


def test_a_phone_opens_the_static_build_from_the_server_and_reaches_the_hub_on_the_same_origin(
    chromium: Any, tmp_path: Path, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The static build at /app/ under the server's own security headers (its policy, its service worker in
    the sub-folder), and the hub answering that page's fetch with the device's token: no cross-origin request."""
    monkeypatch.setenv(STATIC_ENV, str(site))
    data = tmp_path / "data"
    data.mkdir()
    dav_hub.switch(data, True)
    token, _ = owners.devices_of(data).add("phone")
    with served(data) as url, browser_tabs(chromium, url + "app/") as tab:
        phone = tab("sync-hub-static-app", PHONE, owner=False)
        errors: list[str] = []
        phone.page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        phone.open("/", ready="new-game")
        # a promise the page resolves, not a polled text: the server's security policy evaluates no string
        phone.page.evaluate(CONTROLLED)
        status = phone.page.evaluate(
            """async (token) => (await fetch('/sync/', {method: 'PROPFIND',
                 headers: {Authorization: 'Bearer ' + token, Depth: '1'}})).status""",
            token,
        )
        assert status == 207
        assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / "sync-hub-static-app-phone.png").write_bytes(phone.still())
