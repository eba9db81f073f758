"""All tables of this host by join code, the wrong-code guard, and resuming after a restart.

Who may open which table screen is the UI's table of rights (`scorekeeper/server/rights.py`): a visitor joins, sits
at its seat and watches the board; only the owner sets a table up and opens its lobby.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.store.saved_data import ASIDE
from scorekeeper.table import lobbies
from scorekeeper.table.codes import HOST as EVERYONE
from scorekeeper.table.codes import Clock, JoinGuard, new_code, normalize, well_formed
from scorekeeper.table.table import PLAY, Table, TableError

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

log = logging.getLogger(__name__)


class TooManyTries(TableError):
    """The client entered too many wrong codes; refused for a minute."""


def ended(table: Table) -> bool:
    """The table's game is over (digital or kept score): its code lets nobody new in any more."""
    session, keeping = table.session, table.keeping
    return bool((session is not None and session.match_over) or (keeping is not None and keeping.over))


def too_many(level: str) -> TooManyTries:
    if level == EVERYONE:
        return TooManyTries(
            "Too many wrong codes were entered at this host. Please wait a minute and try again."
        )
    return TooManyTries("Too many wrong codes. Please wait a minute and try again.")


@dataclass
class TableHost:
    """The tables of this host. `clock` is injected (tests step it instead of sleeping)."""

    clock: Clock = time.monotonic
    tables: dict[str, Table] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    store: Store | None = None
    """Where lobbies and score-keeping tables are kept (`lobbies`); set by `resume`. None: kept in memory only."""
    resumed: bool = False
    """Whether the process's tables were brought back from the store already (once per process)."""

    def __post_init__(self) -> None:
        self.guard = JoinGuard(self.clock)
        self._in_session: set[str] = set()
        """The codes of the digital tables that were already out of the file at its last write."""

    def create(self, game: str, options: dict[str, Any], players: int, mode: str = PLAY) -> Table:
        """A new table in its lobby, with a fresh code; `mode` PLAY (digital) or KEEP (score keeping)."""
        with self.lock:
            table = Table(new_code(self.tables), game, options, players, mode)
            self.tables[table.code] = table
            self._keep(table)
            return table

    def _keep(self, table: Table) -> None:
        """Save the lobbies and score-keeping tables now and on every change at `table`."""
        if self.save not in table.listeners:
            table.listeners.append(self.save)
        self.save()

    def save(self, table: Table | None = None) -> None:
        """Write the lobbies and score-keeping tables. A change at a digital table that is already out of the
        file (it lives in its play session's save since the write after its start) writes nothing: every move
        calls this, and a write with fsync in front of each move's broadcast delayed every device."""
        if self.store is None:
            return
        with self.lock:
            if table is not None and table.code in self._in_session and not lobbies.outside_session(table):
                return
            tables = list(self.tables.values())
            try:
                lobbies.save(self.store, tables)
            except Exception:  # a full disk must not stop the table: it still runs, only a restart loses it
                log.exception("could not save the table lobbies")
                self._in_session = set()  # the file may be behind: the next change writes it again
            else:
                self._in_session = {t.code for t in tables if not lobbies.outside_session(t)}

    def get(self, code: str) -> Table | None:
        """The table of a code already known to be right (the host's own screens, a link with the code)."""
        return self.tables.get(normalize(code))

    def find(self, code: str, client: str, address: str | None = None) -> Table:
        """The table of a code a person entered or a link named (join, board, seat); a wrong code is counted
        against `client` (its session), its `address` and the host (see `codes.JoinGuard`).

        TooManyTries while a level refuses this client (its own level for a minute, even for a right code; the
        address and host levels only a client that itself entered a wrong code within the window, so a new
        player with the right code always gets in); TableError for a code that no table has (never had, or an
        old one) and for a table whose game is over. A phone or board holding a token for the table comes in by
        `held` instead, without the guard."""
        with self.lock:
            level = self.guard.refused(client, address)
            if level is not None:
                raise too_many(level)
            wanted = normalize(code)
            table = self.tables.get(wanted) if well_formed(wanted) else None
            if table is not None and not ended(table):
                return table
            if table is not None:  # a right code, but it stopped working: not a guess
                raise TableError(
                    "The game at table {code} is over. Ask the host for a new code.", code=wanted
                )
            self.guard.wrong(client, address)
            level = self.guard.refused(client, address)
            if level is not None:
                raise too_many(level)
            raise TableError("There is no table with the code {code}. Please check the code.", code=wanted)

    def held(self, code: str, token: str | None) -> Table | None:
        """The table of `code` when `token` holds one of its seats or is one of its board tokens, else None
        (the same None for a code no table has: a token tells nothing about which codes exist). Not counted by
        the guard: a phone reloading at its seat or a board reloading comes back while any level refuses."""
        if not token:
            return None
        with self.lock:
            table = self.tables.get(normalize(code))
        if table is None or (table.seat_of(token) is None and not table.board_held(token)):
            return None
        return table

    def open_board(self, table: Table) -> str:
        """A new board token for `table` (a board that opened it by its code), kept with the table: in
        `tables.json` for a lobby or a score-keeping table, in the saved game for a digital one."""
        token = table.open_board()
        if lobbies.outside_session(table):
            self.save()
        return token

    def resume(self, store: Store) -> list[Table]:
        """Bring back the tables of unfinished saved games (after a host restart)."""
        from scorekeeper.digital.session import PlaySession

        resumed = []
        with self.lock:
            self.store = store
            self._in_session = set()  # another data folder: its file is written afresh
            for table in lobbies.load(store):  # lobbies and score-keeping tables
                if table.code not in self.tables:
                    self.tables[table.code] = table
                    table.listeners.append(self.save)
                    resumed.append(table)
            try:
                saved_games = store.list_digital_games()
            except (OSError, AttributeError):  # no saved games yet (a new data folder, the in-memory tests)
                saved_games = []
            for saved in saved_games:
                if "table" not in saved.data or saved.data.get("over") or ASIDE in saved.data:
                    continue
                try:
                    session = PlaySession.load(store, saved.id)
                except Exception:  # a game that cannot be rebuilt is skipped, not the host
                    continue
                found = Table.resume(session) if session is not None else None
                if found is not None and found.code not in self.tables:
                    self.tables[found.code] = found
                    resumed.append(found)
        return resumed


HOST = TableHost()
"""The tables of this process (the app's sessions share it)."""
