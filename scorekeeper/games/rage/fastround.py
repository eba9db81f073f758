"""A fast model of one Rage round for bots that look ahead (RULES.md 3.2-3.4, same decisions as play.py).

The engine (:mod:`scorekeeper.games.rage.play`) checks every move and builds views for players; a bot that
plays a round out thousands of times per decision needs neither. Here cards are small integers and a trick
is a list of ``(seat, colour, rank)``; the rules are the engine's: follow the led colour with a number card,
the first no-trump / trump-change card of a trick takes effect (a no-trump trick shows a new trump after it,
or with ``fundex`` the round goes on without trump), a trump-change card shows a new trump at once, the talon
running out leaves the round without trump, +5/-5 go to the trick's winner (the first of each type).

Card codes: a number card is ``colour * 16 + value`` (colours in :data:`COLOURS` order), then the action
cards: :data:`W` (joker), :data:`NT`, :data:`TC`, :data:`PLUS`, :data:`MINUS`. Ascending codes are the
engine's hand order, so the baseline's first-of-equals choices come out the same as in
:class:`scorekeeper.games.rage.bots.BaselineBot`, which :func:`baseline_card` and :func:`baseline_bid`
reproduce move for move.
"""

from __future__ import annotations

from scorekeeper.games.rage.cards import BONUS, COLOURS, JOKER, MINUS, NO_TRUMP, NUMBER_CARDS, TRUMP_CHANGE
from scorekeeper.games.rage.rules import edition_score, hook_bid

W, NT, TC, PLUS, MINUS_CARD = 96, 97, 98, 99, 100
JOKER_RANK = 16
CODE: dict[str, int] = {card: i for i, card in enumerate(NUMBER_CARDS)}
CODE.update({JOKER: W, NO_TRUMP: NT, TRUMP_CHANGE: TC, BONUS: PLUS, MINUS: MINUS_CARD})
NAME: dict[int, str] = {code: card for card, code in CODE.items()}
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
STRONG_VALUE = 13
"""The baseline counts number cards of this value and higher as sure tricks."""


def encode_played(card: str) -> tuple[int, int, int]:
    """A card as it lies in a trick: (code of the physical card, colour or -1, rank or -1)."""
    if card.startswith(JOKER + ":"):
        return W, COLOUR_INDEX[card[2]], JOKER_RANK
    code = CODE[card]
    if code < W:
        return code, code >> 4, code & 15
    return code, -1, -1


def is_strong(code: int, trump: int) -> bool:
    """The baseline's count for bidding: jokers, trumps and number cards of 13 and up."""
    if code >= W:
        return code == W
    return (code >> 4) == trump or (code & 15) >= STRONG_VALUE


class FastRound:
    """One round in play (or still bidding): hands, talon, trump, the trick, tricks and +5/-5 taken."""

    __slots__ = (
        "bids",
        "bonus",
        "fundex",
        "hands",
        "led",
        "minus",
        "minus_flag",
        "nt",
        "players",
        "plus",
        "reveal_after",
        "talon",
        "tc",
        "trick",
        "tricks",
        "trump",
        "turn",
    )  # fmt: skip

    def __init__(
        self, players: int, hands: list[list[int]], talon: list[int], trump: int, fundex: bool
    ) -> None:
        self.players = players
        self.hands = hands
        self.talon = talon
        """Cards still to be turned up, the next one last."""
        self.trump = trump
        """The standing trump (-1: none); a trick after a no-trump card has none whatever this says."""
        self.nt = False
        self.tc = False
        self.plus = False
        self.minus_flag = False
        self.reveal_after = False
        self.trick: list[tuple[int, int, int]] = []
        self.led = -1
        self.tricks = [0] * players
        self.bonus = [0] * players
        self.minus = [0] * players
        self.bids = [0] * players
        self.turn = 0
        self.fundex = fundex

    @property
    def trick_trump(self) -> int:
        return -1 if self.nt else self.trump

    def reveal(self) -> None:
        talon = self.talon
        while talon:
            card = talon.pop()
            if card < W:
                self.trump = card >> 4
                return
        self.trump = -1

    def legal(self, seat: int) -> list[int]:
        """Distinct playable cards of ``seat`` in hand order."""
        hand = self.hands[seat]
        led = self.led
        if led >= 0:
            low, high = led << 4, (led << 4) + 16
            follow = [c for c in hand if low <= c < high]
            if follow:
                return follow
        return list(dict.fromkeys(hand))

    def play(self, base: int, colour: int = -1) -> None:
        """The current player plays ``base`` (a joker with its named ``colour``)."""
        seat = self.turn
        self.hands[seat].remove(base)
        if base < W:
            colour, rank = base >> 4, base & 15
        elif base == W:
            rank = JOKER_RANK
        else:
            colour = rank = -1
            if base == NT:
                if not self.nt:
                    self.nt = True
                    if self.fundex:
                        self.trump = -1
                    else:
                        self.reveal_after = True
            elif base == TC:
                if not self.tc:
                    self.tc = True
                    self.reveal()
                    self.reveal_after = False
            elif base == PLUS:
                self.plus = True
            else:
                self.minus_flag = True
        self.trick.append((seat, colour, rank))
        if self.led < 0 and colour >= 0:
            self.led = colour
        if len(self.trick) < self.players:
            self.turn = seat + 1 if seat + 1 < self.players else 0
            return
        self._finish()

    def winner(self) -> int:
        trick = self.trick
        trump = self.trick_trump
        wanted = self.led
        if trump >= 0 and any(c == trump for _, c, _ in trick):
            wanted = trump
        if wanted < 0:
            return trick[0][0]
        best, best_rank = -1, -1
        for seat, c, r in trick:
            if c == wanted and r >= best_rank:
                best, best_rank = seat, r
        return best

    def _finish(self) -> None:
        win = self.winner()
        self.tricks[win] += 1
        if self.plus:
            self.bonus[win] += 1
        if self.minus_flag:
            self.minus[win] += 1
        if self.reveal_after:
            self.reveal()
        self.trick = []
        self.led = -1
        self.nt = self.tc = self.plus = self.minus_flag = self.reveal_after = False
        self.turn = win

    @property
    def over(self) -> bool:
        return not self.trick and not self.hands[self.turn]


