"""`python main.py sync --to https://...` against the real WebDAV server: the user and password come from the
environment, a sync says what it brought, a wrong password fails in one line that never shows the password."""

from __future__ import annotations

from pathlib import Path

import pytest
from sync_servers import PASSWORD, DavServer
from sync_support import cli_sync
from test_store_support import new_match

from scorekeeper.store import Store

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # three runs of main.py (several seconds each on a loaded machine)
def test_the_command_line_syncs_through_webdav(webdav_server: DavServer, tmp_path: Path) -> None:
    url = f"{webdav_server.url}sync"
    with Store.open(tmp_path / "a") as store:
        store.save_match(new_match(store, rounds=2))
    done = cli_sync(tmp_path / "a", url, PASSWORD)
    note = "127.0.0.1 is new to this device: sending all 1 game.\n"
    assert (done.returncode, done.stdout) == (0, note + "sync finished: Nothing new\n"), done.stderr
    done = cli_sync(tmp_path / "b", url, PASSWORD)
    assert (done.returncode, done.stdout) == (0, "sync finished: 1 new game\n"), done.stderr
    failed = cli_sync(tmp_path / "b", url, "wrong-Pässword")
    assert failed.returncode == 1 and failed.stdout == ""
    assert failed.stderr.strip().splitlines()[-1] == (
        "sync failed: The server 127.0.0.1 refused the user name or password."
    )
    assert "wrong-Pässword" not in failed.stderr and PASSWORD not in done.stderr + done.stdout
