"""What a sync brought, in a sentence a player reads ("3 new games, 1 changed")."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.games.base import Message, Plural
from scorekeeper.games.messages import joined


@dataclass
class SyncReport:
    """Counts of matches that came from other devices, the conflicts found, what was skipped (each a
    sentence naming the device), how many records went out, and when the sync finished (ISO time, UTC)."""

    new: int = 0
    changed: int = 0
    deleted: int = 0
    conflicts: int = 0
    sent: int = 0
    skipped: list[Message] = field(default_factory=list)
    finished: str = ""

    @property
    def summary(self) -> Message:
        """ "3 new games, 1 changed, 1 conflict", or "Nothing new"."""
        parts = []
        if self.new:
            parts.append(Plural("{n} new game", "{n} new games", self.new))
        if self.changed:
            parts.append(Plural("{n} changed", "{n} changed", self.changed))
        if self.deleted:
            parts.append(Plural("{n} deleted", "{n} deleted", self.deleted))
        if self.conflicts:
            parts.append(Plural("{n} conflict to resolve", "{n} conflicts to resolve", self.conflicts))
        if not parts:
            return Message("Nothing new")
        return joined(parts)
