"""Ruck Zuck as the app sees it: its options on the New game screen, its statistics figure and its GameSpec."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import scorekeeper.games.ruckzuck as rules
from scorekeeper.games.base import N_, Message
from scorekeeper.games.contract import GameSpec, OptionField, StatFigure, Values
from scorekeeper.games.ruckzuck.bots import BOTS
from scorekeeper.games.ruckzuck.play import new_round, replay
from scorekeeper.games.ruckzuck.rules import (
    LOWER_WINS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RuckZuckOptions,
    score_result,
    validate_result,
)

FIELDS: tuple[OptionField, ...] = (
    OptionField(
        "rounds",
        N_("Rounds"),
        N_("At least one round per player, so that everyone deals once."),
        "int",
        None,
        default_for=lambda players: players,
    ),
)


def round_figures(
    result: Mapping[str, Any], seat: int, _options: RuckZuckOptions, _dealer: int, _index: int
) -> Values:
    """Whether the seat went out (placed its last card) in this round."""
    return {"times_out": int(result.get("out") == seat)}


SPEC = GameSpec(
    key="ruckzuck",
    title=Message("Ruck Zuck"),
    about=Message("Place your cards next to the cards on the board"),
    icon="GRID_ON",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    Options=RuckZuckOptions,
    lower_wins=LOWER_WINS,
    unit=Message("penalty points"),
    validate_result=validate_result,
    score_result=score_result,
    new_round=new_round,
    replay=replay,
    bots=BOTS,
    strengths=(("easy", "baseline"), ("medium", "medium"), ("hard", "hard")),
    option_fields=FIELDS,
    rules=rules,
    rounds_planned=lambda options: options.planned_rounds,
    round_figures=round_figures,
    stat_figures=(StatFigure(N_("Went out"), "times_out"),),
    bench_setup=(4, {}),
)
