"""One live table: seats claimed by phones with a secret token, the play session, per-seat and board payloads.

Rules of the table (a seat's own rules are in `seats`, what each device receives in `payloads`, the move log in
`moves`):
- Every request for a seat (its view, a move, reconnecting) needs that seat's token; a wrong token is refused
  and changes nothing.
- The host may hand an open or vanished seat (no phone connected) to a computer player, or free a seat so that
  another phone can take it (the old token stops working).
- A finished round's result stays on each phone until its player moves on ("Next round"); the next round is
  dealt once every person at the table has moved on, or when the host deals it. A phone whose player has not
  moved on when it is dealt still shows that result (`SeatPayload.result_round`) until they do.
- Once started, the table lives in the play session's saved game (`data["table"]`), saved with every move, so
  a restarted host resumes it and the phones reconnect with their tokens.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scorekeeper.digital import engine
from scorekeeper.digital.session import COMPUTER, PERSON, PlaySession, Seat, computer_seat
from scorekeeper.games.base import Action, Message, RuleError
from scorekeeper.table.keeping import Keeping
from scorekeeper.table.moves import MoveLog
from scorekeeper.table.payloads import BoardPayload, SeatPayload, SeatStatus, progress
from scorekeeper.table.public import public_of, seat_views
from scorekeeper.table.seats import NAME_LENGTH, OPEN, TableSeat, computer_name, digest

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

PLAY = "play"
KEEP = "keep"
"""The table's mode: digital play (a play session) or score keeping (a tracked match, parts from the phones)."""


class TableError(RuleError):
    """A request the table refuses (wrong token, seat taken, ...): the message is for the person."""


BOARDS = 16
"""Board tokens kept per table; the oldest is dropped when another board opens the table by its code."""


