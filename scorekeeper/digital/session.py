"""A digital game: one round's `State` at a time, the seats, the computer players and the scored `Match`.

- Seats are people (a player from the list) or computer players with a strength (easy/normal/medium/hard =
  the game's random/baseline/medium/hard bot). A computer player only ever gets its own seat's view.
- After every move the seed and the round's action log are saved (`SavedGame`), so a game resumes exactly
  where it was, also in the middle of a round: the round is dealt again from its seed and the log replayed.
- A finished round's `result()` is added to a `Match` with mode "digital", which keeps the score, the dealer
  rotation and the game end exactly as for a tracked game. The store owns it: the round goes in through
  `Store.change_match` (`_record`); names and totals come from a copy read again when it changed (`digital.stored`).
- The move log describes each move as a seat that did not make it sees it (with one person at the device: as
  that person sees it), so it never names a card the people at the device may not know.
"""

from __future__ import annotations

import random
import threading
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from scorekeeper.digital import duplicates, engine
from scorekeeper.digital.addressed import addressed
from scorekeeper.digital.records import strength_of
from scorekeeper.digital.stored import StoredMatch
from scorekeeper.games.base import SEAT_TEMPLATE, Action, Bot, Message, RuleError, State, Table, joined, meet
from scorekeeper.model import playtime
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store.records import SavedGame
from scorekeeper.store.saved_data import COMPUTER, PERSON

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

MOVES_KEPT = 2_000
"""The move log keeps the whole round (a round has a few hundred moves at most)."""


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a person (their player id) or a computer player with a strength."""

    kind: str
    player: str
    name: str
    strength: str | None = None

    @property
    def is_person(self) -> bool:
        return self.kind == PERSON

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Seat:
        if not isinstance(data, dict) or data.get("kind") not in (PERSON, COMPUTER):
            raise RuleError("A saved game has a seat that is neither a person nor a computer player.")
        return cls(str(data["kind"]), str(data["player"]), str(data["name"]), data.get("strength"))


@dataclass(frozen=True)
class FinishedRound:
    """A round the match has scored, as `PlaySession.next_round` moved on from it."""

    index: int
    result: dict[str, Any]
    points: list[int]


def computer_seat(strength: str, index: int, name: str) -> Seat:
    """A computer player; its id is unique within the match and tells statistics its strength."""
    return Seat(COMPUTER, f"computer-{strength}-{index + 1}", name, strength)


def with_names(message: Message, names: list[str]) -> Message:
    """A move as the engine says it ("Player 2 drew ...") with the seat's name put in ("Ben drew ...")."""
    fields: dict[str, object] = {}
    for key, value in message.fields.items():
        if isinstance(value, Message) and value.template == SEAT_TEMPLATE:
            seat = int(str(value.fields["number"])) - 1
            fields[key] = names[seat] if 0 <= seat < len(names) else value
        elif isinstance(value, Message):
            fields[key] = with_names(value, names)
        else:
            fields[key] = value
    return type(message)(message.template, **fields)


