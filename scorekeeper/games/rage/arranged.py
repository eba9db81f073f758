"""A Rage round dealt as given instead of shuffled: the hands and the talon chosen card by card, for tests,
tutorials and puzzles. It plays like any round (`RageState`) but cannot be rebuilt by `replay` (that needs the
seed)."""

from __future__ import annotations

from scorekeeper.games.base import Deal, RuleError, seats_from_left_of
from scorekeeper.games.rage.cards import JOKER, parse_card
from scorekeeper.games.rage.options import RageOptions
from scorekeeper.games.rage.play import RageState


def arranged_round(
    options: RageOptions, hands: list[list[str]], talon: list[str], *, dealer: int = 0, round_index: int = 0
) -> RageState:
    """A round dealt with the given hands and talon (top card first): every player's hand of the same size,
    jokers without a colour (W). The cards are laid out as the deal hands them round, so the state deals
    exactly these hands."""
    players = options.players
    if len(hands) != players or len({len(h) for h in hands}) != 1 or not hands[0]:
        raise RuleError("Give each of the {players} players a hand of the same size.", players=players)
    for card in [*(c for h in hands for c in h), *talon]:
        if parse_card(card).kind == JOKER and card != JOKER:
            raise RuleError("Jokers in hand or talon have no colour yet (W).")
    size = len(hands[0])
    order = seats_from_left_of(dealer, players)
    cards = [hands[order[i % players]][i // players] for i in range(size * players)] + list(talon)
    deal = Deal(None, dealer, round_index, (0,) * players)
    return RageState(options, deal, hand_size=size, cards=cards)
