"""High card's GameSpec: what the app knows of it, with a part shape for its round entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import fourth_game.highcard as rules
from fourth_game.highcard.rules import DECK
from scorekeeper.games.base import Message
from scorekeeper.games.contract import OptionField, Part, PartShape, package_spec, whole


def _check(_seat: int, _stage: int, values: Part, *_rest: Any) -> Part:
    return {"card": whole(values.get("card"), 1, DECK, "A card is a number from 1 to 20.")}


def _build(parts: Sequence[Part], _options: Any) -> dict[str, Any]:
    return {"cards": [part["card"] for part in parts]}


PART = PartShape(
    (("card",),),
    _check,
    _build,
    {"card": ("count", "Your card")},
    most=lambda _name, _options, _index: DECK,
)

SPEC = package_spec(
    rules,
    title=Message("High card"),
    about=Message("The highest card wins"),
    icon="STYLE",
    option_fields=(OptionField("rounds", "Rounds", "How many rounds the game lasts.", "int", 3),),
    rounds_planned=lambda options: options.rounds,
    table_part=PART,
)
