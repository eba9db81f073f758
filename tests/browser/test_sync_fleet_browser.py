"""The fleet in Settings, in a real browser at phone size: the devices seen on the sync target with their app
versions and last syncs, a phone of a version before 1.0.0 marked for an update, and its deletion of a game
held as a conflict with a sentence that names it. Screenshots: tests/browser/output/sync-fleet-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import OUTPUT, PHONE, browser_tabs, served
from sync_support import as_before_1_0
from test_store_support import new_match

from scorekeeper.release import VERSION
from scorekeeper.server.sync_runtime import TARGET_KEY
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget

pytestmark = pytest.mark.browser


def test_settings_lists_the_devices_and_the_old_phones_delete_waits(chromium, tmp_path: Path) -> None:
    folder = tmp_path / "target"
    folder.mkdir()
    target = FolderTarget(folder)
    data = tmp_path / "data"
    here = Store.open(data)
    kept = here.save_match(new_match(here, rounds=2, seed=1))
    here.save_match(new_match(here, rounds=1, seed=2))
    here.update_settings({TARGET_KEY: {"address": str(folder), "user": ""}})
    sync_once(here, target)
    old = Store.open(tmp_path / "old-phone")
    sync_once(old, target)
    old.delete_match(kept.id)
    sync_once(old, target)
    as_before_1_0(folder, old)
    old.close()
    laptop = Store.open(tmp_path / "laptop")
    laptop.save_match(new_match(laptop, rounds=1, seed=3))
    sync_once(laptop, target)
    laptop.close()
    here.close()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("sync-fleet", PHONE)
        ui.open("/settings", ready="sync-section")
        for _ in range(300):  # the sync at the app's start: until its outcome and the devices are listed
            text = ui.all_text()
            if "needs an update of the app" in text and "from before 1.0.0 and" in text:
                break
            ui.page.wait_for_timeout(100)
        text = ui.all_text()
        assert "needs an update of the app" in text, ui.diagnosis()
        assert "a version before 1.0.0" in text and f"{VERSION}, last synced" in text  # the laptop: today's
        assert "from before 1.0.0 and deleted" in text
        ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
        ui.page.mouse.wheel(0, 5000)
        ui.page.wait_for_timeout(1000)
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / "sync-fleet-settings-phone.png").write_bytes(ui.still())
    reopened = Store.open(data)
    try:
        assert reopened.get_match(kept.id) is not None
        assert [c.match_id for c in reopened.conflicts()] == [kept.id]
    finally:
        reopened.close()
