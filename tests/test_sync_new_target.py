"""A target that knows itself (issue 41): what a device sent is kept per target identity, so a new, other or
emptied target gets everything the device holds, a remote that lost files is repaired from the devices that
still have them, and the report says so in a sentence.

The old data folder (tests/fixtures/sync_old_state) was made by the version before target identities: a
device with 3 games synced once to a folder (its `sync/state.json` has no "targets")."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import httpx
import pytest
from sync_servers import PASSWORD, USER, DavServer, rclone_server
from sync_support import Devices, a_round, cli_sync, game

from scorekeeper.store import Store
from scorekeeper.sync import identity
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = Path(__file__).parent / "fixtures" / "sync_old_state"


def device_of(data: Path) -> str:
    return json.loads((data / "sync" / "device.json").read_bytes())["device"]


def ids(data: Path) -> set[str]:
    with Store.open(data) as store:
        return {s.id for s in store.list_matches()}


def remake(server: DavServer) -> None:
    """Delete the server's sync folder and make it again, through WebDAV (rclone's listing then knows)."""
    with httpx.Client(auth=(USER, PASSWORD)) as client:
        assert client.request("DELETE", f"{server.url}sync/").status_code in (200, 204)
        assert client.request("MKCOL", f"{server.url}sync/").status_code == 201


def log_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.json") if "/log/" in str(p))


@pytest.mark.slow  # four runs of main.py against rclone
def test_an_old_data_folder_moved_to_a_webdav_server_sends_everything(tmp_path: Path) -> None:
    data, folder = tmp_path / "A", tmp_path / "folder"
    shutil.copytree(FIXTURE / "device_a", data)
    shutil.copytree(FIXTURE / "folder", folder)
    assert "targets" not in json.loads((data / "sync" / "state.json").read_bytes())
    games = ids(data)
    assert len(games) == 3
    before = log_files(folder)

    with Store.open(data) as store:  # the folder it was last used with: the old state is adopted
        report = sync_once(store, FolderTarget(folder))
    assert (report.sent, report.notes) == (0, [])
    assert log_files(folder) == before and (folder / "target.json").is_file()

    with rclone_server(tmp_path) as server:
        url = f"{server.url}sync"
        done = cli_sync(data, url)
        assert done.returncode == 0, done.stderr
        assert done.stdout == (
            "127.0.0.1 is new to this device: sending all 3 games.\nsync finished: Nothing new\n"
        )
        done = cli_sync(tmp_path / "C", url)
        assert (done.returncode, done.stdout) == (0, "sync finished: 3 new games\n"), done.stderr
        assert ids(tmp_path / "C") == games

        remake(server)  # the remote emptied: its folder deleted and made again
        done = cli_sync(data, url)
        assert done.stdout == (
            "127.0.0.1 was emptied: sending all 3 games again.\nsync finished: Nothing new\n"
        ), done.stderr
        done = cli_sync(tmp_path / "D", url)
        assert (done.returncode, done.stdout) == (0, "sync finished: 3 new games\n"), done.stderr
        assert ids(tmp_path / "D") == games


def test_an_emptied_server_gets_back_what_another_device_wrote(tmp_path: Path) -> None:
    """The device that made the games is gone; the one that received them fills the emptied remote."""
    with rclone_server(tmp_path) as server:
        maker, keeper, late = (Store.open(tmp_path / name) for name in ("maker", "keeper", "late"))
        try:
            for seed in range(4):
                game(maker, 1, seed)
            sync_once(maker, server.target())
            assert sync_once(keeper, server.target()).new == 4
            remake(server)
            report = sync_once(keeper, server.target())
            assert [str(n) for n in report.notes] == ["127.0.0.1 was emptied: sending all 4 games again."]
            assert sync_once(late, server.target()).new == 4
            assert {s.id for s in late.list_matches()} == {s.id for s in maker.list_matches()}
            assert late.list_players() and {p.id for p in late.list_players()} == {
                p.id for p in maker.list_players()
            }
        finally:
            for store in (maker, keeper, late):
                store.close()


def test_a_change_made_on_another_target_reaches_the_first_one(tmp_path: Path) -> None:
    """Per-target state: a game saved while the device synced elsewhere goes to the first target when the
    device comes back to it (before, what went to the other target counted as sent everywhere)."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one, two = FolderTarget(tmp_path / "one"), FolderTarget(tmp_path / "two")
    with Store.open(tmp_path / "a") as a, Store.open(tmp_path / "b") as b:
        game(a, 1, 1)
        assert sync_once(a, one).sent >= 1
        report = sync_once(a, two)
        assert [str(n) for n in report.notes] == [f"{two.name} is new to this device: sending all 1 game."]
        later = game(a, 1, 2)
        sync_once(a, two)
        report = sync_once(a, one)
        assert report.notes == [] and report.sent == 1  # only what `one` has not had
        assert sync_once(b, one).new == 2
        assert b.get_match(later.id) is not None
        assert sync_once(a, one).sent == 0  # quiet afterwards, on both
        assert sync_once(a, two).sent == 0


