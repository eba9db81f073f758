"""Import in a real browser through the upload route: the picked file is PUT over HTTP (not inside a websocket
frame), imported from disk and deleted; a file over the limit gets the message before a byte is sent. The limit is
lowered to 0.1 MB for the test (SCOREKEEPER_MAX_IMPORT_MB), so a file of 0.2 MB shows the refusal; the full-size
case (a 250 MB export) was measured by hand. Screenshots: tests/browser/output/upload-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from steps import other_device_export, phone_on

from scorekeeper.bench.store import export_text
from scorekeeper.server.uploads import FOLDER_NAME, LIMIT_ENV
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


def test_import_goes_over_http_and_a_file_too_big_is_refused_before_sending(
    chromium: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, "0.1")  # the served app inherits it
    export = other_device_export(tmp_path / "other")
    big = tmp_path / "big.json"
    big.write_text(export_text(300), encoding="utf-8")  # a valid export of 300 games, about 0.16 MB
    data = tmp_path / "data"
    with phone_on(chromium, data, lambda _: None, "upload") as (ui, _):
        sent: list[str] = []
        ui.page.on("request", lambda request: "/upload" in request.url and sent.append(request.method))
        ui.open("/settings", ready="import-file")
        with ui.page.expect_file_chooser(timeout=15_000) as chooser:
            ui.tap("import-file")
        chooser.value.set_files(str(export))
        ui.wait_text("Imported: 1 new game, 0 updated, 0 already here, 2 new players.", timeout=30_000)
        assert sent == ["PUT"]  # the file went over HTTP
        assert list((data / FOLDER_NAME).iterdir()) == []  # and was deleted after the import
        ui.shot("settings-imported")

        # The button still works after the redraw from the import's worker thread.
        with ui.page.expect_file_chooser(timeout=15_000) as chooser:
            ui.tap("import-file")
        chooser.value.set_files(str(big))
        ui.wait_text("This file is too big to import here (0.2 MB; at most 0.1 MB). Nothing was changed.")
        assert sent == ["PUT"]  # nothing was sent for the big file
        ui.shot("settings-too-big")
        ui.open("/history", ready="history-game-all")
        ui.wait_text("Won by Eve")
    with Store.open(data) as store:
        assert len(store.list_matches()) == 1  # the big file's 300 games are not there
