"""Every game in the registry keeps one play contract (docs/ARCHITECTURE.md, "The game contract and the registry"), checked the way
OpenSpiel checks its games: random rounds end, illegal moves change nothing, a replayed log gives the same
round, a clone is independent, actions and logs survive JSON, and no view shows a card hidden from its seat.
A refused move is named in words (the game's `describe_action`; garbage goes unnamed, never quoted as code) in
every language, with the game's own reason.

Parametrised over `GAMES` and the test-only fourth game (high card, `tests/fourth_game`): a new game gets all of
this by its registry line (plus a hidden-card swap below). The fourth game also reaches the screens once it is
registered: the round-entry form and the play screen (the end of this file).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fourth_game import registered
from fourth_game.highcard.spec import SPEC as HIGH_CARD
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ui_core_harness import App, start, tap_all

from scorekeeper.games.base import NOT_LEGAL, Message, RuleError, State, play_out, same_action
from scorekeeper.games.contract import GameSpec
from scorekeeper.games.spec import GAMES, register, unregister
from scorekeeper.ui.i18n import Translator
from scorekeeper.ui.registry import MissingUI, check, ui_of

TRANSLATORS = [Translator(language) for language in ("de", "nl", "fr")]

CHECKED = [*GAMES, HIGH_CARD]
SPECS = pytest.mark.parametrize("game", CHECKED, ids=[game.key for game in CHECKED])
JUNK: list[Any] = [
    None,
    True,
    False,
    -1,
    99,
    1.0,
    "",
    "nonsense",
    "stock",
    "draw",
    "end",
    "call",
    [],
    ["bid"],
    ["bid", 99],
    ["bid", True],
    ["bid", 1.0],
    ["play", "x9"],
    ["play", "W"],
    ["place", 99, 99],
    ["place", "J", "J9"],
    ["swap", 0],
    {"play": 1},
]


def _options(game: GameSpec, players: int, values: dict[str, Any] | None = None) -> Any | None:
    try:
        return game.Options(players, **(values or {}))
    except RuleError:  # e.g. an edition for fewer players
        return None


@st.composite
def rounds(draw: st.DrawFn, game: GameSpec) -> tuple[Any, int, int, int]:
    """Options for a table size the game allows (the choices and switches of its option fields drawn as the
    New game screen offers them), a seed, a dealer and a round of the schedule."""
    sizes = [n for n in range(game.players[0], game.players[1] + 1) if _options(game, n) is not None]
    players = draw(st.sampled_from(sizes))
    values: dict[str, Any] = {}
    for field in game.option_fields:
        if not field.applies(players, values):
            continue
        if field.kind == "choice":
            values[field.name] = draw(st.sampled_from([choice for choice, _ in field.choices]))
        elif field.kind == "bool":
            values[field.name] = draw(st.booleans())
    options = _options(game, players, values) or _options(game, players)
    dealer = draw(st.integers(0, options.players - 1))
    index = draw(st.integers(0, (game.rounds_planned(options) or 1) - 1))
    return options, draw(st.integers(0, 2**32)), dealer, index


def _deal(game: GameSpec, drawn: tuple[Any, int, int, int]) -> State:
    options, seed, dealer, index = drawn
    return game.new_round(options, seed, dealer=dealer, round_index=index)


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list | tuple) else value


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a player could ever learn of the state: every seat's view, the log, the legal actions."""
    return (
        _freeze(state.log),
        tuple(state.view(seat) for seat in range(state.options.players)),
        state.current_player,
        _freeze(state.legal_actions()),
    )


def _random_steps(state: State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))


def _midway(game: GameSpec, data: st.DataObject, most: int = 60) -> tuple[State, random.Random]:
    """A round of drawn options played randomly for a drawn number of moves (it may be over by then)."""
    drawn = data.draw(rounds(game))
    state = _deal(game, drawn)
    rng = random.Random(drawn[1])
    _random_steps(state, rng, data.draw(st.integers(0, most)))
    return state, rng


