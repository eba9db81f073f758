"""Rage: the hook rule, trick winner, round scoring and validation (RULES.md 3.2-3.4).

The editions, the options and the hand-size schedule are in `scorekeeper.games.rage.options`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import N_, Plural, RuleError, is_int, seat_name
from scorekeeper.games.rage.cards import NO_TRUMP, TRICK_RANKS, parse_card
from scorekeeper.games.rage.options import EDITIONS, Edition, RageOptions, edition_title, round_hand_size

LOWER_WINS = False
BONUS_POINTS = 5
"""What each counted +5 card adds and each counted -5 card takes away."""


def _edition(options: RageOptions | None) -> Edition:
    return EDITIONS["seed"] if options is None else options.edition_column


def hook_bid(earlier_bids: Sequence[int], hand_size: int, hook: bool) -> int | None:
    """The hook rule (3.2): the bid that would make all bids add up to the hand size; None when the rule is
    off or no bid 0..hand size would make the sum. Written once: the engine and the bots' fast model use it."""
    if not hook:
        return None
    missing = hand_size - sum(earlier_bids)
    return missing if 0 <= missing <= hand_size else None


def forbidden_dealer_bid(earlier_bids: Sequence[int], hand_size: int, options: RageOptions) -> int | None:
    """The one bid the dealer may not make under the hook rule (all bids would add up to the hand size)."""
    return hook_bid(earlier_bids, hand_size, options.hook)


def dealer_barred(
    bids: Sequence[int | None], dealer: int, hand_size: int, options: RageOptions
) -> int | None:
    """The hook rule at the table, bids by seat (None: not yet bid): once every other seat has bid, the one bid
    the dealer may not make; None before that or when no bid is forbidden. The round-entry screen, a phone's
    part and the played game all ask this one function."""
    earlier = [bid for seat, bid in enumerate(bids) if seat != dealer]
    if any(bid is None for bid in earlier):
        return None
    return forbidden_dealer_bid([bid for bid in earlier if bid is not None], hand_size, options)


def hook_refusal(dealer: int, bid: int, hand_size: int) -> Plural:
    """Why the dealer may not bid `bid` (the hook rule), naming the dealer's seat: one sentence for the
    refusal and for the warning a phone shows before its dealer sends."""
    return Plural(
        "{who} deals and may not bid {bid}: all bids would add up to the {size} card in hand.",
        "{who} deals and may not bid {bid}: all bids would add up to the {size} cards in hand.",
        hand_size,
        who=seat_name(dealer),
        bid=bid,
        size=hand_size,
    )


def edition_score(bid: int, tricks: int, bonus: int, minus: int, column: Edition) -> int:
    """RULES.md 3.4 for one seat under an edition's table: +1 per trick, the edition's points for an exact or
    missed bid, +5/-5 per card. Written once: `round_score` and the bots' fast model use it."""
    if tricks == bid:
        bid_points = column.exact_zero_points if bid == 0 else column.exact_points
    else:
        bid_points = column.missed_points
    return tricks + bid_points + BONUS_POINTS * (bonus - minus)


def round_score(
    bid: int, tricks: int, bonus: int = 0, minus: int = 0, options: RageOptions | None = None
) -> int:
    """A player's round: +1 per trick, the edition's points for an exact or missed bid, +5/-5 per card.

    Without options the seed edition scores (+10 exact, -5 missed).
    """
    return edition_score(bid, tricks, bonus, minus, _edition(options))


def trick_winner(plays: Sequence[str], trump: str | None) -> int:
    """Index of the play that wins the trick (RULES.md 3.3).

    The highest trump wins (jokers named trump included); without trump in the trick, the highest card of the
    led colour (the first coloured card's colour; jokers named it included). Of two jokers in one colour the
    later ranks higher. A trick without any coloured card goes to its leader. ``trump`` is the trump in force
    before the trick; a no-trump card among the plays means the trick has no trump (a trump-change card after
    it included), as the engine plays it. Jokers must carry their colour (``W:g``).
    """
    if isinstance(plays, str) or not isinstance(plays, Sequence) or not plays:
        raise RuleError("A trick needs at least one card.")
    ranked: list[tuple[str | None, int]] = []
    for play in plays:
        known = TRICK_RANKS.get(play) if isinstance(play, str) else None
        if known is None:
            parse_card(play, played=True)  # raises the message for the player
            raise RuleError("A trick holds only cards as played.")
        ranked.append(known)
    return winning_play(ranked, None if NO_TRUMP in plays else trump)


