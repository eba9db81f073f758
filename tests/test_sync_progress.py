"""A sync's progress counts what it writes as well as what it reads (a first sync of a big store is mostly
writing), and a device's first sync proves the target is there (a mistyped address fails at once, even with
nothing to send)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sync_servers import DavServer
from sync_support import Devices
from test_store_support import new_match

from scorekeeper.store import Store
from scorekeeper.sync import cli, remote
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.target import SyncError


def test_a_first_sync_that_writes_much_counts_each_part_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote, "CHUNK_ENTRIES", 2)
    devices = Devices(tmp_path, 2)
    a, b = devices.stores
    for seed in range(5):
        a.save_match(new_match(a, rounds=1, seed=seed))
    told: list[tuple[int, int]] = []
    try:
        sync_once(a, devices.target, lambda done, total: told.append((done, total)))
        # 5 matches and 3 players: 8 entries in 4 parts, then the head
        assert told[-1][0] == told[-1][1] == 5
        assert [done for done, _ in told] == [1, 2, 3, 4, 5]
        told.clear()
        sync_once(b, devices.target, lambda done, total: told.append((done, total)))
        # the other device reads those 4 parts, each a step
        assert told[-1] == (5, 5) and {done for done, _ in told} == {1, 2, 3, 4, 5}
        assert [done for done, _ in told] == sorted(done for done, _ in told)
        assert len(b.list_matches()) == 5
    finally:
        devices.close()


def test_a_first_sync_to_a_missing_folder_fails_even_with_nothing_to_send(tmp_path: Path) -> None:
    with Store.open(tmp_path / "data") as store, pytest.raises(SyncError) as failed:
        sync_once(store, FolderTarget(tmp_path / "not-there"))
    assert failed.value.problem == "not_found"


def test_the_command_line_fails_for_a_mistyped_webdav_folder(
    tmp_path: Path, webdav_server: DavServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cli.ENV_USER, webdav_server.user)
    monkeypatch.setenv(cli.ENV_PASSWORD, webdav_server.password)
    err = io.StringIO()
    assert cli.run(tmp_path / "data", f"{webdav_server.url}snyc", io.StringIO(), err) == 1
    (line,) = err.getvalue().strip().splitlines()
    assert line.startswith("sync failed: ") and "not found" in line
    assert cli.run(tmp_path / "data", f"{webdav_server.url}sync", io.StringIO(), io.StringIO()) == 0
