"""State machine (issue 41): three devices and two folder targets; devices add matches and rounds, sync with
either target (switching between them), a target is emptied (its folder deleted and made again), a sync is
cut short at any call to the target. After every device has synced with every target until nothing moves:
every device holds every match any device made, and every round a device saved is there (or, where two
devices added a round to the same match unseen, kept in the conflict beside it). Nothing is lost."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from sync_support import a_round, game
from test_sync_property import Flaky

from scorekeeper.store import Store, StoreError
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.target import SyncError

DEVICES, TARGETS = 3, 2
QUIET_ROUNDS = 6


class Targets(RuleBasedStateMachine):
    @initialize()
    def make(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="sync-machine-"))
        self.folders = [self.root / f"target{n}" for n in range(TARGETS)]
        for folder in self.folders:
            folder.mkdir()
        self.stores = [Store.open(self.root / f"device{n}") for n in range(DEVICES)]
        self.made: set[str] = set()
        self.rounds: list[tuple[str, dict]] = []  # (match id, a round some device saved)
        self.rng = random.Random(0)

    @rule(device=st.integers(0, DEVICES - 1), seed=st.integers(0, 10**6))
    def add_match(self, device: int, seed: int) -> None:
        match = game(self.stores[device], 1, seed)
        self.made.add(match.id)
        self.rounds.append((match.id, match.rounds[0]))

    @rule(device=st.integers(0, DEVICES - 1), pick=st.integers(0, 10**6), seed=st.integers(0, 10**6))
    def add_round(self, device: int, pick: int, seed: int) -> None:
        store = self.stores[device]
        summaries = sorted(s.id for s in store.list_matches())
        if not summaries:
            return
        match = store.get_match(summaries[pick % len(summaries)])
        assert match is not None
        played = a_round(random.Random(seed))
        try:
            store.save_match(match.with_round(played))
        except (StoreError, ValueError):
            return  # the rules refuse it (the match is over): nothing saved
        self.rounds.append((match.id, played))

    @rule(
        device=st.integers(0, DEVICES - 1),
        where=st.integers(0, TARGETS - 1),
        cut=st.one_of(st.none(), st.integers(1, 12)),
    )
    def sync(self, device: int, where: int, cut: int | None) -> None:
        try:
            sync_once(self.stores[device], Flaky(FolderTarget(self.folders[where]), cut))
        except SyncError:
            pass  # cut short: the next sync finds the same changes again

    @rule(where=st.integers(0, TARGETS - 1))
    def empty(self, where: int) -> None:
        shutil.rmtree(self.folders[where])
        self.folders[where].mkdir()

    def teardown(self) -> None:
        try:
            if hasattr(self, "stores"):
                self._everyone_until_quiet()
                self._check()
        finally:
            for store in getattr(self, "stores", []):
                store.close()
            if hasattr(self, "root"):
                shutil.rmtree(self.root, ignore_errors=True)

    def _everyone_until_quiet(self) -> None:
        for _ in range(QUIET_ROUNDS):
            moved = False
            for folder in self.folders:
                for store in self.stores:
                    report = sync_once(store, FolderTarget(folder))
                    moved |= bool(report.sent or report.brought)
            if not moved:
                return
        raise AssertionError(f"still syncing after {QUIET_ROUNDS} rounds of every device with every target")

    def _check(self) -> None:
        held = [{s.id for s in store.list_matches()} for store in self.stores]
        for ids in held:
            assert ids == self.made, "every device holds every match any device made"
        for match_id, played in self.rounds:
            for store in self.stores:
                match = store.get_match(match_id)
                assert match is not None
                versions = [match.rounds] + [
                    o.match.rounds
                    for c in store.conflicts()
                    if c.match_id == match_id
                    for o in c.others
                    if o.match
                ]
                assert any(played in rounds for rounds in versions), "a saved round is kept"
        conflicted = set().union(*({c.match_id for c in store.conflicts()} for store in self.stores))
        for match_id in self.made - conflicted:
            contents = [store.get_match(match_id).rounds for store in self.stores]  # type: ignore[union-attr]
            assert all(rounds == contents[0] for rounds in contents), "the same rounds where no conflict"


Targets.TestCase.settings = settings(
    max_examples=12,
    stateful_step_count=14,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_devices_switching_and_emptied_targets_converge = pytest.mark.slow(Targets.TestCase)