class PlaySession:
    """One digital game in progress. All methods are safe to call from the UI thread and a computer thread."""

    def __init__(self, store: Store, saved: SavedGame, match: Match) -> None:
        self.store = store
        self.saved = saved
        self.match_id = match.id
        self._stored = StoredMatch(store, match)
        self.game = match.game
        self.seats = [Seat.from_dict(seat) for seat in saved.data.get("seats", [])]
        if len(self.seats) != len(match.players):
            raise RuleError("A saved game's seats do not match its players.")
        self.lock = threading.RLock()
        self._bots: dict[int, Bot] = {}
        self.moves: list[Message] = []
        self.last_move: tuple[int, Action] | None = None
        """The latest move of this round: (seat, action), for the screen to mark what changed."""
        self.state: State = self._rebuild()

    # ------------------------------------------------------------------ creation and loading
    @classmethod
    def create(
        cls,
        store: Store,
        game: str,
        options: dict[str, Any],
        seats: list[Seat],
        *,
        first_dealer: int = 0,
        seed: int | None = None,
    ) -> PlaySession:
        """A new digital match with its first round dealt, saved."""
        match = Match.new(
            game,
            options,
            [seat.player for seat in seats],
            first_dealer=first_dealer,
            names=[seat.name for seat in seats],
            mode="digital",
        )
        match = replace(match, clock=playtime.started([], now_iso()))  # a digital game counts from its deal
        match.opts  # noqa: B018  # the options are checked before anything is saved
        seed = random.SystemRandom().getrandbits(48) if seed is None else seed
        saved = SavedGame.new(
            game,
            match.options,
            seed,
            match_id=match.id,
            data={"seats": [seat.to_dict() for seat in seats], "round": 0, "over": False},
        )
        session = cls(store, saved, store.save_match(match))
        session._save()
        return session

    @classmethod
    def continue_match(cls, store: Store, match: Match) -> SavedGame:
        """The saved game of a digital match in progress, or, when there is none, a new one dealing the match's
        next round. A start cut short between writing the match and its first save (`create`) leaves such a
        match; it is repaired here, where it is continued, instead of leading nowhere. The round in progress
        when the save went missing is lost (it was never saved); the rounds in the match are kept. A saved
        game the player set aside (its moves no longer replay) counts as none: the round it held is dealt again
        with a new seed, and the set-aside game stays in the store as it was. Found or made under the folder's
        write lock; of several live games (two devices continued the match before they synced) the one furthest
        along in the match, then the most recently saved, is resumed and the others are set aside
        (`digital.duplicates.resumed`)."""
        with store.files.lock.held():  # two sessions continuing at once resume one game (`duplicates`)
            found = duplicates.settle(store, match.id)  # one set aside no longer replays: not found
            return found if found is not None else cls._deal_again(store, match)

    @staticmethod
    def _deal_again(store: Store, match: Match) -> SavedGame:
        """A new saved game of `match` dealing its next round with a new seed, its seats as its players."""
        people = {seat: player for seat, player in enumerate(match.players) if strength_of(player) is None}
        seats = [
            Seat(PERSON, player, name)
            if seat in people
            else Seat(COMPUTER, player, name, strength_of(player))
            for seat, (player, name) in enumerate(zip(match.players, match.names, strict=True))
        ]
        saved = SavedGame.new(
            match.game,
            match.options,
            random.SystemRandom().getrandbits(48),
            match_id=match.id,
            data={"seats": [seat.to_dict() for seat in seats], "round": match.round_index, "over": False},
        )
        store.save_digital_game(saved)
        return saved

    @classmethod
    def load(cls, store: Store, saved_id: str) -> PlaySession | None:
        """The saved game `saved_id` rebuilt exactly (None if there is no such game or match)."""
        saved = store.get_digital_game(saved_id)
        if saved is None or saved.match_id is None:
            return None
        match = store.get_match(saved.match_id)
        if match is None:
            return None
        return cls(store, saved, match)

    # ------------------------------------------------------------------ the round
    @property
    def match(self) -> Match:
        """The match as stored now (a copy to read, never saved: changes go through `Store.change_match`)."""
        return self._stored.get()

    @property
    def round_index(self) -> int:
        return int(self.saved.data.get("round", 0))

    def _deal(self) -> State:
        return engine.deal(self.match, self.saved.seed, self.round_index)

    def _rebuild(self) -> State:
        """Deal the round again and replay its log (each move described again for the move log)."""
        self.moves = []
        self.last_move = None
        state = self._deal()
        for step, action in enumerate(self.saved.log, start=1):
            seat = self._observer(state)
            before = state.view(seat)
            try:
                state.apply(action)
            except RuleError as error:
                raise RuleError(
                    "Move {step} of the saved round cannot be replayed: {reason}", step=step, reason=error
                ) from None
            self._note(action, before, state, seat)
        self.state = state
        if state.is_over:
            self._record()
        return state

    def _observer(self, state: State) -> int:
        """Whose eyes the move log uses: the one person at the device, else a seat that is not moving."""
        people = self.people
        if len(people) == 1:
            return people[0]
        return (max(state.current_player, 0) + 1) % len(self.seats)

    def _note(self, action: Action, before: Any, state: State, seat: int) -> None:
        """The move in words as `seat` saw it before the move (`before`), and what it brought about as the same
        seat sees the table after it (`state`, the move applied)."""
        self.last_move = (int(before.current_player), action)
        message = engine.describe_action(self.game, action, before)
        if engine.has_outcome(self.game):
            outcome = engine.describe_outcome(self.game, action, before, state.view(seat))
            if outcome:
                message = joined([message, *outcome], " ")
        self.moves.append(self.worded(message))
        del self.moves[:-MOVES_KEPT]

    def _record(self) -> None:
        """The finished round goes into the match as stored (`Store.change_match`: an edit or a synced round
        made meanwhile is kept, nothing conflicts), once: only while it holds exactly the rounds before this one
        (a resume after a crash finds it there already; after a round taken back, `next_round` follows the
        match)."""
        index, result = self.round_index, self.state.result()

        def record(match: Match) -> Match:
            return match.with_round(result) if match.round_index == index else match

        match = self._stored.saved(self.store.change_match(self.match_id, record))
        if match.is_over and not self.saved.data.get("over"):
            self.saved.data["over"] = True
            self._save()

    def _save(self) -> None:
        self.saved.log = list(self.state.log)
        self.store.save_digital_game(self.saved)

    def keep(self, key: str, value: Any) -> None:
        """Save `value` under `key` with the game (a live table's code and seats), so that it resumes too."""
        with self.lock:
            self.saved.data[key] = value
            self._save()

    def reseat(self, seat: int, new: Seat) -> None:
        """Someone else takes `seat` (a phone, a computer player): a new computer player starts fresh. Saved
        with the next save (`keep`, a move)."""
        with self.lock:
            self.seats[seat] = new
            self._bots.pop(seat, None)
            meet(list(self._bots.values()), self._table())  # the others learn who sits there now
            self.saved.data["seats"][seat] = new.to_dict()

    def _apply(self, action: Action) -> None:
        state = self.state
        seat = self._observer(state)
        before = state.view(seat)
        state.apply(action)  # RuleError: nothing changed
        self._note(action, before, state, seat)
        self._save()
        if state.is_over:
            self._record()

    # ------------------------------------------------------------------ questions
    def worded(self, message: Message) -> Message:
        """A move as the engine says it, as the device says it: the one person at the device spoken to ("You
        drew ..."), everyone else by name (several people passing the device: everyone by name)."""
        return with_names(addressed(message, self.you), self.match.names)

    @property
    def you(self) -> int | None:
        """The seat of the one person at the device (None: several people pass it round)."""
        people = self.people
        return people[0] if len(people) == 1 else None

    @property
    def people(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.is_person]

    @property
    def to_act(self) -> int:
        """The seat whose move it is (-1 when the round is over)."""
        return -1 if self.state.is_over else int(self.state.current_player)

    @property
    def round_over(self) -> bool:
        return bool(self.state.is_over)

    @property
    def match_over(self) -> bool:
        return self.round_over and self.match.is_over

    @property
    def computer_to_act(self) -> bool:
        seat = self.to_act
        return seat >= 0 and not self.seats[seat].is_person

    def view_for(self, seat: int) -> Any:
        """What a person at `seat` may see (only ever asked for the seat at the device)."""
        return self.state.view(seat)

    def legal_for(self, seat: int) -> list[Action]:
        """The actions `seat` may take now (none while it is someone else's turn)."""
        with self.lock:
            if self.to_act != seat:
                return []
            return list(self.state.legal_actions())

    def dealt(self) -> State:
        """The round being played as it was dealt, before its first move (a new copy: its log replays on it)."""
        return self._deal()

    def last_round(self) -> tuple[dict[str, Any], list[int]] | None:
        """The finished round's result and points per seat (as the match scored them)."""
        if not self.round_over or self.match.round_index <= self.round_index:
            return None
        return self.state.result(), self.match.round_scores()[self.round_index]

    # ------------------------------------------------------------------ moves
    def act(self, seat: int, action: Action) -> None:
        """A person's move; RuleError if it is not that person's turn or the move is not allowed."""
        with self.lock:
            if self.to_act != seat or not self.seats[seat].is_person:
                raise RuleError("It is not your turn.")
            self._apply(action)

    def step_computer(self) -> bool:
        """Let the computer player whose turn it is make one move; False when it is no computer's turn."""
        with self.lock:
            if not self.computer_to_act:
                return False
            seat = self.to_act
            bot = self._bots.get(seat)
            if bot is None:
                strength = self.seats[seat].strength or "normal"
                bot = self._bots[seat] = engine.make_bot(self.game, strength, self._table())
            action = bot.choose(self.state.view(seat), list(self.state.legal_actions()))
            self._apply(action)
            return True

    def _table(self) -> Table:
        """Who sits where, as a computer player is told it (`meet`): each computer seat's bot, None for people."""
        return tuple(
            None if seat.is_person else engine.bot_name(self.game, seat.strength or "normal")
            for seat in self.seats
        )

    def run_computers(self) -> int:
        """All computer moves up to a person's turn or the end of the round; how many were made."""
        made = 0
        while self.step_computer():
            made += 1
        return made

    def hint(self, seat: int) -> Action | None:
        """The move the strongest computer player would make in this person's place (None: not their turn)."""
        with self.lock:
            legal = self.legal_for(seat)
            if not legal:
                return None
            bot = engine.make_bot(self.game, engine.HINT_BOT, self._table())
            return bot.choose(self.state.view(seat), legal)

    def describe(self, action: Action, seat: int) -> Message:
        """`action` in words as the person at `seat` sees it (for the hint)."""
        return self.worded(engine.describe_action(self.game, action, self.state.view(seat)))

    def next_round(self) -> FinishedRound | None:
        """Deal the match's next round after a finished one and return the round moved on from, as the match
        scored it (None: nothing happens while the round or the match goes on; or the finished round was not
        recorded because rounds were taken back meanwhile, and the match's next round is dealt)."""
        with self.lock:
            if not self.round_over or self.match.is_over:
                return None
            if self.match.round_index <= self.round_index:
                self._record()
            match, index = self.match, self.round_index
            finished = None
            if match.round_index > index:  # recorded: the match's round `index` holds its points
                finished = FinishedRound(index, self.state.result(), list(match.round_scores()[index]))
            # The match's next round: the one after this, unless rounds were taken back meanwhile.
            self.saved.data["round"] = match.round_index
            self.saved.log = []
            self._bots.clear()
            self.moves = []
            self.last_move = None
            self.state = self._deal()
            self._save()
            return finished
