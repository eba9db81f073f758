"""Join codes and the wrong-code guard.

A join code is 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B), so it can be
read aloud or typed from a TV across the room: 25^6 = 244 million codes.

The guard counts wrong codes in a sliding window of `WINDOW` seconds at three levels, and refuses a level for
`WINDOW` seconds once it is over its limit:

- per client (one browser tab's session): `LIMIT`, for a person's typos;
- per address: `ADDRESS_LIMIT`, higher, because everyone behind one home router or carrier NAT (or a proxy that
  sends no forwarding header) shares it, so one person's typos must not lock out the others; a guesser who opens
  a new session for every few guesses still stops here;
- for the whole host: `HOST_LIMIT`, so that many addresses together cannot guess either. This is what bounds the
  chance of finding any one table's code: at most `HOST_LIMIT` guesses a minute, i.e. 28,800 in a four-hour
  game night, find a given table with a chance of 28,800 / 244 million = 0.012 %. While the host-wide cap is
  reached, every lookup by code is refused (the phones already seated keep playing: they hold seat tokens).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Container
from dataclasses import dataclass, field

ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
"""Upper-case letters and digits that no other character of the set can be mistaken for."""
CODE_LENGTH = 6
LIMIT = 10
"""Wrong codes one client (session) may enter per window; the next one is refused."""
ADDRESS_LIMIT = 30
"""Wrong codes all clients of one address may enter per window."""
HOST_LIMIT = 120
"""Wrong codes the whole host accepts per window, from every address together."""
WINDOW = 60.0
"""Seconds: the window for counting wrong codes, and how long a client is refused after too many."""
EVERYONE = "*"
"""The host-wide level's key."""

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
class WrongCodeCounter:
    """Wrong codes per key in a sliding window; a key over `limit` is refused for `window` seconds."""

    limit: int
    window: float
    _wrong: dict[str, list[float]] = field(default_factory=dict)
    _refused_until: dict[str, float] = field(default_factory=dict)

    def refused(self, key: str, now: float) -> bool:
        until = self._refused_until.get(key)
        if until is None:
            return False
        if now >= until:
            del self._refused_until[key]
            self._wrong.pop(key, None)
            return False
        return True

    def wrong(self, key: str, now: float) -> None:
        recent = [t for t in self._wrong.get(key, ()) if now - t < self.window]
        recent.append(now)
        self._wrong[key] = recent
        if len(recent) > self.limit:
            self._refused_until[key] = now + self.window

    def forget_old(self, now: float) -> None:
        """Drop keys with nothing in the window (a guesser's many sessions must not pile up in memory)."""
        for key in [k for k, times in self._wrong.items() if not times or now - times[-1] >= self.window]:
            if key not in self._refused_until:
                del self._wrong[key]

    def clear(self) -> None:
        self._wrong.clear()
        self._refused_until.clear()


CLIENT, ADDRESS, HOST = "client", "address", "host"
"""Which level refused: the client's own, its address's, or the host-wide cap."""


@dataclass
class JoinGuard:
    """Counts wrong codes per client, per address and for the whole host (see the module docstring); `clock` is
    injected so tests need no sleep."""

    clock: Clock
    limit: int = LIMIT
    window: float = WINDOW
    address_limit: int = ADDRESS_LIMIT
    host_limit: int = HOST_LIMIT

    def __post_init__(self) -> None:
        self.levels = {
            CLIENT: WrongCodeCounter(self.limit, self.window),
            ADDRESS: WrongCodeCounter(self.address_limit, self.window),
            HOST: WrongCodeCounter(self.host_limit, self.window),
        }
        self._count = 0

    def _keys(self, client: str, address: str | None) -> dict[str, str | None]:
        return {CLIENT: client, ADDRESS: address, HOST: EVERYONE}

    def refused(self, client: str, address: str | None = None) -> str | None:
        """Which level refuses `client` (at `address`) now: CLIENT, ADDRESS, HOST, or None when it may try."""
        now = self.clock()
        for level, key in self._keys(client, address).items():
            if key is not None and self.levels[level].refused(key, now):
                return level
        return None

    def wrong(self, client: str, address: str | None = None) -> None:
        """Count one wrong code at every level; over a level's limit within the window refuses it for `window`."""
        now = self.clock()
        for level, key in self._keys(client, address).items():
            if key is not None:
                self.levels[level].wrong(key, now)
        self._count += 1
        if self._count % 256 == 0:
            for counter in self.levels.values():
                counter.forget_old(now)

    def clear(self) -> None:
        for counter in self.levels.values():
            counter.clear()
