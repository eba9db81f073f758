"""The one loop that plays a round to its end with computer players (`play_out`) and what a computer player is
(`Bot`: it chooses from a seat's view and the legal actions, never from the state).

Below `base`: the loop knows a round only as `Playable` (what it calls of one; `base.State` is one), so that
`base` may offer the driver without the two importing each other."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

Action = Any
"""A digital-play action: a plain JSON-safe value (str, int, or a short list)."""


class Playable(Protocol):
    """What `play_out` calls of a round: `base.State` has all of it."""

    @property
    def current_player(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def _view(self, seat: int) -> Any: ...

    def apply(self, action: Action) -> None: ...

    def apply_unchecked(self, action: Action) -> None: ...

    def _play_trusted(
        self, chooses: Sequence[Any], times: Sequence[Any], rewrite_views: bool = False
    ) -> None: ...


State = TypeVar("State", bound=Playable)
"""The round `play_out` is given, and returns."""

Mover = Callable[[int, "Action", float], None]
"""`on_move(seat, action, seconds)`: told after every move of `play_out` (seconds: the bot's thinking time)."""


def play_out(
    state: State,
    bots: Sequence[Bot | None],
    rng: random.Random | None = None,
    *,
    on_move: Mover | None = None,
    trusted: bool = False,
    seconds: Sequence[list[float]] | None = None,
) -> State:
    """Play the round to its end and return the state: each seat's bot chooses from that seat's view and the
    legal actions (never the state); a seat without a bot (None) plays a uniformly random legal action from
    `rng`. The one driver loop of the simulator, the benchmarks, the strength tools and the tests.

    A random choice is taken from `legal_actions()` and so applied unchecked; a bot's choice is checked
    (`State.apply`: a bot's mistake raises RuleError) unless `trusted` says the bots only ever return an
    action of the list they were given. `seconds` (one list per seat) gets each move's thinking time
    appended to its seat's list: what the simulator keeps, without a call per move as `on_move` costs."""
    # A generator only for seats without a bot (seeding one costs as much as a few moves).
    chooser = rng or (random.Random(0) if None in bots else _NO_RANDOM_SEAT)
    # bound once: this loop runs for every move of every simulated round
    legal_actions, view, fast = state.legal_actions, state._view, state.apply_unchecked
    checked = fast if trusted else state.apply
    if on_move is None and seconds is None:  # nobody asks for the time: no clock on the way
        if all(
            bot is None for bot in bots
        ):  # random play on every seat (the engine benchmarks): nothing else per move
            if type(chooser) is not random.Random:  # a generator of its own kind draws its own way
                choice = chooser.choice
                while not state.is_over:
                    fast(choice(legal_actions()))
                return state
            # `Random.choice` written out (its `_randbelow`: a draw of the length's bits, again while too
            # large), so the same generator picks the same moves (a test compares both) with two calls less
            bits = chooser.getrandbits
            while not state.is_over:
                legal = legal_actions()
                size = len(legal)
                if not size:
                    raise IndexError("Cannot choose from an empty sequence")  # as `choice` says
                width = size.bit_length()
                pick = bits(width)
                while pick >= size:
                    pick = bits(width)
                fast(legal[pick])
            return state
        while not state.is_over:
            seat = state.current_player
            bot = bots[seat]
            if bot is None:
                fast(chooser.choice(legal_actions()))
            else:
                checked(bot.choose(view(seat), legal_actions()))  # the seat to act: no seat check needed
        return state
    if on_move is None and trusted and None not in bots:  # the simulator's own bots: the least per move
        assert seconds is not None
        # each seat's bot's choice and its list of times, bound once (looked up on every move otherwise)
        chooses = [bot.choose for bot in bots]  # type: ignore[union-attr]
        # bots that keep nothing of a round (`reusable`) keep no view either: the game may write one again
        rewrite = all(getattr(bot, "reusable", False) is True for bot in bots)
        state._play_trusted(chooses, [spent.append for spent in seconds], rewrite)
        return state
    clock = time.perf_counter
    while not state.is_over:
        seat = state.current_player
        legal = legal_actions()
        bot = bots[seat]
        started = clock()
        if bot is None:
            action = chooser.choice(legal)
            spent = clock() - started
            fast(action)
        else:
            action = bot.choose(view(seat), legal)
            spent = clock() - started
            checked(action)
        if seconds is not None:
            seconds[seat].append(spent)
        if on_move is not None:
            on_move(seat, action, spent)
    return state


_NO_RANDOM_SEAT = random.Random(0)
"""Never drawn from: stands in for the generator when every seat has a bot."""


class Bot(Protocol):
    """A computer player: sees one seat's view and the legal actions, never the state."""

    def choose(self, view: Any, legal_actions: list[Action]) -> Action: ...

    # Optional: a method `meet(table)` is told who sits where before the bot plays (`meet`).
    # Optional: a class attribute `reusable = True` says the bot keeps nothing of a round (no view either) and
    # draws no random numbers, so that the simulator may make one for all its rounds (`selfplay._reusable_bots`)
    # and a game may show it a seat's view as one object written again for each move (`State._play_trusted`).


Table = tuple[str | None, ...]
"""Who sits at each seat, as everyone at the table knows it: the name of a computer player's bot in its game's
`bots` ("random", "baseline", "hard", ...; a bot loaded as `module:attr` by that name), None for a person."""


def meet(bots: Sequence[Bot | None], table: Sequence[str | None]) -> None:
    """Tell each bot that asks (it has a `meet` method) who sits at the table (`Table`), for example to model
    only the computer players whose rules it knows. Nothing hidden: who is a computer player, and of which
    strength, is public at the table."""
    seats = tuple(table)
    for bot in bots:
        told = getattr(bot, "meet", None)
        if told is not None:
            told(seats)
