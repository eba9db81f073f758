"""Racko as the app sees it: its options on the New game screen, its statistics figures and its GameSpec."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import scorekeeper.games.racko as rules
from scorekeeper.games.base import N_, Message
from scorekeeper.games.contract import OptionField, StatFigure, Values, option_default, package_spec
from scorekeeper.games.racko.options import DEFAULT_CHIP_ROUNDS, RackoOptions
from scorekeeper.games.racko.part import PART
from scorekeeper.games.racko.results import check_out_seats, score_result
from scorekeeper.games.racko.rules import longest_run

TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""Partners: seats 1+3 and 2+4 (0-based 0+2 and 1+3) sit opposite each other."""


def _not_chips(_players: int, values: Values) -> bool:
    return values.get("variant") != "chips"


def _chips(_players: int, values: Values) -> bool:
    return values.get("variant") == "chips"


def _default(name: str) -> Any:
    return option_default(RackoOptions, name)


FIELDS: tuple[OptionField, ...] = (
    OptionField(
        "variant",
        N_("Variant"),
        N_(
            "Standard: the caller scores 75, everyone else 5 per card in order. Bonus: the caller also "
            "scores their longest run of consecutive numbers. Chips: everyone pays chips to the caller."
        ),
        "choice",
        _default("variant"),
        (("standard", N_("Standard")), ("bonus", N_("Bonus")), ("chips", N_("Chips"))),
    ),
    OptionField(
        "two_player_rule",
        N_("2-player rule"),
        N_("Racko may only be called with at least 3 consecutive numbers in a row."),
        "bool",
        True,  # the options resolve "not set" to on for 2 players, the only table it applies to
        applies=lambda players, _values: players == 2,
    ),
    OptionField(
        "partners",
        N_("Partners"),
        N_("Seats 1 and 3 play against seats 2 and 4; partners add their scores."),
        "bool",
        _default("partners"),
        applies=lambda players, values: players == 4 and _not_chips(players, values),
    ),
    OptionField(
        "blitz",
        N_("Blitz-Racko"),
        N_("During the deal cards go into any empty slot; a Racko right after the deal scores 100."),
        "bool",
        _default("blitz"),
        applies=_not_chips,
    ),
    OptionField(
        "target",
        N_("Target"),
        N_("The game ends after a round in which someone reaches this score."),
        "int",
        _default("target"),
        applies=_not_chips,
    ),
    OptionField(
        "chips_start",
        N_("Chips per player"),
        N_("Chips each player starts with."),
        "int",
        _default("chips_start"),
        applies=_chips,
    ),
    OptionField(
        "rounds",
        N_("Rounds"),
        N_("Rounds to play in the chips game."),
        "int",
        DEFAULT_CHIP_ROUNDS,
        applies=_chips,
    ),
    OptionField(
        "chip_basis",
        N_("Who pays how much"),
        N_("By the payer's own longest run (as the rules say) or by the caller's run (a house rule)."),
        "choice",
        _default("chip_basis"),
        (("payer", N_("Payer's run")), ("caller", N_("Caller's run"))),
        applies=_chips,
    ),
)


def _bonus(result: Mapping[str, Any], options: RackoOptions, dealer: int, index: int) -> list[int]:
    """Bonus Racko: the run bonus per seat, as the game scores it (the bonus variant minus the same round
    scored in the standard variant). Zero for every other variant."""
    if options.variant != "bonus":
        return [0] * options.players
    with_bonus = score_result(result, options, dealer=dealer, round_index=index)
    plain = score_result(
        result, dataclasses.replace(options, variant="standard"), dealer=dealer, round_index=index
    )
    return [a - b for a, b in zip(with_bonus, plain, strict=True)]


def _runs(result: Mapping[str, Any]) -> list[int | None]:
    """The longest direct run per seat where it is known: computed from a detailed rack, else as entered."""
    racks = result.get("racks")
    if racks is not None:
        return [longest_run(rack) if rack is not None else None for rack in racks]
    runs = result.get("runs")
    return list(runs) if runs is not None else []


def round_figures(
    result: Mapping[str, Any], seat: int, options: RackoOptions, dealer: int, index: int
) -> Values:
    """Racko calls, run bonus points and the longest run of one seat in one round."""
    runs = _runs(result)
    return {
        "calls": int(seat in result.get("callers", [])),
        "bonus_points": _bonus(result, options, dealer, index)[seat],
        "longest_run": runs[seat] if seat < len(runs) else None,
    }


SPEC = package_spec(
    rules,
    title=Message("Racko"),
    about=Message("Sort your rack from low to high"),
    icon="VIEW_COLUMN",
    option_fields=FIELDS,
    chips=lambda options: options.is_chips,
    chips_start=lambda options: int(options.chips_start),
    settle_chips=rules.settle_chips,
    check_out_seats=check_out_seats,
    partners=lambda options: options.partners,
    teams=TEAMS,
    other_names=("Rack-O", "Rack O", "Racko!"),
    target=lambda options: None if options.is_chips else options.target,
    rounds_planned=lambda options: options.rounds if options.is_chips else None,
    round_figures=round_figures,
    best_figures=("longest_run",),
    stat_figures=(
        StatFigure(N_("Racko calls"), "calls"),
        StatFigure(N_("Bonus points"), "bonus_points"),
        StatFigure(N_("Longest run"), "longest_run", "best"),
    ),
    bench_setup=(2, {"two_player_rule": False}),
    check_entry=rules.check_entry,
    score_stored=rules.score_stored,
    calls=rules.caller_breakdown,
    table_part=PART,
)
