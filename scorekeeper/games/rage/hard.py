"""The ``hard`` Rage bot: it bids and plays by sampling the cards it cannot see and playing the round out.

Knowledge (:mod:`scorekeeper.games.rage.search`): the unseen cards are the deck less its hand, the played
cards and the trump pile. A player who failed to follow a colour holds none of it; a player who bids and plays
by the baseline's rules (a "normal" computer player, as `meet` tells) holds as many jokers, trumps and 13+
cards as it bid, and every card such a player played rules out the cards with which the baseline would have
played otherwise (replayed from the table, one unseen card at a time). The bids and plays of people and of
other computer players tell only what the rules force. The look-ahead runs on
:mod:`scorekeeper.games.rage.fastround`, a fast model of the engine.

Bid: a quick estimate of its tricks (every card's chance to win a trick it leads, from the unseen higher
cards, trumps and jokers and how likely each opponent holds them) picks the few bids nearest to it; for each
of those it plays the round out on the same sampled deals (later bidders bid and everybody plays by the
baseline's rules) and takes the bid with the best mean of its own round score.

Two guards stand before the search: a bid of 0 is never made holding the trump 15 (the hook rule may leave
0 the nearest bid allowed; that card wins whenever trump is led and it is the last trump in hand), and while
every trick is needed a trump is led only as the highest trump in hand.

Play: each distinct card (jokers with the trump, the led colour or a colour that is neither) is judged the
same way: play it, then the round out on sampled deals, and take the best mean of its own round score (the
others' scores weigh only with `Tuning.rivals`, 0 by default: measured against baselines, spoiling their bids
cost more own points than it took from them). That judges +5/-5 cards, ducking and trumping by their effect on the
scores. A card is played at once when nothing else is allowed or its alternatives are equivalent.

Every decision seeds its generator from the view, so it is reproducible; a budget of simulated card plays
per decision keeps it quick (the number of deals shrinks with the cards left and the choices), and a time
budget makes it an anytime search: when the clock runs out it decides on the deals judged so far (at least
a few), which on a fast machine are all of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from scorekeeper.games.base import Table
from scorekeeper.games.rage.cards import (
    COLOURS,
    JOKER,
    JOKER_RANK,
    MAX_VALUE,
    colour_of,
    is_number,
)
from scorekeeper.games.rage.fastround import FastRound, baseline_bid, baseline_card, forbidden, round_points
from scorekeeper.games.rage.search import (
    Belief,
    build_round,
    candidate_moves,
    copy_round,
    move_action,
    play_out,
)
from scorekeeper.games.rage.view import RageView

Action = list[Any]

RELUCTANT = 0.1
"""How likely an opponent who has its bid still trumps a card it could trump."""
OFF_COLOUR = 0.7
"""Off-colour cards win only when their colour is led: their lead chance is scaled by this."""
CANDIDATE_BIDS = 7
"""Bids tried by simulation: the ones nearest the estimate."""
BID_WORK = 60_000
"""Simulated card plays a bid may cost (shared by the candidate bids and the sampled deals)."""
PLAY_WORK = 45_000
"""Simulated card plays a card decision may cost."""
MIN_DEALS, MAX_DEALS = 4, 200
TIME_BUDGET = 0.15
"""Seconds a decision may take (the hard bot's p95 at most 250 ms on a 2-core machine: a person waits for it)."""
FINALISTS = 3
"""Moves judged again on more deals after a first look at every move."""
RIVALS = 0.0
"""Weight of the others' mean score against the own score (0: the own score alone)."""


@dataclass(frozen=True)
class Tuning:
    """The search's knobs (the defaults are the shipped hard bot; the strength tool tries others)."""

    rivals: float = RIVALS
    candidate_bids: int = CANDIDATE_BIDS
    bid_work: int = BID_WORK
    play_work: int = PLAY_WORK
    max_deals: int = MAX_DEALS


def score(r: FastRound, me: int, view: RageView, rivals: float) -> float:
    """The own round score less ``rivals`` times the others' mean."""
    column = view.options.edition_column
    points = [round_points(r.bids[s], r.tricks[s], r.bonus[s], r.minus[s], column) for s in range(r.players)]
    if not rivals:
        return points[me]
    return points[me] - rivals * (sum(points) - points[me]) / (r.players - 1)


_BY_COLOUR = {c: [(v, f"{c}{v}") for v in range(16)] for c in COLOURS}


@dataclass
class Knowledge:
    """What the seat knows: unseen cards per colour, unseen jokers, voids, opponents' hand shares."""

    view: RageView
    unseen: dict[str, list[int]]
    jokers: int
    share: dict[int, float]
    voids: dict[int, set[str]]
    eager: dict[int, bool]

    @classmethod
    def of(cls, view: RageView) -> Knowledge:
        seen: set[str] = set(view.hand)
        seen.update(view.played)
        seen.update(c for _, c in view.trick)
        seen.update(view.trump_pile)
        unseen = {c: [v for v, card in _BY_COLOUR[c] if card not in seen] for c in COLOURS}
        shown = [*view.played, *(c for _, c in view.trick)]
        jokers_seen = view.hand.count(JOKER) + sum(1 for c in shown if c.startswith(JOKER))
        jokers = max(0, view.options.edition_column.jokers - jokers_seen)
        total_unseen = sum(len(v) for v in unseen.values()) + jokers
        deck_size = sum(view.options.edition_column.action_counts.values()) + 96
        pool = max(
            1, deck_size - len(view.hand) - len(view.played) - len(view.trick) - (1 if view.trump_top else 0)
        )
        pool = max(pool, total_unseen)
        me = view.seat
        share = {o: view.hand_counts[o] / pool for o in range(len(view.hand_counts)) if o != me}
        voids: dict[int, set[str]] = {o: set() for o in share}
        for trick in (*view.history, view.trick):
            led: str | None = None
            for seat, card in trick:
                if led is not None and seat != me and not (is_number(card) and card[0] == led):
                    voids[seat].add(led)
                if led is None:
                    led = colour_of(card)
        # before bidding is over everybody is assumed to want tricks
        eager = {o: (bid := view.bids[o]) is None or bid > view.tricks[o] for o in share}
        return cls(view, unseen, jokers, share, voids, eager)

    # --- probabilities ------------------------------------------------------------------------------

    def holds(self, o: int, k: int, colour: str | None = None) -> float:
        """Chance opponent ``o`` holds at least one of ``k`` particular unseen cards (of ``colour``)."""
        if k <= 0 or (colour is not None and colour in self.voids[o]):
            return 0.0
        return 1.0 - (1.0 - self.share[o]) ** k

    def void(self, o: int, colour: str) -> float:
        if colour in self.voids[o]:
            return 1.0
        return (1.0 - self.share[o]) ** len(self.unseen[colour])

    def higher(self, colour: str, rank: int) -> int:
        return sum(1 for v in self.unseen[colour] if v > rank)

    def beat(self, o: int, colour: str, rank: int, led: str, trump: str | None) -> float:
        """Chance opponent ``o`` beats the best card (``colour``/``rank``) of a trick led in ``led``.

        An opponent who still needs tricks beats whenever it can; one who has its bid only when it must:
        following with nothing lower in the colour, or (rarely) trumping.
        """
        eager = self.eager[o]
        jokers = self.jokers
        higher = self.higher(colour, rank) if rank < JOKER_RANK else 0
        forced = 1.0 if eager else (1.0 - self.share[o]) ** (len(self.unseen[colour]) - higher)
        ruff = 1.0 if eager else RELUCTANT
        if colour == trump:
            if led == trump:
                p = (
                    self.holds(o, higher, colour) * forced
                    + self.void(o, trump) * self.holds(o, jokers) * ruff
                )
            else:
                p = self.void(o, led) * (self.holds(o, higher, colour) + self.holds(o, jokers)) * ruff
        else:
            p = self.holds(o, higher, colour) * forced
            ruffers = len(self.unseen[trump]) if trump is not None and trump != colour else 0
            if trump is not None and trump in self.voids[o]:
                ruffers = 0
            p += self.void(o, led) * self.holds(o, ruffers + jokers) * ruff
        return min(1.0, p)

    def strength(self, card: str, trump: str | None) -> float:
        """Chance that ``card`` wins a trick it leads (the seat's expected tricks from it)."""
        if card == JOKER:
            colour, rank = (trump or "r"), JOKER_RANK
        elif is_number(card):
            colour, rank = card[0], int(card[1:])
        else:
            return 0.0
        chance = 1.0
        for o in self.share:
            chance *= 1.0 - self.beat(o, colour, rank, colour, trump)
        if colour != trump and card != JOKER:
            chance *= OFF_COLOUR  # it wins only in a trick led in its colour
        return chance


def _no_low_trump_lead(view: RageView, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Leading while every trick is needed, a trump goes out only as the highest trump in hand: a lower one
    can be beaten by a trump the highest would have beaten, and that trick is lost for nothing."""
    needed = (view.bids[view.seat] or 0) - view.tricks[view.seat]
    if view.trick or view.trump is None or needed < len(view.hand):
        return moves
    trump = COLOURS.index(view.trump)
    trumps = [code for code, _ in moves if code < 96 and code >> 4 == trump]
    if not trumps:
        return moves
    top = max(trumps)
    kept = [(code, colour) for code, colour in moves if code >= 96 or code >> 4 != trump or code == top]
    return kept


def _seeded(view: RageView) -> random.Random:
    """A generator seeded from what the seat sees, so that a decision is reproducible."""
    return random.Random(
        repr(
            (
                view.hand,
                view.trump_pile,
                view.bids,
                view.seat,
                view.dealer,
                view.played,
                view.trick,
                view.round_index,
            )
        )
    )


def _deals(work: int, moves: int, cards_left: int, most: int) -> int:
    """Sampled deals for one decision: a budget of simulated card plays shared by the moves judged."""
    return max(MIN_DEALS, min(most, work // max(1, moves * cards_left)))


class HardBot:
    """Bids and plays by sampling the unseen cards and playing the round out (see the module docstring).

    An anytime search: `time_budget` seconds per decision (None: no limit) stop the sampling early, never
    before `MIN_DEALS` deals; within its time a decision is the same as without a clock (the deals are
    drawn in a fixed order from a generator seeded by the view). `clock` is there for tests.

    Until `meet` tells it the table, it takes every other seat for a baseline player (as the strength
    measurements against baselines have it)."""

    baseline_seats: frozenset[int] | None = None
    """The seats whose bids and plays it reads as a baseline's (None: all of them)."""

    def __init__(
        self,
        time_budget: float | None = TIME_BUDGET,
        clock: Callable[[], float] = time.perf_counter,
        tuning: Tuning | None = None,
    ) -> None:
        self.time_budget = time_budget
        self.clock = clock
        self.tuning = tuning or Tuning()

    def choose(self, view: RageView, legal_actions: list[Action]) -> Action:
        if view.phase == "bid":
            return self._bid(view, legal_actions)
        return self._play(view, legal_actions)

    def _bid(self, view: RageView, legal_actions: list[Action]) -> Action:
        know = Knowledge.of(view)
        expected = sum(know.strength(c, view.trump) for c in view.hand)
        allowed = [a[1] for a in legal_actions]
        ranked = sorted(allowed, key=lambda b: (abs(b - expected), -b))
        candidates = ranked[: self.tuning.candidate_bids]
        if view.trump is not None and f"{view.trump}{MAX_VALUE}" in view.hand and len(allowed) > 1:
            # The highest trump wins a trick whenever trump is led and it is the last trump in hand: a bid of
            # 0 with it is a bid missed (the hook rule may leave 0 as the nearest bid allowed).
            candidates = [b for b in candidates if b] or [min(b for b in allowed if b)]
        if len(candidates) == 1:
            return ["bid", candidates[0]]
        deadline = self._deadline()
        rng = _seeded(view)
        belief = self.belief(view)
        players = len(view.hand_counts)
        size = view.hand_size
        hook = view.options.hook
        order = [(view.dealer + 1 + i) % players for i in range(players)]
        later = order[order.index(view.seat) + 1 :]
        totals = dict.fromkeys(candidates, 0.0)
        deals = _deals(self.tuning.bid_work, len(candidates), size * players, self.tuning.max_deals)
        for done in range(deals):
            if done >= MIN_DEALS and self._late(deadline):
                break
            hands, talon = belief.sample(rng)
            base = build_round(view, hands, talon)
            for bid in candidates:
                r = copy_round(base)
                bids = [b if b is not None else -1 for b in view.bids]
                bids[view.seat] = bid
                for seat in later:
                    f = forbidden([b for s, b in enumerate(bids) if s != seat and b >= 0], size, hook)
                    bids[seat] = baseline_bid(
                        r.hands[seat], r.trump, size, f if seat == view.dealer else None
                    )
                r.bids = bids
                r.turn = order[0]
                play_out(r, view.seat, baseline_card)
                totals[bid] += score(r, view.seat, view, self.tuning.rivals)
        best = max(candidates, key=lambda b: (totals[b], -abs(b - expected)))
        return ["bid", best]

    def _play(self, view: RageView, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        deadline = self._deadline()
        belief = self.belief(view)
        moves = _no_low_trump_lead(view, candidate_moves(view, legal_actions, belief.unseen))
        if len(moves) == 1:
            return move_action(moves[0])
        rng = _seeded(view)
        rollouts = self.tuning.play_work // sum(view.hand_counts)
        # two rounds: every move on a few deals, then the best few on more (where the choice is close)
        first = max(MIN_DEALS, min(self.tuning.max_deals, rollouts // (2 * len(moves))))
        finalists = min(FINALISTS, len(moves))
        more = max(0, min(self.tuning.max_deals - first, (rollouts - first * len(moves)) // finalists))
        if finalists == len(moves):
            first, more = first + more, 0
        totals = [0.0] * len(moves)
        everyone = range(len(moves))
        # deals are drawn in the same order whenever the clock stops the search, so a decision taken
        # within its time is the same as without a clock
        done = self._judge(view, moves, everyone, belief, rng, first, totals, deadline)
        if more and done == first:
            ranked = sorted(everyone, key=lambda i: -totals[i])[:finalists]
            self._judge(view, moves, ranked, belief, rng, more, totals, deadline, least=0)
            best = max(ranked, key=lambda i: totals[i])
        else:
            best = max(everyone, key=lambda i: totals[i])
        return move_action(moves[best])

    def meet(self, table: Table) -> None:
        """Who sits where: only the "baseline" computer players bid and play by rules it knows. Measured
        (`strength --compare hard,OLD --against ...`, OLD the bot before `meet`, which read every seat as a
        baseline's): against three random players +0.89 points a round [+0.47, +1.31] over 1,000 rounds and
        exact bids 49.6% -> 56.2%; against three hard players +0.56 [-0.15, +1.27] over 400. Reading a real
        baseline as anyone else would cost -0.30 [-0.55, -0.04] (2,000 rounds)."""
        self.baseline_seats = frozenset(seat for seat, bot in enumerate(table) if bot == "baseline")

    def belief(self, view: RageView) -> Belief:
        """What the seat knows of the cards it cannot see, from its view (the deals are sampled from it)."""
        return Belief.of(view, self.baseline_seats)

    def _deadline(self) -> float | None:
        return None if self.time_budget is None else self.clock() + self.time_budget

    def _late(self, deadline: float | None) -> bool:
        return deadline is not None and self.clock() >= deadline

    def _judge(
        self,
        view: RageView,
        moves: list[tuple[int, int]],
        which: Iterable[int],
        belief: Belief,
        rng: random.Random,
        deals: int,
        totals: list[float],
        deadline: float | None,
        least: int = MIN_DEALS,
    ) -> int:
        """Add to ``totals`` each chosen move's results on up to `deals` sampled deals (the round played out
        after it), all moves on the same deals; stops at the deadline once `least` deals are done. Returns
        the number of deals judged."""
        me = view.seat
        which = list(which)
        for done in range(deals):
            if done >= least and self._late(deadline):
                return done
            hands, talon = belief.sample(rng)
            base = build_round(view, hands, talon)
            for i in which:
                r = copy_round(base)
                r.play(*moves[i])
                play_out(r, me, baseline_card)
                totals[i] += score(r, me, view, self.tuning.rivals)
        return deals
