"""The few things a play session asks of a game's engine, in one place (no Flet, no files).

Every game module exports `Options`, `BOTS`, `new_round` and (optionally) `describe` with `describe_action`.
`new_round` is called with the keyword arguments the game accepts, so this works both before and after the
engines share one `new_round(options, seed, *, dealer, round_index, scores, out)` signature.
"""

from __future__ import annotations

import inspect
import random
from importlib import import_module
from types import ModuleType
from typing import Any

from scorekeeper.games.base import Action, Bot, Message, State

STRENGTHS: dict[str, str] = {"easy": "random", "normal": "baseline", "medium": "medium", "hard": "hard"}
"""A computer player's strength as the app names it -> the engine's bot name (BOTS)."""

HINT_BOT = "hard"
"""The hint is the move this bot would make in the person's place."""


def rules(game: str) -> ModuleType:
    """`scorekeeper.games.<game>`."""
    return import_module(f"scorekeeper.games.{game}")


def strengths(game: str) -> list[str]:
    """The strengths a computer player of `game` can have (medium only where the game has such a bot)."""
    bots = rules(game).BOTS
    return [strength for strength, bot in STRENGTHS.items() if bot in bots]


def make_bot(game: str, strength: str) -> Bot:
    bots = rules(game).BOTS
    name = STRENGTHS.get(strength, strength)
    if name not in bots:
        name = "baseline"
    return bots[name]()


def round_seed(seed: int, round_index: int) -> int:
    """Each round of a match gets its own deal, fixed by the match's seed (so a resume deals the same)."""
    return random.Random(f"{seed}:{round_index}").getrandbits(48)


def start_round(
    game: str,
    options: Any,
    seed: int,
    *,
    dealer: int,
    round_index: int,
    scores: list[int] | None,
    out: list[int],
) -> State:
    """A new round of `game`, passing each engine only the arguments it takes."""
    new_round = rules(game).new_round
    wanted = {"dealer": dealer, "round_index": round_index, "scores": scores, "out": tuple(out)}
    accepted = inspect.signature(new_round).parameters
    if not out:
        wanted.pop("out")
    kwargs = {key: value for key, value in wanted.items() if key in accepted}
    return new_round(options, seed, **kwargs)


def describe_module(game: str) -> ModuleType | None:
    try:
        return import_module(f"scorekeeper.games.{game}.describe")
    except ModuleNotFoundError:
        return None


def describe_action(game: str, action: Action, view: Any) -> Message:
    """A move in words (`games.<game>.describe.describe_action`); a plain fallback where a game has none."""
    module = describe_module(game)
    if module is not None:
        return module.describe_action(action, view)
    return Message("{who} played {action}.", who=_seat(view), action=str(action))


def describe_result(game: str, result: dict[str, Any], options: Any) -> list[Message] | None:
    """The breakdown of a round per seat (e.g. ascending count and runs), where the game describes one."""
    module = describe_module(game)
    describe = getattr(module, "describe_result", None) if module is not None else None
    return None if describe is None else describe(result, options)


def _seat(view: Any) -> Message:
    from scorekeeper.games.base import seat_name

    return seat_name(int(getattr(view, "current_player", 0)))
