"""Look-ahead for the ``hard`` Rage bot: sample the unseen cards from a view, play the round out fast.

Sampling (what a player at the table may know): the unseen cards are the deck less the own hand, every card
played this round and every card turned up onto the trump pile. They lie in the other hands (as many as each
still holds) and in the talon. A player who did not follow the led colour holds none of it (the rules say so,
whoever plays). A seat that bids and plays by the baseline's rules (a "normal" computer player, when the table
is known: `Belief.of`) holds as many "strong" cards (jokers, trumps of the bidding, 13 and up) as it bid, less
the strong cards it has played since; and it holds none of the cards with which the baseline would have
played another card at any of its turns so far. Samples keep to that where the unseen cards allow it, so
such a seat's bids and plays count as evidence. Of anyone else (a person, a random or a hard computer player)
only the rules are believed: measured, reading them as a baseline's costs points against players who are not.

Playing out: the other seats follow the baseline's rules, the own seat follows them after the move being
judged. A move is judged by the own round score less the others' mean score, averaged over sampled deals
(the same deals for every move, so the comparison is fair).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from scorekeeper.games.rage.cards import COLOURS, JOKER, is_number
from scorekeeper.games.rage.fastround import (
    CODE,
    COLOUR_INDEX,
    NAME,
    FastRound,
    W,
    baseline_card,
    encode_played,
    forbidden,
    is_strong,
    round_points,
)
from scorekeeper.games.rage.options import deck
from scorekeeper.games.rage.view import RageView

TALON_MIX = 8
"""Talon cards (from the top) drawn at random in a sample; the rest lie in no particular order."""
_NONE: set[int] = set()
Policy = Callable[[FastRound, int], tuple[int, int]]


def _trump_code(card: str | None) -> int:
    return -1 if card is None else COLOUR_INDEX[card]


def _bid_trump(view: RageView) -> int:
    """The trump while bidding: the first number card turned up this round (-1: none)."""
    for card in view.trump_pile:
        if is_number(card):
            return COLOUR_INDEX[card[0]]
    return -1


@dataclass
class Belief:
    """What a seat knows of the cards it cannot see."""

    seat: int
    unseen: list[int]
    counts: list[int]
    """Cards each other seat still holds (0 for the own seat)."""
    voids: list[int]
    """Per seat a bit mask of colours it is known to hold none of."""
    strong_left: list[list[int]]
    """Per seat the possible numbers of strong cards still held (empty: no evidence)."""
    bid_trump: int
    order: list[int]
    """The seats to deal to, in the order samples deal them."""
    strong: frozenset[int] = frozenset()
    """The card codes the baseline counts as strong for this round's bidding."""
    plays: list[tuple[int, int, int]] = field(default_factory=list)
    """Every card played this round so far: (seat, code, joker colour or -1), in order."""
    view: RageView | None = None
    excluded: list[set[int]] = field(default_factory=list)
    """Per seat the unseen cards its plays so far rule out (for a seat that bid like the baseline)."""

    def __post_init__(self) -> None:
        self.strong = frozenset(c for c in range(W + 1) if is_strong(c, self.bid_trump))

    @classmethod
    def of(cls, view: RageView, baseline_seats: Collection[int] | None = None) -> Belief:
        """What the seat of `view` knows. `baseline_seats`: the seats known to bid and play by the baseline's
        rules, whose bids and plays are evidence (see the module); None (the table not known): every seat."""
        players = len(view.hand_counts)
        me = view.seat
        seen = Counter(view.hand)
        seen.update(view.trump_pile)
        bid_trump = _bid_trump(view)
        voids = [0] * players
        strong_played = [0] * players
        plays: list[tuple[int, int, int]] = []
        for trick in (*view.history, view.trick):
            led = -1
            for seat, card in trick:
                code, colour, _ = encode_played(card)
                plays.append((seat, code, colour))
                seen[card if code != W else JOKER] += 1
                if led >= 0 and not (code < W and colour == led):
                    voids[seat] |= 1 << led
                if led < 0:
                    led = colour
                if is_strong(code, bid_trump):
                    strong_played[seat] += 1
        unseen = [CODE[c] for c in (Counter(deck(view.options)) - seen).elements()]
        counts = [0 if s == me else view.hand_counts[s] for s in range(players)]
        strong_left: list[list[int]] = [[] for _ in range(players)]
        if view.phase != "bid" or any(b is not None for b in view.bids):
            size = view.hand_size
            hook = view.options.hook
            for s in range(players):
                bid = view.bids[s]
                if s == me or bid is None or (baseline_seats is not None and s not in baseline_seats):
                    continue
                options = {bid}
                if s == view.dealer:
                    others = [b for o, b in enumerate(view.bids) if o != s and b is not None]
                    f = forbidden(others, size, hook)
                    if f is not None and (f + 1 if f + 1 <= size else f - 1) == bid:
                        options.add(f)
                left = sorted({min(max(k - strong_played[s], 0), counts[s]) for k in options})
                strong_left[s] = left
        order = [s for s, n in enumerate(counts) if n > 0]
        # seats with evidence first (they take their strong cards), the most constrained first
        order.sort(key=lambda s: (not strong_left[s], -bin(voids[s]).count("1")))
        belief = cls(me, unseen, counts, voids, strong_left, bid_trump, order)
        belief.plays = plays
        belief.view = view
        belief.excluded = belief._excluded_by_plays()
        return belief

    def _replay_start(self, hands: list[list[int]], talon: list[int]) -> FastRound:
        """The round as dealt (before the first card), with the trump cards turned up since as the talon."""
        view = self.view
        assert view is not None
        pile = [CODE[c] for c in view.trump_pile]
        first = next((i for i, c in enumerate(pile) if c < W), len(pile) - 1)
        trump = pile[first] >> 4 if pile and pile[first] < W else -1
        later = pile[first + 1 :]
        fundex = view.options.edition_column.no_trump_rest_of_round
        r = FastRound(len(hands), hands, [*talon, *reversed(later)], trump, fundex)
        r.bids = [b or 0 for b in view.bids]
        r.turn = (view.dealer + 1) % len(hands)
        return r

    def _excluded_by_plays(self) -> list[set[int]]:
        """Per seat the unseen cards it cannot hold: with any of them the baseline would have played another
        card at some point this round (its choice is the best card by one fixed order, so one card at a
        time tells)."""
        players = len(self.counts)
        excluded: list[set[int]] = [set() for _ in range(players)]
        if self.view is None or not self.plays:
            return excluded
        r = self._replay_start([[] for _ in range(players)], [])
        distinct = sorted(set(self.unseen))
        for seat, code, colour in self.plays:
            if seat != self.seat and self.strong_left[seat]:
                led = r.led
                following = led >= 0 and code < W and code >> 4 == led
                out = excluded[seat]
                for x in distinct:
                    if x in out or (following and not (x < W and x >> 4 == led)):
                        continue  # only a card of the led colour could have been played instead
                    r.hands[seat] = [code, x] if code <= x else [x, code]
                    if baseline_card(r, seat) != (code, colour):
                        out.add(x)
            r.hands[seat] = [code]
            r.play(code, colour)
        return excluded

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Hands for the other seats (the own one left empty) and a talon (next card last)."""
        pool = self.unseen[:]
        rng.shuffle(pool)
        strong, weak = self._split(pool)
        hands: list[list[int]] = [[] for _ in self.counts]
        for s in self.order:
            need = self.counts[s]
            void = self.voids[s]
            out = self.excluded[s] if self.excluded else _NONE
            hand = hands[s]
            if self.strong_left[s]:
                left = self.strong_left[s]
                _take(strong, hand, left[0] if len(left) == 1 else rng.choice(left), void, out)
                _take(weak, hand, need - len(hand), void, out)
                _take(strong, hand, need - len(hand), void, out)
            else:
                pool = strong + weak
                rng.shuffle(pool)
                _take(pool, hand, need, void, out)
                strong, weak = self._split(pool)
            if len(hand) < need:  # the ruled-out cards are all that is left: keep only the voids
                pool = strong + weak
                _take(pool, hand, need - len(hand), void, _NONE)
            if len(hand) < need:  # the voids cannot be met either: give any cards
                pool = strong + weak
                _take(pool, hand, need - len(hand), 0, _NONE)
                strong, weak = self._split(pool)
            hand.sort()
        talon = strong + weak
        # only the next few talon cards can be turned up in a round: mix those from the whole rest
        for i in range(len(talon) - 1, max(0, len(talon) - TALON_MIX) - 1, -1):
            j = rng.randrange(i + 1)
            talon[i], talon[j] = talon[j], talon[i]
        return hands, talon

    def misfit(self, hands: list[list[int]], talon: list[int], limit: int) -> int:
        """How many of the others' plays so far the baseline would not have made with these hands.

        The round is replayed from its deal (the sampled hands plus the cards each seat has played since);
        counting stops past ``limit``.
        """
        view = self.view
        if view is None or not self.plays or not any(self.strong_left):
            return 0
        start = [h[:] for h in hands]
        start[self.seat] = [CODE[c] for c in view.hand]
        for seat, code, _ in self.plays:
            start[seat].append(code)
        for hand in start:
            hand.sort()
        r = self._replay_start(start, talon)
        wrong = 0
        for seat, code, colour in self.plays:
            if seat != self.seat and self.strong_left[seat] and baseline_card(r, seat) != (code, colour):
                wrong += 1
                if wrong > limit:
                    return wrong
            r.play(code, colour)
        return wrong

    def _split(self, pool: list[int]) -> tuple[list[int], list[int]]:
        strong = self.strong
        return [c for c in pool if c in strong], [c for c in pool if c not in strong]


def _take(pool: list[int], hand: list[int], n: int, void: int, out: set[int]) -> None:
    """Move up to ``n`` cards a seat may hold (not of a void colour, not ruled out) from ``pool`` to ``hand``."""
    if n <= 0:
        return
    keep: list[int] = []
    for card in pool:
        if n > 0 and (card >= W or not (void >> (card >> 4)) & 1) and card not in out:
            hand.append(card)
            n -= 1
        else:
            keep.append(card)
    pool[:] = keep


def build_round(view: RageView, hands: list[list[int]], talon: list[int]) -> FastRound:
    """The view's round as a :class:`FastRound`, with a sampled deal for the unseen cards."""
    players = len(view.hand_counts)
    hands = [list(h) for h in hands]
    hands[view.seat] = sorted(CODE[c] for c in view.hand)
    fundex = view.options.edition_column.no_trump_rest_of_round
    cards = [c for _, c in view.trick]
    nt_at = cards.index("NT") if "NT" in cards else -1
    tc_at = cards.index("TC") if "TC" in cards else -1
    top = view.trump_pile[-1] if view.trump_pile else None
    top_colour = COLOUR_INDEX[top[0]] if top is not None and is_number(top) else -1
    if nt_at < 0:
        trump = _trump_code(view.trump)
    elif tc_at > nt_at:
        trump = top_colour
    else:
        trump = -1 if fundex else top_colour
    r = FastRound(players, hands, talon, trump, fundex)
    r.nt = nt_at >= 0
    r.tc = tc_at >= 0
    r.reveal_after = nt_at >= 0 and not fundex and not tc_at > nt_at
    r.plus = "+5" in cards
    r.minus_flag = "-5" in cards
    r.trick = [(seat, *encode_played(card)[1:]) for seat, card in view.trick]
    r.led = _trump_code(view.led)
    r.tricks = list(view.tricks)
    r.bonus = list(view.bonus)
    r.minus = list(view.minus)
    r.bids = [b or 0 for b in view.bids]
    r.turn = view.current_player
    return r


