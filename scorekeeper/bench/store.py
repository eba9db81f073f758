"""Store benchmark: the cost of recording a round with an empty history and with 10,000 rounds stored, and
the speed of importing an export of 16,000 games into an empty store (`import_games_per_second_16k`), and player
statistics over 10,000 finished matches (`stats_10k_ms`: from the index, `Store.stat_rows` and two reports), and
a 4 MB photo scaled and stored (`photo_4mb_s`, bench/photos.py), and the peak memory of scaling the worst of a
set of expensive pictures (`photo_peak_mb`, bench/photo_memory.py).

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

from scorekeeper.bench.photo_memory import measure_photo_memory
from scorekeeper.bench.photos import measure_photo
from scorekeeper.exchange.transfer import import_json_text
from scorekeeper.games.ruckzuck.spec import SPEC as RUCKZUCK  # the rounds below are Ruck Zuck rounds
from scorekeeper.model.match import Match
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
    report = import_json_text(store, text)
    elapsed = time.perf_counter() - start
    store.close()
    assert report.matches_added == games
    return {"import_games_per_second_16k": round(games / elapsed, 1), "import_s_16k": round(elapsed, 2)}


STATS_MATCHES = 10_000
STATS_RUNS = 7
PLACES = ("Home", "Anna's", "Club", "Cafe")


def _stats_templates() -> list[Match]:
    """Finished matches of each game, played by seats 0..n-1 (copies take other players, days and places)."""
    from scorekeeper.games.racko.spec import SPEC as RACKO
    from scorekeeper.games.rage.spec import SPEC as RAGE

    ruckzuck = Match.new(RUCKZUCK.key, {"rounds": 3}, ["a", "b", "c"])
    rng = random.Random(3)
    for _ in range(3):
        ruckzuck = ruckzuck.with_round(_round(rng))
    racko = Match.new(RACKO.key, {"players": 2, "target": 50}, ["a", "b"])
    racko = racko.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    rage = Match.new(RAGE.key, {"edition": "amigo"}, ["a", "b", "c"])
    for index in range(10):
        size, first = 10 - index, (10 - index) // 2
        tricks = [first, size - first, 0]
        bids = [first, 0 if index % 3 else size - first, 0]
        rage = rage.with_round({"bids": bids, "tricks": tricks, "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    return [ruckzuck, racko, rage]


def seed_stats(folder: Path, count: int = STATS_MATCHES) -> str:
    """`count` finished matches of the three games among 8 players over two years, at four places, each with a
    clock of one hour, written as the store writes them but without an fsync each (a benchmark store is thrown
    away) and indexed by the next open. Returns the id of the player with the most games."""
    from unittest import mock

    from scorekeeper.store.match_file import MATCH_KIND, match_tables
    from scorekeeper.store.storage import write_envelope

    rng = random.Random(5)
    templates = _stats_templates()
    store = Store.open(folder)
    players = [store.add_player(name) for name in NAMES]
    with mock.patch("os.fsync"):
        for number in range(count):
            template = templates[number % len(templates)]
            seated = rng.sample(players, len(template.players))
            day = f"{2025 + number % 2}-{1 + number % 12:02d}-{1 + number % 28:02d}"
            data = {
                **template.to_dict(),
                "id": f"s{number:05d}",
                "players": [p.id for p in seated],
                "names": [p.name for p in seated],
                "created": f"{day}T19:00:00+00:00",
                "updated": f"{day}T20:00:00+00:00",
                "place": PLACES[number % len(PLACES)],
                "clock": [[f"{day}T19:00:00+00:00", f"{day}T20:00:00+00:00"]],
                "version": 1,
            }
            write_envelope(
                store.layout.match(str(data["id"])), MATCH_KIND, match_tables(data), keep_backup=False
            )
    store.close()
    Store.open(folder).close()  # indexes the files
    return players[0].id


def measure_stats(root: Path, count: int = STATS_MATCHES, runs: int = STATS_RUNS) -> dict[str, Any]:
    """Player statistics over `count` finished matches: the rows from the index, the picker's players and one
    player's report over everything and over one year and place, on an open store. `stats_10k_ms`: the median
    of `runs` (rows kept between calls, `stats.players.RowCache`); `stats_10k_first_ms`: the first call after the
    store was opened, every row made from its index entry."""
    from scorekeeper.stats.players import Filters, player_report, players_of

    folder = root / "stats"
    start = time.perf_counter()
    seed_stats(folder, count)
    seed_s = time.perf_counter() - start
    store = Store.open(folder)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        rows = store.stat_rows()
        picked = players_of(rows)[0].player
        report = player_report(rows, picked, Filters())
        player_report(rows, picked, Filters(year=2025, place=PLACES[0]))
        times.append((time.perf_counter() - start) * 1000)
    store.close()
    assert len(rows) == count and report.games > 0
    return {
        "stats_10k_first_ms": round(times[0], 1),
        "stats_10k_ms": round(statistics.median(times), 1),
        "stats_matches": count,
        "stats_seed_s": round(seed_s, 1),
    }


def run(as_json: bool = False) -> dict[str, Any]:
    """Figures as {"store": {...}}; prints nothing (the bench entry point prints)."""
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        return {
            "store": {
                **measure(root),
                **measure_import(root),
                **measure_stats(root),
                **measure_photo(root),
                **measure_photo_memory(root),
            }
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)
