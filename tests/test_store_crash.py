"""Crash safety: a child process records rounds (and players and settings) as fast as it can and is killed
with SIGKILL at a random moment, again and again on the same data folder. After every kill the store opens
without any recovery message, no file is unreadable, and everything the child reported as saved is there;
only the one change in flight may be missing."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from test_store_support import assert_files_readable, killed_child_lines, reopened, rz_round

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.storage import is_tmp

KILLS = 60

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")


def child(folder: Path, fd: int, seed: int) -> None:
    """Record rounds forever; report each completed save on the pipe."""
    rng = random.Random(seed)
    store, match = reopened(folder)
    step = 0
    while True:
        step += 1
        if match is None or len(match.rounds) >= 12:
            match = Match.new("ruckzuck", {"rounds": 12}, ["p1", "p2", "p3"], names=["Anna", "Ben", "Cleo"])
        match = match.with_round(rz_round(rng))
        match = store.save_match(match)
        os.write(fd, f"M {match.id} {len(match.rounds)}\n".encode())
        if step % 5 == 0:
            store.set_setting("counter", seed * 1000 + step)
            os.write(fd, f"S {seed * 1000 + step}\n".encode())
        if step % 7 == 0:
            player = store.add_player(f"P{seed}-{step}")
            os.write(fd, f"P {player.id}\n".encode())


def run_child(folder: Path, seed: int, wait: float) -> list[str]:
    return killed_child_lines(lambda fd: child(folder, fd, seed), wait)


def test_sigkill_at_random_moments_loses_nothing_reported(tmp_path: Path) -> None:
    rng = random.Random(2024)
    reported_rounds: dict[str, int] = {}
    reported_players: set[str] = set()
    last_setting = None
    leftovers = 0
    saves = 0
    Store.open(tmp_path).close()
    for kill in range(KILLS):
        lines = run_child(tmp_path, kill + 1, rng.uniform(0.03, 0.3))
        for line in lines:
            kind, value, *rest = line.split()
            if kind == "M":
                reported_rounds[value] = int(rest[0])
                saves += 1
            elif kind == "S":
                last_setting = int(value)
            else:
                reported_players.add(value)
        leftovers += sum(1 for p in tmp_path.rglob("*") if is_tmp(p.name))

        store = Store.open(tmp_path)
        assert store.recovery_messages == [], f"kill {kill}: {store.recovery_messages}"
        ahead = 0
        for match_id, rounds in reported_rounds.items():
            match = store.get_match(match_id)
            assert match is not None, f"kill {kill}: match {match_id} lost"
            assert rounds <= len(match.rounds) <= rounds + 1, (
                f"kill {kill}: {match_id} has {len(match.rounds)}"
            )
            ahead += len(match.rounds) - rounds
            # What is stored now is the baseline for the next child (it may continue this match).
            reported_rounds[match_id] = len(match.rounds)
        assert ahead <= 1, "only the one save in flight may be unreported"
        listed = {s.id: s.rounds for s in store.list_matches()}
        assert all(listed[m] == len(store.get_match(m).rounds) for m in reported_rounds)
        if last_setting is not None:
            assert store.get_setting("counter") >= last_setting
        assert reported_players <= {p.id for p in store.list_players()}
        assert_files_readable(tmp_path)
        store.close()
    print(
        f"\n{KILLS} kills survived, {saves} saves reported, {leftovers} half-written temp files found",
        file=sys.stderr,
    )
    assert saves >= KILLS  # the child did real work between kills
