"""Rage bots: legal moves, the baseline's rules, the hard bot's fast model and knowledge, its strength."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scorekeeper.games.base import play_out
from scorekeeper.games.rage import BOTS, RageOptions, arranged_round, new_round
from scorekeeper.games.rage.bots import BaselineBot, baseline_bid
from scorekeeper.games.rage.cards import COLOURS
from scorekeeper.games.rage.fastround import CODE, NAME, FastRound, W, baseline_card, forbidden
from scorekeeper.games.rage.fastround import baseline_bid as fast_baseline_bid
from scorekeeper.games.rage.hard import HardBot, Tuning
from scorekeeper.games.rage.play import RageState
from scorekeeper.games.rage.search import Belief, candidate_moves
from scorekeeper.games.rage.strength import measure


@pytest.mark.parametrize("name", ["random", "baseline"])
@pytest.mark.parametrize(("edition", "players"), [("seed", 2), ("seed", 10), ("amigo", 5), ("fundex", 3)])
def test_simple_bots_play_only_legal_actions(name: str, edition: str, players: int) -> None:
    opts = RageOptions(players, edition)
    for index in range(len(opts.edition_column.hand_sizes)):
        state = new_round(opts, 100 + index, dealer=index % players, round_index=index)
        play_out(state, [BOTS[name]() for _ in range(players)])  # an illegal choice raises RuleError


@pytest.mark.parametrize(("edition", "players"), [("seed", 3), ("amigo", 4), ("fundex", 6)])
def test_hard_bot_plays_only_legal_actions(edition: str, players: int) -> None:
    opts = RageOptions(players, edition)
    rng = random.Random(players)
    for index in (0, 5, 9):
        names = ["hard"] + [rng.choice(["random", "baseline", "hard"]) for _ in range(players - 1)]
        state = new_round(opts, 7 + index, dealer=index % players, round_index=index)
        play_out(state, [BOTS[n]() for n in names])


def test_baseline_bid_counts_trumps_high_cards_and_jokers() -> None:
    assert baseline_bid(("r3", "r14", "g13", "g12", "W", "NT", "+5"), "r") == 4
    assert baseline_bid(("b1", "g2"), "r") == 0
    assert baseline_bid(("r3",), None) == 0


def test_baseline_bid_steps_around_the_hook_rule() -> None:
    # 2 players, 2 cards: seat 1 bids first (dealer 0); the dealer would like 1 but 2 - 1 is forbidden
    state = arranged_round(RageOptions(2), [["g14", "b1"], ["r1", "r13"]], ["y5"])
    state.apply(BaselineBot().choose(state.view(1), state.legal_actions()))
    assert state.bids[1] == 1
    action = BaselineBot().choose(state.view(0), state.legal_actions())
    assert action == ["bid", 2]
    state = arranged_round(RageOptions(2), [["g14", "g15"], ["r1", "b2"]], ["y5"])
    state.apply(["bid", 0])  # seat 1; the dealer's 2 would make 2: one less
    assert BaselineBot().choose(state.view(0), state.legal_actions()) == ["bid", 1]


def after_bids(hands: list[list[str]], bids: list[int]) -> RageState:
    """A round dealt `hands` (trump yellow, the last seat deals) with `bids` made, seat 0 first: seat 0 leads."""
    state = arranged_round(RageOptions(len(hands)), hands, ["y5"], dealer=len(hands) - 1)
    for bid in bids:
        state.apply(["bid", bid])
    return state


def test_baseline_wins_cheaply_while_below_its_bid_and_ducks_after() -> None:
    state = after_bids([["b3", "b9", "b12"], ["b10", "g1", "g2"], ["g3", "g4", "g5"]], [1, 1, 0])
    state.apply(BaselineBot().choose(state.view(0), state.legal_actions()))
    assert state.trick[-1] == (0, "b12")  # leading while it wants a trick: its strongest card
    bot = BaselineBot()
    state.apply(bot.choose(state.view(1), state.legal_actions()))
    assert state.trick[-1] == (1, "b10")  # must follow; cannot win
    state.apply(bot.choose(state.view(2), state.legal_actions()))
    assert state.tricks == [1, 0, 0]
    # seat 0 has its bid: it leads its weakest card and then ducks
    assert bot.choose(state.view(0), state.legal_actions()) == ["play", "b3"]


def test_baseline_names_jokers_for_its_aim() -> None:
    state = after_bids([["r5", "r6"], ["W", "b1"], ["W", "b2"]], [0, 1, 0])
    state.apply(["play", "r5"])
    assert BaselineBot().choose(state.view(1), state.legal_actions()) == ["play", "W:y"]  # wants: trump
    state.apply(["play", "W:y"])
    action = BaselineBot().choose(state.view(2), state.legal_actions())
    assert action[1] in ("b2", "W:b", "W:g", "W:o", "W:v")  # has its bid: never the winning joker
    assert action != ["play", "W:y"]


def _fast_copy(state: RageState) -> FastRound:
    """The engine's freshly dealt round in the fast model (the talon read from the engine for the test)."""
    hands = [[CODE[c] for c in hand] for hand in state.hands]
    talon = [CODE[c] for c in state._talon]  # the talon order: the test compares two models
    trump = COLOURS.index(state.trump) if state.trump else -1
    return FastRound(state.players, hands, talon, trump, state.options.edition_column.no_trump_rest_of_round)