def baseline_card(r: FastRound, seat: int) -> tuple[int, int]:
    """The baseline's card (and a joker's colour) for ``seat``: win while below the bid, else duck.

    Ties go to the first card in hand order, as with ``min``/``max`` over the engine's legal actions.
    """
    cards = r.legal(seat)
    if len(cards) == 1 and cards[0] != W:
        return cards[0], (cards[0] >> 4 if cards[0] < W else -1)
    want = r.tricks[seat] < r.bids[seat]
    trump = -1 if r.nt else r.trump
    led = r.led
    trick = r.trick
    # the trick as it lies: is a trump in it, the best trump, the best card of the led colour
    has_trump = False
    best_trump = best_led = -1
    for _, c, rank in trick:
        if c < 0:
            continue
        if c == trump:
            has_trump = True
            if rank > best_trump:
                best_trump = rank
        if c == led and rank > best_led:
            best_led = rank
    leading = not trick
    pick = pick_colour = -1
    pick_strength = 0
    win_pick = win_colour = -1
    win_strength = 0
    joker = False
    for code in cards:
        if code == W:
            joker = True
            continue
        if code < W:
            colour = code >> 4
            rank = code & 15
            strength = rank + 20 if colour == trump else rank
            if leading:
                wins = True
            elif trump >= 0 and has_trump:
                wins = colour == trump and rank >= best_trump
            elif trump >= 0 and colour == trump:
                wins = True
            elif led >= 0:
                wins = colour == led and rank >= best_led
            else:
                wins = True
        else:
            colour = -1
            strength = -1
            wins = leading
        # pick: the overall choice without winners; win_pick: among winners (want) / losers (not want)
        if pick < 0 or ((strength > pick_strength) if (leading and want) else (strength < pick_strength)):
            pick, pick_colour, pick_strength = code, colour, strength
        if not leading and wins == want:
            better = strength < win_strength if want else strength > win_strength
            if win_pick < 0 or better:
                win_pick, win_colour, win_strength = code, colour, strength
    if joker:
        if want:
            colour = trump if trump >= 0 else (led if led >= 0 else 0)
        else:
            colour = 0
            while colour in (led, trump):
                colour += 1
        # a joker is the strongest card (40) and wins whenever it is named trump or the winning colour
        if leading:
            wins = True
        elif colour < 0:
            wins = False
        elif trump >= 0 and has_trump:
            wins = colour == trump
        elif trump >= 0 and colour == trump:
            wins = True
        elif led >= 0:
            wins = colour == led
        else:
            wins = True
        if pick < 0 or (leading and want):
            pick, pick_colour, pick_strength = W, colour, 40
        if not leading and wins == want and (win_pick < 0 or not want):
            win_pick, win_colour, win_strength = W, colour, 40
    if leading or win_pick < 0:
        return pick, pick_colour
    return win_pick, win_colour


def baseline_bid(hand: list[int], trump: int, hand_size: int, forbidden: int | None) -> int:
    """The baseline's bid: its strong cards; around the hook rule one more (one less at the top)."""
    bid = sum(1 for c in hand if is_strong(c, trump))
    if bid == forbidden:
        bid = bid + 1 if bid + 1 <= hand_size else bid - 1
    return bid


forbidden = hook_bid
"""The dealer's forbidden bid given the other bids (the engine's hook rule)."""

round_points = edition_score
"""RULES.md 3.4 for one seat (the engine's scoring, :func:`scorekeeper.games.rage.rules.edition_score`)."""
