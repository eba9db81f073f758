"""Digital Ruck Zuck: one round as a state machine (RULES.md 2.2 and 2.3).

Actions (plain JSON-safe values):
- `["place", card, field]`: put `card` (a number or "J") on `field` (a number 1..49, or "J1"/"J2" for the
  left/right joker field). A number card only goes on its own field, so `card == field` for numbers.
- `["swap", n]`: joker swap: card `n` replaces the joker lying on number field `n`, the joker goes back to
  hand. **Decision** on "play it again at once" (RULES.md 2.2): the joker must be placed as the very next
  action of the same turn (the only legal actions are joker placements until it is down).
- `"draw"`: only when nothing has been placed this turn; the drawn card cannot be used this turn, so the
  turn passes, except after drawing the last stock card: then that player may still place (the drawn card
  included) and `"end"` ends the round.
- `"end"`: end the turn after placing at least one card (or end the round after the last draw).
Placing and swapping count as placing a card. Placing the last card in hand ends the round at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import scorekeeper.games.ruckzuck.board as board
from scorekeeper.games.base import N_, NOT_LEGAL, Deal, RuleError, State, left_of, seat_name
from scorekeeper.games.ruckzuck.rules import (
    HAND_SIZE,
    JOKER,
    JOKERS_IN_DECK,
    NUMBERS,
    Card,
    RuckZuckOptions,
    penalty,
)
from scorekeeper.games.views import View

PLACE = "place"
SWAP = "swap"
DRAW = "draw"
END = "end"
_NEW_VIEW = object.__new__
START_JOKER_FIELD = 25
"""A joker turned up as the start card goes on field 25 (on either side: the field numbered 25)."""


def _sort_key(card: Card) -> tuple[int, int]:
    return (1, 0) if card == JOKER else (0, int(card))


def sorted_hand(cards: Sequence[Card]) -> list[Card]:
    """A hand in display order: numbers ascending, jokers last."""
    return sorted(cards, key=_sort_key)


def _freeze(action: Any) -> Any:
    return tuple(action) if isinstance(action, list | tuple) else action


@dataclass(frozen=True)
class RuckZuckView(View):
    """What one seat may know: its own hand, the board, how many cards the others hold, the stock size and
    every action so far (actions never show a drawn card). Never others' cards or the stock order."""

    options: RuckZuckOptions
    layout: tuple[board.Field, ...]
    board: tuple[Card | None, ...]
    """Per position (row * 13 + column) the card lying there, or None."""
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    dealer: int
    placed_this_turn: int
    joker_pending: bool
    """The current player has just swapped a joker back and must place it now."""
    last_draw: bool
    """The current player drew the last stock card: they may still place, then the round ends."""
    out: int | None
    round_points: tuple[int, ...] | None
    """The round's penalties once it is over (hands are then shown), else None."""
    history: tuple[tuple[int, Any], ...]
    """(seat, action) for every action so far."""
    start_card: Card


