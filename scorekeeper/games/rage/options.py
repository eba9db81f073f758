"""Rage editions and options (RULES.md 3.1): the editions' table as data, the validated options of a game and
the hand-size schedule each edition deals by."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.games.base import N_, Message, RuleError, is_int
from scorekeeper.games.rage.cards import BONUS, JOKER, MINUS, NO_TRUMP, TRUMP_CHANGE, make_deck


@dataclass(frozen=True)
class Edition:
    """One published edition of Rage: a column of the table in RULES.md 3.1."""

    name: str
    jokers: int
    no_trump: int
    trump_change: int
    bonus: int
    minus: int
    min_players: int
    max_players: int
    hand_sizes: tuple[int, ...]
    hook_rule: bool
    """The dealer may not bid the number that makes all bids add up to the hand size."""
    exact_points: int
    exact_zero_points: int
    """What an exact bid of 0 earns (fundex: +5 instead of +10)."""
    missed_points: int
    no_trump_rest_of_round: bool
    """fundex: after a no-trump card the round goes on without trump instead of showing a new one."""
    action_counts: dict[str, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        counts = {
            JOKER: self.jokers,
            NO_TRUMP: self.no_trump,
            TRUMP_CHANGE: self.trump_change,
            BONUS: self.bonus,
            MINUS: self.minus,
        }
        object.__setattr__(self, "action_counts", counts)


_DOWN_UP = (*range(10, 0, -1), *range(2, 11))
_DOWN = tuple(range(10, 0, -1))

EDITIONS: dict[str, Edition] = {
    "seed": Edition(
        name="seed", jokers=2, no_trump=3, trump_change=3, bonus=2, minus=2,
        min_players=2, max_players=10, hand_sizes=_DOWN_UP, hook_rule=True,
        exact_points=10, exact_zero_points=10, missed_points=-5, no_trump_rest_of_round=False,
    ),
    "amigo": Edition(
        name="amigo", jokers=2, no_trump=4, trump_change=4, bonus=3, minus=3,
        min_players=3, max_players=8, hand_sizes=_DOWN, hook_rule=False,
        exact_points=10, exact_zero_points=10, missed_points=-5, no_trump_rest_of_round=False,
    ),
    "fundex": Edition(
        name="fundex", jokers=2, no_trump=4, trump_change=4, bonus=2, minus=2,
        min_players=2, max_players=8, hand_sizes=_DOWN, hook_rule=False,
        exact_points=10, exact_zero_points=5, missed_points=0, no_trump_rest_of_round=True,
    ),
}  # fmt: skip
TITLES: dict[str, str] = {"seed": N_("Original"), "amigo": N_("Amigo"), "fundex": N_("Fundex")}
"""What the app calls each edition (the seed's edition is the "Original")."""


def edition_title(key: str) -> Message:
    """An edition as messages name it ("the Original edition has only 2 +5 cards"), never its data key."""
    return Message(TITLES.get(key, key))


PLAYERS = (
    min(edition.min_players for edition in EDITIONS.values()),
    max(edition.max_players for edition in EDITIONS.values()),
)
"""The fewest and the most players over all editions."""


@dataclass(frozen=True)
class RageOptions:
    """A Rage game: number of players and edition; ``hook_rule`` None follows the edition (house rule)."""

    players: int
    edition: str = "seed"
    hook_rule: bool | None = None

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise RuleError("Rage editions are {editions}.", editions=", ".join(EDITIONS))
        column = EDITIONS[self.edition]
        if not is_int(self.players) or not column.min_players <= self.players <= column.max_players:
            low, high = column.min_players, column.max_players
            raise RuleError(
                "The {edition} edition of Rage is for {low} to {high} players.",
                edition=edition_title(self.edition),
                low=low,
                high=high,
            )
        if self.hook_rule is not None and not isinstance(self.hook_rule, bool):
            raise RuleError("The hook rule is either on or off.")

    @property
    def edition_column(self) -> Edition:
        """The edition's column of the table in RULES.md 3.1 (its numbers: cards, hand sizes, points)."""
        return EDITIONS[self.edition]

    @property
    def hook(self) -> bool:
        """Whether the hook rule is in force for this game."""
        return self.edition_column.hook_rule if self.hook_rule is None else self.hook_rule


Options = RageOptions


def deck(options: RageOptions) -> list[str]:
    """The edition's deck: 96 number cards plus its action cards."""
    return make_deck(options.edition_column.action_counts)


def hand_sizes(options: RageOptions) -> list[int]:
    """Cards per hand in each round, in order (seed: 10 down to 1 and up to 10 again; others 10 down to 1)."""
    return list(options.edition_column.hand_sizes)


def hand_size(options: RageOptions, round_index: int) -> int | None:
    """Cards per hand in round ``round_index`` (0-based); None once the schedule is over."""
    if not is_int(round_index) or round_index < 0:
        raise RuleError("Rounds are counted from the first one on.")
    sizes = options.edition_column.hand_sizes
    return sizes[round_index] if round_index < len(sizes) else None


def round_hand_size(options: RageOptions, round_index: int) -> int:
    """The hand size of round `round_index` (0-based) in the edition's schedule; past its end a RuleError."""
    size = hand_size(options, round_index)
    if size is None:
        rounds = len(options.edition_column.hand_sizes)
        raise RuleError(
            "The {edition} edition of Rage has only {rounds} rounds.",
            edition=edition_title(options.edition),
            rounds=rounds,
        )
    return size


def dealt_hand_size(options: RageOptions, round_index: int, hand_size: int | None) -> int:
    """The hand size a round is dealt with: the edition's schedule for `round_index`, or `hand_size` when given
    (1 to 10 cards, and no more than the deck gives each player)."""
    if hand_size is not None:
        most = len(deck(options)) // options.players
        if (
            not isinstance(hand_size, int)
            or isinstance(hand_size, bool)
            or not 1 <= hand_size <= min(10, most)
        ):
            raise RuleError("A Rage hand has 1 to 10 cards.")
        return hand_size
    return round_hand_size(options, round_index)
