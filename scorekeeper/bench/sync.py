"""Sync benchmark against a real WebDAV server (WsgiDAV on loopback, scorekeeper/bench/dav_server.py).

- `first_sync_10k_s`: 10,000 matches synced to an empty target, with its requests and bytes (both ways, headers
  included), and the first sync of a second, empty device that fetches them (`first_fetch_10k_*`).
- `one_change_requests_10k` / `one_change_bytes_10k`: one changed match synced from a store of 10,000 (the
  sending device's sync plus the receiving device's sync), beside `one_change_requests_10` /
  `one_change_bytes_10` from a store of 10, in the same run; `one_change_ratio_*` is 10k over 10 (goal ≤ 1.2:
  a sync costs what changed, not the size of the history).
- `one_change_bytes_10_most` / `one_change_requests_10_most`: the largest one-change sync (a small store, each
  change to another match) over a whole roll-over cycle of the head (HEAD_CHUNKS[1] + 1 syncs in a row), so the figure above is not just
  the cheapest moment of a head that grows with every sync; `one_change_ratio_bytes_most_to_10` is it over
  `one_change_bytes_10`.
- `*_hub_10` / `*_hub_10k`: the same two devices and one change through the served app's own hub (`/sync/`,
  WsgiDAV inside uvicorn through a2wsgi, every middleware of the app, bench/hub_server.py) instead of
  WsgiDAV on cheroot.
- `save_to_other_device_s_median`: a round saved on one device until the other device's store has it, each
  device with its SyncRunner syncing every 5 s (INTERVAL_S) and 5 s after a save.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.bench.dav_server import DavServer, wsgidav_server
from scorekeeper.bench.hub_server import hub_server
from scorekeeper.bench.store import _round, export_text
from scorekeeper.exchange.transfer import import_json_text
from scorekeeper.games.ruckzuck.spec import SPEC as RUCKZUCK
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.sync import remote
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.runner import SyncRunner, SyncStatus
from scorekeeper.sync.webdav import WebDavTarget

BIG, SMALL = 10_000, 10
INTERVAL_S = 5.0
SAMPLES = 7


def _traffic(target: WebDavTarget) -> tuple[int, int]:
    return target.requests, target.bytes_sent + target.bytes_received


def _counted(target: WebDavTarget, action: Callable[[], Any]) -> tuple[float, int, int]:
    """Seconds, requests and bytes of one action on `target`."""
    requests, sent = _traffic(target)
    start = time.perf_counter()
    action()
    elapsed = time.perf_counter() - start
    requests_after, sent_after = _traffic(target)
    return elapsed, requests_after - requests, sent_after - sent


def _change_one(store: Store, rng: random.Random, match_id: str | None = None) -> None:
    """A correction: one hand of one round of one stored match (`match_id`, or one at random) gets another
    value (still a valid round)."""
    match = store.get_match(match_id or rng.choice(store.list_matches()).id)
    assert match is not None
    played = match.rounds[0]
    seat = next(seat for seat in range(len(played["hands"])) if seat != played["out"])
    hands = list(played["hands"])
    hands[seat] = hands[seat] % 59 + 1
    store.save_match(dataclasses.replace(match, rounds=[{**played, "hands": hands}, *match.rounds[1:]]))


def _pair(server: DavServer, root: Path, folder: str, matches: int, label: str) -> dict[str, Any]:
    """Two devices over `folder`: the first holds `matches` matches and sends them, the second fetches them;
    then one match changes on the first and goes to the second."""
    (server.root / folder).mkdir()
    sender, receiver = Store.open(root / f"{folder}-a"), Store.open(root / f"{folder}-b")
    import_json_text(sender, export_text(matches, seed=matches))
    out, into = server.target(folder, timeout=120), server.target(folder, timeout=120)
    figures: dict[str, Any] = {}
    seconds, requests, sent = _counted(out, lambda: sync_once(sender, out))
    figures |= {f"first_sync_{label}_s": round(seconds, 2), f"first_sync_requests_{label}": requests}
    figures[f"first_sync_bytes_{label}"] = sent
    seconds, requests, sent = _counted(into, lambda: sync_once(receiver, into))
    assert len(receiver.list_matches()) == matches
    figures |= {f"first_fetch_{label}_s": round(seconds, 2), f"first_fetch_requests_{label}": requests}
    figures[f"first_fetch_bytes_{label}"] = sent
    _change_one(sender, random.Random(matches))
    seconds_out, requests_out, sent_out = _counted(out, lambda: sync_once(sender, out))
    seconds_in, requests_in, sent_in = _counted(into, lambda: sync_once(receiver, into))
    figures |= {
        f"one_change_requests_{label}": requests_out + requests_in,
        f"one_change_bytes_{label}": sent_out + sent_in,
        f"one_change_s_{label}": round(seconds_out + seconds_in, 3),
    }
    for store in (sender, receiver):
        store.close()
    return figures


def _cycle(server: DavServer, root: Path, matches: int) -> dict[str, Any]:
    """One change after another on the first of two devices (each to another match, so that no match's
    undo history grows), each followed by both devices' syncs, for a whole roll-over cycle of the head: the
    largest of them."""
    (server.root / "cycle").mkdir()
    sender, receiver = Store.open(root / "cycle-a"), Store.open(root / "cycle-b")
    import_json_text(sender, export_text(matches, seed=matches))
    out, into = server.target("cycle"), server.target("cycle")
    sync_once(sender, out)
    sync_once(receiver, into)
    rng, most = random.Random(matches), (0, 0)
    ids = [summary.id for summary in sender.list_matches()]
    for n in range(remote.HEAD_CHUNKS[1] + 1):
        _change_one(sender, rng, ids[n % len(ids)])
        _s, requests_out, sent_out = _counted(out, lambda: sync_once(sender, out))
        _s, requests_in, sent_in = _counted(into, lambda: sync_once(receiver, into))
        most = max(most, (sent_out + sent_in, requests_out + requests_in))
    for store in (sender, receiver):
        store.close()
    return {"one_change_bytes_10_most": most[0], "one_change_requests_10_most": most[1]}


class _Arrivals:
    """Tells when the other device's store holds the round waited for (checked by its runner's listener, on
    the runner's own thread, after each sync that finished)."""

    def __init__(self, store: Store, match_id: str) -> None:
        self.store, self.match_id = store, match_id
        self.rounds = 0
        self.arrived = threading.Event()
        self.at = 0.0

    def wait_for(self, rounds: int) -> None:
        self.arrived.clear()
        self.rounds = rounds

    def __call__(self, status: SyncStatus) -> None:
        if status.running or self.arrived.is_set() or not self.rounds:
            return
        match = self.store.get_match(self.match_id)
        if match is not None and len(match.rounds) >= self.rounds:
            self.at = time.perf_counter()
            self.arrived.set()


