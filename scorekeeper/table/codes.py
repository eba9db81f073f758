"""Join codes and the wrong-code guard.

A join code is 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B), so it can be
read aloud or typed from a TV across the room. A client that enters more than `LIMIT` wrong codes within
`WINDOW` seconds is refused for `WINDOW` seconds (with 25^6 = 244 million codes, guessing is hopeless).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Container
from dataclasses import dataclass, field

ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
"""Upper-case letters and digits that no other character of the set can be mistaken for."""
CODE_LENGTH = 6
LIMIT = 10
"""Wrong codes a client may enter per window; the next one is refused."""
WINDOW = 60.0
"""Seconds: the window for counting wrong codes, and how long a client is refused after too many."""

Clock = Callable[[], float]


def new_code(taken: Container[str] = (), choice: Callable[[str], str] = secrets.choice) -> str:
    """A fresh join code that is not in `taken`."""
    while True:
        code = "".join(choice(ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def normalize(text: str) -> str:
    """What a person typed as a code: case and spaces or dashes do not matter."""
    return "".join(ch for ch in str(text).upper() if not ch.isspace() and ch != "-")


def well_formed(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code)


@dataclass
class JoinGuard:
    """Counts wrong codes per client (an address or session id); `clock` is injected so tests need no sleep."""

    clock: Clock
    limit: int = LIMIT
    window: float = WINDOW
    _wrong: dict[str, list[float]] = field(default_factory=dict)
    _refused_until: dict[str, float] = field(default_factory=dict)

    def refused(self, client: str) -> bool:
        """Whether `client` is refused now (it entered too many wrong codes within the last window)."""
        until = self._refused_until.get(client)
        if until is None:
            return False
        if self.clock() >= until:
            del self._refused_until[client]
            self._wrong.pop(client, None)
            return False
        return True

    def wrong(self, client: str) -> None:
        """Count one wrong code; more than `limit` within `window` seconds refuses the client for `window`."""
        now = self.clock()
        recent = [t for t in self._wrong.get(client, []) if now - t < self.window]
        recent.append(now)
        self._wrong[client] = recent
        if len(recent) > self.limit:
            self._refused_until[client] = now + self.window
