"""Digital Racko: one round as a state machine (RULES.md 1.2-1.6), deterministic for a given seed.

Phases and legal actions (what `legal_actions()` returns):
- "blitz_place" (Blitz deal only): the seat receiving a card puts it into an empty slot: slot indexes.
- "blitz_call" (after a Blitz deal, each seat whose rack may call, in playing order): "call" or "wait".
  The choices stay secret until all are made, so they are as good as simultaneous.
- "draw": "stock", and "discard_pile" when the pile is not empty.
- "place": slot indexes 0..9 (exchange), plus "discard" when the card came from the stock.
- "call": "call" or "wait"; offered at the end of a turn when the rack may call Racko.
- "over": nothing.
"""

from __future__ import annotations

from typing import Any, cast

from scorekeeper.games.base import (
    N_,
    NOT_LEGAL,
    Action,
    Deal,
    RuleError,
    State,
    is_int,
)
from scorekeeper.games.racko.fast import (
    ALL_SLOTS,
    NEW_VIEW,
    SLOTS_OR_DISCARD,
    ascending_count,
    may_call_fast,
    play_trusted,
    seating,
)

# The action words (re-exported: the bots, the describer and the UI import them from here).
from scorekeeper.games.racko.fast import CALL as CALL
from scorekeeper.games.racko.fast import DISCARD as DISCARD
from scorekeeper.games.racko.fast import PILE as PILE
from scorekeeper.games.racko.fast import STOCK as STOCK
from scorekeeper.games.racko.fast import WAIT as WAIT
from scorekeeper.games.racko.options import RackoOptions
from scorekeeper.games.racko.rules import (
    SLOTS,
    _longest_run,
    may_call,
    payments_from,
    points_from,
)
from scorekeeper.games.racko.view import RackoView as RackoView
from scorekeeper.games.racko.view import refusal
from scorekeeper.games.shuffle import shuffle

TURN_LIMIT = 1000
"""RULES 1.3 decision: a digital round ends with no caller after this many turns."""


