"""Racko's race bot (`games/racko/race.py`) and what it reads off a view (`race_features.py`)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.racko import RackoOptions, new_round, race_training
from scorekeeper.games.racko.bots import BaselineBot, RandomBot
from scorekeeper.games.racko.hard import HardBot
from scorekeeper.games.racko.play import DISCARD, PILE, RackoView
from scorekeeper.games.racko.race import (
    PLANNERS,
    SLOT_PLAYERS,
    RaceBot,
    covered,
    model,
    race_weights,
    slot_player_chance,
)
from scorekeeper.games.racko.race_features import (
    RackFeatures,
    TakeFeatures,
    offered_so_far,
    passes_and_takes,
)

HEADS_UP = RackoOptions(2, two_player_rule=False)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), mix=st.integers(0, 3))
def test_the_pile_tells_which_discards_the_other_took(seed: int, mix: int) -> None:
    """Every card put on the pile is offered once, to the next player; what the view's pile still holds tells
    which ones the other took and which it let pass, and what it discarded."""
    state = new_round(HEADS_UP, seed, dealer=seed % 2)
    kinds = [RandomBot(seed), BaselineBot(), HardBot()]
    bots = [kinds[mix % 3], kinds[(mix + 1) % 3]]
    took: dict[int, bool] = {}  # turn -> the player took the pile's top card
    discarded: dict[int, int] = {}  # turn -> the card put on the pile
    # until the stock runs out and the pile is shuffled into a new stock (random players get there; planning
    # players never do): the features read the pile as it is
    while not state.is_over and state.stock:
        seat, view = state.current_player, state.view(state.current_player)
        if view.phase == "draw":
            passed, taken, their_discards = passes_and_takes(view)
            others = [k for k in range(view.turn) if (view.turn - k) % 2 == 1]
            assert [k for k, _ in taken] == [k for k in others if took[k]]
            assert [k for k, _ in passed] == [k for k in others if not took[k]]
            assert their_discards == [discarded[k] for k in others]
        action = bots[seat].choose(view, state.legal_actions())
        turn = state.turn
        if view.phase == "draw":
            took[turn] = action == PILE
        state.apply(action)
        if view.phase == "place":
            discarded[turn] = state.discards[-1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), mix=st.integers(0, 2))
def test_the_offers_replayed_from_the_pile_are_what_the_seat_saw_then(seed: int, mix: int) -> None:
    """What the other held and did when each card was offered, replayed from the pile at the end, is what the
    seat saw at the time: the same features, and the other took the card exactly when it did."""
    state = new_round(HEADS_UP, seed, dealer=seed % 2)
    kinds = [RandomBot(seed), BaselineBot(), HardBot()]
    bots = [RaceBot(), kinds[mix]]
    then: dict[
        int, tuple[TakeFeatures, int]
    ] = {}  # the seat's turn -> its features then, the card it discarded
    while not state.is_over and state.stock:
        seat, view = state.current_player, state.view(state.current_player)
        if seat == 0 and view.phase in ("draw", "place"):
            last = view  # the seat to act reads the features (a call comes after the turn)
            features = TakeFeatures.of_view(view)
        state.apply(bots[seat].choose(view, state.legal_actions()))
        if seat == 0 and view.phase == "place" and not state.is_over:
            then[view.turn] = features, state.discards[-1]
    replayed = offered_so_far(last)
    _, took, _ = passes_and_takes(last)
    assert [(k, card) for k, (_, card) in sorted(then.items()) if k < last.turn - 1] == [
        (f.turn, card) for f, card, _ in replayed
    ]
    for features, card, taken in replayed:
        seen, _ = then[features.turn]
        assert features.known == seen.known
        assert features.of_slots(card) == seen.of_slots(card)
        assert taken == ((features.turn + 1, card) in took)


def test_it_tells_a_slot_targeting_player_from_a_planning_one() -> None:
    """By the end of a round the other's replies make a slot-targeting player more likely than a planning one
    when it is one, and less when it is not (20 rounds each, fixed deals)."""

    def last_chance(other: type, seed: int) -> float:
        state = new_round(HEADS_UP, seed, dealer=seed % 2)
        bots, chance = [RaceBot(), other()], 0.5
        while not state.is_over:
            view = state.view(state.current_player)
            if state.current_player == 0 and view.phase == "place":
                chance = slot_player_chance(view, model())
            state.apply(bots[state.current_player].choose(view, state.legal_actions()))
        return chance

    slot_player = [last_chance(BaselineBot, seed) for seed in range(20)]
    planner = [last_chance(HardBot, seed) for seed in range(20)]
    assert sum(slot_player) / 20 > 0.65 > 0.35 > sum(planner) / 20
    assert sum(a > b for a, b in zip(slot_player, planner, strict=True)) >= 15


def test_told_which_kind_of_computer_player_the_other_is_it_need_not_guess() -> None:
    """At a table where the other is a computer player of a known kind the bot knows it from the first move;
    for a person, or untold, it goes by the other's replies."""
    state = new_round(HEADS_UP, 5, dealer=1)
    bots = [RaceBot(), BaselineBot()]
    while state.turn < 8:
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    view = state.view(0)
    guessed = slot_player_chance(view, model())
    assert 0.0 < guessed < 1.0
    bot = RaceBot()
    assert bot.slot_player(view) == guessed
    for other, chance in [
        ("baseline", 1.0),
        ("scorekeeper.games.racko.bots:BaselineBot", 1.0),
        ("medium", 0.0),
        ("hard", 0.0),
        ("scorekeeper.games.racko.hard:HardBot", 0.0),
        (None, guessed),
        ("random", guessed),
    ]:
        bot.meet(("hard", other))
        assert bot.slot_player(view) == chance, other
    bot.meet(("hard", "hard", "baseline"))  # not heads-up: no other to name
    assert bot.slot_player(view) == guessed


