"""State machine (issue 49, point 3): three devices on one target (a folder, and the real WebDAV server on
loopback), a digital game played by computers on device 0, scoreboard edits (notes, place, a round entered or
corrected, the clock paused and resumed) on any device, and syncs, some of them on a thread of their own while
the device saves meanwhile (as the app's sync runner does), some of two devices at the same time.

After every device has synced until nothing moves: every device holds the same content of every match, and a
conflict remains only where two devices changed the same part of a match (the same field, the same round)
without either having had the other's change (its version vector, read from the device's sync state when it
saved, had not seen the version that carried the other change)."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sync_servers import DavServer, wsgidav_server
from sync_support import a_round, game

from scorekeeper.digital.session import PlaySession, computer_seat
from scorekeeper.model import playtime
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.report import SyncReport
from scorekeeper.sync.target import Target
from scorekeeper.sync.versions import content, leq
from scorekeeper.sync.webdav import WebDavTarget

DEVICES = 3
QUIET_ROUNDS = 8
EDITS = ("notes", "place", "pause", "resume", "correct", "enter")
OWNED = {0: ("pause", "resume"), 1: ("notes", "enter"), 2: ("place", "correct")}
"""The parts each device changes (device 0 also plays). The `clash` rule (once per example at most) edits
another device's part: the one case where a conflict may remain."""
EXAMPLES = int(os.environ.get("SCOREKEEPER_CONCURRENCY_EXAMPLES", "6"))
"""Examples per target (CI keeps the default; raise it to search longer)."""


def parts(before: Match, after: Match) -> frozenset[str]:
    """The parts of a match a save changed: its fields by name, its rounds by position."""
    old, new = content(before.to_dict()), content(after.to_dict())
    found = {key for key in set(old) | set(new) if key != "rounds" and old.get(key) != new.get(key)}
    rounds_old, rounds_new = old.get("rounds", []), new.get("rounds", [])
    for position in range(max(len(rounds_old), len(rounds_new))):
        if rounds_old[position : position + 1] != rounds_new[position : position + 1]:
            found.add(f"round {position}")
    return frozenset(found)


@dataclasses.dataclass
class Event:
    """A save on a device: which parts of which match, what the device had seen of the match then (its
    version vector in the sync state) and the version vector it went out with (set after the first sync of
    that device that started after the save)."""

    device: int
    match_id: str
    parts: frozenset[str]
    had: dict[str, int]
    tick: int
    published: dict[str, int] | None = None

    def seen_by(self, other: Event) -> bool:
        return self.published is not None and leq(self.published, other.had)


class Gate:
    """A target that holds the sync going through it at the first read of another device's log file (it has
    collected this device's changes, it merges next) or at its first write (it has read and merged everything,
    it publishes next) until `release` is set: what the device or another one does meanwhile happens while this
    sync is on its way, at the same place every time."""

    def __init__(self, target: Target, when: str) -> None:
        self.target, self.when, self.name = target, when, target.name
        self.reached, self.release = threading.Event(), threading.Event()

    def _hold(self, kind: str, path: str) -> None:
        if self.reached.is_set() or kind != self.when or (kind == "read" and "/log/" not in path):
            return
        self.reached.set()
        assert self.release.wait(120), "the held sync was never released"

    def read(self, path: str) -> tuple[bytes, str] | None:
        self._hold("read", path)
        return self.target.read(path)

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        self._hold("write", path)
        return self.target.write(path, data, expect)

    def list(self, folder: str) -> list[str]:
        return self.target.list(folder)

    def check(self) -> None:
        self.target.check()


