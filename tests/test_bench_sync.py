"""The sync benchmark runs end to end on small stores (the real figures come from `python -m scorekeeper.bench
sync`): every figure is there, and one change costs the same requests from a store of 20 as from one of 4."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.bench.sync import measure


def test_the_sync_bench_measures_every_figure(tmp_path: Path) -> None:
    figures = measure(tmp_path, big=20, small=4, interval=0.2, samples=2)
    for key in ("first_sync_10k_s", "first_sync_requests_10k", "first_sync_bytes_10k", "first_fetch_10k_s"):
        assert figures[key] > 0, key
    assert figures["one_change_requests_10k"] == figures["one_change_requests_10"]
    assert figures["one_change_ratio_requests_10k_to_10"] == 1.0
    assert figures["one_change_bytes_10_most"] > 0
    assert len(figures["save_to_other_device_s_samples"]) == 2
    assert figures["save_to_other_device_s_median"] > 0
    # the same through the served app's own hub (/sync/)
    assert figures["first_sync_requests_hub_10k"] > 0 and figures["one_change_bytes_hub_10"] > 0
    assert figures["one_change_requests_hub_10k"] == figures["one_change_requests_hub_10"]
