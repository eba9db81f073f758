"""Rage as the app sees it: its options on the New game screen, its statistics figure and its GameSpec."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import scorekeeper.games.rage as rules
from scorekeeper.games.base import N_, Message
from scorekeeper.games.contract import OptionField, StatFigure, Values, option_default, package_spec
from scorekeeper.games.rage.options import EDITIONS, TITLES, RageOptions, hand_size, hand_sizes
from scorekeeper.games.rage.part import PART

FIELDS: tuple[OptionField, ...] = (
    OptionField(
        "edition",
        N_("Edition"),
        N_(
            "Original: 19 rounds (10 cards down to 1 and back), the dealer may not make the bids add up. "
            "Amigo and Fundex: 10 rounds from 10 cards down to 1; Fundex gives 0 for a missed bid "
            "and +5 (not +10) for an exact bid of 0."
        ),
        "choice",
        option_default(RageOptions, "edition"),
        tuple(TITLES.items()),
        players_for=lambda edition: (EDITIONS[edition].min_players, EDITIONS[edition].max_players),
    ),
    OptionField(
        "hook_rule",
        N_("Dealer's bid"),
        N_("Whether the dealer may make the bids add up to the number of cards (the original forbids it)."),
        "choice",
        option_default(RageOptions, "hook_rule"),
        ((None, N_("As the edition")), (True, N_("Forbidden")), (False, N_("Allowed"))),
    ),
)


def exact_bids(result: Mapping[str, Any]) -> list[bool]:
    """Per seat: the tricks won equal the bid."""
    return [bid == tricks for bid, tricks in zip(result["bids"], result["tricks"], strict=True)]


def round_figures(
    result: Mapping[str, Any], seat: int, _options: RageOptions, _dealer: int, _index: int
) -> Values:
    """Whether the seat made its bid exactly in this round."""
    return {"exact_bids": int(exact_bids(result)[seat])}


SPEC = package_spec(
    rules,
    other_names=("Rage Card Game", "Rage!", "Rage (card game)"),
    title=Message("Rage"),
    about=Message("Bid your tricks and make them exactly"),
    icon="STYLE",
    option_fields=FIELDS,
    rounds_planned=lambda options: len(hand_sizes(options)),
    next_hand_size=hand_size,
    exact_bids=exact_bids,
    round_figures=round_figures,
    stat_figures=(StatFigure(N_("Exact bids"), "exact_bid_rate", "percent", of="exact_bids"),),
    bench_setup=(4, {}),
    table_part=PART,
)
