"""The Ruck Zuck and Rage play panels, in process: built from real views of random positions of the engine,
their control trees are checked against the automation surface (docs/ARCHITECTURE.md): every legal action of the seat
at the device is reachable by exactly one `act-` control (after the `choose-` step the panel's `path` names),
nothing else carries one, tapping it performs that action, every such control has an accessible name, and
no hidden card of another seat appears anywhere in the tree."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace
from typing import Any

import flet as ft
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ui_core_harness import walk

from scorekeeper.games import rage, ruckzuck
from scorekeeper.games.rage.cards import describe, is_number
from scorekeeper.games.ruckzuck.rules import JOKER as RZ_JOKER
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.digital import rage_panel, ruckzuck_panel
from scorekeeper.ui.digital.kit import PanelContext, action_key
from scorekeeper.ui.i18n import Translator

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"]


class Driver:
    """One seat's panel: rebuilt after every `refresh`, tapped by identifier like the app's harness does."""

    def __init__(
        self, panel: ModuleType, state: Any, seat: int, language: str = "en", width: int = 390
    ) -> None:
        self.panel = panel
        self.done: list[Any] = []
        page = SimpleNamespace(width=width)
        ctx = AppContext(page=page, store=None, t=Translator(language))  # type: ignore[arg-type]
        legal = state.legal_actions() if state.current_player == seat else []
        self.pc = PanelContext(
            ctx=ctx,
            view=state.view(seat),
            legal=legal,
            act=self.done.append,
            names=NAMES[: state.options.players],
            refresh=self.rebuild,
        )
        self.rebuild()

    def rebuild(self) -> None:
        self.tree = self.panel.build(self.pc)

    def tagged(self, prefix: str) -> list[ft.Semantics]:
        return [
            node
            for node in walk(self.tree)
            if isinstance(node, ft.Semantics) and node.identifier and node.identifier.startswith(prefix)
        ]

    def ids(self, prefix: str) -> list[str]:
        return [str(node.identifier) for node in self.tagged(prefix)]

    def tap(self, identifier: str) -> None:
        (node,) = [n for n in self.tagged(identifier) if n.identifier == identifier]
        control = node.content
        assert not getattr(control, "disabled", False), identifier
        control.on_click(SimpleNamespace(control=control, data=None))


def strings(control: Any, skip: tuple[str, ...] = ()) -> Iterator[str]:
    """Every text, label, tooltip and identifier in the tree (subtrees tagged with a `skip` id left out)."""
    if isinstance(control, ft.Semantics) and control.identifier and control.identifier.startswith(skip):
        return
    for name in ("value", "label", "tooltip", "identifier", "semantics_label"):
        value = getattr(control, name, None)
        if isinstance(value, str):
            yield value
    content = getattr(control, "content", None)
    if isinstance(content, str):
        yield content
    from test_ui_core_harness import children

    for child in children(control):
        yield from strings(child, skip)


# --------------------------------------------------------------------------- random positions


def ruckzuck_position(seed: int, players: int, side: str, steps: int) -> Any:
    """A round of Ruck Zuck after `steps` random moves that mostly place cards (so boards fill up)."""
    state = ruckzuck.new_round(ruckzuck.RuckZuckOptions(players, side=side), seed, dealer=seed % players)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        places = [a for a in legal if isinstance(a, list)]
        state.apply(rng.choice(places) if places and rng.random() < 0.85 else legal[-1])
    return state


def rage_position(seed: int, players: int, edition: str, steps: int) -> Any:
    options = rage.RageOptions(players, edition=edition)
    sizes = options.edition_column.hand_sizes
    state = rage.new_round(options, seed, dealer=seed % players, round_index=seed % len(sizes))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


ruckzuck_states = st.builds(
    ruckzuck_position,
    st.integers(0, 10**6),
    st.integers(2, 6),
    st.sampled_from(["red", "blue"]),
    st.integers(0, 60),
)
rage_states = st.builds(
    rage_position,
    st.integers(0, 10**6),
    st.integers(3, 6),
    st.sampled_from(["seed", "amigo", "fundex"]),
    st.integers(0, 50),
)


# --------------------------------------------------------------------------- the automation surface


def check_surface(panel: ModuleType, state: Any) -> None:
    seat = state.current_player
    if seat < 0:
        seat = 0
    legal = state.legal_actions() if not state.is_over else []
    keys = {f"act-{action_key(a)}" for a in legal}
    driver = Driver(panel, state, seat)
    present = driver.ids("act-")
    assert len(present) == len(set(present)), present
    assert set(present) <= keys
    # every legal action: its path reaches exactly one control, which performs exactly that action
    for action in legal:
        driver = Driver(panel, state, seat)
        *steps, last = panel.path(action)
        assert last == f"act-{action_key(action)}"
        for step in steps:
            assert step.startswith("choose-")
            driver.tap(step)
        after = driver.ids("act-")
        assert len(after) == len(set(after)) and set(after) <= keys
        driver.tap(last)
        assert driver.done == [action]
    # every choose- step leaves only legal, distinct act- controls
    for step in Driver(panel, state, seat).ids("choose-"):
        driver = Driver(panel, state, seat)
        driver.tap(step)
        after = driver.ids("act-")
        assert len(after) == len(set(after)) and set(after) <= keys
    # seats not on turn get no act- and no choose- controls at all
    for other in range(state.options.players):
        if other != state.current_player:
            waiting = Driver(panel, state, other)
            assert waiting.ids("act-") == [] and waiting.ids("choose-") == []
    # every semantics node wraps a control (a positional argument would land in `tooltip`)
    for node in walk(Driver(panel, state, seat).tree):
        if isinstance(node, ft.Semantics):
            assert node.content is not None and not isinstance(node.tooltip, ft.Control), node.identifier
    # accessible names
    for node in Driver(panel, state, seat).tagged("act-") + Driver(panel, state, seat).tagged("choose-"):
        assert node.label, node.identifier


@settings(max_examples=15, deadline=None)  # each position taps every legal action's path (joker: ~30)
@given(ruckzuck_states)
def test_ruckzuck_panel_offers_exactly_the_legal_actions(state: Any) -> None:
    check_surface(ruckzuck_panel, state)


@settings(max_examples=15, deadline=None)
@given(rage_states)
def test_rage_panel_offers_exactly_the_legal_actions(state: Any) -> None:
    check_surface(rage_panel, state)


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from([(ruckzuck_panel, ruckzuck_states), (rage_panel, rage_states)]).flatmap(
        lambda pair: st.tuples(st.just(pair[0]), pair[1])
    )
)
def test_only_the_seat_on_turn_gets_a_line_saying_what_to_do(case: tuple[ModuleType, Any]) -> None:
    """The play screen's status above the panel says whose turn it is; the panel adds a line only for the seat
    that acts (what to do now), none for a seat that waits, which would repeat the screen's status (word for
    word in German, Dutch and French)."""
    panel, state = case
    for seat in range(state.options.players):
        for language in ("en", "fr"):
            driver = Driver(panel, state, seat, language)
            lines = [str(node.content.value) for node in driver.tagged("play-status") if node.visible]
            on_turn = seat == state.current_player and not state.is_over
            assert len(lines) == (1 if on_turn else 0), (seat, lines)
            waiting = [text for text in strings(driver.tree) if NAMES[state.current_player] in text]
            assert on_turn or not any("tour de" in text or "is playing" in text for text in waiting)


# --------------------------------------------------------------------------- hidden cards


@settings(max_examples=20, deadline=None)
@given(ruckzuck_states, st.sampled_from(["en", "de"]))
def test_ruckzuck_panel_shows_no_hidden_card(state: Any, language: str) -> None:
    """The board prints every number 1..49, so it is left out; everywhere else every number shown is one of
    the seat's own cards or a public count (hand sizes, the stock)."""
    for seat in range(state.options.players):
        view = state.view(seat)
        allowed = {str(c) for c in view.hand} | {str(n) for n in (*view.hand_sizes, view.stock_size)}
        allowed |= {str(n) for n in range(1, 3)}  # "×2" for two jokers
        tree = Driver(ruckzuck_panel, state, seat, language).tree
        texts = [text for text in strings(tree, skip=("board",)) if not re.fullmatch(r"seat-\d+", text)]
        shown = {n for text in texts for n in re.findall(r"\d+", text)}
        assert shown <= allowed, (seat, shown - allowed)