CASES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SPECS
def test_registry_entry_is_complete(game: GameSpec) -> None:
    low, high = game.players
    assert 2 <= low <= high and game.title and game.about and game.unit
    # Every game offers easy, normal and hard computer players; medium only where it has that bot.
    offered = {strength for strength, bot in game.strengths if bot in game.bots}
    assert {"easy", "normal", "hard"} <= offered
    for field in game.option_fields:
        assert field.name in {f for f in game.Options.__dataclass_fields__}


@SPECS
@CASES
@given(data=st.data())
def test_random_rounds_end_with_a_valid_result(game: GameSpec, data: st.DataObject) -> None:
    drawn = data.draw(rounds(game))
    options, seed, dealer, index = drawn
    state = play_out(_deal(game, drawn), [None] * options.players, random.Random(seed))
    assert state.is_over and state.current_player == -1 and state.legal_actions() == []
    result = state.result()
    assert json.loads(json.dumps(result)) == result
    game.validate_result(result, options, dealer=dealer, round_index=index)
    points = game.score_result(result, options, dealer=dealer, round_index=index)
    assert len(points) == options.players
    assert state.round_points() == tuple(points)  # what the simulator counts
    with pytest.raises(RuleError):
        state.apply(state.log[-1])


def _garbage(state: State, data: st.DataObject, rng: random.Random) -> list[Any]:
    """Moves of any shape, most of them no move of any game."""
    return data.draw(st.lists(st.sampled_from(JUNK), min_size=1, max_size=6))


def _legal_elsewhere(state: State, data: st.DataObject, rng: random.Random) -> list[Any]:
    """Moves that are well formed but not allowed now: moves legal at other points of the same round."""
    seen: list[Any] = []
    other = state.clone()
    while not other.is_over and len(seen) < 400:
        seen += other.legal_actions()
        other.apply(rng.choice(other.legal_actions()))
    refused = [a for a in seen if not _is_legal(state, a)]
    return rng.sample(refused, min(5, len(refused)))


def _is_legal(state: State, action: Any) -> bool:
    return any(same_action(action, legal) for legal in state.legal_actions())


@SPECS
@pytest.mark.parametrize("wrong_moves", [_garbage, _legal_elsewhere], ids=["garbage", "legal-elsewhere"])
@CASES
@given(data=st.data())
def test_a_refused_move_changes_nothing_and_is_named_in_words(
    game: GameSpec, wrong_moves: Any, data: st.DataObject
) -> None:
    state, rng = _midway(game, data)
    if state.is_over:
        return
    for action in wrong_moves(state, data, rng):
        if _is_legal(state, action):
            continue
        before = snapshot(state)
        with pytest.raises(RuleError) as caught:
            state.apply(action)
        assert snapshot(state) == before
        assert_names_the_move(game, state, action, caught.value)
        if wrong_moves is _legal_elsewhere:  # a move of the game, only not now: named as what was tried
            assert _move_words(game, state, action) is not None, (action, str(caught.value))


def _move_words(game: GameSpec, state: State, action: Any) -> Message | None:
    """How a refused move is named: the game's words for it as its player saw the table (without what the move
    would have brought about), or None when the game has none (garbage; no describer): it goes unnamed."""
    if not state._describable(action):  # something the describer would tell as a move (Racko: -1 as a slot)
        return None
    try:
        words = game.describe_action(action, state.view(state.current_player))
    except (ImportError, TypeError, ValueError, KeyError, IndexError, AttributeError):
        return None
    while words.template.startswith("{move} "):  # "{move} Anna wins the trick.": what did not happen goes
        words = words.fields["move"]
    return words


