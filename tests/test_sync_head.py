"""What one sync moves does not grow with the history: a device's head (read by its own sync, written by it,
and read by every other device's sync) stays under 1 KB however often the device synced, and a device that
was away for many syncs still finds every chunk through the older-chunks files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sync_support import Devices

from scorekeeper.sync import remote

SYNCS = 3 * remote.HEAD_CHUNKS[1]
"""Enough single-change syncs to fill the head to its largest several times over."""


@pytest.fixture
def devices(tmp_path: Path):
    made = Devices(tmp_path)
    yield made
    made.close()


def test_the_head_stays_under_a_kilobyte_however_often_a_device_synced(devices: Devices) -> None:
    a, b, c = devices.stores
    devices.sync(0, 1)
    sizes = []
    for n in range(SYNCS):
        a.add_player(f"Player {n}")
        devices.sync(0)
        if n == 2:
            devices.sync(1)  # b is a little behind from here on
        head = next((devices.target.root / "devices").iterdir()) / "head.json"
        sizes.append(head.stat().st_size)
    assert max(sizes) < 1024, max(sizes)
    devices.sync(1, 2)  # b reads from where it stopped, c from the start
    names = {p.name for p in a.list_players()}
    for store in (b, c):
        assert {p.name for p in store.list_players()} == names
        assert len(names) == SYNCS


def test_a_long_head_of_the_first_sync_version_is_read_and_rolled_over(
    devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = devices.stores
    monkeypatch.setattr(remote, "HEAD_CHUNKS", (16, 48))  # what the first sync version wrote
    devices.sync(1)
    for n in range(20):
        a.add_player(f"Player {n}")
        devices.sync(0)
        if n == 4:
            devices.sync(1)
    head = next((devices.target.root / "devices").iterdir()) / "head.json"
    assert len(json.loads(head.read_bytes())["chunks"]) == 20
    monkeypatch.undo()
    a.add_player("Player 20")
    devices.sync(0)
    assert len(json.loads(head.read_bytes())["chunks"]) <= remote.HEAD_CHUNKS[0] + 1
    devices.sync(1, 2)  # b from where it stopped in the long head, c from the start
    for store in (b, c):
        assert {p.name for p in store.list_players()} == {f"Player {n}" for n in range(21)}
