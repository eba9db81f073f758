"""Import in a browser without the websocket: the file is sent over HTTP (Flet's upload route behind our gate) and
imported from disk; a file over the limit is refused before anything is sent. In process: the settings screen in
the UI harness, the server's ASGI app under Starlette's test client standing in for the browser's PUT."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import flet as ft
import pytest
from starlette.testclient import TestClient
from test_history_stats_data import seed_store
from test_ui_core_harness import App

from scorekeeper.exchange.transfer import export_json_text
from scorekeeper.server import uploads
from scorekeeper.server.web import build_app
from scorekeeper.store import Store
from scorekeeper.ui.views.settings import transfer
from scorekeeper.ui.views.settings import upload as settings_upload
from tests.run_alone import run_alone

ASSETS = str(Path(__file__).resolve().parents[1] / "assets")


class UploadPicker:
    """Stands in for the FilePicker service in a browser: records what it was asked to upload."""

    def __init__(self) -> None:
        self.uploads: list[ft.FilePickerUploadFile] = []

    async def upload(self, files: list[ft.FilePickerUploadFile]) -> None:
        self.uploads.extend(files)


@pytest.fixture
def export(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Another device's export: 4 games, 3 players."""
    with Store.open(tmp_path_factory.mktemp("source")) as store:
        seed_store(store)
        return export_json_text(store).encode("utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[uploads.Uploads]:
    """This process's uploads, as `run(web=True)` sets them up."""
    made = uploads.Uploads(tmp_path / "data" / uploads.FOLDER_NAME)
    made.prepare()
    uploads.use(made)
    yield made
    uploads.use(None)


@pytest.fixture
def browser(tmp_path: Path, folder: uploads.Uploads, monkeypatch: pytest.MonkeyPatch) -> App:
    """The host's settings screen in a browser session of a server with uploads. Its worker thread runs inline."""
    from flet_web.uploads import build_upload_url

    app = session(App(tmp_path / "data"))
    app.page.web = True
    monkeypatch.setattr(
        app.connection,
        "get_upload_url",
        lambda name, expires: build_upload_url("/upload", name, expires, folder.secret),
        raising=False,
    )
    monkeypatch.setattr(settings_upload, "in_background", lambda ctx, work, *args: work(*args))
    app.go("/settings")
    return app


def session(app: App) -> App:
    """Make `app` the session Flet's controls register with (as an event of its browser would): services such
    as the FilePicker attach to that page, and a page of an earlier test is gone."""
    from flet.controls.context import _context_page

    _context_page.set(app.page)
    return app


def picked(name: str, size: int) -> SimpleNamespace:
    """What the browser reports for a file picked without its data."""
    return SimpleNamespace(id=0, name=name, size=size, path=None, bytes=None)


def progress(app: App, name: str, value: float | None, error: str | None = None) -> None:
    settings_upload.on_upload(app.ctx, SimpleNamespace(file_name=name, progress=value, error=error))


def result(app: App) -> str:
    return str(app.find("import-result").value)


def put(client: TestClient, url: str, body: bytes, **headers: str) -> int:
    return client.put(url, content=body, headers=headers).status_code


def test_the_import_button_picks_without_the_data_where_the_file_can_travel_otherwise(
    browser: App, tmp_path: Path
) -> None:
    """A browser served with uploads and a desktop read no bytes into the pick (over the websocket they would
    close it when big); a browser without uploads (`flet run`) and a phone app still do."""
    action = browser.find("import-file").action
    assert isinstance(action, ft.PickFiles) and action.with_data is False
    uploads.use(None)
    browser.go("/")
    browser.go("/settings")
    assert browser.find("import-file").action.with_data is True
    desktop = session(App(tmp_path / "desktop"))
    desktop.page.web = False
    desktop.go("/settings")
    assert desktop.find("import-file").action.with_data is False


def test_a_browser_import_goes_over_http_then_is_imported_from_disk_and_deleted(
    browser: App, folder: uploads.Uploads, export: bytes
) -> None:
    picker = UploadPicker()
    run_alone(transfer.on_picked(browser.ctx, picker, [picked("games.json", len(export))]))
    (sent,) = picker.uploads
    assert sent.id == 0 and sent.method == "PUT"
    assert browser.has("import-progress")
    assert "Sending the file… 0 %" in browser.text()
    progress(browser, "games.json", 0.5)
    assert "Sending the file… 50 %" in browser.text()
    client = TestClient(build_app(lambda page: None, ASSETS, uploads=folder))
    assert put(client, sent.upload_url, export) == 200  # what the browser does: Flet's route writes the file
    (arrived,) = folder.folder.iterdir()
    assert arrived.read_bytes() == export
    assert put(client, sent.upload_url, b"{}") == 403  # the URL works once
    progress(browser, "games.json", 1.0)
    assert result(browser).startswith("Imported: 4 new games")
    assert len(browser.store.list_matches()) == 4
    assert not browser.has("import-progress")
    assert list(folder.folder.iterdir()) == []  # deleted after the import
    progress(browser, "games.json", 1.0)  # a late repeat of the last event does nothing
    assert len(browser.store.list_matches()) == 4


def test_a_file_over_the_limit_is_refused_before_anything_is_sent(
    browser: App, folder: uploads.Uploads, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(uploads.LIMIT_ENV, "1")  # 1 MB instead of the store's 200 MiB
    picker = UploadPicker()
    run_alone(transfer.on_picked(browser.ctx, picker, [picked("big.json", 2_450_001)]))
    assert (
        result(browser) == "This file is too big to import here (2.5 MB; at most 1 MB). Nothing was changed."
    )
    assert picker.uploads == [] and list(folder.folder.iterdir()) == []
    assert browser.store.list_matches() == []
    # The same on a desktop, before the file is read, and for bytes handed over by a phone.
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 1_000_001)
    transfer.handle_picked(browser.ctx, [SimpleNamespace(bytes=None, path=str(path), name="big.json")])
    assert result(browser).startswith("This file is too big to import here (1.1 MB; at most 1 MB).")
    transfer.handle_picked(browser.ctx, [SimpleNamespace(bytes=b" " * 1_000_001, path=None, name="big.json")])
    assert result(browser).startswith("This file is too big to import here")
    assert browser.store.list_matches() == []


def test_the_size_limit_is_the_stores_unless_lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.exchange.import_check import MAX_IMPORT_BYTES

    monkeypatch.delenv(uploads.LIMIT_ENV, raising=False)
    assert uploads.max_import_bytes() == MAX_IMPORT_BYTES
    assert uploads.too_big(MAX_IMPORT_BYTES) is None
    assert uploads.too_big(MAX_IMPORT_BYTES + 1) == (300.1, 300.0)  # MB, rounded apart
    monkeypatch.setenv(uploads.LIMIT_ENV, "0.1")
    assert uploads.max_import_bytes() == 100_000
    monkeypatch.setenv(uploads.LIMIT_ENV, "100000")  # raising is not possible: the store would refuse
    assert uploads.max_import_bytes() == MAX_IMPORT_BYTES
    monkeypatch.setenv(uploads.LIMIT_ENV, "lots")
    assert uploads.max_import_bytes() == MAX_IMPORT_BYTES


def test_a_browser_without_uploads_is_held_to_one_websocket_frame(tmp_path: Path) -> None:
    """Under `flet run --web` the file still travels in a frame, and a frame over 16 MiB would close the socket
    without a word: such a file is refused with the message instead."""
    app = App(tmp_path / "data")
    app.page.web = True
    app.go("/settings")
    run_alone(transfer.on_picked(app.ctx, UploadPicker(), [picked("big.json", 20_000_000)]))
    assert result(app) == "This file is too big to import here (20 MB; at most 15.7 MB). Nothing was changed."


def test_a_failed_upload_imports_nothing_and_leaves_nothing(
    browser: App, folder: uploads.Uploads, export: bytes
) -> None:
    picker = UploadPicker()
    run_alone(transfer.on_picked(browser.ctx, picker, [picked("games.json", len(export))]))
    (slot_file,) = [folder.folder / parse_qs(urlsplit(picker.uploads[0].upload_url).query)["f"][0]]
    slot_file.write_bytes(export[:100])  # what arrived before the connection broke
    progress(browser, "games.json", None, error="XMLHttpRequest error.")
    assert result(browser) == "The file could not be sent (XMLHttpRequest error.). Nothing was changed."
    assert not slot_file.exists() and browser.store.list_matches() == []
    assert not browser.has("import-progress")


def test_a_file_that_arrived_cut_off_is_not_imported(
    browser: App, folder: uploads.Uploads, export: bytes
) -> None:
    picker = UploadPicker()
    run_alone(transfer.on_picked(browser.ctx, picker, [picked("games.json", len(export))]))
    name = parse_qs(urlsplit(picker.uploads[0].upload_url).query)["f"][0]
    (folder.folder / name).write_bytes(export[: len(export) // 2])
    progress(browser, "games.json", 1.0)
    assert result(browser) == "The file did not arrive completely. Nothing was changed."
    assert list(folder.folder.iterdir()) == [] and browser.store.list_matches() == []


def test_a_guest_gets_no_upload_url(browser: App, folder: uploads.Uploads) -> None:
    """The settings screen is host-only; should a guest's session reach the upload anyway, it gets no URL."""
    browser.ctx.guest = True
    picker = UploadPicker()
    run_alone(settings_upload.start(browser.ctx, picker, picked("games.json", 10)))
    assert picker.uploads == [] and list(folder.folder.iterdir()) == []
    assert folder.claim("anything.json", 10) == 403


def test_the_upload_route_takes_only_announced_files(tmp_path: Path, folder: uploads.Uploads) -> None:
    """Flet's route writes a signed URL's file; the gate in front also wants an upload the app announced, of at
    most its size, from the app's own origin, once. The folder is never served back."""
    from flet_web.uploads import build_upload_url

    client = TestClient(build_app(lambda page: None, ASSETS, uploads=folder))
    slot = folder.issue(5)
    url = build_upload_url("/upload", slot.name, 60, folder.secret)
    assert put(client, url, b"123456") == 413  # more than announced
    assert put(client, url, b"12345", origin="http://evil.example") == 403
    assert (
        put(client, build_upload_url("/upload", "other.json", 60, folder.secret), b"1") == 403
    )  # not announced
    forged = folder.issue(5)
    assert (
        put(client, build_upload_url("/upload", forged.name, 60, "not the secret"), b"12345") == 403
    )  # Flet's
    assert put(client, url, b"12345") == 200
    assert (folder.folder / slot.name).read_bytes() == b"12345"
    assert put(client, url, b"12345") == 403  # used up
    assert client.get(url).status_code == 405
    for path in (f"/{uploads.FOLDER_NAME}/{slot.name}", f"/upload/{slot.name}", f"/{slot.name}"):
        assert b"12345" not in client.get(path).content
    assert oct(folder.folder.stat().st_mode & 0o777) == "0o700"


def test_the_folder_is_emptied_at_start(tmp_path: Path) -> None:
    made = uploads.Uploads(tmp_path / uploads.FOLDER_NAME)
    made.folder.mkdir(parents=True)
    (made.folder / "left-behind.json").write_text(json.dumps({"half": True}))
    made.prepare()
    assert list(made.folder.iterdir()) == []


def test_uploads_run_only_with_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`run(web=True)` sets uploads up in the data folder; a desktop window has none."""
    from scorekeeper.ui import app as app_module

    served: list[Any] = []
    monkeypatch.setattr("scorekeeper.server.web.serve", lambda *a, **k: served.append(k))
    for name, value in (
        ("FLET_FORCE_WEB_SERVER", "1"),
        ("FLET_WEB_NO_CDN", "1"),
        ("SCOREKEEPER_TABLE_URL", "x"),
    ):
        monkeypatch.setenv(name, value)  # run() sets these when missing; restored after the test
    try:
        app_module.run(web=True, host="127.0.0.1", port=1, data_dir=str(tmp_path))
        (options,) = served
        assert options["uploads"].folder == tmp_path / uploads.FOLDER_NAME
        assert uploads.active() is options["uploads"]
    finally:
        uploads.use(None)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Diese Datei ist zu groß, um sie hier zu importieren (2,5 MB; höchstens 1 MB)."),
        ("nl", "Dit bestand is te groot om hier te importeren (2,5 MB; hoogstens 1 MB)."),
        ("fr", "Ce fichier est trop volumineux pour être importé ici (2,5 Mo\u00a0; au plus 1 Mo)."),
    ],
)
def test_the_refusal_in_each_language(
    browser: App, monkeypatch: pytest.MonkeyPatch, language: str, expected: str
) -> None:
    monkeypatch.setenv(uploads.LIMIT_ENV, "1")
    browser.ctx.update_settings(language=language)
    browser.go("/settings")
    run_alone(transfer.on_picked(browser.ctx, UploadPicker(), [picked("big.json", 2_450_001)]))
    assert result(browser).startswith(expected)
