"""What a game hands the rest of the app: one frozen `GameSpec` (the registry `scorekeeper.games.spec.GAMES`
lists them). Code outside `scorekeeper/games/` never branches on a game's name: it asks the spec.

A spec is data plus the game's own functions; the defaults below are what a game without that feature says
(no chips, no partners, no target, no fixed schedule, no exact bids).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from scorekeeper.games.base import Action, Bot, Message, RuleError, State

Values = dict[str, Any]
Part = dict[str, Any]
"""What one seat enters of a round kept at a live table."""
POINTS = Message("points")
"""What most games' round scores count."""


def _always(_players: int, _values: Values) -> bool:
    return True


def _none(*_args: Any) -> None:
    return None


def _false(_options: Any) -> bool:
    return False


def _no_calls(_result: Mapping[str, Any], _options: Any) -> dict[int, tuple[int, int, int | None]]:
    return {}


def _no_figures(_result: Mapping[str, Any], _seat: int, _options: Any, _dealer: int, _index: int) -> Values:
    return {}


def _start_at_zero(_options: Any) -> int:
    return 0


def _pay_in_full(payments: Sequence[int], _balances: Sequence[int]) -> list[int]:
    return [-payment for payment in payments]


def _nobody_out(_result: Mapping[str, Any], _out: Sequence[int], _names: Sequence[str]) -> None:
    return None


@dataclass(frozen=True)
class OptionField:
    """One option of a game as the New game screen offers it: label, short explanation, kind ("choice",
    "bool" or "int"), default and when it applies. `default` None with `default_for` None takes the options
    class's own default (one place for rule defaults such as the Racko target 500)."""

    name: str
    label: str
    help: str
    kind: str
    default: Any = None
    choices: tuple[tuple[Any, str], ...] = ()
    applies: Callable[[int, Values], bool] = field(default=_always)
    default_for: Callable[[int], Any] | None = None
    """A default that depends on the number of players."""
    players_for: Callable[[Any], tuple[int, int]] | None = None
    """A choice that decides how many may play (Rage's edition): chosen value -> (fewest, most) players."""
    only_when_set: bool = False
    """A new match's options hold this option only when the player chose another value than its default
    (`written`). Every option added after a release is declared so: a match that does not use it is written
    as the version before wrote it, and that version reads it exactly as before. (A value of None, "as the
    rules say", is never written either.)"""

    def written(self, value: Any, default: Any) -> bool:
        """Whether a new match's options hold this option with `value` (`default`: its default now)."""
        return value is not None and not (self.only_when_set and value == default)


def option_default(options_type: type, name: str) -> Any:
    """The default of field `name` of an options dataclass."""
    for item in dataclasses.fields(options_type):
        if item.name == name:
            return item.default
    raise KeyError(name)


def action_to_json(action: Action) -> Any:
    """An action as JSON data (tuples become lists); actions are JSON-safe values already."""
    if isinstance(action, list | tuple):
        return [action_to_json(part) for part in action]
    return action


@dataclass(frozen=True)
class StatFigure:
    """A game's own figure on a player's statistics card: label, the figure's name (a figure of the game's
    `round_figures`, asked of `PlayerGameStats.figure`), how to show it ("count", "percent", or "best": a
    count that may be unknown). A "percent" figure is the share of rounds in which the round figure `of`
    counted (Rage: exact bids per round)."""

    label: str
    attribute: str
    kind: str = "count"
    of: str | None = None


