"""What a sync brought, in a sentence a player reads ("3 new games, 1 changed")."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.games.base import Message, Plural
from scorekeeper.games.messages import joined


@dataclass
class SyncReport:
    """Counts of matches that came from other devices, of players they changed and games in progress they
    added, moved on or deleted, the conflicts found, what was skipped (each a sentence naming the device),
    how many records went out (and why all of them, `notes`), and when the sync finished (ISO time, UTC)."""

    new: int = 0
    changed: int = 0
    deleted: int = 0
    conflicts: int = 0
    sent: int = 0
    players: int = 0  # renamed, recoloured or archived on another device
    digital: int = 0  # digital games in progress saved, moved on or deleted on another device
    skipped: list[Message] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    """What the player should know about the target ("... is new to this device: sending all 12 games.")."""
    finished: str = ""

    @property
    def brought(self) -> bool:
        """Whether the sync changed anything on this device (what the screens redraw for)."""
        return bool(
            self.new or self.changed or self.deleted or self.conflicts or self.players or self.digital
        )

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
        if self.players:
            parts.append(Plural("{n} player updated", "{n} players updated", self.players))
        if self.digital:
            parts.append(
                Plural("{n} game in progress updated", "{n} games in progress updated", self.digital)
            )
        if self.conflicts:
            parts.append(Plural("{n} conflict to resolve", "{n} conflicts to resolve", self.conflicts))
        if not parts:
            return Message("Nothing new")
        return joined(parts)


def resend_note(why: str, target: str, games: int) -> Message:
    """Why a sync sends every game to `target` ("new": new to this device, "emptied", "lost": it lost files)."""
    if why == "new":
        return Plural(
            "{target} is new to this device: sending all {n} game.",
            "{target} is new to this device: sending all {n} games.",
            games,
            target=target,
        )
    if why == "emptied":
        return Plural(
            "{target} was emptied: sending all {n} game again.",
            "{target} was emptied: sending all {n} games again.",
            games,
            target=target,
        )
    return Plural(
        "{target} lost files: sending all {n} game again.",
        "{target} lost files: sending all {n} games again.",
        games,
        target=target,
    )
