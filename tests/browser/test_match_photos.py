"""Photos on a scoreboard in a real browser at phone size: "Add photo" opens the file chooser (images), the photo
goes to the host through the upload route, is scaled there and shows as a thumbnail; a tap shows it full size,
Delete takes it off the match; the export screen says the photo files are not in an export. Screenshots: tests/browser/output/photos-*.png."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from steps import phone_on
from test_store_support import new_match

from scorekeeper.server.uploads import FOLDER_NAME
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


def seed(data: Path) -> str:
    with Store.open(data) as store:
        return store.save_match(new_match(store, rounds=2)).id


def test_a_photo_is_added_through_the_file_chooser_and_shown_full_size(chromium: Any, tmp_path: Path) -> None:
    picture = tmp_path / "evening.jpg"
    image = Image.new("RGB", (3200, 2400), (30, 120, 200))
    image.paste((240, 200, 40), (0, 0, 1600, 2400))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95)
    picture.write_bytes(out.getvalue())
    data = tmp_path / "data"
    with phone_on(chromium, data, seed, "photos") as (ui, match_id):
        sent: list[str] = []
        ui.page.on("request", lambda request: "/upload" in request.url and sent.append(request.method))
        ui.open(f"/match/{match_id}", ready="photo-add")
        with ui.page.expect_file_chooser(timeout=15_000) as chooser:
            ui.tap("photo-add")
        assert "image" in (chooser.value.element.get_attribute("accept") or "")
        chooser.value.set_files(str(picture))
        ui.wait("photo-0", timeout=30_000)
        assert sent == ["PUT"]  # the photo went over HTTP, not inside a websocket frame
        assert list((data / FOLDER_NAME).iterdir()) == []  # the upload was deleted once stored
        ui.shot("photos-scoreboard")
        ui.tap("photo-0")
        ui.wait("photo-full")
        ui.shot("photos-full")
        ui.tap("photo-delete")
        ui.wait_text("Photo deleted. Undo brings it back.")
        # The export says that the photo files are not in it.
        ui.open("/settings", ready="export-photos-note")
        ui.node("export-photos-note").scroll_into_view_if_needed()
        ui.shot("photos-export-note")
    with Store.open(data) as store:
        match = store.get_match(match_id)
        assert match is not None and match.photos == []
        (photo_id,) = store.photos.ids()  # the file stays for undo
        stored = Image.open(io.BytesIO(store.photos.image(photo_id) or b""))
        assert stored.size == (1600, 1200)