def assert_names_the_move(game: GameSpec, state: State, action: Any, error: RuleError) -> None:
    """The refusal names the move when the game has words for it (and then never quotes its internal form)
    and keeps the game's reason, in English and in every translation."""
    words = _move_words(game, state, action)
    reason = state._illegal(action)
    text = str(error)
    assert str(reason) in text and "not allowed" in text
    if words is None:
        assert text.startswith("This move is not allowed: ") and "“" not in text, text
    else:
        assert str(words).rstrip(".") in text
    assert text.count("not allowed") == 1 and "cannot do that" not in text, text  # one refusal, not two
    for t in TRANSLATORS:
        translated = error.translated(t)
        if words is not None:
            assert words.translated(t).rstrip(".") in translated, (t.language, translated)
        assert reason.translated(t) in translated and "{reason}" not in translated
        assert "not allowed" not in translated, (t.language, translated)


@SPECS
@CASES
@given(data=st.data())
def test_replay_and_json_give_the_same_round(game: GameSpec, data: st.DataObject) -> None:
    state, _ = _midway(game, data, most=400)
    for action in state.legal_actions():
        back = game.action_from_json(json.loads(json.dumps(game.action_to_json(action))))
        assert same_action(back, action)
    log = game.log_from_json(json.loads(json.dumps(game.log_to_json(state.log))))
    assert log == state.log
    deal = state.deal
    again = game.replay(
        state.options, deal.seed, log, dealer=deal.dealer, round_index=deal.round_index, scores=deal.scores
    )
    assert snapshot(again) == snapshot(state)
    assert again.match_scores == state.match_scores
    if state.is_over:
        assert again.result() == state.result()


@SPECS
def test_replay_names_the_first_failing_move(game: GameSpec) -> None:
    options = game.default_options(game.players[0] + 1)
    state = play_out(game.new_round(options, 3), [None] * options.players, random.Random(3))
    bad = [*state.log[:2], "nonsense"]
    with pytest.raises(RuleError, match=r"^Move 3 of the saved round cannot be replayed: "):
        game.replay(options, 3, bad)
    refused = state.log[1]  # at move 3, move 2 again: a move of the round, not allowed there
    bad = [*state.log[:2], refused]
    fresh = game.replay(options, 3, state.log[:2])
    if any(same_action(refused, legal) for legal in fresh.legal_actions()):
        return
    with pytest.raises(RuleError) as caught:
        game.replay(options, 3, bad)
    words = _move_words(game, fresh, refused)
    assert words is not None  # a move of the round, named also where it is refused (another phase: Racko)
    assert f"Move 3 of the saved round (“{str(words).rstrip('.')}”)" in str(caught.value)
    for t in TRANSLATORS:
        assert words.translated(t).rstrip(".") in caught.value.translated(t)


@SPECS
@CASES
@given(data=st.data())
def test_a_clone_is_independent(game: GameSpec, data: st.DataObject) -> None:
    state, rng = _midway(game, data)
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    play_out(twin, [None] * state.options.players, rng)
    assert snapshot(state) == before


# --- the fast path keeps the contract --------------------------------------------------------------------


STEPS_CHECKED = 150
"""Moves of a random round checked one by one (random Racko rounds run to hundreds of turns)."""


def _variants(action: Any) -> list[Any]:
    """The same move as other callers may send it: as JSON gives it back, lists as tuples, and near misses
    that are another move or none (a bool or a float for a number, a word in capitals)."""
    shapes = [json.loads(json.dumps(action)), _freeze(action)]
    if isinstance(action, list):
        for i, part in enumerate(action):
            for other in (True, float(part) if type(part) is int else None, str(part).upper(), part):
                if other is not None and other is not part:
                    shapes.append([*action[:i], other, *action[i + 1 :]])
        shapes.append([*action, 0])
    elif type(action) is int:
        shapes += [True, float(action), action + 100, -1]
    else:
        shapes += [str(action).upper(), [action]]
    return shapes


