"""A seat at a live table: who holds it, and the secret token a phone holds it with.

Rules of a seat:
- A seat is open (waiting for a phone), a person's (claimed by one phone) or a computer player's.
- Claiming a seat gives the phone a secret token; the host keeps only its SHA-256 (`token_hash`), so neither the
  saved game nor `tables.json` holds a token. A token holds the seat when its hash matches, compared in constant
  time.
- A computer player given an open seat in the lobby is named "Computer <seat number>".
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.games.base import Message

OPEN = "open"
"""An open seat's kind (the others are `digital.session`'s PERSON and COMPUTER)."""
NAME_LENGTH = 24


def computer_name(seat: int) -> str:
    """The name of a computer player given an open seat in the lobby."""
    return str(Message("Computer {n}", n=seat + 1))


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_player() -> str:
    """A new seat's player id in the match (a computer player seated in the lobby gets `computer_seat`'s)."""
    return f"table-{uuid.uuid4().hex[:10]}"


@dataclass
class TableSeat:
    """A seat at the table. `token_hash` is set while a phone holds the seat."""

    kind: str = OPEN
    name: str = ""
    strength: str | None = None
    token_hash: str | None = None
    player: str = field(default_factory=new_player)

    def held_by(self, token: str | None) -> bool:
        """Whether `token` is the one this seat's phone was given (False for no token, or no phone)."""
        if not token or self.token_hash is None:
            return False
        return hmac.compare_digest(self.token_hash, digest(token))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "strength": self.strength,
            "token_hash": self.token_hash,
            "player": self.player,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSeat:
        return cls(
            str(data.get("kind", OPEN)),
            str(data.get("name", "")),
            data.get("strength"),
            data.get("token_hash"),
            str(data.get("player") or new_player()),
        )