def test_the_kinds_it_is_told_are_the_bots_of_those_names() -> None:
    """Every name the race bot knows a kind by loads (as the simulator loads a bot by name) a bot of that kind:
    a slot-targeting baseline, or a planning bot."""
    from scorekeeper.games.racko.spec import SPEC
    from scorekeeper.lab.selfplay import load_bot_factory

    for name in SLOT_PLAYERS:
        assert isinstance(load_bot_factory(SPEC, name)(), BaselineBot), name
    for name in PLANNERS:
        assert isinstance(load_bot_factory(SPEC, name)(), HardBot), name  # MediumBot plans as a HardBot


def _decisions(options: RackoOptions, seeds: range) -> list[tuple[RackoView, list]]:
    found = []
    for seed in seeds:
        state = new_round(options, seed, dealer=seed % options.players)
        bot = HardBot()
        while not state.is_over:
            view, legal = state.view(state.current_player), state.legal_actions()
            found.append((view, legal))
            state.apply(bot.choose(view, legal))
    return found


@pytest.mark.parametrize(
    "options",
    [RackoOptions(2), RackoOptions(3), RackoOptions(2, two_player_rule=False, variant="bonus")],
    ids=["2-player rule", "3 players", "bonus"],
)
def test_outside_the_rounds_it_was_made_for_it_is_the_planning_bot(options: RackoOptions) -> None:
    race, hard = RaceBot(), HardBot()
    for view, legal in _decisions(options, range(2)):
        assert not covered(view)
        assert race.choose(view, legal) == hard.choose(view, legal)


def test_heads_up_it_plays_legal_moves_and_ends_rounds() -> None:
    for seed in range(4):
        state = new_round(HEADS_UP, seed, dealer=seed % 2)
        bots = [RaceBot(), HardBot()] if seed % 2 else [HardBot(), RaceBot()]
        while not state.is_over:
            seat, legal = state.current_player, state.legal_actions()
            action = bots[seat].choose(state.view(seat), legal)
            assert any(type(action) is type(a) and action == a for a in legal)
            state.apply(action)
        assert state.turn < 90


def _place_view(rack: tuple[int, ...], drawn: int, seed: int = 3) -> RackoView:
    """A heads-up view of seat 0 placing `drawn` (taken from the stock) into `rack`."""
    view = new_round(HEADS_UP, seed, dealer=1).view(0)
    return dataclasses.replace(view, phase="place", rack=rack, drawn=drawn, drawn_from="stock", turn=8)


def test_it_completes_its_rack_when_the_card_does_it() -> None:
    rack = (2, 5, 9, 30, 16, 20, 24, 28, 33, 38)  # 30 is the one card out of order
    view = _place_view(rack, 12)
    assert RaceBot().choose(view, [*range(10), DISCARD]) == 3


