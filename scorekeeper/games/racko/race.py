"""Racko's "hard" computer player heads-up: the race to a Racko, judged by learned models.

Two players racing to an ascending rack: a choice is as good as its chance of completing the rack before the
other does. The bot weighs each choice by

- the chance that its rack is complete within k more own turns, for k = 0..13: one logistic model per k over
  the rack after the choice (`race_features.RackFeatures`), fitted on racks of self-play played on until
  complete;
- when the other finishes: its finishing turn as counted over self-play, given that it has not finished yet
  (a rack the seat cannot see tells nothing better: a probe that knew the other's real rack won no more);
- denial: a card this seat discards is offered to the other next. When the other would take it, the other is
  counted a fifth of a turn closer to its Racko, times the chance that it takes the card, which a logistic
  model (`race_features.TakeFeatures`) tells from what everyone saw of the other's takes, passes and discards.

The draw compares the top discard, put where it is worth most, with a card from the stock, averaged over the
cards the seat has not seen. The learned constants are in `race_model.json`; how they were made and what the
bot measured is told in docs/ARCHITECTURE.md ("Computer players").

It plays the rounds its models were made for: two players, the 40-card deck, the points game without the
2-player rule or Blitz. In any other round it is today's planning bot (`hard.HardBot`), which it extends; so
too once the other has played longer than any finish the counts hold (a player that never finishes).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from scorekeeper.games.base import Action
from scorekeeper.games.racko.hard import HardBot
from scorekeeper.games.racko.play import DISCARD, PILE, STOCK, RackoView
from scorekeeper.games.racko.race_features import RackFeatures, TakeFeatures
from scorekeeper.games.racko.rules import SLOTS

DENIAL = 0.2
"""How much of a turn the other gains by taking a discard it wants (measured: 0.1 and 0.2 best)."""
TINY = 1e-6
"""A finishing turn this unlikely to decide the race is not worth the model's time."""


@cache
def model() -> dict[str, Any]:
    """The learned constants (read once)."""
    text = resources.files("scorekeeper.games.racko").joinpath("race_model.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _chance(weights: Sequence[float], x: Sequence[float]) -> float:
    """The logistic model's chance for the features `x`."""
    s = sum(w * v for w, v in zip(weights, x, strict=True))
    if s < -30.0:
        return 0.0
    if s > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-s))


def covered(view: RackoView) -> bool:
    """Whether the models were made for this round: heads-up, 40 cards, points game, no 2-player rule or
    Blitz, a full rack."""
    options = view.options
    return (
        options.players == 2
        and view.deck_size == 40
        and options.variant == "standard"
        and not options.two_player_rule
        and not options.blitz
        and None not in view.rack
    )


def race_weights(view: RackoView, constants: Mapping[str, Any], ahead: int = 0) -> list[float]:
    """weights[k]: how much "complete within k more own turns" counts in the chance of winning, from when the
    other finishes (given it has not yet). `ahead`: the other counted that many turns closer (0 or 1). Empty
    once the other has played longer than any counted finish: the counts say nothing about such a player."""
    counts = constants["other_finish_counts"]
    turns = view.turn // 2 + 1
    first = 1 if view.turn % 2 == 0 else 0
    tail = [0.0] * (len(counts) + 2)
    for m in range(len(counts) - 1, -1, -1):
        tail[m] = tail[m + 1] + counts[m]
    played = turns - first  # the other's turns so far, none of them a Racko
    alive = tail[played + 1] if played + 1 < len(tail) else 0.0
    if alive <= 0:
        return []

    def still_playing(m: int) -> float:
        """The chance that the other's finishing turn is m or later, given it is after `played`."""
        m = max(m, played + 1)
        return tail[m] / alive if m < len(tail) else 0.0

    start = turns + 1 - first + ahead
    k_max = len(constants["finish_weights"])
    return [still_playing(start + k) - still_playing(start + k + 1) for k in range(k_max)]


class RaceBot(HardBot):
    """Heads-up Racko by the learned race (see the module); `HardBot` for every other round. `constants`:
    other learned constants than the shipped ones (`race_training` plays with the ones it is fitting)."""

    def __init__(self, constants: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.constants = model() if constants is None else constants

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        phase = view.phase
        weights = race_weights(view, self.constants) if covered(view) and phase in ("draw", "place") else []
        if not weights:
            # a round the models were not made for, a call, or an other that plays like no planner (a random
            # player never finishes: the race would weigh nothing and the bot stall)
            return super().choose(view, legal_actions)
        if phase == "draw":
            return self._race_draw(view, legal_actions, weights)
        return self._race_place(view, legal_actions, weights)

    def _win(self, x: Sequence[float], weights: Sequence[float]) -> float:
        """The chance of winning with the rack features `x` under the race `weights`."""
        finish = self.constants["finish_weights"]
        return sum(w * _chance(finish[k], x) for k, w in enumerate(weights) if w > TINY)

    def _race_draw(self, view: RackoView, legal_actions: Sequence[Action], weights: list[float]) -> Action:
        top = view.discard_top
        if PILE not in legal_actions or top is None:
            return STOCK
        rack = RackFeatures(view)
        pile = max(self._win(rack.of(top, slot), weights) for slot in range(SLOTS))
        keep = self._win(rack.of(None, None), weights)
        total = 0.0
        for card in rack.unseen:
            total += max(keep, *(self._win(rack.of(card, slot), weights) for slot in range(SLOTS)))
        return PILE if pile > total / max(len(rack.unseen), 1) else STOCK

    def _race_place(self, view: RackoView, legal_actions: Sequence[Action], now: list[float]) -> Action:
        rack, offered = RackFeatures(view), TakeFeatures(view)
        behind = race_weights(view, self.constants, ahead=1)
        take = self.constants["take_weights"]
        best, choice = -1.0, legal_actions[0]
        for action in legal_actions:
            if action == DISCARD:
                x, given = rack.of(None, None), view.drawn
            elif isinstance(action, int):
                x, given = rack.of(view.drawn, action), view.rack[action]
            else:
                continue
            f = DENIAL * _chance(take, offered.of(given))  # type: ignore[arg-type]  # a card
            value = (1 - f) * self._win(x, now) + f * self._win(x, behind)
            if value > best + 1e-12:
                best, choice = value, action
        return choice
