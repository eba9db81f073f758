"""Store benchmark: the cost of recording a round with an empty history and with 10,000 rounds stored, and
the speed of importing an export of 16,000 games into an empty store (`import_games_per_second_16k`).

Both stores live side by side in one run and are written alternately (empty, full, full, empty, ...), so
disk and CPU drift hit both medians alike. "Write" is `Store.save_match` after one more round was added to a
running match of the same size in both stores (a new running match every ROUNDS_PER_MATCH writes, so the match
itself stays small and alike in both); "open" is `Store.open` plus `list_matches()`. A write takes 3-4 ms, most
of it the two fsyncs, whose time wanders with the disk: the ratio is the median of WRITES (201) writes per
store, enough for it to repeat within a few hundredths on a quiet machine (41 gave 1.16 and 1.24 in two runs).
`write_spans_ms_*` split the median write (`scorekeeper.spans`).
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper.games.ruckzuck.spec import SPEC as RUCKZUCK  # the rounds below are Ruck Zuck rounds
from scorekeeper.match import Match
from scorekeeper.spans import medians_ms, recording, totals_ms
from scorekeeper.store import Store

HISTORY_ROUNDS = 10_000
ROUNDS_PER_MATCH = 20
WRITES = 201
OPENS = 7
NAMES = ["Anna", "Ben", "Cleo", "Dirk", "Eva", "Femke", "Gus", "Hanna"]


def _round(rng: random.Random, seats: int = 3) -> dict[str, Any]:
    out = rng.randrange(seats)
    return {"hands": [0 if seat == out else rng.randrange(1, 60) for seat in range(seats)], "out": out}


def fill(store: Store, rounds: int, rng: random.Random) -> int:
    """Store finished Ruck Zuck matches of ROUNDS_PER_MATCH rounds until `rounds` rounds are stored."""
    players = [store.add_player(name) for name in NAMES]
    matches = 0
    for _ in range(rounds // ROUNDS_PER_MATCH):
        seated = rng.sample(players, 3)
        match = Match.new(
            RUCKZUCK.key, {"rounds": ROUNDS_PER_MATCH}, [p.id for p in seated], names=[p.name for p in seated]
        )
        played = [_round(rng) for _ in range(ROUNDS_PER_MATCH)]
        store.save_match(dataclasses.replace(match, rounds=played, status="finished"))
        matches += 1
    return matches


def _timed_save(
    store: Store, match: Match, rng: random.Random, parts: list[dict[str, float]]
) -> tuple[Match, float]:
    """The saved match with one more round, and the milliseconds its save took."""
    changed = match.with_round(_round(rng))
    with recording() as spans:
        start = time.perf_counter()
        saved = store.save_match(changed)
        elapsed = (time.perf_counter() - start) * 1000
    parts.append(totals_ms(spans))
    return saved, elapsed


def _running(store: Store) -> Match:
    match = Match.new(
        RUCKZUCK.key, {"rounds": ROUNDS_PER_MATCH + 1}, ["p1", "p2", "p3"], names=["A", "B", "C"]
    )
    return store.save_match(match)


def _timed_open(folder: Path) -> float:
    start = time.perf_counter()
    store = Store.open(folder)
    store.list_matches()
    elapsed = (time.perf_counter() - start) * 1000
    store.close()
    return elapsed


def measure(root: Path, history_rounds: int = HISTORY_ROUNDS, writes: int = WRITES) -> dict[str, Any]:
    rng = random.Random(7)
    empty_dir, full_dir = root / "empty", root / "full"
    empty, full = Store.open(empty_dir), Store.open(full_dir)
    fill_start = time.perf_counter()
    matches = fill(full, history_rounds, rng)
    fill_s = time.perf_counter() - fill_start
    running: dict[int, Match] = {}
    times: dict[int, list[float]] = {id(empty): [], id(full): []}
    parts: dict[int, list[dict[str, float]]] = {id(empty): [], id(full): []}
    for i in range(writes):
        order = (empty, full) if i % 2 == 0 else (full, empty)
        for store in order:
            if i % ROUNDS_PER_MATCH == 0:
                running[id(store)] = _running(store)
            running[id(store)], elapsed = _timed_save(store, running[id(store)], rng, parts[id(store)])
            times[id(store)].append(elapsed)
    empty.close()
    full.close()
    opens_full = [_timed_open(full_dir) for _ in range(OPENS)]
    opens_empty = [_timed_open(empty_dir) for _ in range(OPENS)]
    write_empty = statistics.median(times[id(empty)])
    write_full = statistics.median(times[id(full)])
    return {
        "write_ms_empty": round(write_empty, 3),
        "write_ms_10k": round(write_full, 3),
        "write_ratio_10k": round(write_full / write_empty, 3),
        "write_spans_ms_empty": medians_ms(parts[id(empty)]),
        "write_spans_ms_10k": medians_ms(parts[id(full)]),
        "open_ms_10k": round(statistics.median(opens_full), 2),
        "open_ms_empty": round(statistics.median(opens_empty), 2),
        "rounds_stored": history_rounds,
        "matches_stored": matches,
        "writes_measured": writes,
        "fill_s": round(fill_s, 2),
    }


IMPORT_GAMES = 16_000
IMPORT_ROUNDS = 6


def export_text(games: int, rounds: int = IMPORT_ROUNDS, seed: int = 11) -> str:
    """An export file of `games` finished Ruck Zuck games of `rounds` rounds among 8 players (built in
    memory, as another device would have exported it)."""
    rng = random.Random(seed)
    players = [
        {"id": f"p{n}", "name": name, "colour": "", "archived": False, "created": "2026-01-01T00:00:00+00:00"}
        for n, name in enumerate(NAMES)
    ]
    matches = []
    for _ in range(games):
        seated = rng.sample(players, 3)
        match = Match.new(
            RUCKZUCK.key,
            {"rounds": rounds},
            [str(p["id"]) for p in seated],
            names=[str(p["name"]) for p in seated],
        )
        played = [_round(rng) for _ in range(rounds)]  # valid by construction; the import checks them
        matches.append({**match.to_dict(), "rounds": played, "status": "finished", "version": 1})
    document = {
        "format": "scorekeeper-export",
        "schema": 2,
        "exported": "2026-01-01T00:00:00+00:00",
        "players": players,
        "settings": {},
        "matches": matches,
        "digital_games": [],
    }
    return json.dumps(document)


def measure_import(root: Path, games: int = IMPORT_GAMES) -> dict[str, Any]:
    """Import `games` games into an empty store: games per second, whole import (check and write)."""
    text = export_text(games)
    store = Store.open(root / "import")
    start = time.perf_counter()
    report = store.import_json_text(text)
    elapsed = time.perf_counter() - start
    store.close()
    assert report.matches_added == games
    return {"import_games_per_second_16k": round(games / elapsed, 1), "import_s_16k": round(elapsed, 2)}


def run(as_json: bool = False) -> dict[str, Any]:
    """Figures as {"store": {...}}; prints nothing (the bench entry point prints)."""
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        return {"store": {**measure(root), **measure_import(root)}}
    finally:
        shutil.rmtree(root, ignore_errors=True)
