"""The few things a play session asks of a game, through the game registry (no Flet, no files)."""

from __future__ import annotations

import random
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import Action, Bot, Message, State, Table, meet
from scorekeeper.games.spec import find, spec

if TYPE_CHECKING:  # the type only
    from scorekeeper.model.match import Match

HINT_BOT = "hard"
"""The hint is the move this bot would make in the person's place."""


def strengths(game: str) -> list[str]:
    """The strengths a computer player of `game` can have (only those whose bot the game has)."""
    game_spec = spec(game)
    return [strength for strength, bot in game_spec.strengths if bot in game_spec.bots]


def bot_name(game: str, strength: str) -> str:
    """The name of the bot that plays `strength` in `game` (the baseline for a strength it does not know)."""
    game_spec = spec(game)
    name = dict(game_spec.strengths).get(strength, strength)
    return name if name in game_spec.bots else "baseline"


def make_bot(game: str, strength: str, table: Table = ()) -> Bot:
    """A computer player of `strength`, told who sits at the `table` (`meet`) when it is given."""
    bot = spec(game).bots[bot_name(game, strength)]()
    if table:
        meet([bot], table)
    return bot


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
    """A new round of `game` (the registry's one `new_round` signature)."""
    return spec(game).new_round(
        options, seed, dealer=dealer, round_index=round_index, scores=scores, out=tuple(out)
    )


def deal(match: Match, seed: int, index: int) -> State:
    """Round `index` of `match` as a saved game with `seed` deals it: the round's dealer, the totals before it and
    the seats out of it as the match has them (a resume deals the same)."""
    totals = match.totals()
    for points in match.round_scores()[index:]:
        totals = [t - p for t, p in zip(totals, points, strict=True)]
    out = match.tally().out
    return start_round(
        match.game,
        match.opts,
        round_seed(seed, index),
        dealer=match.dealer_of(index),
        round_index=index,
        scores=totals,
        out=list(out[index]) if index < len(out) else [],
    )


def describe_module(game: str) -> ModuleType | None:
    try:
        found = find(game)
        return None if found is None else import_module(f"{found.rules.__name__}.describe")
    except ModuleNotFoundError:
        return None


def describe_action(game: str, action: Action, view: Any) -> Message:
    """A move in words (the spec's `describe_action`: every game has a describe module, the conformance suite
    checks it, so a move is never shown in its internal form)."""
    return spec(game).describe_action(action, view)


def describe_outcome(game: str, action: Action, before: Any, after: Any) -> list[Message]:
    """What a move brought about beyond the move itself (Rage: the new trump, a trick's winner that only the
    view after the move shows); empty for a game without such words."""
    module = describe_module(game)
    outcome = getattr(module, "describe_outcome", None) if module is not None else None
    return [] if outcome is None else list(outcome(action, before, after))


def has_outcome(game: str) -> bool:
    """Whether `game` words what a move brought about (so the session keeps the view after each move)."""
    module = describe_module(game)
    return module is not None and hasattr(module, "describe_outcome")


def describe_result(game: str, result: dict[str, Any], options: Any) -> list[Message] | None:
    """The breakdown of a round per seat (e.g. ascending count and runs), where the game describes one."""
    module = describe_module(game)
    describe = getattr(module, "describe_result", None) if module is not None else None
    return None if describe is None else describe(result, options)