class RuckZuckState(State):
    """One round of Ruck Zuck being played. Build it with `new_round` or `replay`."""

    options_type = RuckZuckOptions
    wrong_options = N_("These are not Ruck Zuck options.")

    def __init__(self, options: RuckZuckOptions, deal: Deal) -> None:
        """Shuffle the 51 cards with `random.Random(seed)`, deal 5 to each player (starting left of the
        dealer), turn up the start card onto its field (a joker onto field 25); the player left of the
        dealer begins. Every player plays every round (no one is out); `round_index` does not change a deal."""
        self._empty(options, deal.dealer)
        self.match_scores = deal.scores
        self._deal(deal.seed)

    def _empty(self, options: RuckZuckOptions, dealer: int) -> None:
        """A table before the deal: nothing on the board, empty hands; the player left of the dealer begins."""
        self.options = options
        self.dealer = dealer
        self.seed: Any = None
        self.log: list[Any] = []
        self._layout = board.layout(options.side)
        self._board: list[Card | None] = [None] * board.FIELDS
        self._hands: list[list[Card]] = [[] for _ in range(options.players)]
        self._stock: list[Card] = []  # the top card is the last one
        self._current = left_of(dealer, options.players)
        self._turns = 0
        self.match_scores = (0,) * options.players
        self._placed = 0
        self._joker_pending = False
        self._last_draw = False
        self._over = False
        self._out: int | None = None
        self._history: list[tuple[int, Any]] = []
        self.start_card: Card = JOKER

    # --- building ------------------------------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        options: RuckZuckOptions,
        hands: Sequence[Sequence[Card]],
        cards_on_board: dict[int | str, Card],
        stock: Sequence[Card],
        *,
        current: int = 0,
        dealer: int | None = None,
    ) -> RuckZuckState:
        """A state from a given position (for tests and puzzles): `cards_on_board` maps field names to
        cards, `stock` lists the stock from the bottom to the top card. It cannot be replayed."""
        state = cls.__new__(cls)
        state._empty(options, (current - 1) % options.players if dealer is None else dealer)
        state._hands = [list(h) for h in hands]
        for name, card in cards_on_board.items():
            state._board[board.position_of_label(name, options.side)] = card
        state._stock = list(stock)
        state._current = current
        state.start_card = next(iter(cards_on_board.values()), JOKER)
        if sorted_hand(state.all_cards()) != sorted_hand([*NUMBERS, *[JOKER] * JOKERS_IN_DECK]):
            raise RuleError("A position must hold each of the 51 cards exactly once.")
        return state

    def _deal(self, seed: Any) -> None:
        deck: list[Card] = [*NUMBERS, *[JOKER] * JOKERS_IN_DECK]
        random.Random(seed).shuffle(deck)
        players = self.options.players
        for k in range(HAND_SIZE * players):
            self._hands[left_of(self.dealer, players, 1 + k % players)].append(deck.pop())
        self._stock = deck
        self.start_card = self._stock.pop()
        field = START_JOKER_FIELD if self.start_card == JOKER else self.start_card
        self._board[board.position_of(int(field), self.options.side)] = self.start_card
        self.seed = seed

    # --- reading -------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act; -1 once the round is over."""
        return -1 if self._over else self._current

    @property
    def is_over(self) -> bool:
        return self._over

    def hand(self, seat: int) -> list[Card]:
        """A copy of a seat's hand (for the host and tests, never for another seat's device)."""
        return sorted_hand(self._hands[seat])

    def all_cards(self) -> list[Card]:
        """Every card in hands, on the board and in the stock (the 51 cards, each once)."""
        on_board = [c for c in self._board if c is not None]
        return [*on_board, *self._stock, *(c for h in self._hands for c in h)]

    def _touches(self, position: int) -> bool:
        return any(self._board[q] is not None for q in board.NEIGHBOURS[position])

    def _joker_targets(self) -> list[int]:
        """Empty number or joker fields touching a card (the stock field never holds a card)."""
        return [
            p
            for p, field in enumerate(self._layout)
            if field != board.STOCK_FIELD and self._board[p] is None and self._touches(p)
        ]

    def _label(self, position: int) -> int | str:
        return board.label(position, self.options.side)

    def legal_actions(self) -> list[Any]:
        """Every action the current player may take now, in a fixed order."""
        if self._over:
            return []
        hand = self._hands[self._current]
        if self._joker_pending:
            return [[PLACE, JOKER, self._label(p)] for p in self._joker_targets()]
        actions: list[Any] = []
        for number in sorted({c for c in hand if c != JOKER}):
            position = board.position_of(int(number), self.options.side)
            if self._board[position] is None and self._touches(position):
                actions.append([PLACE, number, number])
            elif self._board[position] == JOKER:
                actions.append([SWAP, number])
        if JOKER in hand:
            actions.extend([PLACE, JOKER, self._label(p)] for p in self._joker_targets())
        actions.append(END if self._placed or self._last_draw else DRAW)
        return actions

    def _legal(self, action: Any) -> Any:
        """Whether `action` is legal, from the hand and the fields it names (the same answer as looking it up
        in `legal_actions()`: numbers are whole numbers, never bools; lists and tuples alike)."""
        if self._over:
            return NOT_LEGAL
        kind = type(action)
        if kind is str:
            if self._joker_pending or action not in (DRAW, END):
                return NOT_LEGAL
            ending = bool(self._placed or self._last_draw)
            return (END if ending else NOT_LEGAL) if action == END else (NOT_LEGAL if ending else DRAW)
        if kind not in (list, tuple) or len(action) not in (2, 3) or type(action[0]) is not str:
            return NOT_LEGAL
        hand = self._hands[self._current]
        side = self.options.side
        if len(action) == 2:
            number = action[1]
            if action[0] != SWAP or self._joker_pending or type(number) is not int or number not in hand:
                return NOT_LEGAL
            return [SWAP, number] if self._board[board.position_of(number, side)] == JOKER else NOT_LEGAL
        _, card, name = action
        if action[0] != PLACE:
            return NOT_LEGAL
        if type(card) is int:
            if self._joker_pending or type(name) is not int or name != card or card not in hand:
                return NOT_LEGAL
            position = board.position_of(card, side)
            free = self._board[position] is None and self._touches(position)
            return [PLACE, card, card] if free else NOT_LEGAL
        if card != JOKER or type(card) is not str or JOKER not in hand:
            return NOT_LEGAL
        number_field = type(name) is int and 1 <= name <= NUMBERS[-1]
        if number_field or (type(name) is str and name in board.JOKER_LABELS):
            position = board.position_of_label(name, side)
            if self._board[position] is None and self._touches(position):
                return [PLACE, JOKER, name]
        return NOT_LEGAL

    # --- acting --------------------------------------------------------------------------------------

    def _do(self, action: Any) -> None:
        frozen = _freeze(action)
        seat = self._current
        hand = self._hands[seat]
        if frozen == DRAW:
            hand.append(self._stock.pop())
            if not self._stock:
                self._last_draw = True  # same player goes on: may still place, then the round ends
            else:
                self._next_turn()
        elif frozen == END:
            if self._last_draw:
                self._end_round()
            else:
                self._next_turn()
        elif frozen[0] == SWAP:
            number = frozen[1]
            position = board.position_of(number, self.options.side)
            hand.remove(number)
            hand.append(JOKER)
            self._board[position] = number
            self._placed += 1
            self._joker_pending = bool(self._joker_targets())
        else:
            _, card, name = frozen
            hand.remove(card)
            self._board[board.position_of_label(name, self.options.side)] = card
            self._placed += 1
            self._joker_pending = False
            if not hand:
                self._out = seat
                self._end_round()
        self._history.append((seat, frozen))

    def _next_turn(self) -> None:
        self._current = left_of(self._current, self.options.players)
        self._placed = 0
        self._turns += 1

    def _end_round(self) -> None:
        """The last turn of the round is over too."""
        self._over = True
        self._turns += 1

    def _illegal(self, action: Any) -> RuleError:
        """A player's explanation of why `action` is not allowed now."""
        who = seat_name(self._current)
        frozen = _freeze(action)
        hand = self._hands[self._current]
        if self._joker_pending:
            return RuleError("{who} took a joker back with a swap and must place it now.", who=who)
        if frozen == DRAW:
            if self._last_draw:
                return RuleError("The stock is empty.")
            return RuleError(
                "{who} has placed a card this turn, so ends the turn instead of drawing.", who=who
            )
        if frozen == END:
            return RuleError(
                "{who} has placed nothing this turn, so must draw a card from the stock.", who=who
            )
        parts = frozen if isinstance(frozen, tuple) else (frozen,)
        if any(isinstance(p, bool) for p in parts) or not isinstance(frozen, tuple) or not frozen:
            return RuleError(
                "That is not a Ruck Zuck move: place a card, swap a joker, draw or end the turn."
            )
        if frozen[0] not in (PLACE, SWAP):
            return RuleError(
                "That is not a Ruck Zuck move: place a card, swap a joker, draw or end the turn."
            )
        if frozen[0] == SWAP:
            if len(frozen) != 2 or frozen[1] not in hand or frozen[1] == JOKER:
                return RuleError("{who} can only swap a joker for a number card in their hand.", who=who)
            return RuleError("No joker lies on field {card} to swap for card {card}.", card=frozen[1])
        if len(frozen) != 3:
            return RuleError("Say which card goes on which field.")
        _, card, name = frozen
        if isinstance(card, bool) or card not in hand:
            if isinstance(card, int | str):
                return RuleError("{who} has no card {card} in hand.", who=who, card=card)
            return RuleError("{who} has no such card in hand.", who=who)
        try:
            position = board.position_of_label(name, self.options.side)
        except RuleError as error:
            return error
        field = self._label(position)
        if card != JOKER and card != field:
            return RuleError("Card {card} goes only on field {card}.", card=card)
        if card != JOKER and self._board[position] == JOKER:
            return RuleError("A joker lies on field {card}: swap it for card {card} instead.", card=card)
        if self._board[position] is not None:
            return RuleError("Field {field} is already taken.", field=field)
        return RuleError("Field {field} does not touch any card on the board yet.", field=field)

    # --- results -------------------------------------------------------------------------------------

    def penalties(self) -> list[int]:
        """Every seat's penalty for the cards now in hand."""
        return [penalty(h) for h in self._hands]

    def round_points(self) -> tuple[int, ...] | None:
        """The round's penalties once it is over (the hands are then shown), else None."""
        return tuple(self.penalties()) if self._over else None

    def _result(self) -> dict[str, Any]:
        """The round result a score keeper would enter: `{"hands": [...], "out": seat | None}`."""
        return {"hands": [sorted_hand(h) for h in self._hands], "out": self._out}

    def _view(self, seat: int) -> RuckZuckView:
        """What `seat` may see (see RuckZuckView)."""
        # Built field by field (a frozen dataclass's own __init__ sets each field through a call): the same
        # value as RuckZuckView(...) with these fields, for the bots' every decision.
        view = _NEW_VIEW(RuckZuckView)
        over = self._over
        view.__dict__.update(
            seat=seat,
            options=self.options,
            current_player=-1 if over else self._current,
            turn=self._turns,
            is_over=over,
            match_scores=self.match_scores,
            round_points=self.round_points(),
            layout=self._layout,
            board=tuple(self._board),
            hand=tuple(sorted_hand(self._hands[seat])),
            hand_sizes=tuple(len(h) for h in self._hands),
            stock_size=len(self._stock),
            dealer=self.dealer,
            placed_this_turn=self._placed,
            joker_pending=self._joker_pending,
            last_draw=self._last_draw,
            out=self._out,
            history=tuple(self._history),
            start_card=self.start_card,
        )
        return view


new_round = RuckZuckState.new_round
replay = RuckZuckState.replay