@SPECS
@CASES
@given(data=st.data())
def test_the_games_quick_legality_check_agrees_with_the_legal_list(
    game: GameSpec, data: st.DataObject
) -> None:
    """`_legal` answers from the phase and the card at once; at every point of a random round it must say
    what the whole list says, for every legal move, the same move in other shapes, near misses, the moves of
    every other point of a round from the same deal and junk."""
    drawn = data.draw(rounds(game))
    state = _deal(game, drawn)
    rng = random.Random(drawn[1])
    elsewhere: list[Any] = []
    other = state.clone()
    while not other.is_over and len(elsewhere) < 400:
        elsewhere += other.legal_actions()
        other.apply(rng.choice(other.legal_actions()))
    elsewhere = list({repr(a): a for a in elsewhere}.values())
    for _ in range(STEPS_CHECKED):
        if state.is_over:
            return
        legal = state.legal_actions()
        candidates = [*JUNK, *elsewhere]
        for action in legal:
            candidates += [action, *_variants(action)]
        for action in candidates:
            listed = next((a for a in legal if same_action(action, a)), None)
            quick = state._legal(action)
            if listed is None:
                assert quick is NOT_LEGAL, (action, quick)
            else:
                assert same_action(quick, listed) and same_action(listed, quick), (action, quick, listed)
        state.apply_unchecked(rng.choice(legal))


@SPECS
@CASES
@given(data=st.data())
def test_the_fast_and_the_checked_path_give_identical_rounds(game: GameSpec, data: st.DataObject) -> None:
    """Random play, move by move: `apply` with the move as JSON sends it and `apply_unchecked` with the
    legal list's own value give the same state (every view, the log, the legal moves, the result), and
    every view is the value its dataclass would build."""
    drawn = data.draw(rounds(game))
    checked, fast = _deal(game, drawn), _deal(game, drawn)
    rng = random.Random(drawn[1])
    steps = 0
    while not checked.is_over:
        steps += 1
        legal = fast.legal_actions()
        assert _freeze(checked.legal_actions()) == _freeze(legal)
        action = rng.choice(legal)
        checked.apply(json.loads(json.dumps(action)))
        fast.apply_unchecked(action)
        if steps > STEPS_CHECKED and not fast.is_over:
            continue  # long random rounds (Racko's): the first moves and the end are compared
        assert snapshot(checked) == snapshot(fast)
        for seat in range(fast.options.players):
            view = fast.view(seat)
            assert type(view)(**vars(view)) == view
    assert fast.is_over and checked.result() == fast.result()
    assert checked.round_points() == fast.round_points()


# --- views hide what a seat may not see ------------------------------------------------------------------
# Each game says where its hidden cards lie: places (of other seats, or the stock) as (list, index) pairs.


def _spots(
    stock: list[Any], hands: list[Any], seat: int, shown: Any = lambda _seat, _card: False
) -> list[Any]:
    """The stock's places and the cards in the other seats' hands that are not `shown` to the table."""
    spots = [(stock, i) for i in range(len(stock))]
    for other, hand in enumerate(hands):
        if other != seat and hand is not None:
            spots += [(hand, i) for i, card in enumerate(hand) if card is not None and not shown(other, card)]
    return spots


HIDDEN = {  # where each game's hidden cards lie, for `seat`
    "racko": lambda state, seat: _spots(state.stock, state.racks, seat, lambda o, c: c in state.known[o]),
    "ruckzuck": lambda state, seat: _spots(state._stock, state._hands, seat),
    "rage": lambda state, seat: _spots(state._talon, state.hands, seat),
    "highcard": lambda state, seat: _spots(state._stock, state._hands, seat, lambda o, _c: state._shown[o]),
}


@SPECS
@CASES
@given(data=st.data())
def test_views_do_not_change_when_hidden_cards_trade_places(game: GameSpec, data: st.DataObject) -> None:
    state, rng = _midway(game, data)
    if state.is_over:  # once over, the hands are shown
        return
    seat = data.draw(st.integers(0, state.options.players - 1))
    twin = copy.deepcopy(state)
    spots = HIDDEN[game.key](twin, seat)
    if len(spots) < 2:
        return
    (a, i), (b, j) = rng.sample(spots, 2)
    a[i], b[j] = b[j], a[i]
    assert twin.view(seat) == state.view(seat)