@pytest.mark.parametrize(("edition", "players"), [("seed", 4), ("seed", 3), ("amigo", 5), ("fundex", 4)])
def test_fast_model_replays_the_engine_and_the_baseline_move_for_move(edition: str, players: int) -> None:
    opts = RageOptions(players, edition)
    for seed in range(25):
        state = new_round(
            opts, seed, dealer=seed % players, round_index=seed % len(opts.edition_column.hand_sizes)
        )
        fast = _fast_copy(state)
        bot = BaselineBot()
        while state.phase == "bid":
            seat = state.current_player
            action = bot.choose(state.view(seat), state.legal_actions())
            earlier = [b for b in state.bids if b is not None]
            ban = forbidden(earlier, state.hand_size, opts.hook) if seat == state.dealer else None
            assert fast_baseline_bid(fast.hands[seat], fast.trump, state.hand_size, ban) == action[1]
            state.apply(action)
            fast.bids[seat] = action[1]
        fast.turn = state.current_player
        while not state.is_over:
            seat = state.current_player
            action = bot.choose(state.view(seat), state.legal_actions())
            base, colour = baseline_card(fast, seat)
            assert action[1] == (f"W:{COLOURS[colour]}" if base == W else NAME[base])
            state.apply(action)
            fast.play(base, colour)
        assert (fast.tricks, fast.bonus, fast.minus) == (state.tricks, state.bonus, state.minus)


def test_belief_holds_the_truth_and_samples_fit_the_view() -> None:
    opts = RageOptions(4)
    checked = ruled_out = 0
    for seed in range(12):
        state = new_round(opts, seed, dealer=seed % 4, round_index=seed % 10)
        bot = BaselineBot()
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            if view.phase == "play":
                belief = Belief.of(view)
                truth = [[] if o == seat else sorted(CODE[c] for c in state.hands[o]) for o in range(4)]
                talon = [CODE[c] for c in state._talon]
                assert sorted([*(c for h in truth for c in h), *talon]) == sorted(belief.unseen)
                assert belief.misfit(truth, talon, limit=99) == 0  # baselines' real plays fit the replay
                for o, hand in enumerate(truth):  # what their plays rule out, they do not hold
                    assert not set(hand) & belief.excluded[o]
                hands, rest = belief.sample(random.Random(seed))
                assert [len(h) for h in hands] == [0 if o == seat else len(truth[o]) for o in range(4)]
                assert sorted([*(c for h in hands for c in h), *rest]) == sorted(belief.unseen)
                for o, hand in enumerate(hands):
                    assert not any(c < W and belief.voids[o] >> (c >> 4) & 1 for c in hand)
                assert belief.misfit(hands, rest, limit=99) == 0  # samples fit every play seen
                ruled_out += sum(len(e) for e in belief.excluded)
                checked += 1
            state.apply(bot.choose(view, state.legal_actions()))
    assert checked > 100
    assert ruled_out > 1000  # the baselines' plays do tell


def test_hard_bot_reads_only_the_baseline_players_by_the_baselines_rules() -> None:
    """Told the table (`meet`), the hard bot takes the bids and plays of the "baseline" seats alone as evidence;
    of a person, a random or a hard player it believes only what the rules force (voids)."""
    opts = RageOptions(4)
    state = new_round(opts, 3, dealer=3, round_index=0)
    bot = BaselineBot()
    while len(state.history) < 3:  # three tricks of baselines: their bids and plays tell
        state.apply(bot.choose(state.view(state.current_player), state.legal_actions()))
    view = state.view(state.current_player)
    me = view.seat
    everyone = Belief.of(view)
    assert all(everyone.strong_left[s] for s in range(4) if s != me)
    assert sum(len(e) for e in everyone.excluded) > 0
    table = [None, "hard", "baseline", "random"]
    baselines = {2} - {me}
    hard = HardBot(time_budget=None)
    assert hard.belief(view).strong_left == everyone.strong_left  # not told: every seat a baseline
    hard.meet(tuple(table))
    told = hard.belief(view)
    for s in range(4):
        assert bool(told.strong_left[s]) == (s in baselines)
        assert told.excluded[s] == (everyone.excluded[s] if s in baselines else set())
    assert told.voids == everyone.voids and sorted(told.unseen) == sorted(everyone.unseen)
    hard.meet(("baseline",) * 4)  # a table of baselines: as if not told
    assert hard.belief(view).strong_left == everyone.strong_left


