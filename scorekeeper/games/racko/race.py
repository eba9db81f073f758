"""Racko's "hard" computer player heads-up: the race to a Racko, judged by learned models.

Two players racing to an ascending rack: a choice is as good as its chance of completing the rack before the
other does. The bot weighs each choice by

- the chance that its rack is complete within k more own turns, for k = 0..13: one logistic model per k over
  the rack after the choice (`race_features.RackFeatures`), fitted on racks of self-play played on until
  complete;
- when the other finishes: its finishing turn as counted, given that it has not finished yet, over self-play
  for a planning player and against a slot-targeting one (a rack the seat cannot see tells nothing better: a
  probe that knew the other's real rack won no more);
- denial: a card this seat discards is offered to the other next. When the other would take it, the other is
  counted a fifth of a turn closer to its Racko, times the chance that it takes the card, which a logistic
  model (`race_features.TakeFeatures`) tells from what everyone saw of the other's takes, passes and discards:
  one model for a player who plans, one for a player who fills each slot with a card of its band;
- which kind of player the other is: Bayes' rule over its replies to the cards this seat offered it so far,
  judged by both take models (`slot_player_chance`). A slot-targeting player's takes are easy to foresee
  (held-out AUC 0.90 against 0.64 for a planner's), so its kind shows within a round. When the other is a
  computer player whose kind is known (`meet`: "baseline" targets slots, "medium" and "hard" plan), the bot
  knows it from the first move.

The draw compares the top discard, put where it is worth most, with a card from the stock, averaged over the
cards the seat has not seen. The learned constants are in `race_model.json`; `race_training.py` tells how they
are made.

Measured (`python -m scorekeeper.lab.sim racko --players 2 --rounds 3000 --set two_player_rule=false`, 95% Wilson
intervals): against the baseline bot 87.8% (86.6-88.9) at seed 11 and 88.6% (87.4-89.7) at seed 12; pooled
with a paired run of 3,000 more (each deal played from both seats), 88.1% (87.4-88.8) of 9,000. Against the
planning bot 56.2% (54.4-58.0) and 54.8% (53.0-56.6); pooled the same way, 55.7% (54.7-56.7) of 9,000.
Without telling the kinds apart: 85.6% and 55.4% at seed 11. Measured again later at seeds 1, 2 and 3: against
the planning bot 53.6% (51.8-55.4), 56.0% and 54.2%, pooled 54.6% (53.6-55.6) of 9,000; against the baseline
88.8% at seed 1. Heads-up it is about 55%, no clearer.

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

from scorekeeper.games.base import Action, Table
from scorekeeper.games.racko.hard import HardBot, MediumBot
from scorekeeper.games.racko.play import DISCARD, PILE, STOCK, RackoView
from scorekeeper.games.racko.race_features import RackFeatures, TakeFeatures, offered_so_far
from scorekeeper.games.racko.rules import SLOTS

DENIAL = 0.2
"""How much of a turn the other gains by taking a discard it wants (measured: 0.1 and 0.2 best)."""
SURE = 0.98
"""One reply of the other counts as if the take models were at most this sure: a single surprise must not
settle what kind of player it is."""
TINY = 1e-6
"""A finishing turn this unlikely to decide the race is not worth the model's time."""
SLOT_PLAYERS = frozenset({"baseline", "scorekeeper.games.racko.bots:BaselineBot"})
"""Computer players, by their name at the table, that fill each slot with a card of its band: the strength, and
the baseline bot loaded by module (spelled out: `bots.py` imports this module)."""
PLANNERS = frozenset(
    {"medium", "hard", *(f"{bot.__module__}:{bot.__qualname__}" for bot in (HardBot, MediumBot))}
)
"""Computer players that plan their rack: the strengths, and the planning bots loaded by module (the simulator
names a bot loaded as `module:attr` so; `hard.HardBot` was "hard" before this bot)."""


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


def race_weights(
    view: RackoView, constants: Mapping[str, Any], ahead: int = 0, slot_player: float = 0.0
) -> list[float]:
    """weights[k]: how much "complete within k more own turns" counts in the chance of winning, from when the
    other finishes (given it has not yet): as counted for a planning player and for a slot-targeting one, mixed
    by `slot_player`, the chance that it is one. `ahead`: the other counted that many turns closer (0 or 1).
    Empty once the other has played longer than any counted finish: the counts say nothing about such a
    player."""
    k_max = len(constants["finish_weights"])
    plans = _finishing(view, constants["other_finish_counts"], k_max, ahead)
    slots = _finishing(view, constants["slot_finish_counts"], k_max, ahead) if slot_player > 0 else []
    if not slots or not plans:
        return plans or slots
    return [(1 - slot_player) * p + slot_player * s for p, s in zip(plans, slots, strict=True)]


