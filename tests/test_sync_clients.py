"""The WebDAV client of the app's sync against the real WsgiDAV server: one client for many syncs (its
connections are kept and reused), and every client the app makes is closed once it is no longer used (the
target changed, sync stopped, a connection test, a command-line sync): no sockets leak over a long session."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sync_servers import DavServer

from scorekeeper.server import sync_runtime as rt
from scorekeeper.store import Store
from scorekeeper.sync import cli, credentials, targets
from scorekeeper.sync.webdav import WebDavTarget


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[WebDavTarget]]:
    """Every WebDAV target the app makes, to look at its httpx client afterwards."""
    monkeypatch.setenv(credentials.ENV_CONFIG, str(tmp_path / "config"))
    credentials.reset()
    found: list[WebDavTarget] = []
    real = targets.target_from

    def counting(*args: Any, **kwargs: Any) -> Any:
        target = real(*args, **kwargs)
        if isinstance(target, WebDavTarget):
            found.append(target)
        return target

    monkeypatch.setattr(targets, "target_from", counting)
    yield found
    credentials.reset()


def _synced(app: rt.AppSync, times: int) -> None:
    """Sync `times` times through the app's runner, each one to its end."""
    finished = threading.Event()
    assert app.runner is not None
    app.runner.add_listener(lambda status: None if status.running else finished.set())
    for _ in range(times):
        finished.clear()
        app.sync_now()
        assert finished.wait(30)
        assert app.status.error is None, app.status.error


def _setting(server: DavServer) -> dict[str, Any]:
    return {rt.TARGET_KEY: {"address": f"{server.url}sync", "user": server.user}}


@contextmanager
def syncing(tmp_path: Path, server: DavServer) -> Iterator[rt.AppSync]:
    """An app's sync to `server` (its password in the vault), stopped and its store closed at the end."""
    credentials.vault().set(f"{server.url}sync", server.user, server.password)
    store = Store.open(tmp_path / "data")
    app = rt.AppSync(store)
    try:
        app.apply(_setting(server))
        yield app
    finally:
        app.stop()
        store.close()


def test_one_client_for_many_syncs_closed_when_sync_stops(
    tmp_path: Path, webdav_server: DavServer, made: list[WebDavTarget]
) -> None:
    with syncing(tmp_path, webdav_server) as app:
        _synced(app, 5)
        assert len(made) == 1  # reused: one client, its connections kept open between syncs
        assert not made[0]._client.is_closed
        app.apply(_setting(webdav_server), renew=True)  # saved again (a new password): a new client
        _synced(app, 2)
        assert len(made) == 2
        assert made[0]._client.is_closed  # the replaced one, closed once its sync was over
        app.apply({})  # sync turned off
        assert all(target._client.is_closed for target in made)


def test_stop_closes_the_client(tmp_path: Path, webdav_server: DavServer, made: list[WebDavTarget]) -> None:
    with syncing(tmp_path, webdav_server) as app:
        _synced(app, 1)
    assert made and all(target._client.is_closed for target in made)


def test_a_connection_test_closes_its_client(webdav_server: DavServer, made: list[WebDavTarget]) -> None:
    setting = rt.TargetSetting(f"{webdav_server.url}sync", webdav_server.user)
    assert rt.check_target(setting, webdav_server.password) is None
    assert rt.check_target(setting, "wrong") is not None
    assert len(made) == 2 and all(target._client.is_closed for target in made)


def test_a_command_line_sync_closes_its_client(
    tmp_path: Path, webdav_server: DavServer, made: list[WebDavTarget], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cli.ENV_USER, webdav_server.user)
    monkeypatch.setenv(cli.ENV_PASSWORD, webdav_server.password)
    monkeypatch.setattr(cli, "target_from", targets.target_from)

    assert cli.run(tmp_path / "data", f"{webdav_server.url}sync", io.StringIO(), io.StringIO()) == 0
    monkeypatch.setenv(cli.ENV_PASSWORD, "wrong")
    assert cli.run(tmp_path / "data", f"{webdav_server.url}sync", io.StringIO(), io.StringIO()) == 1
    assert len(made) == 2 and all(target._client.is_closed for target in made)