def _runner_samples(
    server: DavServer, root: Path, rng: random.Random, interval: float, samples: int
) -> list[float]:
    """Two devices, each with a SyncRunner (`interval`, and `interval` after a save); a round saved on the
    first at a random moment: the seconds until the second device's store holds it."""
    (server.root / "runner").mkdir()
    one, other = Store.open(root / "runner-a"), Store.open(root / "runner-b")
    players = [one.add_player(name) for name in ("Anna", "Ben", "Cleo")]
    match = Match.new(
        RUCKZUCK.key, {"rounds": samples + 2}, [p.id for p in players], names=[p.name for p in players]
    )
    match = one.save_match(match)
    sync_once(one, server.target("runner"))
    sync_once(other, server.target("runner"))
    arrivals = _Arrivals(other, match.id)
    runners = [
        SyncRunner(store, server.target("runner"), after_save=interval, interval=interval, retry=interval)
        for store in (one, other)
    ]
    runners[1].add_listener(arrivals)
    runners[0].start()
    time.sleep(rng.uniform(0, interval))  # two devices started apart: their cycles are out of step
    runners[1].start()
    seconds = []
    try:
        for _ in range(samples):
            time.sleep(rng.uniform(0, interval))  # a random moment within both runners' cycles
            arrivals.wait_for(len(match.rounds) + 1)
            changed = match.with_round(_round(rng))
            saved = time.perf_counter()
            match = one.save_match(changed)
            if not arrivals.arrived.wait(20 * interval):
                raise RuntimeError("the round did not reach the other device")
            seconds.append(arrivals.at - saved)
    finally:
        for runner in runners:
            runner.stop()
        one.close()
        other.close()
    return seconds


def _save_to_other_device(server: DavServer, root: Path, interval: float, count: int) -> dict[str, Any]:
    samples = _runner_samples(server, root, random.Random(5), interval, count)
    return {
        "save_to_other_device_s_median": round(statistics.median(samples), 2),
        "save_to_other_device_s_samples": [round(s, 2) for s in samples],
        "save_to_other_device_interval_s": interval,
    }


def measure(
    root: Path, big: int = BIG, small: int = SMALL, interval: float = INTERVAL_S, samples: int = SAMPLES
) -> dict[str, Any]:
    figures: dict[str, Any] = {"server": "WsgiDAV on loopback", "matches": {"big": big, "small": small}}
    with wsgidav_server(root / "server", folders=()) as server:
        figures |= _pair(server, root, "small", small, "10")
        figures |= _pair(server, root, "big", big, "10k")
        figures |= _cycle(server, root, max(small, remote.HEAD_CHUNKS[1] + 1))
        figures |= _save_to_other_device(server, root, interval, samples)
    with hub_server(root / "hub") as hub:  # the served app's own hub (server/dav_hub.py), the same pairs
        figures |= _pair(hub, root, "hub-small", small, "hub_10")
        figures |= _pair(hub, root, "hub-big", big, "hub_10k")
    for kind in ("requests", "bytes"):
        figures[f"one_change_ratio_{kind}_10k_to_10"] = round(
            figures[f"one_change_{kind}_10k"] / figures[f"one_change_{kind}_10"], 2
        )
    figures["one_change_ratio_bytes_most_to_10"] = round(
        figures["one_change_bytes_10_most"] / figures["one_change_bytes_10"], 2
    )
    return figures


def run(as_json: bool = False) -> dict[str, Any]:
    """Figures as {"sync": {...}}; prints nothing (the bench entry point prints)."""
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-sync-"))
    try:
        return {"sync": measure(root)}
    finally:
        shutil.rmtree(root, ignore_errors=True)