def _finishing(view: RackoView, counts: Sequence[int], k_max: int, ahead: int) -> list[float]:
    """`race_weights` for an other whose finishing own turns are `counts`."""
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
    return [still_playing(start + k) - still_playing(start + k + 1) for k in range(k_max)]


def slot_player_chance(view: RackoView, constants: Mapping[str, Any]) -> float:
    """The chance that the other fills each slot with a card of its band (a slot-targeting player) rather than
    plans, from even odds: Bayes' rule over its replies to the cards this seat offered it so far, each judged
    by both take models as things stood when the card was offered."""
    slots, plans = constants["slot_take_weights"], constants["take_weights"]
    logit = 0.0
    for features, card, took in offered_so_far(view):
        x = features.of(card)
        a = min(SURE, max(1 - SURE, _chance(slots, [*x, *features.bands(card)])))
        b = min(SURE, max(1 - SURE, _chance(plans, x)))
        logit += math.log(a / b) if took else math.log((1 - a) / (1 - b))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


class RaceBot(HardBot):
    """Heads-up Racko by the learned race (see the module); `HardBot` for every other round. `constants`:
    other learned constants than the shipped ones (`race_training` plays with the ones it is fitting)."""

    def __init__(self, constants: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.constants = model() if constants is None else constants
        self.table: Table = ()

    def meet(self, table: Table) -> None:
        """Who sits where. Against a computer player of a known kind the bot need not tell its kind from its
        replies. Measured (`sim racko --players 2 --rounds 3000 --set two_player_rule=false`, seeds 1-4)
        against the planning bot: 55.1%, 55.6%, 54.8%, 53.5%, pooled 54.7% of 12,000; untold 53.6%, 56.0%,
        54.2%, 53.6%, pooled 54.4%: +0.4 points, within the noise. Against the baseline 89.2% and 88.8% at
        seeds 1 and 2 (untold 88.8% at seed 1)."""
        self.table = tuple(table)

    def slot_player(self, view: RackoView) -> float:
        """The chance that the other is a slot-targeting player: 1 or 0 when the table says which kind of
        computer player it is, else from its replies (`slot_player_chance`)."""
        if len(self.table) == 2:
            other = self.table[1 - view.seat]
            if other in SLOT_PLAYERS:
                return 1.0
            if other in PLANNERS:
                return 0.0
        return slot_player_chance(view, self.constants)

    def choose(self, view: RackoView, legal_actions: Sequence[Action]) -> Action:
        phase = view.phase
        weights: list[float] = []
        if covered(view) and phase in ("draw", "place"):
            slot_player = self.slot_player(view)
            weights = race_weights(view, self.constants, slot_player=slot_player)
        if not weights:
            # a round the models were not made for, a call, or an other that plays like no player the counts
            # know (a random player never finishes: the race would weigh nothing and the bot stall)
            return super().choose(view, legal_actions)
        if phase == "draw":
            return self._race_draw(view, legal_actions, weights)
        return self._race_place(view, legal_actions, weights, slot_player)

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

    def _race_place(
        self, view: RackoView, legal_actions: Sequence[Action], now: list[float], slot_player: float
    ) -> Action:
        """`slot_player`: the chance that the other is a slot-targeting player."""
        rack, offered = RackFeatures(view), TakeFeatures.of_view(view)
        behind = race_weights(view, self.constants, ahead=1, slot_player=slot_player)
        plans, slots = self.constants["take_weights"], self.constants["slot_take_weights"]
        best, choice = -1.0, legal_actions[0]
        for action in legal_actions:
            if action == DISCARD:
                x, given = rack.of(None, None), view.drawn
            elif isinstance(action, int):
                x, given = rack.of(view.drawn, action), view.rack[action]
            else:
                continue
            assert given is not None  # a card in a full rack, or the drawn one
            y = offered.of(given)
            slot_takes = _chance(slots, [*y, *offered.bands(given)])
            takes = slot_player * slot_takes + (1 - slot_player) * _chance(plans, y)
            f = DENIAL * takes
            value = (1 - f) * self._win(x, now) + f * self._win(x, behind)
            if value > best + 1e-12:
                best, choice = value, action
        return choice