def winning_play(ranked: Sequence[tuple[str | None, int]], trump: str | None) -> int:
    """`trick_winner`'s rule for plays already looked up in `TRICK_RANKS` (colour, rank) and the trump that
    decides the trick (None after a no-trump card): written once, the engine calls it with its own cards
    unchecked."""
    wanted = None
    if trump is not None:
        for colour, _ in ranked:
            if colour == trump:
                wanted = trump
                break
    if wanted is None:
        for colour, _ in ranked:
            if colour is not None:
                wanted = colour
                break
        else:
            return 0
    # ">=" so that of two jokers in the wanted colour the later one wins; number cards never tie (every
    # coloured card ranks 0 or more).
    best, top = -1, -1
    for i, (colour, rank) in enumerate(ranked):
        if colour == wanted and rank >= top:
            best, top = i, rank
    return best


_COUNT_MESSAGES: dict[str, tuple[str, str, str, str]] = {
    "bids": (
        N_("Enter a bid for each of the {players} players."),
        N_("Enter a bid for each of the {players} players ({given} given)."),
        N_("{who}: the bid must be a whole number."),
        N_("{who}: the bid cannot be negative."),
    ),
    "tricks": (
        N_("Enter the tricks won for each of the {players} players."),
        N_("Enter the tricks won for each of the {players} players ({given} given)."),
        N_("{who}: tricks must be a whole number."),
        N_("{who}: tricks cannot be negative."),
    ),
    "cards": (
        N_("Enter the {label} cards taken for each of the {players} players."),
        N_("Enter the {label} cards taken for each of the {players} players ({given} given)."),
        N_("{who}: {label} cards must be a whole number."),
        N_("{who}: {label} cards cannot be negative."),
    ),
}
"""What each count of a round is called in messages: missing, wrong length, not a number, negative."""


def _counts(kind: str, values: object, players: int, label: str = "") -> list[int]:
    """A list of one whole number >= 0 per player, or a RuleError saying what is wrong."""
    missing, wrong_length, not_whole, negative = _COUNT_MESSAGES[kind]
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise RuleError(missing, players=players, label=label)
    if len(values) != players:
        raise RuleError(wrong_length, players=players, given=len(values), label=label)
    out: list[int] = []
    for seat, value in enumerate(values):
        if not is_int(value):
            raise RuleError(not_whole, who=seat_name(seat), label=label)
        if value < 0:
            raise RuleError(negative, who=seat_name(seat), label=label)
        out.append(value)
    return out


