"""Bot-versus-bot rounds: `simulate` plays a game's bots against each other and sums up what each did.

Each round is dealt by the game's own digital engine from a seed derived from the simulation's seed; seats rotate
between rounds and the deal passes left after each full rotation, so that no bot keeps the advantage of a position.
Bots only ever receive their seat's view; each round gets fresh bots made with the global generator seeded from the
simulation's seed, except bots that say they are `reusable` (they keep nothing of a round and draw no random
numbers), made once for all rounds. A round's winner is the seat with the best round score (lowest penalty in Ruck
Zuck); a shared best counts as a win for each bot that shares it. The command line is `scorekeeper.lab.sim`.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from scorekeeper.games.base import Bot, RuleError, meet, play_out
from scorekeeper.games.spec import GameSpec, spec


@dataclass
class BotRecord:
    """What one bot (one entry of `--bots`) did over the simulation."""

    name: str
    wins: int = 0
    points: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    exact_bids: int = 0
    decision_seconds: list[float] = field(default_factory=list)

    def summary(self, rounds: int, game: GameSpec) -> dict[str, Any]:
        row: dict[str, Any] = {
            "name": self.name,
            "wins": self.wins,
            "win_rate": round(self.wins / rounds, 4) if rounds else 0.0,
            "mean_points": round(statistics.fmean(self.points), 3) if self.points else 0.0,
            "mean_turns": round(statistics.fmean(self.turns), 3) if self.turns else 0.0,
            "decision_ms_median": round(1000 * statistics.median(self.decision_seconds), 3)
            if self.decision_seconds
            else 0.0,
        }
        if game.exact_bids is not None:
            row["exact_bid_rate"] = round(self.exact_bids / rounds, 4) if rounds else 0.0
        return row


def parse_value(text: str) -> Any:
    """An option value from the command line: JSON where it parses (true, 3, null), else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def load_bot_factory(game: GameSpec, name: str) -> Callable[[], Bot]:
    """A registered bot (`hard`) or a user's bot given as `module:attr` (a zero-argument callable)."""
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as error:
            raise RuleError(f"Cannot load the bot '{name}': {error}.") from None
        if not callable(factory):
            raise RuleError(f"The bot '{name}' is not a callable that makes a bot.")
        return factory
    if name not in game.bots:
        known = ", ".join(sorted(game.bots))
        raise RuleError(f"There is no bot called '{name}'. Known bots: {known}, or module:attr.")
    return game.bots[name]


def _seeded_bots(factories: list[Callable[[], Bot]], seed: int) -> list[Bot]:
    """Make the round's bots with the global generator seeded, so that bots which draw their own seed from it
    (random bots) repeat with the simulation's seed. The caller restores the global random state (once for many
    rounds)."""
    random.seed(seed)
    return [factory() for factory in factories]


def _reusable_bots(factories: list[Callable[[], Bot]]) -> list[Bot] | None:
    """One bot per entry for every round when each says it is `reusable` (it keeps nothing of a round and
    draws no random numbers, so a fresh one per round would decide alike); else None, and every round makes
    its own (seeding the global generator costs as much as a few moves)."""
    bots = [factory() for factory in factories]
    return bots if all(getattr(bot, "reusable", False) is True for bot in bots) else None


def schedule_length(game: GameSpec, options: Any) -> int:
    """Rounds of a full game when that is fixed (the round index cycles through them: Rage's hand sizes);
    1 for a game played to a target."""
    return game.rounds_planned(options) or 1


def play_round(
    game: GameSpec,
    options: Any,
    seed: int,
    seat_bots: list[Bot],
    dealer: int,
    round_index: int,
    trusted: bool = False,
) -> tuple[Any, list[list[float]]]:
    """Play one round to its end; return the final state and each seat's decision times (one per move).
    `trusted`: the bots are the game's own, which only ever choose from the legal actions they are given
    (their tests say so), and their moves are applied unchecked (`play_out`)."""
    seconds: list[list[float]] = [[] for _ in seat_bots]
    state = game.new_round(options, seed, dealer=dealer, round_index=round_index)
    play_out(state, seat_bots, seconds=seconds, trusted=trusted)
    return state, seconds


def simulate(
    game_name: str,
    players: int,
    bot_names: list[str],
    rounds: int,
    seed: int,
    settings: dict[str, Any] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play `rounds` rounds and return a JSON-ready summary: `rounds`, `rounds_per_second`, and `bots`, a list in
    the order given of `{name, wins, win_rate, mean_points, mean_turns, decision_ms_median}` (see docs/ARCHITECTURE.md)."""
    game = spec(game_name)
    try:
        options = game.Options(**{**(settings or {}), "players": players})
    except TypeError:
        known = ", ".join(f.name for f in dataclasses.fields(game.Options))
        raise RuleError(f"Unknown option in {sorted(settings or {})}; {game_name} knows: {known}.") from None
    if not bot_names:
        raise RuleError("Name at least one bot.")
    if len(bot_names) > players:
        raise RuleError(f"{len(bot_names)} bots cannot sit at a table of {players}.")
    # Fewer bots than seats: the last one named fills the remaining seats.
    names = bot_names + [bot_names[-1]] * (players - len(bot_names))
    factories = [load_bot_factory(game, name) for name in names]
    own = all(name in game.bots for name in names)  # a bot loaded as module:attr has its moves checked
    records = [BotRecord(name) for name in names]
    rng = random.Random(seed)
    length = schedule_length(game, options)
    started = time.perf_counter()
    bar: Iterable[int] = tqdm(
        range(rounds), desc=f"{game_name} rounds", disable=not progress, file=sys.stderr
    )
    saved = random.getstate()  # the bots are made with the global generator seeded per round
    try:
        reusable = _reusable_bots(factories)
        for number in bar:
            # Bot i sits in seat (i + number) % players: seats rotate every round.
            seat_entry = [(seat - number) % players for seat in range(players)]
            bot_seed = rng.randrange(2**32)  # drawn either way: the deals stay those of the seed
            if reusable is not None:
                seat_bots = [reusable[entry] for entry in seat_entry]
            else:
                seat_bots = _seeded_bots([factories[entry] for entry in seat_entry], bot_seed)
            meet(seat_bots, [names[entry] for entry in seat_entry])
            # The deal moves on only after a full turn of the seats, so that over players² rounds every bot
            # plays every position relative to the dealer (with both moving each round, one bot would always deal).
            dealer, round_index = (number // players) % players, number % length
            state, seconds = play_round(
                game, options, rng.randrange(2**32), seat_bots, dealer, round_index, own
            )
            # The engine's own count of the round (the conformance suite checks it is `score_result`'s).
            points = state.round_points()
            best = min(points) if game.lower_wins else max(points)
            exact = game.exact_bids(state.result()) if game.exact_bids is not None else None
            for seat, entry in enumerate(seat_entry):
                record, mine, spent = records[entry], points[seat], seconds[seat]
                record.points.append(mine)
                record.turns.append(len(spent))
                record.decision_seconds += spent
                if mine == best:
                    record.wins += 1
                if exact is not None:
                    record.exact_bids += int(exact[seat])
    finally:
        random.setstate(saved)
    elapsed = time.perf_counter() - started
    return {
        "game": game_name,
        "players": players,
        "options": dataclasses.asdict(options),
        "rounds": rounds,
        "seed": seed,
        "rounds_per_second": round(rounds / elapsed, 2) if elapsed else 0.0,
        "bots": [record.summary(rounds, game) for record in records],
    }