def test_equivalent_cards_are_judged_once() -> None:
    # seat 0 holds r3, r4 and r9; r5..r8 are played or in its hand only partly: r3/r4 are one move
    state = after_bids([["r3", "r4", "r9"], ["g1", "g2", "g3"], ["b1", "b2", "b3"]], [1, 0, 0])
    view = state.view(0)
    moves = candidate_moves(view, state.legal_actions(), Belief.of(view).unseen)
    assert [NAME[code] for code, _ in moves] == ["r3", "r9"]


def untimed_hard() -> HardBot:
    """The hard bot without its time budget: the strength tests stay deterministic on a busy machine."""
    return HardBot(time_budget=None)


def test_hard_bot_is_reproducible() -> None:
    state = new_round(RageOptions(4), 5, dealer=1, round_index=0)
    while state.phase == "bid":
        state.apply(BaselineBot().choose(state.view(state.current_player), state.legal_actions()))
    view = state.view(state.current_player)
    legal = state.legal_actions()
    # without a clock (a time budget only shortens decisions a slow or busy machine could not finish)
    assert HardBot(time_budget=None).choose(view, legal) == HardBot(time_budget=None).choose(view, legal)


def quick_hard() -> HardBot:
    """The hard bot untimed on a third of its simulated plays: the smoke test stays quick."""
    return HardBot(
        time_budget=None, tuning=Tuning(candidate_bids=4, bid_work=20_000, play_work=15_000, max_deals=80)
    )


def test_strength_smoke() -> None:
    # deterministic (decisions budget simulated plays, not time)
    report = measure(quick_hard, "baseline", players=4, edition="seed", games=8, seed=5)
    assert report["rounds"] == 152
    assert report["difference"] >= 3.0
    assert report["exact_rate"] >= 0.6


@pytest.mark.slow
def test_hard_beats_baselines_clearly() -> None:
    # measured: +3.53 points per round, 68.4% exact bids, median decision 10 ms (456 rounds); target +3.0, 55%
    report = measure(untimed_hard, "baseline", players=4, edition="seed", games=24, seed=2)
    assert report["difference"] >= 3.0
    assert report["exact_rate"] >= 0.6


class _Clock:
    """A clock that moves on by `step` seconds each time it is read (no real time involved)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_hard_bot_is_an_anytime_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that is always late stops every decision after the minimum of deals; a clock that never moves
    decides exactly as no clock at all."""
    from scorekeeper.games.rage import hard

    sampled: list[int] = []
    original = hard.Belief.sample

    def counting(self, rng):  # type: ignore[no-untyped-def]
        sampled.append(1)
        return original(self, rng)

    monkeypatch.setattr(hard.Belief, "sample", counting)
    state = new_round(RageOptions(4), 3, round_index=0)  # 10 cards each: the longest decisions
    rng = random.Random(3)
    while state.phase == "bid" or len(state.played) < 8:
        view, legal = state.view(state.current_player), state.legal_actions()
        sampled.clear()
        unlimited = HardBot(time_budget=None).choose(view, legal)
        full = len(sampled)
        assert HardBot(time_budget=1.0, clock=_Clock(0.0)).choose(view, legal) == unlimited
        sampled.clear()
        hurried = HardBot(time_budget=0.1, clock=_Clock(1.0)).choose(view, legal)
        assert hurried in legal and len(sampled) <= min(full, hard.MIN_DEALS)
        state.apply(rng.choice(legal))


def _deal_with(rng: random.Random, size: int, first: list[str], players: int = 4) -> tuple[list, list]:
    """Hands of `size` cards for `players` seats, seat 0 holding `first`; a talon turning up a red trump."""
    numbers = [f"{c}{v}" for c in COLOURS for v in range(16) if f"{c}{v}" not in first and c != "r"]
    rng.shuffle(numbers)
    hands = [list(first) + numbers[: size - len(first)]]
    numbers = numbers[size - len(first) :]
    for _ in range(players - 1):
        hands.append(numbers[:size])
        numbers = numbers[size:]
    return hands, ["r3", *numbers[:5]]


