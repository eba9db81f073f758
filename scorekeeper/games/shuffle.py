"""The deal's shuffle, written out: `shuffle(seed, cards)` orders `cards` exactly as
`random.Random(seed).shuffle(cards)` does (the same draws of the generator, so every seed deals the rounds it
always dealt and saved rounds replay), with the generator's `_randbelow` inlined: two Python calls fewer per
card, for a deal made before every simulated round."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=16)
def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """Fisher-Yates from the last card of `size`: each position i with the bits `_randbelow(i + 1)` draws."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffle(seed: Any, cards: list[Any]) -> random.Random:
    """Shuffle `cards` in place as `random.Random(seed).shuffle(cards)` does (card i swaps with a card j
    below i + 1, drawn as `_randbelow` draws it: a number of i + 1's bits, drawn again while too large);
    returns the generator, which has drawn what `Random.shuffle` would have."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    for i, width in _steps(len(cards)):
        j = bits(width)
        while j > i:
            j = bits(width)
        cards[i], cards[j] = cards[j], cards[i]
    return rng
