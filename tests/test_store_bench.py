"""The store benchmark: its output shape (the figures themselves go into the closing note, not asserts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.bench.store import measure, measure_import, measure_stats

KEYS = {
    "write_ms_empty",
    "write_ms_10k",
    "write_ratio_10k",
    "open_ms_10k",
    "import_games_per_second_16k",
    "stats_10k_ms",
    "stats_10k_first_ms",
}


@pytest.mark.slow  # ~5 s on an idle machine, but filling 10,000 rounds waits on fsync when the disk is busy
def test_bench_cli_prints_one_json_object() -> None:
    # Only the shape is asserted: speed is a figure the benchmark prints, never a timed assertion in a test.
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.bench", "store", "--json"],
        capture_output=True,
        text=True,
        timeout=1200,
        check=True,
    )
    figures = json.loads(done.stdout)["store"]
    assert set(figures) >= KEYS
    assert figures["rounds_stored"] == 10_000
    assert figures["write_ratio_10k"] > 0 and figures["open_ms_10k"] > 0


def test_measure_import_on_a_small_file(tmp_path: Path) -> None:
    figures = measure_import(tmp_path, games=50)
    assert figures["import_games_per_second_16k"] > 0


def test_measure_on_a_small_history(tmp_path: Path) -> None:
    figures = measure(tmp_path, history_rounds=200, writes=5)
    assert set(figures) >= KEYS - {"import_games_per_second_16k", "stats_10k_ms", "stats_10k_first_ms"}
    assert figures["matches_stored"] == 10
    assert abs(figures["write_ratio_10k"] - figures["write_ms_10k"] / figures["write_ms_empty"]) < 0.01


def test_measure_stats_on_a_small_store(tmp_path: Path) -> None:
    figures = measure_stats(tmp_path, count=30, runs=2)
    assert (
        figures["stats_matches"] == 30 and figures["stats_10k_ms"] > 0 and figures["stats_10k_first_ms"] > 0
    )
