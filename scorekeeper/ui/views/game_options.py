"""The options each game offers on the New game screen, as data: label, short explanation, kind, default and
when it applies. Defaults are RULES.md's; the rules modules' option classes do the validation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.rage.rules import EDITIONS
from scorekeeper.ui.context import N_

Values = dict[str, Any]


def _always(_players: int, _values: Values) -> bool:
    return True


@dataclass(frozen=True)
class OptionSpec:
    name: str
    label: str
    help: str
    kind: str  # "choice" | "bool" | "int"
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    applies: Callable[[int, Values], bool] = field(default=_always)
    default_for: Callable[[int], Any] | None = None  # a default that depends on the number of players
    # A choice that decides how many may play (Rage's edition): chosen value -> (fewest, most) players.
    players_for: Callable[[Any], tuple[int, int]] | None = None


def _not_chips(_players: int, values: Values) -> bool:
    return values.get("variant") != "chips"


def _chips(_players: int, values: Values) -> bool:
    return values.get("variant") == "chips"


GAME_OPTIONS: dict[str, tuple[OptionSpec, ...]] = {
    "racko": (
        OptionSpec(
            "variant",
            N_("Variant"),
            N_(
                "Standard: the caller scores 75, everyone else 5 per card in order. Bonus: the caller also "
                "scores their longest run of consecutive numbers. Chips: everyone pays chips to the caller."
            ),
            "choice",
            "standard",
            (("standard", N_("Standard")), ("bonus", N_("Bonus")), ("chips", N_("Chips"))),
        ),
        OptionSpec(
            "two_player_rule",
            N_("2-player rule"),
            N_("Racko may only be called with at least 3 consecutive numbers in a row."),
            "bool",
            True,
            applies=lambda players, _values: players == 2,
        ),
        OptionSpec(
            "partners",
            N_("Partners"),
            N_("Seats 1 and 3 play against seats 2 and 4; partners add their scores."),
            "bool",
            False,
            applies=lambda players, values: players == 4 and _not_chips(players, values),
        ),
        OptionSpec(
            "blitz",
            N_("Blitz-Racko"),
            N_("During the deal cards go into any empty slot; a Racko right after the deal scores 100."),
            "bool",
            False,
            applies=_not_chips,
        ),
        OptionSpec(
            "target",
            N_("Target"),
            N_("The game ends after a round in which someone reaches this score."),
            "int",
            500,
            applies=_not_chips,
        ),
        OptionSpec(
            "chips_start",
            N_("Chips per player"),
            N_("Chips each player starts with."),
            "int",
            25,
            applies=_chips,
        ),
        OptionSpec(
            "rounds", N_("Rounds"), N_("Rounds to play in the chips game."), "int", 10, applies=_chips
        ),
        OptionSpec(
            "chip_basis",
            N_("Who pays how much"),
            N_("By the payer's own longest run (as the rules say) or by the caller's run (a house rule)."),
            "choice",
            "payer",
            (("payer", N_("Payer's run")), ("caller", N_("Caller's run"))),
            applies=_chips,
        ),
    ),
    "ruckzuck": (
        OptionSpec(
            "rounds",
            N_("Rounds"),
            N_("At least one round per player, so that everyone deals once."),
            "int",
            None,
            default_for=lambda players: players,
        ),
    ),
    "rage": (
        OptionSpec(
            "edition",
            N_("Edition"),
            N_(
                "Original: 19 rounds (10 cards down to 1 and back), the dealer may not make the bids add up. "
                "Amigo and Fundex: 10 rounds from 10 cards down to 1; Fundex gives 0 for a missed bid "
                "and +5 (not +10) for an exact bid of 0."
            ),
            "choice",
            "seed",
            (("seed", N_("Original")), ("amigo", N_("Amigo")), ("fundex", N_("Fundex"))),
            players_for=lambda edition: (EDITIONS[edition].min_players, EDITIONS[edition].max_players),
        ),
        OptionSpec(
            "hook_rule",
            N_("Dealer's bid"),
            N_(
                "Whether the dealer may make the bids add up to the number of cards (the original forbids it)."
            ),
            "choice",
            None,
            ((None, N_("As the edition")), (True, N_("Forbidden")), (False, N_("Allowed"))),
        ),
    ),
}

PLAYER_RANGE: dict[str, tuple[int, int]] = {"racko": (2, 4), "ruckzuck": (2, 6), "rage": (2, 10)}


def player_range(game: str, values: Values) -> tuple[int, int]:
    """How many may play this game with these options: the game's range, narrowed by a choice that sets its
    own (Rage: each edition has its range, RULES.md 3.1)."""
    low, high = PLAYER_RANGE[game]
    for spec in GAME_OPTIONS[game]:
        if spec.players_for is not None:
            low, high = spec.players_for(values.get(spec.name, spec.default))
    return low, high


def default_value(spec: OptionSpec, players: int) -> Any:
    if spec.default_for is not None:
        return spec.default_for(players)
    return spec.default


def options_for(game: str, players: int, values: Values) -> dict[str, Any]:
    """The options dict for Match.new: the values of the options that apply, defaults for the rest."""
    chosen: dict[str, Any] = {}
    for spec in GAME_OPTIONS[game]:
        current = {**{s.name: default_value(s, players) for s in GAME_OPTIONS[game]}, **values, **chosen}
        if not spec.applies(players, current):
            continue
        value = values.get(spec.name, default_value(spec, players))
        if value is None:
            continue
        chosen[spec.name] = value
    return chosen
