"""The owner's Settings end with "About" and the release that runs, in a real browser at phone size; a member's
do not. Screenshot: tests/browser/output/release-settings-about-phone.png."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import OUTPUT, PHONE, UI, browser_tabs, served

from scorekeeper.release import VERSION

pytestmark = pytest.mark.browser


@pytest.fixture
def tabs(chromium: Any, tmp_path: Path) -> Iterator[Callable[..., UI]]:
    data = tmp_path / "data"
    data.mkdir()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        yield tab


def test_the_owner_reads_the_version_at_the_bottom_of_settings(tabs: Callable[..., UI]) -> None:
    ui = tabs("release", PHONE)
    ui.open("/settings", ready="language-en")
    line = f"Scorekeeper version {VERSION}"
    ui.wait("app-version", timeout=30_000)
    ui.page.get_by_text(line).first.scroll_into_view_if_needed()  # the last line of a long screen
    ui.wait_text(line)
    ui.page.wait_for_timeout(500)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "release-settings-about-phone.png").write_bytes(ui.still())
    about = ui.page.get_by_text("About", exact=True).first.bounding_box()
    version = ui.page.get_by_text(line).first.bounding_box()
    assert about is not None and version is not None and about["y"] < version["y"]  # under its heading

    guest = tabs("release-guest", PHONE, owner=False)
    guest.open("/settings", ready="language-en")
    assert VERSION not in guest.all_text()