@SPECS
def test_views_share_the_common_fields(game: GameSpec) -> None:
    """`seat`, `current_player` (seat to act, -1 when over), `turn` (turns taken, a count), `is_over`,
    `options`, `match_scores` (totals before the round), `round_points` (the round as it stands)."""
    options = game.default_options(3)
    state = game.new_round(options, 7, scores=[5, 0, 2])
    rng = random.Random(7)
    turns = []
    while True:
        for seat in range(3):
            view = state.view(seat)
            assert view.seat == seat and view.options == options
            assert view.current_player == state.current_player and view.is_over == state.is_over
            assert view.match_scores == (5, 0, 2)
            assert view.round_points is None or len(view.round_points) == 3
        turns.append(view.turn)
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert view.current_player == -1 and view.round_points is not None
    assert turns[0] == 0 and turns == sorted(turns) and turns[-1] > 0


@SPECS
def test_every_action_can_be_described(game: GameSpec) -> None:
    """`describe_action(action, view)` says a move in words (for move logs and screen readers): every game has
    a describe module (the engine has no fallback that would show a move's internal form)."""
    options = game.default_options(game.players[0])
    state = game.new_round(options, 11)
    rng = random.Random(11)
    while not state.is_over:
        view = state.view(state.current_player)
        for action in state.legal_actions():
            assert str(game.describe_action(action, view))
        state.apply(rng.choice(state.legal_actions()))


# --- a fourth game reaches the screens ---------------------------------------------------------------------
# High card is registered for these tests only: a package of rules, a package of screens, a line in each registry.


@pytest.fixture
def high_card() -> Iterator[GameSpec]:
    with registered():
        yield HIGH_CARD


def test_a_game_without_screens_stops_the_start_with_its_name(tmp_path: Path) -> None:
    register(HIGH_CARD)
    try:
        with pytest.raises(MissingUI, match="highcard"):
            App(tmp_path / "data")
    finally:
        unregister(HIGH_CARD)


def test_a_fourth_game_is_kept_score_of_on_the_round_entry_form(tmp_path: Path, high_card: GameSpec) -> None:
    app = App(tmp_path / "data")
    match = start(app, high_card.key, ["Anna", "Ben"], 0, rounds=2)
    app.go(f"/match/{match.id}")
    app.tap("enter-round")
    assert app.ctx.route == f"/match/{match.id}/round"
    tap_all(app, "card-0-7", "card-1-12", "save-round")
    saved = app.store.get_match(match.id)
    assert saved is not None and saved.rounds == [{"cards": [7, 12]}] and saved.totals() == [0, 1]
    assert app.ctx.route == f"/match/{match.id}"


def test_a_fourth_game_is_played_against_a_computer(tmp_path: Path, high_card: GameSpec) -> None:
    app = App(tmp_path / "data")
    app.ctx.settings["play_pace"] = "instant"
    app.tap(f"play-{high_card.key}")
    app.tap("start-game")
    tables = app.ctx.session.play_tables
    runner = next(iter(tables.values()))
    runner.wait()
    session = runner.session
    (person,) = session.people
    assert session.to_act == person and session.legal_for(person) == ["show"]
    assert app.has("play-panel") and str(session.state.view(person).card) in app.screen_text()
    app.tap('act-"show"')
    runner.wait()
    assert session.state.is_over and session.state.log == ["show"] * len(session.match.players)
    assert app.has("round-result")


def test_every_game_of_the_registry_has_its_screens() -> None:
    check()  # MissingUI naming the game otherwise; the app runs the same check at its start
    assert all(callable(ui_of(game).round_form) for game in GAMES)
