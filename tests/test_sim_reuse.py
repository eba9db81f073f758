"""The simulator's short cuts give the rounds its plain way gives: bots that say they are reusable made once
instead of per round, and the driver's own loops for the simulator's timed bots and for random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.games.driver import play_out
from scorekeeper.games.racko import RackoOptions, new_round
from scorekeeper.games.racko.bots import BaselineBot
from scorekeeper.lab import selfplay


def _outcome(summary: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What the rounds decided (the speed and the thinking times aside)."""
    return [(r["name"], r["wins"], r["mean_points"], r["mean_turns"]) for r in summary["bots"]]


@pytest.mark.parametrize("settings", [{"two_player_rule": False}, {}, {"blitz": True}])
def test_reused_bots_decide_as_fresh_ones(settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    assert BaselineBot.reusable is True
    reused = selfplay.simulate("racko", 2, ["baseline"], 60, 5, settings)
    monkeypatch.setattr(selfplay, "_reusable_bots", lambda _factories: None)
    fresh = selfplay.simulate("racko", 2, ["baseline"], 60, 5, settings)
    assert _outcome(reused) == _outcome(fresh)


def test_a_bot_without_the_flag_is_made_per_round() -> None:
    assert selfplay._reusable_bots([BaselineBot, lambda: object()]) is None  # type: ignore[list-item]
    assert len(selfplay._reusable_bots([BaselineBot, BaselineBot]) or []) == 2


def test_the_timed_loop_plays_as_the_checked_one() -> None:
    """The simulator's loop (trusted, timed) and the checked loop give the same log and one time per move."""
    options = RackoOptions(3, variant="bonus")
    for seed in range(8):
        fast, checked = new_round(options, seed), new_round(options, seed)
        seconds: list[list[float]] = [[], [], []]
        play_out(fast, [BaselineBot()] * 3, seconds=seconds, trusted=True)
        play_out(checked, [BaselineBot()] * 3)
        assert fast.log == checked.log and fast.round_points() == checked.round_points()
        assert sum(len(s) for s in seconds) == len(fast.log)


@pytest.mark.parametrize("game", ["rage", "racko", "ruckzuck"])
def test_random_play_draws_as_a_plain_loop(game: str) -> None:
    """Random play on every seat: the same choices from the generator as a loop of `apply` with
    `Random.choice` would make (the driver draws as `choice` does, written out)."""
    spec = selfplay.spec(game)
    options = spec.Options(players=4)
    for seed in range(5):
        driven = spec.new_round(options, seed)
        play_out(driven, [None] * 4, random.Random(seed))
        plain, rng = spec.new_round(options, seed), random.Random(seed)
        while not plain.is_over:
            plain.apply(rng.choice(plain.legal_actions()))
        assert driven.log == plain.log


class _Watching:
    """A bot that checks, before it chooses, that what the simulator's loop gives it is what the state shows
    its seat now: the same view (field by field) and the same legal actions."""

    def __init__(self, bot: Any, state: Any) -> None:
        self.bot, self.state = bot, state
        self.reusable = getattr(bot, "reusable", False)  # as the bot says: the game may rewrite its views

    def choose(self, view: Any, legal: list[Any]) -> Any:
        shown = self.state.view(self.state.current_player)
        assert vars(view) == vars(shown) and view == shown
        assert legal == self.state.legal_actions()
        return self.bot.choose(view, legal)


@pytest.mark.parametrize(
    ("game", "players", "settings"),
    [
        ("racko", 2, {"two_player_rule": False}),
        ("racko", 2, {}),
        ("racko", 3, {"variant": "bonus"}),
        ("racko", 4, {"blitz": True}),
        ("racko", 3, {"variant": "chips"}),
        ("rage", 4, {}),
        ("ruckzuck", 3, {}),
    ],
)
@pytest.mark.parametrize("mixed", [True, False])
def test_the_simulators_loop_shows_each_bot_its_seats_view(
    game: str, players: int, settings: dict[str, Any], mixed: bool
) -> None:
    """The trusted, timed loop (`State._play_trusted`, which a game may write as its own) gives each bot the
    view and the legal actions the state shows the seat to act, and plays the moves the checked loop plays;
    with baseline bots alone (`reusable`: they keep no view) the game may show a seat one view written again."""
    spec = selfplay.spec(game)
    options = spec.Options(**settings, players=players)
    # the searching bots think to a clock (their play need not repeat); baseline bots alone keep no views
    names = ["baseline", "random"] if mixed else ["baseline"]
    for seed in range(6):
        random.seed(seed)
        bots = [spec.bots[names[(seed + k) % len(names)]]() for k in range(players)]
        fast = spec.new_round(options, seed, dealer=seed % players)
        random.seed(seed)
        again = [spec.bots[names[(seed + k) % len(names)]]() for k in range(players)]
        checked = spec.new_round(options, seed, dealer=seed % players)
        seconds: list[list[float]] = [[] for _ in range(players)]
        play_out(fast, [_Watching(bot, fast) for bot in bots], seconds=seconds, trusted=True)
        play_out(checked, again)
        assert fast.log == checked.log and fast.round_points() == checked.round_points()
        assert sum(len(s) for s in seconds) == len(fast.log)