def play_out(r: FastRound, me: int, policy: Policy) -> None:
    """Play the round to its end: ``me`` by ``policy``, the others by the baseline's rules."""
    while r.hands[r.turn] or r.trick:
        seat = r.turn
        base, colour = policy(r, seat) if seat == me else baseline_card(r, seat)
        r.play(base, colour)


def objective(r: FastRound, me: int, view: RageView) -> float:
    """The own round score less the others' mean."""
    column = view.options.edition_column
    points = [round_points(r.bids[s], r.tricks[s], r.bonus[s], r.minus[s], column) for s in range(r.players)]
    return points[me] - (sum(points) - points[me]) / (r.players - 1)


def copy_round(r: FastRound) -> FastRound:
    c = FastRound.__new__(FastRound)
    c.players = r.players
    c.hands = [h[:] for h in r.hands]
    c.talon = r.talon[:]
    c.trump = r.trump
    c.nt, c.tc, c.plus, c.minus_flag, c.reveal_after = r.nt, r.tc, r.plus, r.minus_flag, r.reveal_after
    c.trick = r.trick[:]
    c.led = r.led
    c.tricks = r.tricks[:]
    c.bonus = r.bonus[:]
    c.minus = r.minus[:]
    c.bids = r.bids
    c.turn = r.turn
    c.fundex = r.fundex
    return c