@settings(max_examples=20, deadline=None)
@given(rage_states, st.sampled_from(["en", "de"]))
def test_rage_panel_shows_no_hidden_card(state: Any, language: str) -> None:
    for seat in range(state.options.players):
        hidden = [c for other, hand in enumerate(state.hands) if other != seat for c in hand if is_number(c)]
        t = Translator(language)
        names = [n for c in hidden for n in (c, describe(c).translated(t))]
        driver = Driver(rage_panel, state, seat, language)
        driver.pc.ui["show_last"] = True
        driver.rebuild()
        for text in strings(driver.tree):
            for name in names:
                assert not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text), (seat, name, text)


# --------------------------------------------------------------------------- particular screens


def ruckzuck_arranged(mine: list[Any], on_board: dict[int, Any]) -> Any:
    """Seat 0 holds `mine`, `on_board` lies on the board (red side), seat 1 and the stock get the rest."""
    used = [*mine, *on_board.values()]
    rest = [n for n in range(1, 50) if n not in used] + [RZ_JOKER] * (2 - used.count(RZ_JOKER))
    options = ruckzuck.RuckZuckOptions(2)
    return ruckzuck.RuckZuckState.from_position(options, [mine, rest[:5]], dict(on_board), rest[5:])


def test_ruckzuck_selecting_a_card_lights_its_fields_and_a_swap_selects_the_joker() -> None:
    state = ruckzuck_arranged([17, 18, RZ_JOKER, 40, 41], {16: 16, 1: RZ_JOKER})
    driver = Driver(ruckzuck_panel, state, 0)
    assert driver.ids("act-") == ['act-"draw"']
    assert set(driver.ids("choose-")) == {"choose-card-17", "choose-card-J"}
    assert len(driver.ids("field-")) == 52  # the whole board, no field performing anything yet
    driver.tap("choose-card-17")
    assert driver.ids("act-") == ['act-["place",17,17]', 'act-"draw"']
    driver.tap("choose-card-J")
    joker_fields = set(driver.ids("act-"))
    assert {'act-["place","J",2]', 'act-["place","J",17]', 'act-["place","J","J1"]'} <= joker_fields
    # a joker lies on field 29 next to 16, and seat 0 holds 29: swap, and the joker is selected at once
    state = ruckzuck_arranged([17, 18, RZ_JOKER, 29, 41], {16: 16, 29: RZ_JOKER})
    driver = Driver(ruckzuck_panel, state, 0)
    driver.tap("choose-card-29")
    assert driver.ids("act-") == ['act-["swap",29]', 'act-"draw"']
    driver.tap('act-["swap",29]')
    assert driver.done == [["swap", 29]]
    state.apply(["swap", 29])
    driver = Driver(ruckzuck_panel, state, 0)
    assert driver.ids("act-") and all(i.startswith('act-["place","J"') for i in driver.ids("act-"))


