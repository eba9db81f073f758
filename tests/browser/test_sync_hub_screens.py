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
from test_sync_screens import scroll_to_bottom, wait_in

from scorekeeper.server import dav_hub
from scorekeeper.server import owner_devices as owners

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
        ui.tap("hub-switch")
        wait_in(ui, "hub-off", "nobody")
        assert propfind(url, phone_token) == 404

        visitor = tab("sync-hub-visitor", PHONE, owner=False)
        visitor.open("/settings", ready="language-en")
        scroll_to_bottom(visitor)
        assert visitor.page.locator("[flt-semantics-identifier=hub-section]").count() == 0
