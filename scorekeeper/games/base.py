"""What every game shares: seat arithmetic, ranking and the digital-play protocol (`State`: new_round, apply,
replay, clone).

The words for players (`Message`, `RuleError`, ...) are in `scorekeeper.games.messages` and the bot driver
(`play_out`, `Bot`, `meet`) in `scorekeeper.games.driver`; both are offered here too, where games, tests and plugins
import them from.
"""

from __future__ import annotations

import copy
import importlib
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeGuard

# Re-exported (`X as X`): the rest of the app imports these from here.
from scorekeeper.games.driver import Action as Action
from scorekeeper.games.driver import Bot as Bot
from scorekeeper.games.driver import Mover as Mover
from scorekeeper.games.driver import Table as Table
from scorekeeper.games.driver import meet as meet
from scorekeeper.games.driver import play_out as play_out
from scorekeeper.games.messages import N_, Clause, Message, RuleError
from scorekeeper.games.messages import Capitalized as Capitalized
from scorekeeper.games.messages import Plural as Plural
from scorekeeper.games.messages import TranslatableError as TranslatableError
from scorekeeper.games.messages import Translate as Translate
from scorekeeper.games.messages import day_of as day_of
from scorekeeper.games.messages import joined as joined
from scorekeeper.games.messages import render as render


