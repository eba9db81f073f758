"""Racko rules (RULES.md 1.4-1.8): runs, the Racko call, round points, chip payments and validation.

A rack is a list of 10 card numbers, index 0 = slot 5 (front) ... index 9 = slot 50 (back).
`caller` is a seat, None (nobody called) or, in a Blitz-Racko round, a list of seats.
The quick form (ascending counts and longest runs instead of racks) is in `scorekeeper.games.racko.quick`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import Message, Plural, RuleError, seat_name
from scorekeeper.games.racko.options import RackoOptions

SLOTS = 10
SLOT_LABELS = tuple(5 * (i + 1) for i in range(SLOTS))
"""The printed slot numbers: index 0 is slot 5, index 9 is slot 50."""

POINTS_PER_CARD = 5
CALLER_POINTS = 75
"""5 per card plus 25 for going Racko (1.5)."""
BLITZ_POINTS = 100
"""Each Blitz-Racko caller (1.6)."""
TWO_PLAYER_MIN_RUN = 3
"""Under the 2-player rule Racko needs a direct run of at least this many cards (1.4)."""

BONUS_TABLE: tuple[tuple[int, int], ...] = ((3, 50), (4, 100), (5, 200), (6, 400))
"""Bonus Racko: (longest direct run at least, bonus for the caller). Only the longest run counts."""

CHIP_TABLE: tuple[tuple[int, int], ...] = ((1, 1), (3, 2), (4, 3), (5, 5), (6, 9))
"""Chips game: (longest direct run at least, chips paid to the caller)."""

Caller = int | Sequence[int] | None


def _step_value(table: tuple[tuple[int, int], ...], run: int) -> int:
    value = 0
    for least, amount in table:
        if run >= least:
            value = amount
    return value


def run_bonus(run: int) -> int:
    """Bonus points for a caller whose longest direct run has `run` cards (0 below 3)."""
    return _step_value(BONUS_TABLE, run)


def chips_for_run(run: int) -> int:
    """Chips one payment is worth for a longest direct run of `run` cards (1 below 3)."""
    return _step_value(CHIP_TABLE, run)


def _check_rack(rack: Any) -> Sequence[int]:
    if not isinstance(rack, list | tuple) or len(rack) != SLOTS:
        raise RuleError("A rack holds exactly 10 cards.")
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in rack):
        raise RuleError("A rack holds card numbers only.")
    return rack


def _ascending(rack: Sequence[int]) -> int:
    count = 1
    while count < len(rack) and rack[count] > rack[count - 1]:
        count += 1
    return count


def _longest_run(rack: Sequence[int]) -> int:
    best = current = 1
    for i in range(1, len(rack)):
        if rack[i] == rack[i - 1] + 1:
            current += 1
            if current > best:
                best = current
        else:
            current = 1
    return best


def ascending_count(rack: Sequence[int]) -> int:
    """Cards counted from slot 5 upward while each is higher than the one before (at least 1)."""
    return _ascending(_check_rack(rack))


def longest_run(rack: Sequence[int]) -> int:
    """Length of the longest direct run: adjacent slots rising by exactly 1 (1 if there is none)."""
    return _longest_run(_check_rack(rack))


def is_racko(rack: Sequence[int]) -> bool:
    """A rack is a Racko when all 10 cards rise from slot 5 to slot 50."""
    return _ascending(_check_rack(rack)) == SLOTS


def may_call(rack: Sequence[int], options: RackoOptions) -> bool:
    """Whether this rack may call Racko: a Racko, with a run of 3+ when the 2-player rule applies."""
    _check_rack(rack)
    if _ascending(rack) != SLOTS:
        return False
    return not options.two_player_rule or _longest_run(rack) >= TWO_PLAYER_MIN_RUN


def _slot_words(index: int) -> Message:
    return Message("slot {label}", label=SLOT_LABELS[index])


def check_options(options: Any) -> RackoOptions:
    if not isinstance(options, RackoOptions):
        raise RuleError("These are not Racko options.")
    return options


def callers_of(caller: Any, options: RackoOptions, *, blitz: bool = False) -> list[int]:
    """The calling seats as a list; checks the seats exist, one caller unless Blitz, Blitz allowed."""
    if not isinstance(blitz, bool):
        raise RuleError("Say whether the round ended by Blitz-Racko (yes or no).")
    if caller is None:
        seats: list[Any] = []
    elif isinstance(caller, list | tuple):
        seats = list(caller)
    else:
        seats = [caller]
    for seat in seats:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < options.players:
            raise RuleError("The caller must be one of the players 1 to {players}.", players=options.players)
    if len(set(seats)) != len(seats):
        raise RuleError("A player can call Racko only once in a round.")
    if blitz:
        if not options.blitz:
            raise RuleError("Blitz-Racko is not played in this game.")
        if not seats:
            raise RuleError("A Blitz-Racko round needs at least one player who called.")
    elif len(seats) > 1:
        raise RuleError("Only one player can call Racko in a round (several only in Blitz-Racko).")
    return seats


def _check_caller_rack(seat: int, rack: Sequence[int], options: RackoOptions) -> None:
    who = seat_name(seat)
    count = _ascending(rack)
    if count < SLOTS:
        raise RuleError(
            "{who} called Racko, but the rack is not in ascending order: {card} in {slot} is lower than "
            "{previous} in {previous_slot}.",
            who=who,
            card=rack[count],
            slot=_slot_words(count),
            previous=rack[count - 1],
            previous_slot=_slot_words(count - 1),
        )
    if options.two_player_rule and _longest_run(rack) < TWO_PLAYER_MIN_RUN:
        raise RuleError(
            "{who} called Racko without a direct run of 3 cards (like 28, 29, 30), "
            "which the 2-player rule requires.",
            who=who,
        )


def validate_round(racks: Any, caller: Caller, options: RackoOptions, *, blitz: bool = False) -> None:
    """Check a round entered as racks (RULES 1.8); raise RuleError with a message for the players.

    Every playing seat has a rack of exactly 10 different cards from the deck of this player count, no card
    is in two racks, and every caller's rack is a Racko that meets the 2-player rule when it applies.
    A rack may be None only in the chips game, for a seat that is out of the game.
    """
    options = check_options(options)
    if not isinstance(racks, list | tuple) or len(racks) != options.players:
        raise RuleError("Enter a rack for each of the {players} players.", players=options.players)
    seats = callers_of(caller, options, blitz=blitz)
    deck = options.deck_size
    owner: dict[int, int] = {}
    active = 0
    for seat, rack in enumerate(racks):
        who = seat_name(seat)
        if rack is None:
            if not options.is_chips:
                raise RuleError("Enter the rack of {who}.", who=who)
            if seat in seats:
                raise RuleError("{who} is out of the game and cannot call Racko.", who=who)
            continue
        active += 1
        if not isinstance(rack, list | tuple):
            raise RuleError("Enter the rack of {who} as 10 card numbers.", who=who)
        if len(rack) != SLOTS:
            raise RuleError(
                Plural(
                    "The rack of {who} has {count} card; a rack holds exactly 10.",
                    "The rack of {who} has {count} cards; a rack holds exactly 10.",
                    len(rack),
                    who=who,
                    count=len(rack),
                )
            )
        for index, card in enumerate(rack):
            if not isinstance(card, int) or isinstance(card, bool):
                raise RuleError(
                    "Slot {label} of {who} must hold a card number.", label=SLOT_LABELS[index], who=who
                )
            if not 1 <= card <= deck:
                raise RuleError(
                    "{who} has card {card} in {slot}, but a game of {players} players uses the cards 1 to {deck}.",
                    who=who,
                    card=card,
                    slot=_slot_words(index),
                    players=options.players,
                    deck=deck,
                )
            if card in owner:
                other = owner[card]
                if other == seat:
                    raise RuleError("Card {card} appears twice in the rack of {who}.", card=card, who=who)
                raise RuleError(
                    "Card {card} is in the racks of both {other} and {who}.",
                    card=card,
                    other=seat_name(other),
                    who=who,
                )
            owner[card] = seat
    if active < 2:
        raise RuleError("A round needs at least 2 players who are still in the game.")
    for seat in seats:
        _check_caller_rack(seat, racks[seat], options)


def points_from(
    counts: Sequence[int | None],
    runs: Sequence[int | None],
    seats: list[int],
    options: RackoOptions,
    blitz: bool,
) -> list[int]:
    """Points per seat from each seat's ascending count and longest run (1.5, 1.6), the round already
    checked: `seats` are the callers; a seat whose count is None is out of the game and gets 0."""
    points = []
    for seat, count in enumerate(counts):
        if seat in seats:
            if blitz:
                points.append(BLITZ_POINTS)
            elif options.variant == "bonus":
                points.append(CALLER_POINTS + run_bonus(runs[seat] or 1))
            else:
                points.append(CALLER_POINTS)
        else:
            points.append(POINTS_PER_CARD * count if count is not None else 0)
    return points


def payments_from(runs: Sequence[int | None], seats: list[int], options: RackoOptions) -> list[int]:
    """Chips each seat pays the one caller in `seats` (1.7) from the longest runs, the round already checked;
    no caller: nobody pays. A seat whose run is None is out of the game and pays nothing."""
    payments = [0] * len(runs)
    if not seats:
        return payments
    (caller,) = seats
    for seat, run in enumerate(runs):
        if seat == caller or run is None:
            continue
        basis = runs[caller] if options.chip_basis == "caller" else run
        payments[seat] = chips_for_run(basis or 1)
    payments[caller] = -sum(payments)
    return payments


def round_points(racks: Any, caller: Caller, options: RackoOptions, *, blitz: bool = False) -> list[int]:
    """Points per seat (1.5, 1.6): the caller 75 (+ Bonus Racko run bonus), a Blitz caller 100, everyone
    else 5 x ascending count. Nobody called: everyone 5 x ascending count. A seat out of the game: 0."""
    validate_round(racks, caller, options, blitz=blitz)
    seats = callers_of(caller, options, blitz=blitz)
    counts = [None if rack is None else _ascending(rack) for rack in racks]
    runs = [None if rack is None else _longest_run(rack) for rack in racks]
    return points_from(counts, runs, seats, options, blitz)


def chip_payments(racks: Any, caller: Caller, options: RackoOptions) -> list[int]:
    """Chips each seat pays the caller (1.7); the caller's entry is minus what it receives.

    Basis "payer": by the payer's own longest run; "caller": by the caller's longest run. Seats out of the
    game pay nothing; with no caller nobody pays. Capping at a player's balance is `settle_chips`.
    """
    validate_round(racks, caller, options)
    seats = callers_of(caller, options)
    runs = [None if rack is None else _longest_run(rack) for rack in racks]
    return payments_from(runs, seats, options)


def settle_chips(payments: Sequence[int], balances: Sequence[int]) -> list[int]:
    """Chip changes after capping (1.7): who cannot pay in full pays what they have (and is then out).
    `payments` as from `chip_payments`; returns the change of each balance, the caller gaining what is paid."""
    if len(payments) != len(balances):
        raise RuleError("Every player needs a chip balance.")
    deltas = [
        -min(max(balance, 0), pay) if pay > 0 else 0 for pay, balance in zip(payments, balances, strict=True)
    ]
    received = -sum(deltas)
    for seat, pay in enumerate(payments):
        if pay < 0:
            deltas[seat] = received
    return deltas
