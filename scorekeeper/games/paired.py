"""Choosing by sampled play-outs without being fooled by noise: the choice whose mean paired gain over the
default is largest, and only if that gain stands clear of nothing (the searching bots of Racko and Ruck Zuck)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def clearly_best(values: Sequence[Sequence[float]], default: int, sure: float) -> int:
    """The index of the row of `values` (one value per sampled deal, the same deals in every row) whose paired
    gain over row `default` has the largest mean, if that mean is more than `sure` standard errors above
    nothing; else `default`: a noisy mean must not overrule the bot's own heuristic."""
    best, best_gain = default, 0.0
    base = values[default]
    for i, row in enumerate(values):
        if i == default:
            continue
        gains = [a - b for a, b in zip(row, base, strict=True)]
        mean = statistics.fmean(gains)
        error = statistics.pstdev(gains) / math.sqrt(len(gains))
        if mean > sure * error and mean > best_gain:
            best, best_gain = i, mean
    return best
