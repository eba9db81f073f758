"""`python main.py sync`: one sync from the command line, and SIGKILLs at random moments that lose nothing."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sync_support import rounds_of
from test_store_support import new_match, rz_round

from scorekeeper.store import Store

ROOT = Path(__file__).resolve().parents[1]


def cli(data: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    environment = {**os.environ, **env}
    environment.pop("SCOREKEEPER_DATA", None)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--data-dir", str(data), "sync", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=ROOT,
    )


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def test_one_sync_reports_in_a_line_and_failures_exit_non_zero(tmp_path: Path) -> None:
    (tmp_path / "target").mkdir()
    with Store.open(tmp_path / "a") as store:
        store.save_match(new_match(store, rounds=2))
    code, out, _ = finish(cli(tmp_path / "a", "--to", str(tmp_path / "target")))
    note = f"{tmp_path / 'target'} is new to this device: sending all 1 game.\n"
    assert (code, out) == (0, note + "sync finished: Nothing new\n")
    code, out, _ = finish(cli(tmp_path / "b", "--to", str(tmp_path / "target")))
    assert (code, out) == (0, "sync finished: 1 new game\n")
    code, out, err = finish(cli(tmp_path / "b", "--to", str(tmp_path / "missing")))
    assert code == 1 and out == ""
    assert (
        err.strip().splitlines()[-1]
        == f"sync failed: {tmp_path / 'missing'} was not found. Check the address."
    )
    code, _, err = finish(cli(tmp_path / "c"))
    assert code == 2 and "no target" in err
    with Store.open(tmp_path / "c") as store:  # the target chosen in Settings
        store.set_setting("sync_target", {"address": str(tmp_path / "target"), "user": ""})
    code, out, _ = finish(cli(tmp_path / "c"))
    assert (code, out) == (0, "sync finished: 1 new game\n")


def _edit(store: Store, owned: list[str], expected: dict[str, list], rng: random.Random) -> None:
    """One acknowledged change by the device that owns the matches: a new match or a round added."""
    if not owned or rng.random() < 0.2:
        match = store.save_match(new_match(store, rounds=1, seed=rng.randrange(10**6)))
        owned.append(match.id)
    else:
        match = store.get_match(rng.choice(owned))
        match = match.with_round(rz_round(rng))
        match = store.save_match(match)
    expected[match.id] = list(match.rounds)


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    """Three devices (three processes) sync from the command line side by side and are killed at random
    moments, over and over; between the runs each adds rounds to its own matches. Then a sync of each
    completes, and all hold every round any of them saved, with no conflict (their changes never overlapped)."""
    rng = random.Random(18)
    target = tmp_path / "target"
    target.mkdir()
    folders = [tmp_path / "a", tmp_path / "b", tmp_path / "c"]
    stores = [Store.open(folder) for folder in folders]
    owned: list[list[str]] = [[], [], []]
    expected: dict[str, list] = {}
    for _ in range(20):
        _edit(stores[0], owned[0], expected, rng)
    start = time.monotonic()
    code, _, _ = finish(cli(folders[0], "--to", str(target)))
    full = time.monotonic() - start
    assert code == 0
    begin = time.monotonic()
    finish(cli(folders[0], "--to", str(tmp_path / "missing")))  # starts, opens the store, fails at once
    startup = time.monotonic() - begin
    kills = 0
    deadline = time.monotonic() + 600  # only against a hang: about 40 s on an idle machine
    while kills < 100 or time.monotonic() < start + 5:
        assert time.monotonic() < deadline, f"only {kills} kills in time"
        for side in range(len(folders)):
            _edit(stores[side], owned[side], expected, rng)
        running = [cli(folder, "--to", str(target)) for folder in folders]
        launched = time.monotonic()
        # Most kills fall after the start-up (imports), while the sync reads, merges and writes.
        moments = sorted(rng.uniform(startup * 0.7, max(full, startup) * 1.1) for _ in running)
        for process, moment in zip(running, moments, strict=True):
            time.sleep(max(0.0, launched + moment - time.monotonic()))
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                kills += 1
        for process in running:
            process.communicate(timeout=60)
    for folder in (*folders, *folders):
        code, _out, err = finish(cli(folder, "--to", str(target)))
        assert code == 0, err
    for store in stores:
        store.close()
    print(f"{kills} kills; start-up {startup:.2f} s, a first sync {full:.2f} s")
    for folder in folders:
        with Store.open(folder) as store:
            assert {s.id for s in store.list_matches()} == set(expected)
            for match_id, rounds in expected.items():
                assert rounds_of(store, match_id) == rounds
            assert store.conflicts() == []
