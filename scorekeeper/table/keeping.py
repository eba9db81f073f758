"""A table in "keep score" mode: a tracked match whose rounds the phones enter part by part.

The match is the same `Match` as every tracked game, saved in the store; the host's normal round-entry
screens may add or edit rounds of it at any time (`refresh` reads it back, and parts entered for a round the
host already saved are dropped). The parts of the round being entered live only here until it is saved
(see `parts` for the rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.base import RuleError
from scorekeeper.match import Match
from scorekeeper.table.parts import Part, RoundParts


@dataclass
class Keeping:
    """The tracked match of a table and the parts of its next round."""

    store: Any
    match: Match
    parts: RoundParts = field(init=False)

    def __post_init__(self) -> None:
        self.parts = RoundParts(self.match.game, len(self.match.players))
        self._round = self.match.round_index

    @classmethod
    def start(
        cls, store: Any, game: str, options: dict[str, Any], players: list[str], names: list[str]
    ) -> Keeping:
        """A new tracked match for the table's seats, saved at once (so a restart finds it)."""
        match = Match.new(game, options, players, names=names)
        return cls(store, store.save_match(match))

    @property
    def over(self) -> bool:
        return self.match.is_over

    def refresh(self) -> None:
        """Read the match back (the host may have entered or edited a round on the normal screens)."""
        stored = self.store.get_match(self.match.id)
        if stored is not None:
            self.match = stored
        if self.match.round_index != self._round:  # the host saved this round: its parts are void
            self.parts = RoundParts(self.match.game, len(self.match.players))
            self._round = self.match.round_index

    def enter(self, seat: int, values: Part) -> bool:
        """Check and keep `seat`'s part; when it completes the round, validate and save it. Returns whether a
        round was saved. RuleError refuses the part (a complete round the rules refuse withdraws this part,
        saves nothing, and names the problem)."""
        self.refresh()
        if self.over:
            raise RuleError("This game is over.")
        match = self.match
        stage = self.parts.enter(seat, values, match.opts, match.dealer, match.round_index)
        if not self.parts.complete():
            return False
        try:
            changed = match.with_round(self.parts.result(match.opts))  # the game's validate_result
        except RuleError:
            self.parts.withdraw(seat, stage)
            raise
        self.match = self.store.save_match(changed)
        self.parts = RoundParts(match.game, len(match.players))
        self._round = self.match.round_index
        return True