class Concurrency(RuleBasedStateMachine):
    """The machine; `target` is made per example by the subclass for a folder or the WebDAV server."""

    def make_target(self, root: Path) -> Callable[[], Target]:
        raise NotImplementedError

    @initialize(seed=st.integers(0, 2**32))
    def make(self, seed: int) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="sync-concurrency-"))
        self.target = self.make_target(self.root)
        self.stores = [Store.open(self.root / f"device{n}") for n in range(DEVICES)]
        self.lock = threading.Lock()
        self.clock = 0
        self.events: list[Event] = []
        self.clashed = False
        for n, store in enumerate(self.stores):
            self._watch(n, store)
        first = self.stores[0]
        tracked = game(first, rounds=2, seed=seed)
        first.change_match(
            tracked.id,
            lambda m: dataclasses.replace(
                m, notes="begun", place="home", clock=playtime.started([], now_iso())
            ),
        )
        seats = [computer_seat("easy", index, f"CPU {index + 1}") for index in range(3)]
        self.session = PlaySession.create(first, "ruckzuck", {"rounds": 50}, seats, seed=seed)
        self.matches = [self.session.match_id, tracked.id]
        for n, store in enumerate(self.stores[1:], 1):
            store.add_player(f"Player {n}")  # each device sends something: its head is there from now on
        for n in (*range(DEVICES), 0):
            self._sync(n)
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ bookkeeping
    def _tick(self) -> int:
        with self.lock:
            self.clock += 1
            return self.clock

    def _had(self, n: int, match_id: str) -> dict[str, int]:
        """Device n's version vector of the match as its sync state on disk says (read before a save: the
        store may hold more by then, never less)."""
        try:
            doc = json.loads((self.stores[n].data_dir / "sync" / "state.json").read_bytes())
        except (FileNotFoundError, ValueError):
            return {}
        return dict(doc.get("records", {}).get(f"m:{match_id}", {}).get("vv", {}))

    def _watch(self, n: int, store: Store) -> None:
        """Every change of a match on device n (the screens' and the digital game's) is an event."""
        original = store.change_match

        def change_match(match_id: str, change: Callable[[Match], Match], why: str = "") -> Match:
            found: dict[str, frozenset[str]] = {}

            def recorded(match: Match) -> Match:
                changed = change(match)
                found["parts"] = parts(match, changed)
                return changed

            had = self._had(n, match_id)
            saved = original(match_id, recorded, why)
            if found.get("parts"):
                with self.lock:
                    self.clock += 1
                    self.events.append(Event(n, match_id, found["parts"], had, self.clock))
            return saved

        store.change_match = change_match  # type: ignore[method-assign]

    def _sync(
        self, n: int, gate: str | None = None, meanwhile: Callable[[], Any] | None = None
    ) -> SyncReport:
        """Device n syncs; with a `gate`, on a thread of its own, held there while `meanwhile` runs."""
        start = self._tick()
        target = self.target()
        try:
            if gate is None:
                report = sync_once(self.stores[n], target)
            else:
                report = self._held(n, Gate(target, gate), meanwhile or (lambda: None))
        finally:
            close = getattr(target, "close", None)
            if close is not None:
                close()
        with self.lock:
            for event in self.events:
                if event.device == n and event.published is None and event.tick < start:
                    event.published = self._had(n, event.match_id)
        return report

    def _held(self, n: int, gate: Gate, meanwhile: Callable[[], Any]) -> SyncReport:
        reports: list[SyncReport] = []
        errors: list[BaseException] = []

        def run() -> None:
            try:
                reports.append(sync_once(self.stores[n], gate))
            except BaseException as error:
                errors.append(error)
            finally:
                gate.reached.set()  # a sync with nothing to read never reaches the gate

        thread = threading.Thread(target=run)
        thread.start()
        try:
            assert gate.reached.wait(120), "the sync never reached the gate"
            meanwhile()
        finally:
            gate.release.set()
            thread.join(120)
        assert not thread.is_alive(), "the held sync did not finish"
        if errors:
            raise errors[0]
        return reports[0]

    def _threads(self, *jobs: Callable[[], Any]) -> None:
        """Run the jobs at the same time, each on a thread; an exception in one is raised here."""
        errors: list[BaseException] = []

        def run(job: Callable[[], Any]) -> None:
            try:
                job()
            except BaseException as error:  # raised again on the test's thread
                errors.append(error)

        threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads), "a sync or a save did not finish"
        if errors:
            raise errors[0]

    # ------------------------------------------------------------------ what people do
    def _play(self, moves: int) -> None:
        """The computers of device 0's digital game make up to `moves` moves; a finished round is recorded."""
        for _ in range(moves):
            if not self.session.step_computer():
                if self.session.match_over:
                    return
                self.session.next_round()

    def _edit(self, n: int, which: int, kind: str, seed: int) -> None:
        store, match_id = self.stores[n], self.matches[which]
        at = now_iso()
        rng = random.Random(seed)

        def edit(match: Match) -> Match:
            if kind == "notes":
                return dataclasses.replace(match, notes=f"notes {n}.{seed}")
            if kind == "place":
                return dataclasses.replace(match, place=f"place {n}.{seed}")
            if kind in ("pause", "resume") and match.clock and not match.is_over:
                clock = (
                    playtime.stopped(match.clock, at)
                    if kind == "pause"
                    else playtime.started(match.clock, at)
                )
                return dataclasses.replace(match, clock=clock)
            if kind == "correct" and match.mode == "tracked":
                return match.with_round_edited(rng.randrange(2), a_round(rng))  # the rounds both began with
            if kind == "enter" and match.mode == "tracked":
                return match.with_round(a_round(rng))
            return match

        store.change_match(match_id, edit)

    @rule(moves=st.integers(1, 60))
    def play(self, moves: int) -> None:
        self._play(moves)

    @rule(
        device=st.integers(0, DEVICES - 1),
        which=st.integers(0, 1),
        own=st.integers(0, 1),
        seed=st.integers(0, 10**6),
    )
    def edit(self, device: int, which: int, own: int, seed: int) -> None:
        self._edit(device, which, OWNED[device][own], seed)

    @precondition(lambda self: not self.clashed)
    @rule(
        device=st.integers(0, DEVICES - 1),
        which=st.integers(0, 1),
        kind=st.sampled_from(EDITS),
        seed=st.integers(0, 10**6),
    )
    def clash(self, device: int, which: int, kind: str, seed: int) -> None:
        """An edit of any part, another device's too (once per example)."""
        self.clashed = True
        self._edit(device, which, kind, seed)

    @rule(device=st.integers(0, DEVICES - 1))
    def sync(self, device: int) -> None:
        self._sync(device)

    @rule(
        device=st.integers(0, DEVICES - 1),
        edits=st.lists(
            st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 10**6)),
            min_size=1,
            max_size=4,
        ),
        moves=st.integers(0, 60),
    )
    def sync_while_saving(self, device: int, edits: list[tuple[int, int, int]], moves: int) -> None:
        """A sync of the device on its own thread while the device saves edits (and device 0 plays on)."""

        def saves() -> None:
            for which, own, seed in edits:
                self._edit(device, which, OWNED[device][own], seed)
                if device == 0:
                    self._play(moves // len(edits))

        self._threads(lambda: self._sync(device), saves)

    @rule(
        device=st.integers(0, DEVICES - 1),
        gate=st.sampled_from(["read", "write"]),
        edits=st.lists(
            st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 10**6)),
            min_size=1,
            max_size=3,
        ),
        moves=st.integers(0, 60),
    )
    def save_inside_a_sync(
        self, device: int, gate: str, edits: list[tuple[int, int, int]], moves: int
    ) -> None:
        """The device saves while its own sync is held before it merges (the merge then waits for the next
        sync) or before it publishes; device 0 plays on meanwhile."""

        def saves() -> None:
            for which, own, seed in edits:
                self._edit(device, which, OWNED[device][own], seed)
            self._play(moves)

        self._sync(device, gate, saves)

    def _busy(self, busy: int, which: int, syncs: int, seed: int, moves: int) -> None:
        """Device `busy` edits its own parts of a match and syncs, `syncs` times (device 0 plays on between)."""
        for step in range(syncs):
            self._edit(busy, which, OWNED[busy][step % 2], seed + step)
            if busy == 0:
                self._play(moves)
            self._sync(busy)

    @rule(
        device=st.integers(0, DEVICES - 1),
        busy=st.integers(0, DEVICES - 1),
        which=st.integers(0, 1),
        syncs=st.integers(1, 8),
        turns=st.integers(1, 3),
        seed=st.integers(0, 10**6),
        moves=st.integers(0, 30),
    )
    def busy_while_a_sync_is_on_its_way(
        self, device: int, busy: int, which: int, syncs: int, turns: int, seed: int, moves: int
    ) -> None:
        """The device edits, and its sync is held after it read everything, before it publishes, while the
        other device edits and syncs `syncs` times (as with a sync every fraction of a second); then the other
        way round, `turns` times."""
        if device == busy:
            return
        for turn in range(turns):
            for one, other in ((device, busy), (busy, device)):
                self._edit(one, which, OWNED[one][turn % 2], seed + 100 * turn)
                busy_turn = functools.partial(self._busy, other, which, syncs, seed + 100 * turn + 50, moves)
                self._sync(one, "write", busy_turn)

    @rule(
        first=st.integers(0, DEVICES - 1),
        second=st.integers(0, DEVICES - 1),
        edits=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 10**6)), max_size=3),
        moves=st.integers(0, 60),
    )
    def two_sync_at_once(
        self, first: int, second: int, edits: list[tuple[int, int, int]], moves: int
    ) -> None:
        """Two devices sync at the same time, while the first one saves and device 0 plays on."""
        if first == second:
            return

        def saves() -> None:
            for which, own, seed in edits:
                self._edit(first, which, OWNED[first][own], seed)
            self._play(moves)

        self._threads(lambda: self._sync(first), lambda: self._sync(second), saves)

    # ------------------------------------------------------------------ the end
    def teardown(self) -> None:
        try:
            if hasattr(self, "session"):
                self._until_quiet()
                self._check()
        finally:
            for store in getattr(self, "stores", []):
                store.close()
            if hasattr(self, "root"):
                shutil.rmtree(self.root, ignore_errors=True)

    def _until_quiet(self) -> None:
        for _ in range(QUIET_ROUNDS):
            moved = False
            for n in range(DEVICES):
                report = self._sync(n)
                moved |= bool(report.sent or report.brought)
            if not moved:
                return
        raise AssertionError(f"still syncing after {QUIET_ROUNDS} rounds of every device")

    def _check(self) -> None:
        for match_id in self.matches:
            conflicted = [
                store for store in self.stores if any(c.match_id == match_id for c in store.conflicts())
            ]
            if conflicted:
                assert self._concurrent(match_id), (
                    f"a conflict on {match_id} though no part was changed on two devices unseen: "
                    f"{[(e.device, sorted(e.parts)) for e in self.events if e.match_id == match_id]}"
                )
                continue
            contents = []
            for store in self.stores:
                match = store.get_match(match_id)
                assert match is not None, "every device holds every match"
                contents.append(content(match.to_dict()))
            for other in contents[1:]:
                assert other == contents[0], "every device holds the same content of the match"

    def _concurrent(self, match_id: str) -> bool:
        """Two devices changed the same part of the match, neither having had the other's change."""
        events = [e for e in self.events if e.match_id == match_id]
        return any(
            one.device != two.device
            and one.parts & two.parts
            and not one.seen_by(two)
            and not two.seen_by(one)
            for one in events
            for two in events
        )


