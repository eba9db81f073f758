"""Ruck Zuck and Rage moves in words (the move log of digital play): every legal action of random play is
described, as another seat saw the table before the move, in a sentence translated into de, nl and fr; a
draw never names its card; the examples read as a player would say them."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games import racko, rage, ruckzuck
from scorekeeper.games.base import Message, RuleError, play_out
from scorekeeper.games.contract import GameSpec
from scorekeeper.games.rage.describe import describe_action as describe_rage
from scorekeeper.games.ruckzuck.describe import describe_action as describe_ruckzuck
from scorekeeper.games.ruckzuck.rules import JOKER as RZ_JOKER
from scorekeeper.games.spec import GAMES
from scorekeeper.ui.i18n import Translator, catalog, plural_catalog

LANGUAGES = ("de", "nl", "fr")


def templates(message: Any) -> list[str]:
    """A message's template and those of the messages in its fields (a bare "{item0}, ..." list excluded)."""
    if not isinstance(message, Message):
        return []
    found = (
        []
        if all(name and name.startswith("item") for name in _fields(message.template))
        else [message.template]
    )
    for value in message.fields.values():
        found.extend(templates(value))
    return found


def _fields(template: str) -> list[str | None]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


def check_translated(message: Message) -> None:
    for language in LANGUAGES:
        known = {**catalog(language), **plural_catalog(language)}
        missing = [t for t in templates(message) if t not in known]
        assert not missing, (language, missing)
        text = message.translated(Translator(language))
        assert text and "{" not in text


def play_through(state: Any, describe: Any, seed: int) -> int:
    """Describe every legal action at every step of a random round, as the next seat saw it; returns the
    number of moves described."""
    rng = random.Random(seed)
    described = 0
    while not state.is_over:
        observer = (state.current_player + 1) % state.options.players
        view = state.view(observer)
        for action in state.legal_actions():
            message = describe(action, view)
            assert isinstance(message, Message) and message.endswith((".", "!")), message
            check_translated(message)
            described += 1
        legal = state.legal_actions()
        places = [a for a in legal if isinstance(a, list) and a[0] != "bid"]
        state.apply(rng.choice(places) if places and rng.random() < 0.8 else rng.choice(legal))
    return described


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.sampled_from(["red", "blue"]))
def test_every_ruckzuck_move_of_random_play_is_described_in_every_language(
    seed: int, players: int, side: str
) -> None:
    state = ruckzuck.new_round(ruckzuck.RuckZuckOptions(players, side=side), seed)
    assert play_through(state, describe_ruckzuck, seed) > 0


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 6), st.sampled_from(["seed", "amigo", "fundex"]))
def test_every_rage_move_of_random_play_is_described_in_every_language(
    seed: int, players: int, edition: str
) -> None:
    options = rage.RageOptions(players, edition=edition)
    state = rage.new_round(options, seed, round_index=seed % len(options.edition_column.hand_sizes))
    assert play_through(state, describe_rage, seed) > 0


def arranged_ruckzuck(mine: list[Any], on_board: dict[int, Any], players: int = 2) -> Any:
    used = [*mine, *on_board.values()]
    rest = [n for n in range(1, 50) if n not in used] + [RZ_JOKER] * (2 - used.count(RZ_JOKER))
    hands = [mine, *(rest[5 * k : 5 * k + 5] for k in range(players - 1))]
    options = ruckzuck.RuckZuckOptions(players)
    return ruckzuck.RuckZuckState.from_position(options, hands, dict(on_board), rest[5 * (players - 1) :])


def test_ruckzuck_examples() -> None:
    state = arranged_ruckzuck([17, 29, RZ_JOKER, 40, 41], {16: 16, 30: RZ_JOKER})
    view = state.view(1)
    assert describe_ruckzuck(["place", 17, 17], view) == "Player 1 placed 17 next to 16."
    assert describe_ruckzuck(["place", 29, 29], view) == "Player 1 placed 29 next to 16."
    assert (
        describe_ruckzuck(["place", RZ_JOKER, "J1"], view)
        == "Player 1 placed the joker on the left joker field."
    )
    assert describe_ruckzuck(["place", RZ_JOKER, 2], view) == "Player 1 placed the joker on field 2."
    assert describe_ruckzuck("draw", view) == "Player 1 drew a card."
    german = describe_ruckzuck(["place", 17, 17], view).translated(Translator("de"))
    assert german == "Spieler 1 hat 17 neben 16 gelegt."
    # the last card in hand: the player is out
    state = arranged_ruckzuck([17], {16: 16})
    assert describe_ruckzuck(["place", 17, 17], state.view(1)) == (
        "Player 1 placed 17 next to 16. That was the last card in hand."
    )


