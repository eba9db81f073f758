"""Settings, Sync, in process: owner only, the target saved without its password, Test connection against the
real WebDAV server in the player's words, what the last sync brought, progress."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sync_servers import DavServer
from test_ui_core_harness import App

from scorekeeper.exchange.transfer import export_json_text
from scorekeeper.server import sync_runtime as rt
from scorekeeper.sync import credentials
from scorekeeper.sync.report import SyncReport, resend_note
from scorekeeper.ui.views.settings import sync as settings_sync


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv(credentials.ENV_CONFIG, str(tmp_path / "config"))
    credentials.reset()
    app = App(tmp_path / "data", width=1024)
    yield app
    rt.forget(app.store)
    credentials.reset()


def files_holding(folder: Path, secret: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def wait_for(condition, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_section_is_the_owners(app: App) -> None:
    app.go("/settings")
    assert app.has("sync-section")
    app.ctx.guest = True
    app.go("/settings")
    assert not app.has("sync-section")


def test_a_webdav_target_is_saved_without_its_password(app: App, tmp_path: Path) -> None:
    app.go("/settings")
    app.type_text("sync-address", "https://cloud.example.org/remote.php/dav/files/anna/scorekeeper")
    app.type_text("sync-user", "anna")
    app.type_text("sync-password", "app-pass-1234")
    app.tap("sync-save")
    assert app.store.settings()[rt.TARGET_KEY] == {
        "address": "https://cloud.example.org/remote.php/dav/files/anna/scorekeeper",
        "user": "anna",
    }
    vault = credentials.vault()
    assert (
        vault.get("https://cloud.example.org/remote.php/dav/files/anna/scorekeeper", "anna")
        == "app-pass-1234"
    )
    assert files_holding(tmp_path / "data", "app-pass-1234") == []
    assert app.has("sync-now") and app.has("sync-off")
    assert export_json_text(app.store).find("app-pass-1234") == -1
    app.tap("sync-off")
    assert app.store.settings().get(rt.TARGET_KEY) is None
    assert vault.get("https://cloud.example.org/remote.php/dav/files/anna/scorekeeper", "anna") is None


def test_a_webdav_target_needs_a_user_and_a_password(app: App) -> None:
    app.go("/settings")
    app.type_text("sync-address", "https://cloud.example.org/dav")
    app.tap("sync-save")
    assert "Enter the user name for https://cloud.example.org/dav." in app.screen_text()
    app.type_text("sync-user", "anna")
    app.tap("sync-save")
    assert rt.TARGET_KEY not in app.store.settings() or app.store.settings()[rt.TARGET_KEY] is None


def test_a_folder_target_needs_no_user(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "Sync"
    folder.mkdir()
    app.go("/settings")
    app.type_text("sync-address", str(folder))
    app.tap("sync-save")
    assert app.store.settings()[rt.TARGET_KEY] == {"address": str(folder), "user": ""}


def test_turning_sync_on_says_so_in_the_status_box_until_the_first_sync_has_finished(app: App) -> None:
    """Not in a snack bar: on a phone that covered the progress bar of the sync it announced."""
    form = settings_sync.form_of(app.ctx)
    form.started = True
    running = settings_sync.status_rows(app.ctx, rt.SyncStatus(running=True, done=1, total=4), started=True)
    assert [row.identifier for row in running] == ["sync-started", "sync-progress"]
    assert running[0].content.value == "Sync is on. The first sync starts now."
    done = SyncReport(new=1, finished="2026-11-26T14:00:00+00:00")
    finished = settings_sync.status_rows(app.ctx, rt.SyncStatus(report=done), started=True)
    assert [row.identifier for row in finished] == ["sync-last"]


def test_a_target_saved_on_the_screen_shows_that_sync_is_on_without_a_snack_bar(
    app: App, tmp_path: Path
) -> None:
    folder = tmp_path / "Sync"
    folder.mkdir()
    app.go("/settings")
    app.type_text("sync-address", str(folder))
    app.tap("sync-save")
    assert app.has("sync-started") or app.has("sync-last")  # (the first sync of an empty folder is quick)
    assert not [c for c in app.page._dialogs.controls if getattr(c, "open", False)]


def answer_after_test(app: App) -> str:
    form = settings_sync.form_of(app.ctx)
    form.tested = None
    app.tap("sync-test")
    wait_for(lambda: form.tested is not None)
    return settings_sync.tested_text(app.ctx, form)[0]


def test_test_connection_answers_in_words(app: App, webdav_server: DavServer, tmp_path: Path) -> None:
    app.go("/settings")
    app.type_text("sync-address", f"{webdav_server.url}sync")
    app.type_text("sync-user", webdav_server.user)
    app.type_text("sync-password", "wrong")
    assert "refused the user name or password" in answer_after_test(app)
    app.type_text("sync-password", webdav_server.password)
    assert answer_after_test(app) == "The connection works."
    app.tap("sync-save")  # saved: a test without typing checks the saved target with its kept password
    form = settings_sync.form_of(app.ctx)
    assert form.address is None and form.password == ""
    assert answer_after_test(app) == "The connection works."
    app.type_text("sync-address", f"{webdav_server.url}ro")
    app.type_text("sync-password", webdav_server.password)  # kept per address: another one needs it typed
    assert "can be read but not written to" in answer_after_test(app)
    app.type_text("sync-address", str(tmp_path / "no such folder"))
    assert "was not found" in answer_after_test(app)


def test_what_the_last_sync_brought(app: App) -> None:
    report = SyncReport(new=3, changed=1, finished="2026-11-26T14:00:00+00:00")
    assert settings_sync.brought_text(app.ctx, report) == "3 new games, 1 changed"
    assert settings_sync.brought_text(app.ctx, SyncReport()) == "Nothing new"
    (line,) = settings_sync.status_rows(app.ctx, rt.SyncStatus(report=report))
    assert "3 new games, 1 changed" in line.content.value
    app.ctx.update_settings(language="de")
    assert settings_sync.brought_text(app.ctx, report) == "3 neue Spiele, 1 geändert"
    others = SyncReport(players=2, digital=1)
    assert (
        settings_sync.brought_text(app.ctx, others)
        == "2 Spieler aktualisiert, 1 laufendes Spiel aktualisiert"
    )
    app.ctx.update_settings(language="en")
    assert settings_sync.brought_text(app.ctx, others) == "2 players updated, 1 game in progress updated"


def test_why_a_sync_sent_everything_is_shown_in_the_players_language(app: App) -> None:
    report = SyncReport(sent=9, finished="2026-11-26T14:00:00+00:00")
    report.notes.append(resend_note("new", "cloud.example.org", 1204))
    rows = settings_sync.status_rows(app.ctx, rt.SyncStatus(report=report))
    assert [row.content.value for row in rows][1] == (
        "cloud.example.org is new to this device: sending all 1204 games."
    )
    app.ctx.update_settings(language="de")
    report.notes[:] = [resend_note("emptied", "/sync", 1)]
    rows = settings_sync.status_rows(app.ctx, rt.SyncStatus(report=report))
    assert rows[1].content.value == "/sync wurde geleert: 1 Spiel wird erneut gesendet."
    app.ctx.update_settings(language="en")


def test_progress_while_a_sync_runs(app: App) -> None:
    rows = settings_sync.status_rows(app.ctx, rt.SyncStatus(running=True, done=40, total=200))
    (progress,) = rows
    assert progress.identifier == "sync-progress"


def test_the_runner_tells_the_screens_what_a_sync_brought(tmp_path: Path) -> None:
    """The app's runner (started by the settings) syncs at once; a match it brings redraws the screens showing
    that match (its topic), the lists (sync:changed) and Settings (sync)."""
    from types import SimpleNamespace

    from test_store_support import new_match

    from scorekeeper.store import Store
    from scorekeeper.sync.engine import sync_once
    from scorekeeper.sync.folder import FolderTarget

    folder = tmp_path / "shared"
    folder.mkdir()
    with Store.open(tmp_path / "other") as other:
        brought = other.save_match(new_match(other, rounds=1))
        sync_once(other, FolderTarget(folder))
    store = Store.open(tmp_path / "this")
    app = rt.AppSync(store)
    sent: list[str] = []
    app.remember(SimpleNamespace(send_all_on_topic=lambda topic, _message: sent.append(topic)))
    try:
        app.apply({rt.TARGET_KEY: {"address": str(folder), "user": ""}})
        wait_for(lambda: app.status.report is not None)
        assert app.status.report is not None and app.status.report.new == 1
        assert app.status.news is app.status.report
        wait_for(lambda: rt.CHANGED_TOPIC in sent)
        assert f"match:{brought.id}" in sent and rt.TOPIC in sent
        app.apply({})  # no target: the runner stops
        assert app.runner is None
    finally:
        app.stop()
        store.close()


def test_settings_show_the_last_sync_after_a_restart(tmp_path: Path) -> None:
    """When the last sync finished and what it brought are kept (sync/last.json in the data folder), so a
    restarted app shows them before its first sync ends (offline, say)."""
    from test_store_support import new_match

    from scorekeeper.store import Store
    from scorekeeper.sync.engine import sync_once
    from scorekeeper.sync.folder import FolderTarget

    folder = tmp_path / "shared"
    folder.mkdir()
    with Store.open(tmp_path / "other") as other:
        other.save_match(new_match(other, rounds=1))
        sync_once(other, FolderTarget(folder))
    setting = {rt.TARGET_KEY: {"address": str(folder), "user": ""}}
    with Store.open(tmp_path / "this") as store:
        app = rt.AppSync(store)
        try:
            app.apply(setting)
            wait_for(lambda: app.status.report is not None)
            report = app.status.report
        finally:
            app.stop()
    assert report is not None and report.new == 1
    with Store.open(tmp_path / "this") as store:
        again = rt.AppSync(store)  # a new start of the app
        assert again.status.report is not None and again.status.report.finished == report.finished
        assert again.status.news is not None and again.status.news.new == 1
        folder.rename(tmp_path / "unplugged")  # the first sync of this run fails: what the last one saw stays
        try:
            again.apply(setting)
            wait_for(lambda: again.status.error is not None)
            assert again.status.news is not None and again.status.news.new == 1
        finally:
            again.stop()


def test_a_damaged_last_sync_file_is_ignored(tmp_path: Path) -> None:
    from scorekeeper.store import Store

    with Store.open(tmp_path / "data") as store:
        (tmp_path / "data" / "sync").mkdir(exist_ok=True)
        for content in (b"{not json", b"[]", b'{"report": {"new": -1, "finished": "x"}}', b'{"news": 3}'):
            (tmp_path / "data" / "sync" / rt.LAST_FILE).write_bytes(content)
            assert rt.last_known(store) == (None, None)


def test_a_last_sync_file_kept_by_an_earlier_version_still_reads(tmp_path: Path) -> None:
    """Before players and games in progress were counted, the file had only the match counts."""
    from scorekeeper.store import Store

    earlier = {
        "new": 2,
        "changed": 1,
        "deleted": 0,
        "conflicts": 0,
        "sent": 4,
        "finished": "2026-11-20T10:00:00",
    }
    with Store.open(tmp_path / "data") as store:
        (tmp_path / "data" / "sync").mkdir(exist_ok=True)
        (tmp_path / "data" / "sync" / rt.LAST_FILE).write_text(
            json.dumps({"report": earlier, "news": earlier})
        )
        report, news = rt.last_known(store)
    assert report == news == SyncReport(new=2, changed=1, sent=4, finished="2026-11-20T10:00:00")