class OnFolder(Concurrency):
    def make_target(self, root: Path) -> Callable[[], Target]:
        (root / "target").mkdir()
        return lambda: FolderTarget(root / "target")


class OnWebDav(Concurrency):
    server: DavServer | None = None
    made = 0

    def make_target(self, root: Path) -> Callable[[], Target]:
        server = OnWebDav.server
        assert server is not None
        OnWebDav.made += 1
        folder = f"machine{OnWebDav.made}"
        (server.root / folder).mkdir()
        url = f"{server.url}{folder}"
        return lambda: WebDavTarget(url, server.user, server.password, timeout=10.0)  # one client per sync


MACHINE_SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=18,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def dav() -> Iterator[DavServer]:
    with tempfile.TemporaryDirectory() as base, wsgidav_server(Path(base)) as server:
        yield server


def test_concurrent_writers_converge_on_a_folder() -> None:
    started = time.monotonic()
    run_state_machine_as_test(OnFolder, settings=MACHINE_SETTINGS)
    print(f"folder machine: {time.monotonic() - started:.1f} s")  # the CI time, with -s


def test_concurrent_writers_converge_on_webdav(dav: DavServer) -> None:
    OnWebDav.server = dav
    started = time.monotonic()
    try:
        run_state_machine_as_test(OnWebDav, settings=MACHINE_SETTINGS)
    finally:
        OnWebDav.server = None
    print(f"WebDAV machine: {time.monotonic() - started:.1f} s")