def joker_colours(view: RageView) -> list[int]:
    """Colours worth naming for a joker: the trump, the led colour and one that is neither."""
    trump, led = _trump_code(view.trump), _trump_code(view.led)
    colours = [c for c in (trump, led) if c >= 0]
    colours.append(next(i for i in range(len(COLOURS)) if i not in colours))
    return list(dict.fromkeys(colours))


def candidate_moves(view: RageView, legal: list[list[object]], unseen: list[int]) -> list[tuple[int, int]]:
    """The distinct moves worth judging: each playable card once, jokers with the colours worth naming.

    Of two number cards of one colour with no card between them that anybody could still play or that lies
    in the trick, only the lower is judged: they do the same in every trick.
    """
    live = set(unseen)
    live.update(encode_played(card)[0] for _, card in view.trick)
    moves: list[tuple[int, int]] = []
    joker = False
    last = -1
    for _, card in legal:
        assert isinstance(card, str)
        if card.startswith(JOKER):
            joker = True
            continue
        code = CODE[card]
        if (
            code < W
            and last >= 0
            and last >> 4 == code >> 4
            and not any(c in live for c in range(last + 1, code))
        ):
            continue  # the same as the lower card kept
        move = (code, -1)
        if move not in moves:
            moves.append(move)
        last = code if code < W else -1
    if joker:
        moves.extend((W, c) for c in joker_colours(view))
    return moves


def move_action(move: tuple[int, int]) -> list[object]:
    base, colour = move
    if base == W:
        return ["play", f"{JOKER}:{COLOURS[colour]}"]
    return ["play", NAME[base]]
