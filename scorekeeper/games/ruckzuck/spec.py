"""Ruck Zuck as the app sees it: its options on the New game screen, its statistics figure and its GameSpec."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import scorekeeper.games.ruckzuck as rules
from scorekeeper.games.base import N_, Message
from scorekeeper.games.contract import OptionField, StatFigure, Values, package_spec
from scorekeeper.games.ruckzuck.part import PART
from scorekeeper.games.ruckzuck.rules import MIN_PLAYERS, RuckZuckOptions

FIELDS: tuple[OptionField, ...] = (
    OptionField(
        "rounds",
        N_("Rounds"),
        N_("At least one round per player, so that everyone deals once."),
        "int",
        None,
        # the fewest who can play before anyone is seated: "0 rounds" read as a game of none
        default_for=lambda players: max(players, MIN_PLAYERS),
    ),
)


def round_figures(
    result: Mapping[str, Any], seat: int, _options: RuckZuckOptions, _dealer: int, _index: int
) -> Values:
    """Whether the seat went out (placed its last card) in this round."""
    return {"times_out": int(result.get("out") == seat)}


SPEC = package_spec(
    rules,
    other_names=("RuckZuck", "Ruck-Zuck"),
    title=Message("Ruck Zuck"),
    about=Message("Place your cards next to the cards on the board"),
    icon="GRID_ON",
    unit=Message("penalty points"),
    option_fields=FIELDS,
    rounds_planned=lambda options: options.planned_rounds,
    round_figures=round_figures,
    stat_figures=(StatFigure(N_("Went out"), "times_out"),),
    bench_setup=(4, {}),
    table_part=PART,
    read_options=rules.read_options,
)
