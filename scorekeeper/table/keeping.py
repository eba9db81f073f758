"""A table in "keep score" mode: a tracked match whose rounds the phones enter part by part.

The match is the same `Match` as every tracked game, owned by the store; the host's normal round-entry
screens, undo, another device's sync may change it at any time (`refresh` reads it back whenever its file
changed, `digital.stored`, and parts entered for a round the host already saved are dropped). A complete round
is recorded through `Store.change_match`, applied to the match as stored, once: only while the match holds
exactly the rounds before it; an edit made meanwhile is kept and nothing conflicts. Every change to the match made outside the table (a round entered, edited or
deleted on the normal screens, undo, redo) is heard from the store and handed to `on_change`, so the table
tells all its devices at once. The parts of the round being entered are saved with the table (`saved`,
`restore`: `lobbies` keeps them in tables.json), so a host restart resumes the round with every part entered
(see `parts` for the rules). A complete round the rules refuse stays with all its parts: `problem` says why
(with the players' names) and `involved` which seats are asked to check their parts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.digital.stored import StoredMatch
from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.model.tally import with_names
from scorekeeper.table.parts import Part, RoundParts

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store


@dataclass
class Keeping:
    """The tracked match of a table and the parts of its next round."""

    store: Store
    match: Match
    on_change: Callable[[], None] | None = None
    """Called when the match changed outside the table (the table tells its devices)."""
    parts: RoundParts = field(init=False)
    problem: RuleError | None = field(default=None, init=False)
    """Why the round, every part in, cannot be saved (None: no problem, or not every part is in yet)."""
    involved: list[int] = field(default_factory=list, init=False)
    """The seats the problem concerns: their phones ask them to check their parts."""

    def __post_init__(self) -> None:
        self._stored = StoredMatch(self.store, self.match)
        self.parts = RoundParts(self.match.game, len(self.match.players))
        self._round = self.match.round_index
        self._saving = False
        watch = getattr(self.store, "watch_matches", None)  # a store without it (tests) is simply not heard
        if watch is not None:
            watch(self._heard)

    @classmethod
    def start(
        cls,
        store: Store,
        game: str,
        options: dict[str, Any],
        players: list[str],
        names: list[str],
        on_change: Callable[[], None] | None = None,
    ) -> Keeping:
        """A new tracked match for the table's seats, saved at once (so a restart finds it)."""
        match = Match.new(game, options, players, names=names)
        return cls(store, store.save_match(match), on_change)

    def _heard(self, match_id: str) -> None:
        """The store saved a match: this table's, not by the table itself -> the table tells its devices."""
        if match_id != self.match.id or self._saving:
            return
        if self.on_change is not None:
            self.on_change()  # the table reads the match back under its lock and tells its devices
        else:
            self.refresh()

    def saved(self) -> dict[str, Any]:
        """The parts of the round being entered, as plain data (kept with the table)."""
        return {"round": self._round, "parts": self.parts.saved()}

    def restore(self, data: Any) -> None:
        """Take back saved parts after a host restart, if they belong to the round still being entered."""
        if not isinstance(data, dict) or data.get("round") != self.match.round_index or self.over:
            return
        match = self.match
        if self.parts.restore(data.get("parts"), match.opts, match.dealer, match.round_index):
            self._settle()  # every part was in: the problem is shown again (or the round saved)

    @property
    def over(self) -> bool:
        return self.match.is_over

    def refresh(self) -> None:
        """Read the match back when it changed (the host may have entered or edited a round on the normal
        screens, another device's round synced in)."""
        self.match = self._stored.get()
        if self.match.round_index != self._round:  # the host saved this round: its parts are void
            self._new_round()

    def _new_round(self) -> None:
        self.parts = RoundParts(self.match.game, len(self.match.players))
        self._round = self.match.round_index
        self.problem, self.involved = None, []

    def current(self) -> None:
        """Make sure `match` is the stored one before it is shown: read back only when its file changed (a
        `stat`; every device's redraw does not read the match from disk again), whoever changed it: this
        app's screens (also heard from the store, `Table.match_changed`), another process, a sync."""
        self.refresh()

    def enter(self, seat: int, values: Part) -> bool:
        """Check and keep `seat`'s part; when it completes the round, validate and save it. Returns whether a
        round was saved. RuleError refuses the part itself (named with the players' names). A complete round
        the rules refuse is not saved and keeps every part: `problem` and `involved` say why and whose."""
        self.refresh()
        if self.over:
            raise RuleError("This game is over.")
        match = self.match
        try:
            self.parts.enter(seat, values, match.opts, match.dealer, match.round_index)
        except RuleError as error:
            raise with_names(error, match.names) from None
        return self._settle()

    def _settle(self) -> bool:
        """Every part in: save the round, or keep the rules' problem with it. Returns whether it was saved."""
        self.problem, self.involved = None, []
        if not self.parts.complete():
            return False
        index = self._round

        def record(match: Match) -> Match:  # the match as stored: the round goes in once
            return self._checked(match) if match.round_index == index else match

        self._saving = True  # the table tells its devices itself: not heard a second time from the store
        try:
            self.match = self._stored.saved(self.store.change_match(self.match.id, record))
        except RuleError as error:
            self.problem = error
            return False
        finally:
            self._saving = False
        self._new_round()  # recorded, or the host saved this round meanwhile: its parts are void
        return True

    def _checked(self, match: Match) -> Match:
        """`match` with the complete round added; RuleError (players named) when the rules refuse it. The
        round is first checked on its own by the game, whose message names seats (so `involved` knows whom
        it concerns), then with every other round by the match."""
        parts = self.parts
        try:
            result = parts.result(match.opts)
            match.spec.check_entry(result, match.opts)
            match.spec.validate_result(result, match.opts, dealer=match.dealer, round_index=match.round_index)
        except RuleError as error:
            self.involved = parts.involved(error)
            raise with_names(error, match.names) from None
        self.involved = list(range(len(match.players)))
        return match.with_round(result)
