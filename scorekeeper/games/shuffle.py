"""The deal's shuffle, written out: `shuffle(seed, cards)` orders `cards` exactly as
`random.Random(seed).shuffle(cards)` does (the same draws of the generator, so every seed deals the rounds it
always dealt and saved rounds replay), with the generator's `_randbelow` inlined: two Python calls fewer per
card, for a deal made before every simulated round."""

from __future__ import annotations

import random
from typing import Any

_WIDTHS = [n.bit_length() for n in range(256)]
"""`n.bit_length()` of every count a deck may have (looked up once)."""


def shuffle(seed: Any, cards: list[Any]) -> random.Random:
    """Shuffle `cards` in place as `random.Random(seed).shuffle(cards)` does (Fisher-Yates from the last
    card: card i swaps with a card below i + 1 drawn as `_randbelow` draws it, a number of i + 1's bits drawn
    again while too large); returns the generator, which has drawn what `Random.shuffle` would have."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    widths = _WIDTHS if len(cards) < len(_WIDTHS) else [n.bit_length() for n in range(len(cards) + 1)]
    for i in range(len(cards) - 1, 0, -1):
        size = i + 1
        width = widths[size]
        j = bits(width)
        while j >= size:
            j = bits(width)
        cards[i], cards[j] = cards[j], cards[i]
    return rng