def test_a_device_folder_removed_from_the_target_is_sent_again(tmp_path: Path) -> None:
    devices = Devices(tmp_path)
    try:
        a, b, c = devices.stores
        for seed in range(2):
            game(a, 1, seed)
        devices.sync(0, 1)
        shutil.rmtree(tmp_path / "target" / "devices" / device_of(a.data_dir))
        (report,) = devices.sync(1)  # b finds a's folder gone: it sends what it holds
        assert [str(n) for n in report.notes] == [
            f"{devices.target.name} lost files: sending all 2 games again."
        ]
        assert devices.sync(2)[0].new == 2
        assert (
            {m.id for m in c.list_matches()}
            == {m.id for m in a.list_matches()}
            == {m.id for m in b.list_matches()}
        )
        (report,) = devices.sync(0)  # a finds its own head gone: it sends everything again too
        assert [str(n) for n in report.notes] == [
            f"{devices.target.name} lost files: sending all 2 games again."
        ]
        assert [r.notes for r in devices.sync(0, 1, 2)] == [[], [], []]
    finally:
        devices.close()


def test_a_missing_log_file_is_skipped_and_its_device_sends_everything_again(tmp_path: Path) -> None:
    devices = Devices(tmp_path)
    try:
        a, b, c = devices.stores
        first = game(a, 1, 1)
        devices.sync(0)
        second = game(a, 1, 2)
        a.save_match(first.with_round(a_round(random.Random(3))))
        devices.sync(0)
        logs = sorted((tmp_path / "target" / "devices" / device_of(a.data_dir) / "log").iterdir())
        newest = max(logs, key=lambda p: int(p.name.split("-")[0]))
        newest.unlink()  # lost (or not there yet: a folder-sync tool may bring it later)
        (report,) = devices.sync(1)
        assert report.skipped == [] and report.new == 1  # waits one sync for it
        (report,) = devices.sync(1)
        assert [str(m) for m in report.skipped] == [
            f"A file from the device {_name(devices, 0)} was skipped (the file is missing on the target)."
        ]
        assert b.get_match(second.id) is None
        (report,) = devices.sync(0)  # b's head asks a to send everything again
        assert [str(n) for n in report.notes] == [
            f"{devices.target.name} lost files: sending all 2 games again."
        ]
        devices.sync(1, 2)
        for store in (b, c):
            got = store.get_match(first.id)
            assert store.get_match(second.id) is not None and got is not None and len(got.rounds) == 2
        assert [r.sent for r in devices.sync(0, 1, 2)] == [0, 0, 0]  # answered once, quiet after
    finally:
        devices.close()


def _name(devices: Devices, index: int) -> str:
    """The name a device's head gives (the host's name)."""
    head = devices.target.read(f"devices/{device_of(devices.stores[index].data_dir)}/head.json")
    assert head is not None
    return json.loads(head[0])["name"]


class RacingFolder(FolderTarget):
    """A folder where another device writes its identity just before this one does."""

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        if path == identity.IDENTITY and not (self.root / path).exists():
            super().write(path, identity.identity_bytes("0therdevice0000a"))
        return super().write(path, data, expect)


def test_two_devices_making_the_identity_at_once_end_up_with_one(tmp_path: Path) -> None:
    assert identity.read_or_make(RacingFolder(tmp_path)) == "0therdevice0000a"
    assert identity.read_or_make(FolderTarget(tmp_path)) == "0therdevice0000a"


def test_a_damaged_identity_file_is_made_anew(tmp_path: Path) -> None:
    (tmp_path / identity.IDENTITY).write_bytes(b"{not json")
    made = identity.read_or_make(FolderTarget(tmp_path))
    assert made.isalnum() and identity.read_or_make(FolderTarget(tmp_path)) == made
    assert json.loads((tmp_path / identity.IDENTITY).read_bytes()) == {
        "scorekeeper": "sync-target",
        "schema": 1,
        "target": made,
    }


def test_an_old_state_with_records_still_to_send_sends_them_to_the_target_it_adopts(tmp_path: Path) -> None:
    data, folder = tmp_path / "A", tmp_path / "folder"
    shutil.copytree(FIXTURE / "device_a", data)
    shutil.copytree(FIXTURE / "folder", folder)
    state = json.loads((data / "sync" / "state.json").read_bytes())
    waiting = sorted(key for key in state["records"] if key.startswith("m:"))[0]
    state["pending"] = [waiting]  # merged by the earlier version, cut short before it was written
    (data / "sync" / "state.json").write_text(json.dumps(state))
    with Store.open(data) as store:
        report = sync_once(store, FolderTarget(folder))
    assert (report.sent, report.notes) == (1, [])


def test_a_damaged_sync_state_sends_everything_again(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    target = FolderTarget(tmp_path / "folder")
    with Store.open(tmp_path / "a") as store:
        game(store, 1, 1)
        sync_once(store, target)
        path = store.data_dir / "sync" / "state.json"
        state = json.loads(path.read_bytes())
        state["targets"] = {"x": {"head": "not a number"}}
        path.write_text(json.dumps(state))
        report = sync_once(store, target)
        assert report.sent >= 1 and sync_once(store, target).sent == 0
    with Store.open(tmp_path / "b") as other:
        assert sync_once(other, target).new == 1