def whole(value: Any, low: int, high: int | None, message: str, **names: Any) -> int:
    """`value` when it is a whole number from `low` to `high` (None: no upper limit); RuleError(message) else."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        raise RuleError(message, **names)
    return value


@dataclass(frozen=True)
class PartShape:
    """What one seat enters of a round kept at a live table (each phone its own part, `scorekeeper.table`):
    `stages` lists the fields of each step (a seat moves to the next step when every seat finished the one
    before); `check` refuses a bad part as it is entered; `build` makes the round result the game's
    `validate_result` takes from all parts."""

    stages: tuple[tuple[str, ...], ...]
    check: Callable[[int, int, Part, Sequence[Part | None] | None, Any, int, int], Part]
    """(seat, stage, values, the other parts of this stage, options, dealer, round index) -> the clean part.
    The other parts are None for a part checked on its own (taken back from disk): rules that depend on the
    order of entry (Rage's dealer bids last, the hook rule) held when it was entered, and a later correction
    by another seat may since have changed what they would say."""
    build: Callable[[Sequence[Part], Any], dict[str, Any]]
    fields: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """How a phone asks for each field: (kind, label); kinds "count" (a whole number), "yes" (a switch),
    "cards" (numbers separated by spaces or commas) and "rack" (ten slots filled from a number pad of the cards
    1 to `most`, as on the Racko round-entry screen)."""
    most: Callable[[str, Any, int], int | None] = lambda _name, _options, _index: None
    """The highest value a count field can take in round `index` (None: no small limit): the phone then offers
    one-tap choices 0..most, as the round-entry screens do. For a "rack" field: the highest card."""
    barred: Callable[[str, int, Sequence[Part | None], Any, int, int], set[int]] = (
        lambda _name, _seat, _parts, _options, _dealer, _index: set()
    )
    """Values a seat may not choose now (name, seat, this stage's parts, options, dealer, round index): the
    phone greys them out; `check` refuses them anyway."""
    why_barred: Callable[[str, int, set[int], Any, int], Message | None] = (
        lambda _name, _seat, _values, _options, _index: None
    )
    """Why a seat may not choose `values` of field `name` now (name, seat, the barred values, options, round
    index), said on its phone before it sends (seats named as `seat_name`, the table puts the names in)."""
    public: Mapping[str, str] = field(default_factory=dict)
    """Fields everyone at the table may see as they come in (Rage: the bids are said aloud), with the label
    the board and the phones show them under."""
    stage_titles: tuple[str, ...] = ()
    """What each step is called on the board and the phones ("Bids", "Tricks"); empty for one step."""
    involved: Callable[[Sequence[Part], RuleError], set[int]] = lambda _parts, _error: set()
    """The seats whose parts a refusal of the whole round concerns, where its message names none (Rage: too
    many +5 cards concerns the seats that entered +5 cards); empty: every seat."""
    callers: Mapping[str, str] = field(default_factory=dict)
    """What the host's round form (every seat's part on one screen) asks once for the round instead of once
    per seat: a "yes" field that one seat says (Racko: who called, Ruck Zuck: who went out), with the question
    it asks it under; the form draws one row of the seats' names for it."""
    split: Callable[[dict[str, Any]], list[Part]] | None = None
    """The seats' parts of a saved round result (the reverse of `build`), so that the host's round form can
    edit a round; None: an edited round starts empty."""


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything the app needs to know of one game. `rules` is the game's package (its rule functions).
    Specs compare and hash by identity: there is one per game."""

    key: str
    title: Message
    about: Message
    """What the game is about, in a few words (home screen)."""
    icon: str
    """A Material icon name (`ft.Icons.<icon>`)."""
    players: tuple[int, int]
    """The fewest and the most players."""
    Options: type
    lower_wins: bool
    validate_result: Callable[..., None]
    score_result: Callable[..., list[int]]
    new_round: Callable[..., State]
    replay: Callable[..., State]
    bots: Mapping[str, Callable[[], Bot]]
    option_fields: tuple[OptionField, ...]
    rules: ModuleType
    unit: Message = POINTS
    """What the round scores count ("points", "penalty points")."""
    strengths: tuple[tuple[str, str], ...] = (
        ("easy", "random"),
        ("normal", "baseline"),
        ("medium", "medium"),
        ("hard", "hard"),
    )
    """Computer-player strengths a person chooses from, weakest first: (strength, bot name). A strength whose
    bot the game does not have is not offered (medium exists only where a game has such a bot)."""
    chips: Callable[[Any], bool] = _false
    """Whether the match is a chips game: totals are chip balances, starting at `chips_start`."""
    chips_start: Callable[[Any], int] = _start_at_zero
    """The chips every seat starts a chips game with."""
    settle_chips: Callable[[Sequence[int], Sequence[int]], list[int]] = _pay_in_full
    """Chips game: (what each seat pays, the balances) -> the change of each balance (who cannot pay in full
    pays what they have); the payments are the round's scores with the sign turned."""
    check_out_seats: Callable[[Mapping[str, Any], Sequence[int], Sequence[str]], None] = _nobody_out
    """Chips game: (round result, the seats out of chips, the names) -> RuleError when a seat that is out
    took part in the round or one still in is missing from it."""
    partners: Callable[[Any], bool] = _false
    teams: tuple[tuple[int, ...], ...] = ()
    """With `partners`: the seats of each team (they add their scores and share a place)."""
    other_names: tuple[str, ...] = ()
    """Names the game is sold and listed under elsewhere (BoardGameGeek's names as BG Stats copies them, what
    players type), besides its title: an importer recognises the game by them."""
    bgg_ids: tuple[int, ...] = ()
    """BoardGameGeek ids of the game and its editions (an importer recognises the game by them first)."""
    target: Callable[[Any], int | None] = _none
    """Points that end the match (None: the match ends otherwise)."""
    rounds_planned: Callable[[Any], int | None] = _none
    """How many rounds the match lasts when that is fixed in advance."""
    next_hand_size: Callable[[Any, int], int | None] = _none
    """Cards per player in round `index` when that changes from round to round (None otherwise)."""
    exact_bids: Callable[[Mapping[str, Any]], list[bool]] | None = None
    """Per seat, whether the round's bid was made exactly (only for games with bids)."""
    round_figures: Callable[[Mapping[str, Any], int, Any, int, int], Values] = _no_figures
    """A seat's own statistics figures of one round: counts added up, except those in `best_figures`."""
    best_figures: tuple[str, ...] = ()
    """Figures of `round_figures` where the highest counts, not the sum."""
    stat_figures: tuple[StatFigure, ...] = ()
    """The game's own figures on a player's statistics card, from its `round_figures`."""
    bench_setup: tuple[int, Values] = (4, {})
    """Players and option values the engine benchmark measures."""
    check_entry: Callable[[Mapping[str, Any], Any], None] = _none
    """What a score keeper enters must be a round that can end that way at a table (Racko: someone called);
    RuleError otherwise. Not applied to digital rounds or to stored ones."""
    calls: Callable[[Mapping[str, Any], Any], dict[int, tuple[int, int, int | None]]] = _no_calls
    """Per calling seat of a round: (points for the call, bonus, longest run); games without calls: {}."""
    table_part: PartShape | None = None
    """What each seat enters of a round kept at a live table (None: the game cannot be kept there yet)."""
    read_options: Callable[..., Any] | None = None
    """The options of a stored match, checked only for what reading and scoring it needs (`Options(**values)`
    otherwise): an option rule tightened since a version saved the match does not make it unreadable.
    Called with the option values as keywords. None: no option rule was tightened since (docs/DATA.md)."""
    score_stored: Callable[..., list[int]] | None = None
    """A stored round's scores (same arguments as `score_result`), checked only for what reading and scoring
    it needs: a round rule tightened since the round was saved does not refuse it. RuleError when the round
    cannot be scored. None: `score_result` (no round rule was tightened since, docs/DATA.md)."""

    def options(self, players: int, **values: Any) -> Any:
        """The game's validated options for `players` (RuleError when they do not fit)."""
        return self.Options(players=players, **values)

    def default_options(self, players: int) -> Any:
        return self.Options(players)

    def stored_options(self, values: Values) -> Any:
        """The options of a stored match ("can be read"): `read_options`, or the options class. An option
        this version does not know (a newer version's) is left out here and kept in the stored options as it
        came (docs/DATA.md, "Newer data"); a known option of a wrong value still refuses the match."""
        known = {item.name for item in dataclasses.fields(self.Options)}
        return (self.read_options or self.Options)(**{k: v for k, v in values.items() if k in known})

    def stored_scores(self, result: Any, options: Any, *, dealer: int, round_index: int) -> list[int]:
        """A stored round's scores ("can be read and scored"): `score_stored`, or `score_result`."""
        score = self.score_stored or self.score_result
        return score(result, options, dealer=dealer, round_index=round_index)

    def describe_action(self, action: Action, view: Any) -> Message:
        """An action in words for move logs and screen readers (the `describe` module of the game's package);
        also how a refused move is named (`State.describe_move`). A move told with what it brought about is
        written "{move} ..." with the move in the field `move`; garbage raises ValueError or TypeError."""
        module = importlib.import_module(f"{self.rules.__name__}.describe")
        return module.describe_action(action, view)

    @staticmethod
    def action_to_json(action: Action) -> Any:
        return action_to_json(action)

    @staticmethod
    def action_from_json(data: Any) -> Action:
        """An action read back from JSON: the same value `legal_actions` gives (lists stay lists)."""
        return action_to_json(data)

    def log_to_json(self, log: Sequence[Action]) -> list[Any]:
        return [self.action_to_json(action) for action in log]

    def log_from_json(self, data: Sequence[Any]) -> list[Action]:
        return [self.action_from_json(action) for action in data]


CONTRACT_NAMES: dict[str, str] = {
    "players": "PLAYERS",
    "Options": "Options",
    "lower_wins": "LOWER_WINS",
    "validate_result": "validate_result",
    "score_result": "score_result",
    "new_round": "new_round",
    "replay": "replay",
    "bots": "BOTS",
}
"""Spec field -> the name a game's package exports it under (the engine contract, docs/ARCHITECTURE.md)."""


def package_spec(rules: ModuleType, **fields: Any) -> GameSpec:
    """A game's spec with what its package exports under the contract's names; `fields` are the rest. The
    key is the package's name (`scorekeeper.games.<key>`), where `describe_action` is found too."""
    exported = {field: getattr(rules, name) for field, name in CONTRACT_NAMES.items()}
    return GameSpec(key=rules.__name__.rpartition(".")[2], rules=rules, **exported, **fields)