def test_ruckzuck_a_draw_never_names_its_card() -> None:
    state = ruckzuck.new_round(ruckzuck.RuckZuckOptions(3), 11)
    assert describe_ruckzuck("draw", state.view(1)) == "Player 2 drew a card."  # even to the drawer
    assert describe_ruckzuck("draw", state.view(2)) == "Player 2 drew a card."


def test_rage_examples() -> None:
    options = rage.RageOptions(3)
    hands = [["W", "NT", "r3"], ["r5", "b2", "+5"], ["r9", "b9", "TC"]]
    state = rage.arranged_round(options, hands, ["o4", "o5", "o6", "g1"], dealer=2)
    assert describe_rage(["bid", 2], state.view(1)) == "Player 1 bid 2."
    for bid in (1, 0, 1):
        state.apply(["bid", bid])
    view = state.view(1)
    assert describe_rage(["play", "W:g"], view) == "Player 1 played the joker as green."
    assert describe_rage(["play", "NT"], view) == "Player 1 played a no-trump card: this trick has no trump."
    french = describe_rage(["play", "W:g"], view).translated(Translator("fr"))
    assert french == "Joueur 1 a joué le joker en vert."
    state.apply(["play", "r3"])
    state.apply(["play", "r5"])
    view = state.view(0)
    assert describe_rage(["play", "r9"], view) == "Player 3 played red 9. Player 3 wins the trick."
    assert (
        describe_rage(["play", "TC"], view)
        == "Player 3 played a trump-change card: a new trump is turned up."
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_seat_names_are_translated_inside_the_sentence(language: str) -> None:
    state = rage.new_round(rage.RageOptions(3), 1)
    text = describe_rage(["bid", 0], state.view(0)).translated(Translator(language))
    assert text != "Player 2 bid 0." and "0" in text


def test_round_results_in_words() -> None:
    from scorekeeper.games.rage.describe import describe_result as rage_result
    from scorekeeper.games.ruckzuck.describe import describe_result as ruckzuck_result

    lines = ruckzuck_result({"hands": [[], [3, RZ_JOKER, 40], []], "out": 0}, None)
    assert lines == ["went out", "3 + joker (100) + 40: 143 penalty points", "no cards left"]
    assert lines[1].translated(Translator("de")) == "3 + Joker (100) + 40: 143 Minuspunkte"
    result = {"bids": [1, 2, 0], "tricks": [1, 0, 1], "bonus": [0, 1, 0], "minus": [0, 0, 2]}
    lines = rage_result(result, rage.RageOptions(3))
    assert lines == [
        "bid 1 · took 1 trick · exact",
        "bid 2 · took 0 tricks · missed · +5 ×1",
        "bid 0 · took 1 trick · missed · -5 ×2",
    ]
    for line in lines:
        check_translated(line)
    assert lines[0].translated(Translator("fr")) == "annonce 1 · 1 pli fait · exact"


@pytest.mark.parametrize(
    "action", [None, 3, "", "nonsense", [], ["bid"], ["bid", True], ["bid", 1.0], ["play", 7], {"bid": 1}]
)
def test_rage_has_no_words_for_garbage(action: Any) -> None:
    """A move that is not even a Rage action is refused (ValueError, TypeError) instead of being told as one."""
    state = rage.new_round(rage.RageOptions(3), 1)
    with pytest.raises((ValueError, TypeError)):
        describe_rage(action, state.view(0))


@pytest.mark.parametrize(
    "action",
    [None, 3, "", "stock", [], ["swap"], ["swap", 1, 2], ["swap", "x"], ["place", None, 5], {"a": 1}],
)
def test_ruckzuck_has_no_words_for_garbage(action: Any) -> None:
    state = ruckzuck.new_round(ruckzuck.RuckZuckOptions(3), 11)
    with pytest.raises((ValueError, TypeError)):
        describe_ruckzuck(action, state.view(1))


def test_a_refused_move_is_named_without_what_it_would_bring_about() -> None:
    """State.apply names a refused move with its describer's words, but a refused move wins no trick and
    empties no hand: only the move is named, with the game's reason, in every language."""
    state = arranged_ruckzuck([17], {16: 16})
    with pytest.raises(RuleError) as caught:
        state.apply(["place", 17, 40])
    assert str(caught.value).startswith("The move “Player 1 placed 17” is not allowed: ")
    options = rage.RageOptions(2)
    state = rage.arranged_round(options, [["r3", "b5"], ["r7", "g2"]], ["y4"], dealer=1)
    for action in (["bid", 1], ["bid", 0], ["play", "r3"]):
        state.apply(action)
    with pytest.raises(RuleError) as caught:
        state.apply(["play", "g2"])
    assert str(caught.value) == (
        "The move “Player 2 played green 2” is not allowed: Player 2 must follow red: play one of red 7."
    )
    german = caught.value.translated(Translator("de"))
    assert german.startswith("Der Zug „Spieler 2 hat ") and "“ ist nicht erlaubt: Spieler 2 " in german
    dutch = caught.value.translated(Translator("nl"))
    assert dutch.startswith("De zet „Speler 2 ") and "” is niet toegestaan: " in dutch


def test_a_racko_move_of_another_phase_is_named_with_one_refusal() -> None:
    """A Racko move refused because the phase asks for another kind (a slot before drawing, the stock after)
    is named like a refused Rage or Ruck Zuck move, followed by what the player may do: one refusal, not two."""
    state = racko.new_round(racko.RackoOptions(players=2, two_player_rule=False), seed=1, dealer=0)
    with pytest.raises(RuleError) as caught:
        state.apply(3)
    assert str(caught.value) == (
        "The move “Player 2 put a card in slot 20” is not allowed: "
        "Player 2 may take the top card of the stock or of the discard pile."
    )
    assert caught.value.translated(Translator("de")) == (
        "Der Zug „Spieler 2 steckte eine Karte in Schlitz 20“ ist nicht erlaubt: "
        "Spieler 2 darf die oberste Karte vom Vorratsstoß oder vom Abwurfstoß nehmen."
    )
    state.apply("stock")
    with pytest.raises(RuleError) as caught:
        state.apply("stock")
    assert str(caught.value) == (
        "The move “Player 2 drew from the stock” is not allowed: "
        "Player 2 may put card 19 into a slot of the rack or discard it."
    )
    with pytest.raises(RuleError) as caught:
        state.apply("racko")  # no Racko move ("call" is): unnamed
    assert str(caught.value) == (
        "This move is not allowed: Player 2 may put card 19 into a slot of the rack or discard it."
    )


UNKNOWN_MOVES: list[Any] = ["teleport", ["teleport", 3], {"bid": 1}, None, "x" * 200]
QUOTES_AND_CODE = set('"“”„«»[]{}_')


@pytest.mark.parametrize("game", GAMES, ids=[game.key for game in GAMES])
def test_an_unknown_move_is_refused_without_its_internal_name(game: GameSpec) -> None:
    """A move the game has no words for (a damaged save, a bad network action) is refused in words a player
    understands: no internal name, no code, in every language; a saved round that fails on one says which move
    without quoting it."""
    options = game.default_options(game.players[0] + 1)
    state = game.new_round(options, 3)
    for action in UNKNOWN_MOVES:
        with pytest.raises(RuleError) as caught:
            state.apply(action)
        english = str(caught.value)
        assert english.startswith("This move is not allowed: "), english
        for said in (english, *(caught.value.translated(Translator(language)) for language in LANGUAGES)):
            assert not QUOTES_AND_CODE & set(said) and "teleport" not in said and "null" not in said, said
            assert "{" not in said and "xxx" not in said, said
        assert all(caught.value.translated(Translator(language)) != english for language in LANGUAGES)
    played = play_out(game.new_round(options, 3), [None] * options.players, random.Random(3))
    with pytest.raises(RuleError) as caught:
        game.replay(options, 3, [*played.log[:2], "teleport"])
    assert str(caught.value).startswith("Move 3 of the saved round cannot be replayed: ")
    assert "teleport" not in str(caught.value) and "“" not in str(caught.value)
    with pytest.raises(RuleError) as caught:
        played.apply(played.log[0])
    assert str(caught.value) == "This move is not allowed: The round is over."