class RackoState(State):
    """One round of digital Racko. Create with `new_round`; drive with `apply`.

    Kept for speed (the simulator plays millions of moves): the seat to act and whether the round is over are
    plain attributes; the cards each seat was seen to take are tuples that views show as they are (replaced,
    never changed in place), the discards a list whose tuple views share until the next discard (a tuple
    grown card by card would cost a copy per turn: a random round runs to a thousand turns); a view starts as a copy of its seat's fixed fields."""

    options_type = RackoOptions
    wrong_options = N_("These are not Racko options.")
    current_player: int = -1
    """The seat to act; -1 when the round is over (an attribute: read on every move)."""
    is_over: bool = False

    def __init__(self, options: RackoOptions, deal: Deal) -> None:
        """Shuffle with `random.Random(seed)` and deal (1.2); seats out of the chips game are not dealt in."""
        seed, dealer, out_seats, players = deal.seed, deal.dealer, deal.out, options.players
        self.match_scores = deal.scores
        self.options = options
        self.seed = seed
        self.dealer = dealer
        self.out = out_seats
        self.log: list[Action] = []
        self._run_rule = bool(options.two_player_rule)
        order, self._after, self._fixed = seating(options, dealer, out_seats, self.match_scores)
        self.order = list(order)
        deck = list(range(1, options.deck_size + 1))
        self._rng = shuffle(seed, deck)  # as random.Random(seed).shuffle(deck) does, written out
        self.stock: list[int] = deck  # top card = last element
        self.pile: list[int] = []  # top card = last element
        self.discards: list[int] = []
        self._discards_seen: tuple[int, ...] | None = ()
        """`discards` as views show it; None when a card was discarded since."""
        self.known: tuple[tuple[int, ...], ...] = ((),) * players
        self.racks: list[list[int | None] | None] = [None] * players  # the deal fills the seats dealt in
        self.turn = 0
        self.callers: list[int] = []
        self.blitz_round = False
        self.drawn: int | None = None
        self.drawn_from: str | None = None
        self._deal_seats: list[int] = []
        self._blitz_queue: list[int] = []
        self._blitz_calls: list[int] = []
        if options.blitz:
            for seat in order:
                self.racks[seat] = [None] * SLOTS
            self._deal_seats = [s for _ in range(SLOTS) for s in order]
            self.phase = "blitz_place"
            self._next_blitz_card()
        else:
            self._deal(deck)
            self._turn_up()
            self._begin_turns()

    def _deal(self, deck: list[int]) -> None:
        """1.2: one card at a time from the top of the stock (its end), each seat in playing order putting its
        cards from slot 50 down: the k-th seat's slot j gets the card dealt as number (9 - j) * seats + k."""
        seats, top, racks = len(self.order), len(deck) - 1, cast(list[Any], self.racks)
        for k, seat in enumerate(self.order):
            racks[seat] = deck[top - k - (SLOTS - 1) * seats : top - k + 1 : seats]
        del deck[len(deck) - SLOTS * seats :]

    @staticmethod
    def may_sit_out(options: RackoOptions) -> bool:
        return options.is_chips

    # --- internals ------------------------------------------------------------------------------------

    def _rack(self, seat: int) -> list[int | None]:
        rack = self.racks[seat]
        assert rack is not None
        return rack

    def _next_blitz_card(self) -> None:
        """Blitz deal: the next card goes to the next seat, who chooses its slot; then the calls."""
        if self._deal_seats:
            self.current_player = self._deal_seats.pop(0)
            self.drawn = self.stock.pop()
            self.drawn_from = STOCK
            return
        self.drawn = self.drawn_from = None
        self._turn_up()
        self._blitz_queue = [s for s in self.order if may_call(_full(self._rack(s)), self.options)]
        self._next_blitz_call()

    def _next_blitz_call(self) -> None:
        if self._blitz_queue:
            self.phase = "blitz_call"
            self.current_player = self._blitz_queue.pop(0)
        elif self._blitz_calls:
            self.callers = list(self._blitz_calls)
            self.blitz_round = True
            self._finish()
        else:
            self._begin_turns()

    def _turn_up(self) -> None:
        card = self.stock.pop()
        self.pile.append(card)
        self.discards.append(card)
        self._discards_seen = None

    def _begin_turns(self) -> None:
        self.phase = "draw"
        self.current_player = self.order[0]

    def _finish(self) -> None:
        self.phase = "over"
        self.is_over = True
        self.current_player = -1
        self.drawn = self.drawn_from = None

    def _forget(self, seat: int, card: int) -> None:
        """`seat` discarded `card`, which everyone saw it take: it is no longer known to be in its rack."""
        known = list(self.known)
        known[seat] = tuple(c for c in known[seat] if c != card)
        self.known = tuple(known)

    def _end_turn(self) -> None:
        if self.turn >= TURN_LIMIT:
            self._finish()
            return
        if not self.stock:
            # 1.3: the pile turned over becomes the stock, the card discarded first on top.
            cards, self.pile = self.pile, []
            if self.options.reshuffle:
                self._rng.shuffle(cards)
                self.stock = cards
            else:
                self.stock = cards[::-1]
        self.current_player = self._after[self.current_player]
        self.phase = "draw"

    def _illegal(self, action: Any) -> RuleError:
        return refusal(self.phase, self.current_player, self.drawn, self.drawn_from, bool(self.pile))

    # --- the state API --------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "draw":
            return [STOCK, PILE] if self.pile else [STOCK]
        if phase == "place":
            return (SLOTS_OR_DISCARD if self.drawn_from == STOCK else ALL_SLOTS).copy()
        if phase in ("call", "blitz_call"):
            return [CALL, WAIT]
        if phase == "blitz_place":
            return [i for i, card in enumerate(self._rack(self.current_player)) if card is None]
        return []

    def _legal(self, action: Any) -> Action:
        """The phase and the slot say at once whether `action` is legal (the same answer as looking it up in
        `legal_actions()`: a slot is a whole number, not a bool or 3.0; a word is the word itself)."""
        phase = self.phase
        kind = type(action)
        if kind is int:
            if not 0 <= action < SLOTS:
                return NOT_LEGAL
            if phase == "place":
                return action
            if phase == "blitz_place" and self._rack(self.current_player)[action] is None:
                return action
            return NOT_LEGAL
        if kind is not str:
            return NOT_LEGAL
        if phase == "draw":
            if action == STOCK:
                return STOCK
            return PILE if action == PILE and self.pile else NOT_LEGAL
        if phase == "place":
            return DISCARD if action == DISCARD and self.drawn_from == STOCK else NOT_LEGAL
        if phase in ("call", "blitz_call") and action in (CALL, WAIT):
            return CALL if action == CALL else WAIT
        return NOT_LEGAL

    def _describable(self, action: Any) -> bool:
        """A Racko move of any phase: the describer tells a move by what it is, so a move of another phase is
        named as what was tried; anything else (a slot out of range, True, 3.0) goes unnamed."""
        if is_int(action):
            return 0 <= action < SLOTS
        return isinstance(action, str) and action in (STOCK, PILE, DISCARD, CALL, WAIT)

    def _do(self, action: Action) -> None:
        phase = self.phase
        if phase == "draw":
            self._draw(action)
        elif phase == "place":
            self._place(action)
        elif phase == "call":
            if action == CALL:
                self.callers = [self.current_player]
                self._finish()
            else:
                self._end_turn()
        elif phase == "blitz_place":
            self._rack(self.current_player)[action] = self.drawn
            self._next_blitz_card()
        else:  # blitz_call
            if action == CALL:
                self._blitz_calls.append(self.current_player)
            self._next_blitz_call()

    def apply_unchecked(self, action: Action) -> None:
        """`State.apply_unchecked`, the two moves of most turns (a stock card drawn, a card placed) carried
        out at once."""
        phase = self.phase
        if phase == "place":
            self._place(action)
        elif phase == "draw":
            self._draw(action)
        else:
            self._do(action)
        self.log.append(action)

    _play_trusted = play_trusted

    def _draw(self, action: Action) -> None:
        """The current player takes the top card of the stock or of the discard pile (which everyone sees)."""
        if action == STOCK:
            self.drawn, self.drawn_from, self.phase = self.stock.pop(), STOCK, "place"
            return
        card = self.drawn = self.pile.pop()
        self.drawn_from, self.phase = PILE, "place"
        known = list(self.known)
        known[self.current_player] += (card,)
        self.known = tuple(known)

    def _place(self, action: Action) -> None:
        """The drawn card goes into slot `action` (the slot's card is discarded), or is discarded."""
        seat = self.current_player
        rack: list[int] = self.racks[seat]  # type: ignore[assignment]  # the seat to act is dealt in, fully
        card: int = self.drawn  # type: ignore[assignment]  # the place phase has a drawn card
        if type(action) is int:
            card, rack[action] = rack[action], card
        self.pile.append(card)
        self.discards.append(card)
        if card in self.known[seat]:
            self._forget(seat, card)
        self.drawn = self.drawn_from = self._discards_seen = None
        turn = self.turn = self.turn + 1
        # `may_call_fast`'s first test written out (most racks fail it at once): asked after every turn
        a, b, c, d, e, f, g, h, i, j = rack
        if a < b < c < d < e < f < g < h < i < j and (not self._run_rule or may_call_fast(rack, True)):
            self.phase = "call"
        elif self.stock and turn < TURN_LIMIT:  # what `_end_turn` does on most turns
            self.current_player = self._after[seat]
            self.phase = "draw"
        else:
            self._end_turn()

    def _view(self, seat: int) -> RackoView:
        """Only what `seat` may see: its own rack, public cards, and its own drawn card.

        Built in its own __dict__ from a copy of the seat's fixed fields with the rest set (the frozen
        dataclass's own __init__ costs more than the rest of a bot's turn): the same value as RackoView(...)
        with these fields (the conformance suite compares both)."""
        view = NEW_VIEW(RackoView)
        fields = view.__dict__
        fields.update(self._fixed[seat])
        rack = self.racks[seat]
        if rack is not None:
            fields["rack"] = tuple(rack)
        current, pile, drawn_from = self.current_player, self.pile, self.drawn_from
        fields["current_player"] = current
        fields["turn"] = self.turn
        fields["phase"] = self.phase
        if pile:
            fields["discard_top"] = pile[-1]
            fields["pile"] = tuple(pile)
        if drawn_from is not None:  # a card is drawn (`drawn` and `drawn_from` are set and cleared together)
            fields["drawn_from"] = drawn_from
            if seat == current or drawn_from == PILE:
                fields["drawn"] = self.drawn
        discards = self._discards_seen
        if discards is None:
            discards = self._discards_seen = tuple(self.discards)
        fields["discards"] = discards
        fields["stock_count"] = len(self.stock)
        fields["known"] = self.known
        if self.is_over:
            fields["is_over"] = True
            fields["round_points"] = self.round_points()
        return view

    def round_points(self) -> tuple[int, ...] | None:
        """The round's effect per seat once it is over (points, or chip changes in the chips game), else None."""
        if not self.is_over:
            return None
        # `score_result` of the round's result without checking it again: the engine's own racks and callers
        # are valid (the conformance suite compares both).
        racks = self.racks
        if self.options.is_chips:
            runs = [None if rack is None else _longest_run(_full(rack)) for rack in racks]
            return tuple(-pay for pay in payments_from(runs, self.callers, self.options))
        counts = [None if rack is None else ascending_count(rack) for rack in racks]  # type: ignore[arg-type]
        runs = [None] * len(racks)  # a run counts only for a Bonus Racko caller
        if self.options.variant == "bonus":
            runs = [None if rack is None else _longest_run(_full(rack)) for rack in racks]
        return tuple(points_from(counts, runs, self.callers, self.options, self.blitz_round))

    def _result(self) -> dict[str, Any]:
        """The round result as a score keeper would enter it (results.py's detailed form)."""
        return {
            "racks": [None if rack is None else list(rack) for rack in self.racks],
            "callers": list(self.callers),
            "blitz": self.blitz_round,
        }


def _full(rack: list[int | None]) -> list[int]:
    """A rack once it is dealt (after the Blitz deal too): every slot holds a card (a cast: no check)."""
    return cast(list[int], rack)


new_round = RackoState.new_round
"""Shuffle with `random.Random(seed)` and deal (1.2): `State.new_round`'s arguments; `round_index` does not
change a Racko deal, `out` are the seats out of the chips game."""
replay = RackoState.replay