@pytest.mark.parametrize("case", range(6))
def test_hard_never_bids_0_holding_the_highest_trump_under_the_hook_rule(case: int) -> None:
    """The dealer holds the trump 15 and the hook rule forbids 1 (the others' bids add up to one less than
    the hand): 0 would be the nearest bid allowed, and a missed one."""
    rng = random.Random(case)
    size = 2 + case % 3
    hands, talon = _deal_with(rng, size, ["r15"])
    state = arranged_round(RageOptions(4, "seed"), hands, talon, dealer=0)
    others = [size - 1, 0, 0]
    for bid in others:
        state.apply(["bid", bid])
    assert state.current_player == 0 and state.forbidden_bid() == 1
    view, legal = state.view(0), state.legal_actions()
    assert ["bid", 0] in legal
    assert HardBot(time_budget=None).choose(view, legal) != ["bid", 0]


@pytest.mark.parametrize("case", range(6))
def test_hard_never_leads_a_low_trump_when_it_needs_every_trick(case: int) -> None:
    """Seat 1 leads the first trick and bid every trick: a trump it leads is its highest (or one that no card
    left in play separates from it)."""
    rng = random.Random(100 + case)
    size = 3 + case % 3
    trumps = sorted(rng.sample(range(16), 2 + case % 2))
    hands, talon = _deal_with(rng, size, [f"r{v}" for v in trumps])
    hands = [hands[3], hands[0], hands[1], hands[2]]  # seat 1 (left of the dealer 0) holds the trumps
    state = arranged_round(RageOptions(4, "seed"), hands, talon, dealer=0)
    for seat in (1, 2, 3, 0):
        legal = state.legal_actions()
        bid = size if seat == 1 else next(a for a in legal if a[1] in (0, 1))[1]
        state.apply(["bid", bid])
    assert state.current_player == 1 and not state.trick
    action = HardBot(time_budget=None).choose(state.view(1), state.legal_actions())
    card = action[1]
    if card.startswith("r"):
        top = max(trumps)
        between = [v for v in range(int(card[1:]) + 1, top + 1) if f"r{v}" not in hands[1]]
        assert int(card[1:]) == top or not between, (action, trumps)


def test_paired_rounds_give_every_bot_the_same_deals_and_seats() -> None:
    from scorekeeper.games.rage.strength import paired, paired_difference, summary

    records = paired({"a": BaselineBot, "b": BaselineBot, "r": BOTS["random"]}, rounds=12, seed=3)
    assert records["a"] == records["b"]  # same bot, same deals, same seat: the same rounds
    assert paired_difference(records["a"], records["b"]) == {"mean": 0.0, "low": 0.0, "high": 0.0}
    assert set(summary(records["r"])) >= {"points", "exact", "miss", "cards"}


def test_a_bot_loaded_from_a_file_plays_like_the_one_it_was_copied_from(tmp_path: Path) -> None:
    """How a change to the hard bot is measured against the version it replaces (taken from git into a file)."""
    from scorekeeper.games.rage import hard
    from scorekeeper.games.rage.strength import load_bot, paired

    copy = tmp_path / "hard_before.py"
    copy.write_text(Path(hard.__file__).read_text())
    records = paired({"hard": load_bot("hard"), "copy": load_bot(f"{copy}:HardBot")}, rounds=2, seed=5)
    assert records["hard"] == records["copy"]


def test_the_ceiling_bot_is_shown_the_true_deal_and_is_no_strength_to_choose() -> None:
    """The measuring bot of `--compare hard,ceiling` looks ahead on the deal itself, never on a sample."""
    from scorekeeper.games.rage.ceiling import SeeingBot

    state = new_round(RageOptions(4), 11, dealer=2, round_index=0)
    bot = SeeingBot()
    bot.see(state)
    view = state.view(state.current_player)
    hands, talon = bot.belief(view).sample(random.Random(1))
    shown = [sorted(NAME[code] for code in hand) for hand in hands]
    assert shown == [[] if seat == view.seat else sorted(h) for seat, h in enumerate(state.hands)]
    assert [NAME[code] for code in talon] == list(state.talon)
    assert "ceiling" not in BOTS and all(not isinstance(make(), SeeingBot) for make in BOTS.values())
    with pytest.raises(RuntimeError):
        SeeingBot().belief(view)  # shown no state: it cannot play
    bot.see(new_round(RageOptions(4), 12, dealer=2, round_index=0))
    with pytest.raises(RuntimeError):
        bot.belief(view)  # shown another round: it would look ahead on the wrong deal


def test_paired_rounds_and_whole_games_show_the_ceiling_bot_each_round_it_plays() -> None:
    from scorekeeper.games.rage.strength import load_bot, paired

    # a round the bot was not shown (or an earlier one) raises at its first decision
    records = paired({"ceiling": load_bot("ceiling")}, rounds=3, seed=2)
    assert len(records["ceiling"]) == 3
    # a whole game: one bot for all its rounds, shown each one in turn
    assert measure(load_bot("ceiling"), players=3, edition="amigo", games=1)["rounds"] == 10
