"""Rage in digital play: one round as a state machine (RULES.md 3.2-3.3, the engine contract in docs/ARCHITECTURE.md).

Actions are JSON-safe lists: ``["bid", n]`` and ``["play", card]``, a joker with its named colour
(``["play", "W:g"]``). Decisions taken here where RULES.md leaves room:

- A trump-change card shows a new trump even after a no-trump card in the same trick; with ``fundex`` that
  new trump ends the "rest of the round without trump" from the next trick on (the later card wins).
- A trump-change card played when the talon is empty leaves the round without trump (3.2: the talon ran out
  while a trump had to be shown).
- Cards in finished tricks are public in the view (``played``): a player at the table may remember them.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import (
    N_,
    NOT_LEGAL,
    Deal,
    RuleError,
    State,
    seats_from_left_of,
)
from scorekeeper.games.rage.cards import (
    ACTION_CARDS,
    BONUS,
    COLOURS,
    JOKER,
    MINUS,
    NO_TRUMP,
    NUMBER_CARDS,
    PLAYED_JOKERS,
    TRICK_RANKS,
    TRUMP_CHANGE,
    base_card,
    colour_of,
    is_number,
    sort_key,
)
from scorekeeper.games.rage.options import RageOptions, dealt_hand_size, deck
from scorekeeper.games.rage.refusals import refusal
from scorekeeper.games.rage.rules import (
    BONUS_POINTS,
    forbidden_dealer_bid,
    round_score,
    winning_play,
)
from scorekeeper.games.rage.view import RageView
from scorekeeper.games.shuffle import shuffle

Action = list[Any]
_PLAYED_JOKERS = frozenset(PLAYED_JOKERS)
_NUMBERS = frozenset(NUMBER_CARDS)
_HELD = {card: base_card(card) for card in TRICK_RANKS}
"""Each card as it lies in a trick and the card it is in hand (a joker named a colour is the joker)."""
_SORT_KEYS = {card: sort_key(card) for card in (*NUMBER_CARDS, *ACTION_CARDS)}
"""`sort_key` of every card that can be dealt, looked up once."""
_JOKER_PLAYS = tuple(f"{JOKER}:{c}" for c in COLOURS)
_NEW_VIEW = object.__new__
_SET = object.__setattr__
OVER = -1
"""``current_player`` once the round is over."""


class RageState(State):
    """One round of Rage from the deal to the last trick."""

    options_type = RageOptions
    wrong_options = N_("These are not Rage options.")
    is_over = False
    """Set with the phase "over" (an attribute: the driver reads it before every move)."""

    def __init__(
        self,
        options: RageOptions,
        deal: Deal,
        *,
        hand_size: int | None = None,
        cards: list[str] | None = None,
    ) -> None:
        """Shuffle with ``random.Random(seed)`` (or take ``cards``, top first), deal, show the first trump;
        bidding starts left of the dealer. The hand size follows the edition's schedule for the round unless
        ``hand_size`` is given. Everybody plays every round (no one is out)."""
        seed, dealer, round_index = deal.seed, deal.dealer, deal.round_index
        size = dealt_hand_size(options, round_index, hand_size)
        players = options.players
        self.options = options
        self._players = players
        self.seed = seed
        self.dealer = dealer
        self.round_index = round_index
        self.hand_size = size
        self.log: list[Action] = []
        self.match_scores = deal.scores
        if cards is None:
            cards = deck(options)
            shuffle(seed, cards)  # as random.Random(seed).shuffle does, written out
        self.hands: list[list[str]] = [[] for _ in range(players)]
        order = seats_from_left_of(dealer, players)
        for k, seat in enumerate(order):  # one by one, clockwise from the dealer's left: every k-th card
            self.hands[seat] = sorted(cards[k : size * players : players], key=_SORT_KEYS.__getitem__)
        self._talon = cards[size * players :][::-1]  # top card last
        self.trump_pile: list[str] = []
        self.trump_down = False
        self.trump: str | None = None
        """The standing trump; a trick after a no-trump card has none whatever this says."""
        self.bids: list[int | None] = [None] * players
        self._bid_order = order
        self.phase = "bid"
        self.leader = order[0]
        self.to_act = order[0]
        self.trick: list[tuple[int, str]] = []
        self._led: str | None = None
        self.tricks = [0] * players
        self.bonus = [0] * players
        self.minus = [0] * players
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.played: list[str] = []
        self.history: list[tuple[tuple[int, str], ...]] = []
        self.last_trick: list[tuple[int, str]] = []
        self.last_winner: int | None = None
        self._reset_trick_flags()
        self._reveal()

    # --- trump ----------------------------------------------------------------------------------------

    def _reveal(self) -> None:
        """Turn talon cards onto the trump pile until a number card shows; an empty talon: no trump."""
        self.trump_down = False
        while self._talon:
            card = self._talon.pop()
            self.trump_pile.append(card)
            if is_number(card):
                self.trump = card[0]
                return
        self.trump = None

    def _reset_trick_flags(self) -> None:
        self.no_trump_in_trick = self.trump_change_in_trick = self.bonus_in_trick = False
        self.minus_in_trick = self.reveal_after_trick = False

    @property
    def trick_trump(self) -> str | None:
        """The trump that decides the current trick."""
        return None if self.no_trump_in_trick else self.trump

    # --- protocol -------------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def current_player(self) -> int:
        return OVER if self.phase == "over" else self.to_act

    @property
    def talon_size(self) -> int:
        return len(self._talon)

    @property
    def talon(self) -> tuple[str, ...]:
        """The talon, the next card to be turned up last: no seat sees it (a measuring tool may,
        :mod:`scorekeeper.games.rage.ceiling`)."""
        return tuple(self._talon)

    @property
    def led(self) -> str | None:
        """The colour of the first coloured card in the trick (kept as the cards are played)."""
        return self._led

    def forbidden_bid(self) -> int | None:
        """The bid the hook rule forbids the current bidder (only ever the dealer)."""
        if self.phase != "bid" or self.to_act != self.dealer:
            return None
        earlier = [b for b in self.bids if b is not None]
        return forbidden_dealer_bid(earlier, self.hand_size, self.options)

    def playable(self) -> list[str]:
        """The cards (as held, jokers plain) the current player may play."""
        hand = self.hands[self.to_act]
        led = self._led
        if led is not None:
            follow = [c for c in hand if c[0] == led and c in _NUMBERS]
            if follow:
                return follow
        return list(dict.fromkeys(hand))

    def legal_actions(self) -> list[Action]:
        if self.phase == "bid":
            forbidden = self.forbidden_bid()
            return [["bid", n] for n in range(self.hand_size + 1) if n != forbidden]
        if self.phase == "play":
            # `playable()` written out: this runs before every card of every simulated round
            hand = self.hands[self.to_act]
            led = self._led
            if led is not None:
                actions = [["play", c] for c in hand if c[0] == led and c in _NUMBERS]
                if actions:
                    return actions
            if JOKER not in hand:  # no joker to name a colour for: each card once
                return [["play", card] for card in dict.fromkeys(hand)]
            actions = []
            for card in dict.fromkeys(hand):
                if card == JOKER:
                    actions.extend(["play", joker] for joker in _JOKER_PLAYS)
                else:
                    actions.append(["play", card])
            return actions
        return []

    def _legal(self, action: Any) -> Action | Any:
        """The phase, the bid or the card say at once whether `action` is legal (the same answer as looking it
        up in `legal_actions()`: a list or tuple of the word and a whole number or a card as written)."""
        if type(action) not in (list, tuple) or len(action) != 2:
            return NOT_LEGAL
        kind, value = action
        if type(kind) is not str:
            return NOT_LEGAL
        if kind == "bid":
            if self.phase != "bid" or type(value) is not int or not 0 <= value <= self.hand_size:
                return NOT_LEGAL
            return NOT_LEGAL if value == self.forbidden_bid() else ["bid", value]
        if kind != "play" or self.phase != "play" or type(value) is not str:
            return NOT_LEGAL
        held = JOKER if value in _PLAYED_JOKERS else value
        hand = self.hands[self.to_act]
        if value == JOKER or held not in hand:
            return NOT_LEGAL
        led = self.led
        follows = held[0] == led and held != JOKER
        # a card that does not follow the led colour: only when the hand holds no number card of it
        if led is not None and not follows and any(c[0] == led and is_number(c) for c in hand):
            return NOT_LEGAL
        return ["play", value]

    def _do(self, action: Action) -> None:
        kind, value = action
        if kind == "bid":
            self.bids[self.to_act] = value
            self._next_bidder()
        else:
            self._play(value)

    def apply_unchecked(self, action: Action) -> None:
        """`State.apply_unchecked` with `_do` written out (one call less for every random or trusted move)."""
        if action[0] == "bid":
            self.bids[self.to_act] = action[1]
            self._next_bidder()
        else:
            self._play(action[1])
        self.log.append(action)

    def _illegal(self, action: Any) -> RuleError:
        return refusal(self, action)

    def _next_bidder(self) -> None:
        position = self._bid_order.index(self.to_act) + 1
        if position < self.players:
            self.to_act = self._bid_order[position]
        else:
            self.phase = "play"
            self.to_act = self.leader

    def _play(self, card: str) -> None:
        seat = self.to_act
        if card in _NUMBERS:
            self.hands[seat].remove(card)
            self.trick.append((seat, card))
            if self._led is None:
                self._led = card[0]
            if len(self.trick) < self._players:
                self.to_act = (seat + 1) % self._players
            else:
                self._finish_trick()
            return
        self.hands[seat].remove(base_card(card))
        self.trick.append((seat, card))
        if self._led is None:
            self._led = colour_of(card)
        if card == NO_TRUMP and not self.no_trump_in_trick:
            self.no_trump_in_trick = True
            self.trump_down = True
            if self.options.edition_column.no_trump_rest_of_round:
                self.trump = None
            else:
                self.reveal_after_trick = True
        elif card == TRUMP_CHANGE and not self.trump_change_in_trick:
            self.trump_change_in_trick = True
            self._reveal()  # counts now, or from the next trick when a no-trump card came first
            self.reveal_after_trick = False
        elif card == BONUS:
            self.bonus_in_trick = True
        elif card == MINUS:
            self.minus_in_trick = True
        if len(self.trick) < self._players:
            self.to_act = (seat + 1) % self._players
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        cards = [card for _, card in self.trick]
        trump = None if self.no_trump_in_trick else self.trump
        winner = self.trick[winning_play([TRICK_RANKS[c] for c in cards], trump)][0]
        self.tricks[winner] += 1
        self.bonus[winner] += self.bonus_in_trick
        self.minus[winner] += self.minus_in_trick
        self.piles[winner].extend([_HELD[c] for c in cards])
        self.played.extend(cards)
        self.history.append(tuple(self.trick))
        self.last_trick = self.trick
        self.last_winner = winner
        if self.reveal_after_trick:
            self._reveal()
        self.trick = []
        self._led = None
        self._reset_trick_flags()
        self.leader = self.to_act = winner
        if not any(self.hands):
            self.phase, self.is_over = "over", True

    # --- outputs --------------------------------------------------------------------------------------

    def round_points(self) -> tuple[int, ...]:
        """Round points as they stand: tricks and +5/-5 cards; the bid's points count once the round is over."""
        if self.is_over:
            return tuple(
                round_score(b or 0, t, p, m, self.options)
                for b, t, p, m in zip(self.bids, self.tricks, self.bonus, self.minus, strict=True)
            )
        return tuple(
            t + BONUS_POINTS * (p - m) for t, p, m in zip(self.tricks, self.bonus, self.minus, strict=True)
        )

    def _view(self, seat: int) -> RageView:
        # Built field by field (a frozen dataclass's own __init__ sets each field through a call): the same
        # value as RageView(...) with these fields, for the bots' every decision; its __dict__ set at once.
        view = _NEW_VIEW(RageView)
        over = self.phase == "over"
        _SET(
            view,
            "__dict__",
            {
                "seat": seat,
                "options": self.options,
                "current_player": OVER if over else self.to_act,
                "turn": len(self.log),
                "is_over": over,
                "match_scores": self.match_scores,
                "round_points": self.round_points(),
                "hand": tuple(self.hands[seat]),
                "hand_size": self.hand_size,
                "hand_counts": tuple(len(h) for h in self.hands),
                "trump": self.trick_trump,
                "trump_top": None if self.trump_down or not self.trump_pile else self.trump_pile[-1],
                "trump_pile": tuple(self.trump_pile),
                "bids": tuple(self.bids),
                "tricks": tuple(self.tricks),
                "bonus": tuple(self.bonus),
                "minus": tuple(self.minus),
                "trick": tuple(self.trick),
                "led": self.led,
                "leader": self.leader,
                "dealer": self.dealer,
                "phase": self.phase,
                "forbidden_bid": self.forbidden_bid(),
                "played": tuple(self.played),
                "history": tuple(self.history),
                "last_trick": tuple(self.last_trick),
                "last_winner": self.last_winner,
                "talon_size": len(self._talon),
                "no_trump_in_trick": self.no_trump_in_trick,
                "trump_change_in_trick": self.trump_change_in_trick,
                "round_index": self.round_index,
            },
        )
        return view

    def _result(self) -> dict[str, Any]:
        """The round as a score keeper would enter it."""
        return {
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "bonus": list(self.bonus),
            "minus": list(self.minus),
        }


new_round = RageState.new_round
"""``State.new_round``'s arguments, and ``hand_size`` to deal another number of cards than the schedule's."""
replay = RageState.replay