def test_the_race_weights_are_a_distribution_over_finishing_turns() -> None:
    view = _decisions(HEADS_UP, range(1))[10][0]
    for ahead in (0, 1):
        for slot_player in (0.0, 0.3, 1.0):
            weights = race_weights(view, model(), ahead, slot_player)
            assert all(w >= 0 for w in weights) and 0 < sum(weights) <= 1 + 1e-9
    # a slot-targeting player finishes later than a planner: early turns weigh less when the other is one
    plans, slots = race_weights(view, model()), race_weights(view, model(), slot_player=1.0)
    assert sum(slots[:5]) < sum(plans[:5])
    half = race_weights(view, model(), slot_player=0.5)
    assert half == pytest.approx([(p + s) / 2 for p, s in zip(plans, slots, strict=True)])
    # the other one turn closer leaves less time: the early finishes count for more, the later ones less
    assert race_weights(view, model(), 1)[-1] <= race_weights(view, model(), 0)[-1]


def test_the_model_matches_the_features() -> None:
    data = model()
    view = next(v for v, _ in _decisions(HEADS_UP, range(1)) if v.phase == "place")
    assert len(RackFeatures(view).of(None, None)) == len(data["finish_features"])
    assert all(len(w) == len(data["finish_features"]) for w in data["finish_weights"])
    assert len(TakeFeatures.of_view(view).of(17)) == len(data["take_features"]) == len(data["take_weights"])
    slots = TakeFeatures.of_view(view).of_slots(17)
    assert len(slots) == len(data["slot_take_features"]) == len(data["slot_take_weights"])


def test_training_writes_constants_the_bot_plays_with(tmp_path: Path) -> None:
    """A tiny run of the whole recipe (self-play, played-on rounds, the denial labels, the fits): the constants
    have the shipped shapes, and the bot plays with them."""
    out = tmp_path / "model.json"
    race_training.main(["--rounds", "4", "--iterations", "1", "--seed", "3", "--out", str(out)])
    fitted = json.loads(out.read_text("utf-8"))
    shipped = model()
    for key in (
        "finish_weights",
        "other_finish_counts",
        "slot_finish_counts",
        "take_weights",
        "slot_take_weights",
        "finish_features",
        "take_features",
        "slot_take_features",
    ):
        assert np.shape(fitted[key]) == np.shape(shipped[key])
    # racks of the last iteration's 4 rounds that were completed (a bot fitted on 4 rounds may not get there)
    assert 0 < sum(fitted["other_finish_counts"]) <= 8
    assert sum(fitted["slot_finish_counts"]) == 1  # a third of the rounds, at least one
    state = new_round(HEADS_UP, 9, dealer=0)
    bots = [RaceBot(fitted), HardBot()]
    while not state.is_over:
        state.apply(
            bots[state.current_player].choose(state.view(state.current_player), state.legal_actions())
        )


def test_played_on_rounds_count_every_turn_until_the_rack_is_complete() -> None:
    rows = list(race_training.finish_rows(None, 2, 5))  # planning bots
    for seat in (0, 1):
        turns = [left for s, x, left in rows if s == seat and x is not None]
        finished = [left for s, x, left in rows if s == seat and x is None]
        # per round: finishing turn n, then rows for n placements counting down to 0
        assert len(finished) == 2 and sum(finished) == len(turns)
        assert turns.count(0) == 2


def test_a_logistic_fit_finds_the_side_that_matters() -> None:
    rows = [[1.0, v / 10] for v in range(-20, 21)]
    labels = [int(v > 0) for v in range(-20, 21)]
    w = race_training.fit_logistic(rows, labels)
    assert w[1] > 5 and abs(w[0]) < 1


def test_against_an_other_that_never_finishes_it_plans_instead_of_stalling() -> None:
    """Past every finishing turn the counts hold (a random player's round), the race weighs nothing: the
    planning bot decides, so the rack is still completed (the race bot stalled there and lost such rounds on
    points)."""
    for view, legal in _decisions(HEADS_UP, range(2)):
        late = dataclasses.replace(view, turn=view.turn + 120)
        if view.phase not in ("draw", "place"):
            continue
        assert race_weights(late, model()) == []
        assert RaceBot().choose(late, legal) == HardBot().choose(late, legal)
