"""What one sync moves does not grow with the history: a device's head (read by its own sync, written by it,
and read by every other device's sync) stays under 1 KB however often the device synced, and a device that
was away for many syncs still finds every chunk through the older-chunks files."""

from __future__ import annotations

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
