"""High card's moves in words."""

from __future__ import annotations

from typing import Any

from fourth_game.highcard.rules import SHOW
from scorekeeper.games.base import Message, seat_name


def describe_action(action: Any, view: Any) -> Message:
    if action != SHOW:
        raise ValueError(action)
    return Message("{who} shows their card.", who=seat_name(int(view.current_player)))
