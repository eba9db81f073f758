"""Stored data for the history / statistics / settings screen tests: three saved players and finished games of
all three games, plus one game still running (which history and statistics must leave out).
(No tests here: the in-process and the browser tests of those screens import `seed_store`.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.model.match import Match

# Racko, 2 players (cards 1..40): a Racko with a run of 3, and a rack that counts 1.
RACKO_RUN3 = [1, 2, 3, 5, 7, 9, 11, 13, 15, 17]
RACKO_LOW = [40, 4, 6, 8, 10, 12, 14, 16, 18, 20]
RACKO_RUN4_FOR_B = [21, 22, 23, 24, 26, 28, 30, 32, 34, 36]  # Bob's Racko: run of 4
RACKO_A_LOW = [39, 25, 27, 29, 31, 33, 35, 37, 38, 19]  # Ann counts 1


@dataclass
class Seeded:
    players: dict[str, str]  # name -> player id
    racko: str
    rage: str
    ruckzuck: str
    running: str


def _racko_rounds() -> list[dict[str, Any]]:
    ann_calls = {"racks": [RACKO_RUN3, RACKO_LOW], "callers": [0], "blitz": False}
    bob_calls = {"racks": [RACKO_A_LOW, RACKO_RUN4_FOR_B], "callers": [1], "blitz": False}
    # Ann 75 x 6 + 5 = 455 ... then 530; Bob 5 x 6 + 75 = 105 ... 110.
    return [ann_calls, ann_calls, bob_calls, ann_calls, ann_calls, ann_calls, ann_calls, ann_calls]


def _rage_rounds() -> list[dict[str, Any]]:
    """Amigo edition, 3 players, hands 10 down to 1."""
    rounds = []
    for index in range(10):
        size = 10 - index
        first = size // 2
        tricks = [first, size - first, 0]
        bids = [first, 0 if index % 3 else size - first, 0]
        rounds.append({"bids": bids, "tricks": tricks, "bonus": [0, 0, 0], "minus": [0, 0, 0]})
    return rounds


def _ruckzuck_rounds() -> list[dict[str, Any]]:
    return [
        {"hands": [[45], [], [44]], "out": 1},
        {"hands": [[5, 6], [], 31], "out": 1},
        {"hands": [[12, 17, "J"], 3, []], "out": 2},
    ]


def seed_store(store: Any) -> Seeded:
    """Fill `store` (scorekeeper.store.Store) with players Ann, Bob and Cy and their games."""
    colours = {"Ann": "#E53935", "Bob": "#1E88E5", "Cy": "#43A047"}
    ids = {name: store.add_player(name, colour).id for name, colour in colours.items()}

    def save(game: str, options: dict[str, Any], names: list[str], rounds: list[dict[str, Any]]) -> str:
        match = Match.new(game, options, [ids[n] for n in names], names=names)
        for result in rounds:
            match = match.with_round(result)
        match = store.save_match(match)
        return match.id

    racko = save("racko", {}, ["Ann", "Bob"], _racko_rounds())
    rage = save("rage", {"edition": "amigo"}, ["Ann", "Bob", "Cy"], _rage_rounds())
    ruckzuck = save("ruckzuck", {}, ["Ann", "Bob", "Cy"], _ruckzuck_rounds())
    running = save("racko", {}, ["Bob", "Cy"], _racko_rounds()[:1])
    return Seeded(ids, racko, rage, ruckzuck, running)