def validate_round(
    bids: object,
    tricks: object,
    bonus: object,
    minus: object,
    hand_size: int,
    dealer: int,
    options: RageOptions,
) -> None:
    """Check a round as a score keeper enters it (RULES.md 3.4); RuleError names the first problem.

    Bids 0..hand size, the dealer's bid obeys the hook rule, the tricks add up to the hand size, the +5/-5
    cards stay within the edition's counts and no player took more of a kind than tricks won.
    """
    players = options.players
    column = options.edition_column
    if not is_int(hand_size) or hand_size < 1:
        raise RuleError("A round is played with at least one card per hand.")
    if not is_int(dealer) or not 0 <= dealer < players:
        raise RuleError("The dealer must be one of the {players} players.", players=players)
    bid_list = _counts("bids", bids, players)
    for seat, bid in enumerate(bid_list):
        if bid > hand_size:
            raise RuleError(
                "{who} bid {bid}, but a bid must be 0 to {size}.",
                who=seat_name(seat),
                bid=bid,
                size=hand_size,
            )
    others = [b for seat, b in enumerate(bid_list) if seat != dealer]
    forbidden = forbidden_dealer_bid(others, hand_size, options)
    if forbidden is not None and bid_list[dealer] == forbidden:
        raise RuleError(hook_refusal(dealer, forbidden, hand_size))
    trick_list = _counts("tricks", tricks, players)
    total = sum(trick_list)
    if total != hand_size:
        raise RuleError(
            Plural(
                "The tricks add up to {total}, but {size} trick was played.",
                "The tricks add up to {total}, but {size} tricks were played.",
                hand_size,
                total=total,
                size=hand_size,
            )
        )
    for label, values, limit in (("+5", bonus, column.bonus), ("-5", minus, column.minus)):
        taken = _counts("cards", values, players, label)
        for seat, count in enumerate(taken):
            _check_cards(seat, count, label, trick_list[seat])
        if sum(taken) > limit:
            raise RuleError(
                Plural(
                    "{count} {label} card was entered, but the {edition} edition has only {limit}.",
                    "{count} {label} cards were entered, but the {edition} edition has only {limit}.",
                    sum(taken),
                    count=sum(taken),
                    label=label,
                    edition=edition_title(column.name),
                    limit=limit,
                )
            )


def _check_cards(seat: int, count: int, label: str, won: int, name: str | None = None) -> None:
    """A +5 or -5 card counts only in a trick the player won: at most one per trick (RULES.md 3.4)."""
    if count > won:
        raise RuleError(  # count > won >= 0, so count is at least 1: the won tricks pick the form
            Plural(
                "{who} took {cards} but won only {won} trick (one counts per trick).",
                "{who} took {cards} but won only {won} tricks (one counts per trick).",
                won,
                who=name or seat_name(seat),
                cards=Plural("{n} {label} card", "{n} {label} cards", count, label=label),
                won=won,
            )
        )


def seat_score(
    seat: int, bid: int, tricks: int, bonus: int, minus: int, options: RageOptions, *, name: str | None = None
) -> int:
    """One player's round score as it is being entered: what `score_result` will give that seat, or the
    RuleError Save would raise for this seat's own entries (more +5/-5 cards than tricks won, or than the
    edition has). A live score never counts cards that Save refuses. `name` names the player in the message
    (default "Player N")."""
    for label, count, limit in (
        ("+5", bonus, options.edition_column.bonus),
        ("-5", minus, options.edition_column.minus),
    ):
        _check_cards(seat, count, label, tricks, name)
        if count > limit:
            raise RuleError(
                Plural(
                    "{count} {label} card was entered, but the {edition} edition has only {limit}.",
                    "{count} {label} cards were entered, but the {edition} edition has only {limit}.",
                    count,
                    count=count,
                    label=label,
                    edition=edition_title(options.edition_column.name),
                    limit=limit,
                )
            )
    return round_score(bid, tricks, bonus, minus, options)


_RESULT_KEYS = ("bids", "tricks", "bonus", "minus")


def validate_result(result: object, options: RageOptions, *, dealer: int, round_index: int) -> None:
    """Check a round result dict ``{"bids", "tricks", "bonus", "minus"}`` for round ``round_index``."""
    if not isinstance(result, dict):
        raise RuleError("A Rage round is entered as bids, tricks, +5 and -5 cards.")
    missing = [key for key in _RESULT_KEYS if key not in result]
    if missing:
        raise RuleError("The round is missing: {keys}.", keys=", ".join(missing))
    size = round_hand_size(options, round_index)
    validate_round(result["bids"], result["tricks"], result["bonus"], result["minus"], size, dealer, options)


def score_result(result: dict[str, Any], options: RageOptions, *, dealer: int, round_index: int) -> list[int]:
    """The round's score per seat (validated first)."""
    validate_result(result, options, dealer=dealer, round_index=round_index)
    return [
        round_score(bid, tricks, bonus, minus, options)
        for bid, tricks, bonus, minus in zip(
            result["bids"], result["tricks"], result["bonus"], result["minus"], strict=True
        )
    ]
