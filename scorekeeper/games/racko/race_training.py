"""How the race bot's constants (`race_model.json`) are made: self-play data, then logistic models.

    python -m scorekeeper.games.racko.race_training --rounds 9000 --seed 1 --out race_model.json

1. **Finishing** (`finish_rows`): heads-up rounds are played on past the first Racko until both racks are
   complete, so that every rack's finishing turn is known (nothing is cut off by the other's win). Each
   placement's rack (`RackFeatures`) is a row, with the own turns it still took. One logistic model per k =
   0..13 fits "complete within k more turns". The other's finishing turns are counted from the same rounds.
   The first data come from the planning bot (`hard.HardBot`) against itself; each further iteration plays the
   race bot with the latest constants against itself (fitted-value iteration: the shipped constants are the
   second).
2. **Denial** (`take_rows`): the race bot plays the planning bot. At each of its placements, every card it could
   discard is labelled with what the planning bot, which decides from its view alone, would do if offered it:
   take it or not (asked of a copy of the round). The row is what everyone saw (`TakeFeatures.of`). The same
   against the slot-targeting player (`bots.BaselineBot`) makes its take model (`TakeFeatures.of_slots`); with
   both, the bot tells which kind of player the other is from its replies. The slot-targeting player's
   finishing turns are counted from played-on rounds against the race bot (`slot_finish_counts`).

Fitting needs numpy (`pip install -e '.[dev]'`); the app does not: it only reads the constants.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from scorekeeper.games.base import Bot
from scorekeeper.games.racko import RackoOptions, new_round
from scorekeeper.games.racko.bots import BaselineBot
from scorekeeper.games.racko.hard import HardBot
from scorekeeper.games.racko.play import CALL, DISCARD, PILE, WAIT, RackoState
from scorekeeper.games.racko.race import RaceBot, model
from scorekeeper.games.racko.race_features import RackFeatures, TakeFeatures
from scorekeeper.games.racko.rules import is_racko

HEADS_UP = RackoOptions(2, two_player_rule=False)
TURNS = 14
"""Finishing models for k = 0..TURNS - 1 more own turns."""
PLAY_ON = 90
"""Turns (both players') after which a played-on round stops: 47 of the 18,000 racks of the shipped counts were
not complete by then."""
UNFINISHED = 60
"""The finishing turn a rack not complete when its round stopped is counted at (the last of the counts)."""


def finish_rows(
    constants: Mapping[str, Any] | None, rounds: int, seed: int
) -> Iterator[tuple[int, list[float] | None, int]]:
    """(seat, features of a placement's rack, own turns it still took); and per seat and round one row
    (seat, None, the own turn it completed on, 1-based, or `UNFINISHED`). Both seats are race bots with
    `constants`, or planning bots (None)."""
    for r in range(rounds):
        players: list[Bot] = (
            [HardBot(), HardBot()] if constants is None else [RaceBot(constants), RaceBot(constants)]
        )
        rows, done = _played_on(players, seed + r)
        for seat in (0, 1):
            finished = done[seat]
            if finished is None:
                yield seat, None, UNFINISHED  # its placements' turns to come are unknown: no rows of them
                continue
            yield seat, None, finished
            for i, x in enumerate(rows[seat][:finished]):
                yield seat, x, finished - i - 1


def slot_finish_counts(constants: Mapping[str, Any], rounds: int, seed: int) -> list[int]:
    """counts[m]: rounds in which the slot-targeting player, against the race bot, completed its rack on its
    own turn m (`UNFINISHED`: not by the end of the played-on round); it sits in either seat by turns."""
    counts = [0] * (UNFINISHED + 1)
    for r in range(rounds):
        players: list[Bot] = [RaceBot(constants), BaselineBot()]
        if r % 2:
            players.reverse()
        _, done = _played_on(players, seed + r)
        counts[min(done[1 - r % 2] or UNFINISHED, UNFINISHED)] += 1
    return counts


def _played_on(players: Sequence[Bot], seed: int) -> tuple[list[list[list[float]]], list[int | None]]:
    """A heads-up round played on past the first Racko: per seat the features of each placement's rack, and
    the own turn (1-based) its rack was complete on, None when not by `PLAY_ON`."""
    state = new_round(HEADS_UP, seed, dealer=seed % 2)
    rows: list[list[list[float]]] = [[], []]
    done: list[int | None] = [None, None]
    while not state.is_over and state.turn < PLAY_ON and None in done:
        seat = state.current_player
        view = state.view(seat)
        if view.phase == "call":
            state.apply(WAIT)  # play on: the other's finishing turn is wanted too
            continue
        action = players[seat].choose(view, state.legal_actions())
        if view.phase == "place":
            features = RackFeatures(view)
            slot = action if isinstance(action, int) else None
            rows[seat].append(features.of(view.drawn if slot is not None else None, slot))
        state.apply(action)
        if view.phase == "place" and done[seat] is None and is_racko(state.racks[seat]):  # type: ignore[arg-type]  # heads-up racks are full
            done[seat] = len(rows[seat])
    return rows, done


def _takes(state: RackoState, action: Any, other: Callable[[], Bot]) -> bool | None:
    """Would the other player take the card this action discards? None when the round ends first."""
    after = state.clone()
    after.apply(action)
    if after.is_over or after.phase != "draw":
        return None
    return other().choose(after.view(after.current_player), after.legal_actions()) == PILE


def take_rows(
    constants: Mapping[str, Any], rounds: int, seed: int, slots: bool = False
) -> Iterator[tuple[list[float], int]]:
    """(features of "the other takes d", 1 if it would) for every card the race bot could discard, against the
    planning bot, or (`slots`) against the slot-targeting player with its features."""
    other: Callable[[], Bot] = BaselineBot if slots else HardBot
    for r in range(rounds):
        for me in (0, 1):
            state = new_round(HEADS_UP, seed + r, dealer=(seed + r) % 2)
            players: list[Bot] = [RaceBot(constants), other()]
            if me == 1:
                players.reverse()
            while not state.is_over:
                seat = state.current_player
                view, legal = state.view(seat), state.legal_actions()
                if seat == me and view.phase == "place":
                    offered, seen = TakeFeatures.of_view(view), set()
                    for action in legal:
                        if action == CALL:
                            continue
                        card = view.drawn if action == DISCARD else view.rack[action]
                        label = None if card in seen else _takes(state, action, other)
                        seen.add(card)
                        if label is not None:
                            yield offered.of_slots(card) if slots else offered.of(card), int(label)
                state.apply(players[seat].choose(view, legal))


def fit_logistic(
    rows: Sequence[Sequence[float]], labels: Sequence[int], penalty: float = 1e-2
) -> list[float]:
    """Weights of a logistic model (Newton's method, a small ridge penalty)."""
    import numpy as np  # only here: the app itself never fits

    x, y = np.asarray(rows, dtype=float), np.asarray(labels, dtype=float)
    w = np.zeros(x.shape[1])
    ridge = penalty * np.eye(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + ridge, x.T @ (p - y) + penalty * w)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return [float(v) for v in w]


def fit_finishing(rows: Sequence[tuple[int, list[float] | None, int]]) -> dict[str, Any]:
    """The finishing models and the finishing-turn counts from `finish_rows`."""
    x = [row for _, row, _ in rows if row is not None]
    left = [turns for _, row, turns in rows if row is not None]
    counts = [0] * (UNFINISHED + 1)
    for _, row, turn in rows:
        if row is None:
            counts[min(turn, UNFINISHED)] += 1
    return {
        "finish_weights": [fit_logistic(x, [int(t <= k) for t in left]) for k in range(TURNS)],
        "other_finish_counts": counts,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9000, help="rounds per iteration")
    parser.add_argument("--iterations", type=int, default=2, help="race-bot iterations after the first fit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    constants: dict[str, Any] = dict(model())
    playing: dict[str, Any] | None = None  # the first data come from the planning bots
    for i in range(args.iterations + 1):
        constants.update(fit_finishing(list(finish_rows(playing, args.rounds, args.seed + i * args.rounds))))
        playing = dict(constants)
    constants["slot_finish_counts"] = slot_finish_counts(
        constants, max(1, args.rounds // 3), args.seed + 2_000_000
    )
    for key, slots in (("take_weights", False), ("slot_take_weights", True)):
        rows = list(take_rows(constants, max(1, args.rounds // 10), args.seed + 1_000_000, slots))
        constants[key] = fit_logistic([x for x, _ in rows], [y for _, y in rows])
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(constants, out, indent=1)


if __name__ == "__main__":
    main()