def is_int(value: object) -> TypeGuard[int]:
    """A whole number as the rules count it: an int, but not a bool (JSON's true is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


SEAT_TEMPLATE = N_("Player {number}")
"""How a seat is named in messages when no player names are known (a match puts the real name in)."""


def seat_name(seat: int) -> Message:
    """How messages name a seat when no player names are known: seats count from 1 for people."""
    return Message(SEAT_TEMPLATE, number=seat + 1)


def left_of(seat: int, players: int, steps: int = 1) -> int:
    """The seat `steps` places to the left (clockwise) of `seat`."""
    return (seat + steps) % players


def seats_from_left_of(dealer: int, players: int) -> list[int]:
    """All seats in playing order: starting left of the dealer, the dealer last."""
    return [left_of(dealer, players, k) for k in range(1, players + 1)]


def places(totals: Sequence[float], *, higher_wins: bool = True) -> list[int]:
    """Competition places (1, 1, 3, ...) for each seat: equal totals share the place."""
    sign = -1 if higher_wins else 1
    keyed = [sign * t for t in totals]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def same_action(given: Any, legal: Action) -> bool:
    """Whether `given` is the legal action `legal` as JSON would see it: lists and tuples alike, but a number
    is not a bool and 17.0 is not 17 (so nothing but the legal value itself ever enters the state)."""
    if isinstance(legal, list | tuple):
        return (
            isinstance(given, list | tuple)
            and len(given) == len(legal)
            and all(same_action(g, leg) for g, leg in zip(given, legal, strict=True))
        )
    return type(given) is type(legal) and given == legal


@dataclass(frozen=True)
class Deal:
    """How a round is dealt, the same for every game: the shuffle's seed, the dealer, the round's place in the
    match, the match totals before it and the seats out of the game (Racko's chips game; empty elsewhere)."""

    seed: Any
    dealer: int = 0
    round_index: int = 0
    scores: tuple[int, ...] = ()
    out: tuple[int, ...] = ()


class SeatedOptions(Protocol):
    """What every game's options have: the number of players."""

    @property
    def players(self) -> int: ...


class State(ABC):
    """A round in digital play, shaped after OpenSpiel's state API; every game's round derives from it.

    `apply` is a template: it asks the game whether the action is legal (`_legal`: the canonical legal action,
    as `same_action` matches it against `legal_actions()`), asks the game for a player's explanation when it
    is not (RuleError; the state is unchanged), else lets the game carry out the legal action and logs that
    canonical action. `apply_unchecked` skips the check for actions taken from `legal_actions()`. `log` is the
    round's JSON-safe action list: `replay` (the games' `replay` functions) rebuilds the same state from the
    seed and the log.
    """

    log: list[Action]
    options: Any
    match_scores: tuple[int, ...]
    """The match totals before this round (shown in views; zeros when nobody said)."""
    deal: Deal
    """How the round was dealt (`new_round`'s arguments): with `log`, all `replay` needs."""
    options_type: ClassVar[type[SeatedOptions]]
    wrong_options: ClassVar[str]
    """The message for options of another game."""

    @abstractmethod
    def __init__(self, options: Any, deal: Deal, **extra: Any) -> None:
        """Shuffle with `random.Random(deal.seed)` and deal; `new_round` has checked `deal` already."""

    @classmethod
    def new_round(
        cls,
        options: Any,
        seed: int | str,
        *,
        dealer: int = 0,
        round_index: int = 0,
        scores: Sequence[int] | None = None,
        out: Iterable[int] = (),
        **extra: Any,
    ) -> Self:
        """A new round: every game takes these arguments (one it does not need is accepted and checked);
        `scores` are the match totals shown in views, `out` the seats out of the game, who are not dealt in."""
        if not isinstance(options, cls.options_type):
            raise RuleError(cls.wrong_options)
        players = options.players
        # `type(...) is int` first: the simulator deals a round before every one it plays
        if type(seed) is not int and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise RuleError("A round is dealt from a whole-number seed.")
        if not (type(dealer) is int or is_int(dealer)) or not 0 <= dealer < players:
            raise RuleError("The dealer must be one of the players 1 to {players}.", players=players)
        if not (type(round_index) is int or is_int(round_index)) or round_index < 0:
            raise RuleError("Rounds are counted from the first one on.")
        totals = [0] * players if scores is None else list(scores)
        if scores is not None and (len(totals) != players or not all(is_int(t) for t in totals)):
            raise RuleError("Scores must be one whole number per player.")
        seats_out = sorted(set(out)) if out else []
        if seats_out and not all(is_int(s) and 0 <= s < players for s in seats_out):
            raise RuleError(
                "Players out of the game must be among the players 1 to {players}.", players=players
            )
        if seats_out and not cls.may_sit_out(options):
            raise RuleError("Only the chips game has players who are out.")
        if players - len(seats_out) < 2:
            raise RuleError("A round needs at least 2 players who are still in the game.")
        deal = Deal(seed, dealer, round_index, tuple(totals), tuple(seats_out))
        state = cls(options, deal, **extra)
        state.deal = deal
        return state

    @classmethod
    def replay(cls, options: Any, seed: int | str, log: Sequence[Action], **round_args: Any) -> Self:
        """Rebuild a round from its seed and action log (`new_round`'s arguments as for the original round);
        RuleError names the first logged move that fails."""
        return cls.new_round(options, seed, **round_args).replay_log(log)

    @staticmethod
    def may_sit_out(_options: Any) -> bool:
        """Whether a player can be out of the game for a round (only Racko's chips game)."""
        return False

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act; -1 once the round is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def round_points(self) -> tuple[int, ...] | None:
        """The round's points per seat as they stand (None where a game shows them only at the end)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now, in a fixed order; [] once the round is over."""

    @abstractmethod
    def _illegal(self, action: Any) -> RuleError:
        """A player's explanation of why `action` is not allowed now."""

    @abstractmethod
    def _do(self, action: Action) -> None:
        """Carry out a legal action (the legal value itself, as `legal_actions` gave it)."""

    @abstractmethod
    def _view(self, seat: int) -> Any: ...

    @abstractmethod
    def _result(self) -> dict[str, Any]: ...

    def apply(self, action: Action) -> None:
        """Play one action for the current player; an illegal action raises RuleError (an `IllegalMove` that
        names the move when the game has words for it and gives the game's reason) and changes nothing."""
        if self.is_over:
            raise IllegalMove.of(None, RuleError("The round is over."))
        legal = self._legal(action)
        if legal is NOT_LEGAL:
            raise IllegalMove.of(self.describe_move(action), self._illegal(action))
        self._do(legal)
        self.log.append(legal)

    def apply_unchecked(self, action: Action) -> None:
        """Play an action taken from this state's `legal_actions()` as it is, without checking it: the fast
        path of the simulator and the computer players' drivers. Anything else corrupts the round: people and
        the network always go through `apply`."""
        self._do(action)
        self.log.append(action)

    def _play_trusted(
        self, chooses: Sequence[Any], times: Sequence[Any], rewrite_views: bool = False
    ) -> None:
        """Play to the end with each seat's bot's `choose` (`chooses[seat]`), applied unchecked, each choice's
        thinking time appended by `times[seat]`: the simulator's loop (`play_out` with trusted bots and
        `seconds`). A game may play a turn's moves in one pass here; the moves and the views stay the same.
        `rewrite_views` (every bot keeps nothing of a round) lets a game show a seat one view object, written
        again for each of its moves; the view shown is the seat's view of the moment all the same."""
        clock = time.perf_counter
        legal_actions, view, fast = self.legal_actions, self._view, self.apply_unchecked
        while not self.is_over:
            seat = self.current_player
            legal = legal_actions()
            started = clock()
            action = chooses[seat](view(seat), legal)
            times[seat](clock() - started)
            fast(action)

    def _legal(self, action: Any) -> Action:
        """The legal action that `action` is as JSON would see it (see `same_action`), or `NOT_LEGAL`. This
        compares against the whole list; a game answers from its phase and the card, slot or field at once
        (in O(1)) by overriding it, and the conformance suite checks that both agree."""
        return next((a for a in self.legal_actions() if same_action(action, a)), NOT_LEGAL)

    def view(self, seat: int) -> Any:
        """Only what `seat` may see (the game's view dataclass)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.options.players:
            raise RuleError("There is no seat {seat} at this table.", seat=seat)
        return self._view(seat)

    def result(self) -> dict[str, Any]:
        """The round result as a score keeper would enter it (the game's `validate_result` form)."""
        if not self.is_over:
            raise RuleError("The round is not over yet.")
        return self._result()

    def describe_move(self, action: Any) -> Message | None:
        """`action` in words as the player to act would say it (the game's `describe_action`, found like
        `GameSpec.describe_action` in the game's package), without the final full stop so that it can stand in
        a sentence; None when the game has no words for it. A description "{move} <what it brought about>" (a
        won trick, an emptied hand) is cut to its `move`."""
        if not self._describable(action):
            return None
        package = type(self).__module__.rpartition(".")[0]
        try:
            describe = importlib.import_module(f"{package}.describe").describe_action
        except (ImportError, AttributeError):
            return None
        try:
            words = describe(action, self.view(self.current_player))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # The describers are written for well-formed moves; garbage (a dict, a bare word, a card that
            # does not exist) makes them fail, and then the move goes unnamed: its internal form (JSON, a
            # word of the code) would mean nothing to a player.
            return None
        while isinstance(words, Message) and words.template.startswith("{move} "):
            # "{move} Anna wins the trick.": a move told with what it brings about; a refused move brings
            # about nothing, so only the move itself is named.
            words = words.fields.get("move")
        if type(words) in (Message, Clause):
            return Clause(words.template, **words.fields)
        return words if isinstance(words, Message) else None

    def _describable(self, _action: Any) -> bool:
        """Whether the game's `describe_action` tells `action` truly now. A describer that would tell
        something that is no move of the game as one (Racko: -1 or True read as a slot) says here which
        moves are the game's own. A move of the game made in the wrong phase is named all the same."""
        return True

    def clone(self) -> Self:
        """An independent copy: playing on one changes nothing in the other."""
        return copy.deepcopy(self)

    def replay_log(self, log: Sequence[Action]) -> Self:
        """Apply a saved action log to this fresh round; RuleError names the first move that fails."""
        if not isinstance(log, list | tuple):
            raise RuleError("A round log is a list of actions.")
        for step, action in enumerate(log, start=1):
            try:
                self.apply(action)
            except IllegalMove as error:
                if "move" not in error.fields:  # a move the game has no words for is not quoted
                    raise RuleError(
                        "Move {step} of the saved round cannot be replayed: {reason}",
                        step=step,
                        reason=error.fields["reason"],
                    ) from None
                raise RuleError(
                    "Move {step} of the saved round (“{move}”) cannot be replayed: {reason}",
                    step=step,
                    move=error.fields["move"],
                    reason=error.fields["reason"],
                ) from None
            except RuleError as error:  # not a refusal of the move itself
                raise RuleError(
                    "Move {step} of the saved round cannot be replayed: {reason}", step=step, reason=error
                ) from None
        return self


NOT_LEGAL: Any = object()
"""What `State._legal` answers for an action that is not legal now."""


class IllegalMove(RuleError):
    """A move the rules refuse now, named in words (`move`) with the game's own reason (`reason`):
    "The move “Player 1 took 17 from the discard pile” is not allowed: ...". A move the game has no words for
    (garbage from a damaged save or the network, any move once the round is over) is not named: "This move is
    not allowed: ..."."""

    @classmethod
    def of(cls, move: Message | None, reason: RuleError) -> IllegalMove:
        if move is None:
            return cls(UNNAMED_MOVE_NOT_ALLOWED, reason=reason)
        return cls(MOVE_NOT_ALLOWED, move=move, reason=reason)


MOVE_NOT_ALLOWED = N_("The move “{move}” is not allowed: {reason}")
UNNAMED_MOVE_NOT_ALLOWED = N_("This move is not allowed: {reason}")