def rage_after_bids(hands: list[list[str]]) -> Any:
    """A 3-player Rage round with these hands (dealer: seat 2) in which everyone has bid 1."""
    state = rage.arranged_round(rage.RageOptions(3), hands, ["o4", "o5", "o6"], dealer=2)
    for bid in (1, 1, 1):
        state.apply(["bid", bid])
    return state


def test_rage_dealer_sees_the_forbidden_bid_disabled_with_the_reason() -> None:
    state = rage.new_round(rage.RageOptions(3), 7, dealer=2, round_index=7)  # 3 cards each, hook rule on
    state.apply(["bid", 1])
    state.apply(["bid", 1])
    driver = Driver(rage_panel, state, 2, "de")
    assert 'act-["bid",1]' not in driver.ids("act-")
    (forbidden,) = driver.tagged("bid-forbidden")
    assert forbidden.content.disabled
    (reason,) = driver.tagged("forbidden-reason")
    assert "1" in reason.content.value and "3" in reason.content.value


def test_rage_joker_opens_the_colour_picker_and_action_cards_are_shown_once() -> None:
    state = rage_after_bids([["W", "NT", "NT", "r3"], ["r5", "b2", "g2", "y2"], ["r9", "b9", "g9", "y9"]])
    driver = Driver(rage_panel, state, 0)
    assert sorted(driver.ids("act-")) == sorted(['act-["play","NT"]', 'act-["play","r3"]'])
    assert driver.ids("choose-") == ["choose-joker"]
    driver.tap("choose-joker")
    assert len([i for i in driver.ids("act-") if '"W:' in i]) == 6
    driver.tap('act-["play","W:g"]')
    assert driver.done == [["play", "W:g"]]


def test_rage_trick_effects_are_announced() -> None:
    state = rage_after_bids([["NT", "r3"], ["r5", "b2"], ["r9", "b9"]])
    state.apply(["play", "NT"])
    driver = Driver(rage_panel, state, 1)
    effects = [n.content.content.value for n in driver.tagged("trick-effect")]
    assert effects == ["A no-trump card was played: this trick has no trump."]


@pytest.mark.parametrize(
    "panel,state",
    [
        (ruckzuck_panel, ruckzuck_arranged([17, 18, RZ_JOKER, 40, 41], {16: 16, 1: RZ_JOKER})),
        (rage_panel, rage_position(5, 4, "seed", 9)),
    ],
)
def test_a_tablet_lays_out_the_same_controls(panel: ModuleType, state: Any) -> None:
    phone, tablet = (Driver(panel, state, state.current_player, width=w) for w in (390, 1024))
    assert phone.ids("act-") == tablet.ids("act-") and phone.ids("choose-") == tablet.ids("choose-")


def test_ruckzuck_edges_what_the_others_placed_since_the_seats_last_move() -> None:
    state = ruckzuck_arranged([17, 18, RZ_JOKER, 40, 41], {16: 16, 1: RZ_JOKER})
    state.apply(["place", 17, 17])
    state.apply("end")
    for action in state.legal_actions():  # seat 1 places what it can next to the cards
        if isinstance(action, list) and action[1] != RZ_JOKER:
            state.apply(action)
            break
    placed = {
        ruckzuck_panel.field_of(a) for seat, a in state.view(0).history if seat == 1 and isinstance(a, tuple)
    }
    assert placed
    assert ruckzuck_panel.placed_by_others(state.view(0)) == placed
    assert ruckzuck_panel.placed_by_others(state.view(1)) == set()


def test_rage_names_who_is_taking_the_trick_so_far() -> None:
    state = rage_after_bids([["r3", "g1"], ["r5", "b2"], ["r9", "b9"]])
    state.apply(["play", "r3"])
    state.apply(["play", "r5"])
    texts = list(strings(Driver(rage_panel, state, 2).tree))
    assert "Ben is taking the trick so far." in texts
