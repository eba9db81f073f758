"""The options each game offers on the New game screen, as data: the games' own option fields
(`GameSpec.option_fields`: label, short explanation, kind, default and when it applies). Defaults are the
rules' own; the games' option classes do the validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.contract import OptionField
from scorekeeper.games.spec import ByKey

Values = dict[str, Any]
OptionSpec = OptionField

GAME_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = ByKey(lambda game: game.option_fields)

PLAYER_RANGE: Mapping[str, tuple[int, int]] = ByKey(lambda game: game.players)


def player_range(game: str, values: Values) -> tuple[int, int]:
    """How many may play this game with these options: the game's range, narrowed by a choice that sets its
    own (Rage: each edition has its range, RULES.md 3.1)."""
    low, high = PLAYER_RANGE[game]
    for field in GAME_OPTIONS[game]:
        if field.players_for is not None:
            low, high = field.players_for(values.get(field.name, field.default))
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
        if not spec.written(value, default_value(spec, players)):
            continue
        chosen[spec.name] = value
    return chosen