class Table:
    """A table by join code; the lobby until `start`, then a play session."""

    def __init__(self, code: str, game: str, options: dict[str, Any], players: int, mode: str = PLAY) -> None:
        if mode not in (PLAY, KEEP):
            raise TableError("A table either plays digitally or keeps score.")
        self.code = code
        self.mode = mode
        self.keeping: Keeping | None = None
        self.game = game
        self.options = dict(options)
        self.seats = [TableSeat() for _ in range(players)]
        self.session: PlaySession | None = None
        self.lock = threading.RLock()
        self.connected: dict[int, int] = {}
        self.moves = MoveLog(game, players)
        self.version = 0
        self.listeners: list[Callable[[Table], None]] = []
        self.moved_on: dict[int, int] = {}
        """Per seat, the last round (index) whose result its player has moved on from."""
        self.previous: tuple[int, list[int], list[Message] | None] | None = None
        """The round dealt over last (index, points, result lines), for phones still showing its result."""
        self.board_hashes: list[str] = []
        """SHA-256 of the board tokens given to boards that opened this table by its code (newest last, at most
        `BOARDS`): a board reloading with its token comes back without the wrong-code guard."""

    # ------------------------------------------------------------------ the lobby
    @property
    def started(self) -> bool:
        return self.session is not None or self.keeping is not None

    def status(self) -> list[SeatStatus]:
        return [
            SeatStatus(
                i,
                s.kind,
                s.name,
                s.strength,
                self.connected.get(i, 0) > 0,
                s.kind == COMPUTER and s.name != computer_name(i),
            )
            for i, s in enumerate(self.seats)
        ]

    def names(self) -> list[str]:
        """Who sits where now (a phone that took over a seat shows its own name)."""
        fallback = list(self.session.match.names) if self.session is not None else [""] * len(self.seats)
        return [seat.name or name for seat, name in zip(self.seats, fallback, strict=True)]

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == OPEN]

    def claim(self, seat: int, name: str) -> str:
        """A phone takes the open seat `seat` under `name`; returns the seat's secret token (shown to nobody)."""
        name = " ".join(str(name).split())[:NAME_LENGTH]
        with self.lock:
            self._seat(seat)
            if not name:
                raise TableError("Please enter your name.")
            if self.seats[seat].kind != OPEN:
                raise TableError("This seat is taken. Please choose another one.")
            token = secrets.token_urlsafe(24)
            taken = self.seats[seat]
            taken.kind, taken.name, taken.strength, taken.token_hash = PERSON, name, None, digest(token)
            if self.session is not None:
                self._reseat(seat, Seat(PERSON, taken.player, name))
            self._changed()
            return token

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token holds (None: no seat), for a phone that reconnects."""
        if not token:
            return None
        return next((index for index, seat in enumerate(self.seats) if seat.held_by(token)), None)

    def open_board(self) -> str:
        """A secret token for a board that opened this table by its code (kept only as its hash, like a seat's):
        with it the board comes back after a reload without the code (`board_held`). Saved with the table."""
        token = secrets.token_urlsafe(32)
        with self.lock:
            self.board_hashes = [*self.board_hashes, digest(token)][-BOARDS:]
            self._persist()
        return token

    def board_held(self, token: str | None) -> bool:
        """Whether `token` is one of this table's board tokens (compared in constant time)."""
        if not token:
            return False
        wanted = digest(token)
        return any([hmac.compare_digest(wanted, kept) for kept in self.board_hashes])

    def check(self, seat: int, token: str | None) -> None:
        """TableError unless `token` holds `seat` (every request for a seat goes through here)."""
        self._seat(seat)
        if not self.seats[seat].held_by(token):
            raise TableError("This seat belongs to another device.")

    def set_computer(self, seat: int, strength: str = "normal") -> None:
        """The host gives an open or vanished seat (no phone connected) to a computer player."""
        with self.lock:
            self._seat(seat)
            current = self.seats[seat]
            if current.kind == PERSON and self.connected.get(seat, 0) > 0:
                raise TableError("{name} is still at the table.", name=current.name)
            if strength not in engine.strengths(self.game):
                raise TableError("There is no such computer player.")
            # A person's seat taken over during the game keeps the person's name (their points are theirs).
            name = current.name if self.session is not None and current.name else computer_name(seat)
            current.kind, current.name, current.strength, current.token_hash = COMPUTER, name, strength, None
            self.connected.pop(seat, None)
            if self.session is None:  # the match counts this seat as a computer player of this strength
                current.player = computer_seat(strength, seat, name).player
            else:
                self._reseat(seat, Seat(COMPUTER, current.player, name, strength))
            self._changed()

    def free(self, seat: int) -> None:
        """The host opens a seat for another phone (the old token stops working)."""
        with self.lock:
            self._seat(seat)
            current = self.seats[seat]
            current.kind, current.strength, current.token_hash = OPEN, None, None
            if self.session is None:
                current.name = ""
            self.connected.pop(seat, None)
            self._changed()

    def ready(self) -> bool:
        return all(seat.kind != OPEN for seat in self.seats)

    def start(self, store: Store, *, seed: int | None = None) -> PlaySession:
        """Deal the first round once every seat is a person or a computer player."""
        with self.lock:
            if self.session is not None:
                return self.session
            if not self.ready():
                raise TableError("Every seat needs a player or a computer player before the game starts.")
            if self.mode == KEEP:
                raise TableError("This table keeps score.")
            seats = [
                Seat(PERSON, s.player, s.name)
                if s.kind == PERSON
                else Seat(COMPUTER, s.player, s.name, s.strength)
                for s in self.seats
            ]
            session = PlaySession.create(store, self.game, self.options, seats, seed=seed)
            self.session = session
            self._persist()
            self._changed()
            return session

    def start_keeping(self, store: Store) -> Keeping:
        """Keep score: a tracked match for the seats (people only; the phones enter their parts)."""
        with self.lock:
            if self.keeping is not None:
                return self.keeping
            if any(seat.kind != PERSON for seat in self.seats):
                raise TableError("Every seat needs a player before the game starts.")
            players = [seat.player for seat in self.seats]
            self.keeping = Keeping.start(
                store, self.game, self.options, players, [s.name for s in self.seats], self.match_changed
            )
            self._changed()
            return self.keeping

    def match_changed(self) -> None:
        """The kept match changed on the host's normal screens (entry, edit, delete, undo): tell every device."""
        with self.lock:
            if self.keeping is not None:
                self.keeping.refresh()
            self._changed()

    def enter_part(self, seat: int, token: str | None, values: dict[str, Any]) -> bool:
        """A phone enters (or corrects) its own part of the round; True when that saved the round.
        TableError/RuleError refuse it: nothing is kept and nothing saved."""
        with self.lock:
            self.check(seat, token)
            if self.keeping is None:
                raise TableError("This table does not keep score.")
            saved = self.keeping.enter(seat, values)
            self._changed()
            return saved

    # ------------------------------------------------------------------ presence
    def connect(self, seat: int, token: str | None) -> None:
        with self.lock:
            self.check(seat, token)
            self.connected[seat] = self.connected.get(seat, 0) + 1
            self._changed()

    def disconnect(self, seat: int) -> None:
        with self.lock:
            if self.connected.get(seat, 0) > 0:
                self.connected[seat] -= 1
                self._changed()

    # ------------------------------------------------------------------ play
    def act(self, seat: int, token: str | None, action: Action) -> None:
        """A phone's move for its own seat; TableError/RuleError refuse it and nothing changes."""
        with self.lock:
            self.check(seat, token)
            session = self._session()

            def move() -> bool:
                session.act(seat, action)
                return True

            self._moved(move)

    def step_computer(self) -> bool:
        """One computer move (the host runs these off the UI thread); False when it is no computer's turn."""
        with self.lock:
            if self.session is None:
                return False
            return self._moved(self.session.step_computer)

    def next_round(self, seat: int | None = None, token: str | None = None) -> None:
        """A phone's player moves on from the round's result (with its token), or the host (`seat` None) deals
        the next round. The next round is dealt once every person at the table has moved on, or by the host;
        the others keep the result on their phones until they move on."""
        with self.lock:
            if seat is not None:
                self.check(seat, token)
            session = self._session()
            if seat is not None:
                shown = self._shown_round(seat, session)
                if shown is not None:
                    self.moved_on[seat] = max(self.moved_on.get(seat, -1), shown)
            finished = session.next_round() if seat is None or not self._looking(session) else None
            if finished is not None:
                self.previous = (finished.index, finished.points, self._result_lines(finished.result))
                self.moves = MoveLog(self.game, len(self.seats))
            self._changed()

    def _shown_round(self, seat: int, session: PlaySession) -> int | None:
        """The round whose result `seat`'s phone shows: the finished one, or the one before the round being
        played while its player has not moved on from it (None: no result shown)."""
        if session.round_over:
            return session.round_index
        previous = self.previous
        if (
            previous is not None
            and previous[0] == session.round_index - 1
            and self.moved_on.get(seat, -1) < previous[0]
            and self.seats[seat].kind == PERSON
        ):
            return previous[0]
        return None

    def looking(self) -> list[int]:
        """The people still looking at the finished round's result (none while a round is played)."""
        with self.lock:
            session = self.session
            return self._looking(session) if session is not None and session.round_over else []

    def _looking(self, session: PlaySession) -> list[int]:
        """The people who have not moved on from the result of the round `session` is at."""
        index = session.round_index
        return [
            seat
            for seat, held in enumerate(self.seats)
            if held.kind == PERSON and self.moved_on.get(seat, -1) < index
        ]

    def payload(self, seat: int, token: str | None) -> SeatPayload:
        """What the phone at `seat` receives (its own view only)."""
        with self.lock:
            self.check(seat, token)
            session = self._session()
            points, lines = self._finished()
            shown = self._shown_round(seat, session)
            if shown is not None and not session.round_over and self.previous is not None:
                _, points, lines = self.previous  # the round dealt over, until this player moves on
            names = self.names()
            return SeatPayload(
                seat=seat,
                view=session.view_for(seat),
                legal=session.legal_for(seat),
                moves=list(self.moves.seats[seat]),
                **progress(session, self.names(), points),
                result_lines=lines,
                result_round=shown,
                moved_on=shown is not None and self.moved_on.get(seat, -1) >= shown,
                waiting=[names[n] for n in self._looking(session)] if session.round_over else [],
            )

    def board(self) -> BoardPayload:
        """What the board receives (public information only)."""
        with self.lock:
            session = self._session()
            points, _ = self._finished()
            return BoardPayload(
                view=public_of(seat_views(session.state)),
                moves=list(self.moves.board),
                **progress(session, self.names(), points),
                seats=self.status(),
            )

    # ------------------------------------------------------------------ inside
    def _seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError("There is no seat {seat} at this table.", seat=seat)

    def _session(self) -> PlaySession:
        if self.session is None:
            raise TableError("The game at this table has not started yet.")
        return self.session

    def _finished(self) -> tuple[list[int] | None, list[Message] | None]:
        last = self._session().last_round()
        if last is None:
            return None, None
        result, points = last
        return list(points), self._result_lines(result)

    def _result_lines(self, result: dict[str, Any]) -> list[Message] | None:
        """A finished round's breakdown per seat, where the game describes one."""
        return engine.describe_result(self.game, result, self._session().match.opts)

    def _moved(self, move: Callable[[], bool]) -> bool:
        """Make a move and describe it for each seat as that seat saw it, and for the board publicly."""
        session = self._session()
        state = session.state
        if state.is_over:
            return False
        before = seat_views(state)
        count = len(state.log)
        if not move() or len(session.state.log) == count:
            return False
        self.moves.note(session.state.log[-1], before, session.match.names)
        self._changed()
        return True

    def _reseat(self, seat: int, new: Seat) -> None:
        self._session().reseat(seat, new)
        self._persist()

    def _persist(self) -> None:
        """The table (seats, token hashes) goes into the saved game, with the play session's own save."""
        session = self.session
        if session is None:
            return
        seats = [s.to_dict() for s in self.seats]
        session.keep("table", {"code": self.code, "seats": seats, "boards": list(self.board_hashes)})

    def _changed(self) -> None:
        self.version += 1
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # a closed page must not stop the others from hearing about the move
                pass

    # ------------------------------------------------------------------ resume
    @classmethod
    def resume(cls, session: PlaySession) -> Table | None:
        """The table of a saved game after a host restart (None: not a table's game)."""
        data = session.saved.data.get("table")
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return None
        table = cls(data["code"], session.game, dict(session.saved.options), len(session.seats))
        table.seats = [TableSeat.from_dict(s) for s in data.get("seats", [])]
        if len(table.seats) != len(session.seats):
            return None
        table.board_hashes = boards_of(data)
        table.session = session
        table.moves.replay(session)
        return table


def boards_of(data: dict[str, Any]) -> list[str]:
    """The board token hashes saved with a table (`tables.json`, a saved game); none in an older file."""
    boards = data.get("boards")
    if not isinstance(boards, list):
        return []
    return [str(b) for b in boards if isinstance(b, str)][-BOARDS:]
