"""How often a guest may try the host's PIN (Settings, "Members": Unlock), and how long a new PIN must be.

The PIN unlocks settings, export, import, backups and the data path for a guest, so guessing it must be slow. Wrong
PINs are counted at three levels (the same sliding-window counting as the join codes' `table.codes`, with an
injected clock so tests step it instead of sleeping):

- per session (one browser tab): `SESSION_LIMIT` wrong PINs, then that session is refused for `SESSION_WAIT`
  seconds; every further refusal of the same session doubles the wait (1, 2, 4, 8 ... minutes, at most
  `LONGEST_WAIT`), for a person who mistyped a few times;
- per address: `ADDRESS_LIMIT` wrong PINs within `WINDOW` (an hour), then every session of that address is
  refused until the oldest of them is an hour old (a guesser who opens a new session for every few tries);
- for the whole host: `HOST_LIMIT` wrong PINs within the hour from every address together, then every guest is
  refused in the same way. This is what bounds guessing: at most 60 tries an hour, 1,440 a day, which find a
  6-digit PIN (a million) with a chance of 0.14 % a day. Unlike the join codes, this level refuses everyone,
  since a PIN has far fewer values than a join code; it costs little: only guests unlock with the PIN, and
  the owner's devices never need it.

While a level refuses, the unlock says so and the PIN typed is not even compared (`PinGuard.check`). A new PIN
needs at least `MIN_LENGTH` characters (`too_short`); a shorter PIN saved before keeps working.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.table.codes import EVERYONE, Clock

SESSION_LIMIT = 5
"""Wrong PINs one session may enter; the next try is refused for `SESSION_WAIT` seconds (doubling)."""
SESSION_WAIT = 60.0
LONGEST_WAIT = 3600.0
"""The longest a session waits (after 7 refusals the wait stops doubling at an hour)."""
ADDRESS_LIMIT = 20
"""Wrong PINs all sessions of one address may enter within `WINDOW`."""
HOST_LIMIT = 60
"""Wrong PINs the whole host accepts within `WINDOW`, from every address together."""
WINDOW = 3600.0
"""Seconds: the window for counting wrong PINs."""
MIN_LENGTH = 6
"""Characters a newly set guest PIN needs at least."""


@dataclass
class Tries:
    """Wrong tries per key within `window`. With `wait` None a key is refused while it has `limit` wrong tries in
    the window (until the oldest leaves it); with `wait` set, `limit` wrong tries refuse the key for `wait`
    seconds, doubled at every further refusal (at most `longest`), and its count starts again."""

    limit: int
    window: float
    wait: float | None = None
    longest: float = LONGEST_WAIT
    _wrong: dict[str, list[float]] = field(default_factory=dict)
    _until: dict[str, float] = field(default_factory=dict)
    _strikes: dict[str, int] = field(default_factory=dict)

    def _recent(self, key: str, now: float) -> list[float]:
        return [t for t in self._wrong.get(key, ()) if now - t < self.window]

    def refused_for(self, key: str, now: float) -> float:
        """Seconds until `key` may try again (0: it may now)."""
        if self.wait is not None:
            return max(0.0, self._until.get(key, now) - now)
        recent = self._recent(key, now)
        if len(recent) < self.limit:
            return 0.0
        return max(0.0, recent[-self.limit] + self.window - now)

    def wrong(self, key: str, now: float) -> None:
        recent = self._recent(key, now)
        recent.append(now)
        self._wrong[key] = recent
        if self.wait is not None and len(recent) >= self.limit:
            strikes = self._strikes.get(key, 0) + 1
            self._strikes[key] = strikes
            self._until[key] = now + min(self.wait * 2 ** (strikes - 1), self.longest)
            self._wrong[key] = []

    def right(self, key: str) -> None:
        """A right try: the key's wrong ones so far no longer count (its doubling stays)."""
        self._wrong.pop(key, None)

    def forget_old(self, now: float) -> None:
        """Drop keys with nothing in the window and no refusal running (a guesser's many sessions)."""
        for key in list({*self._wrong, *self._until, *self._strikes}):
            # a session's doubling is kept for a window after its last refusal ended
            if not self._recent(key, now) and now - self._until.get(key, now - self.window) >= self.window:
                self._wrong.pop(key, None)
                self._until.pop(key, None)
                self._strikes.pop(key, None)

    def clear(self) -> None:
        self._wrong.clear()
        self._until.clear()
        self._strikes.clear()


SESSION, ADDRESS, HOST = "session", "address", "host"
"""Which level refused."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of one try: `right`, or wrong, or refused (`wait` seconds, `level`) without a comparison."""

    right: bool
    wait: float = 0.0
    level: str | None = None

    @property
    def refused(self) -> bool:
        return self.level is not None

    @property
    def minutes(self) -> int:
        """The wait in whole minutes, rounded up (at least 1)."""
        return max(1, math.ceil(self.wait / 60))


@dataclass
class PinGuard:
    """Counts wrong PINs per session, per address and for the whole host (see the module docstring)."""

    clock: Clock = time.monotonic
    session_limit: int = SESSION_LIMIT
    session_wait: float = SESSION_WAIT
    address_limit: int = ADDRESS_LIMIT
    host_limit: int = HOST_LIMIT
    window: float = WINDOW

    def __post_init__(self) -> None:
        self.levels = {
            SESSION: Tries(self.session_limit, self.window, wait=self.session_wait),
            ADDRESS: Tries(self.address_limit, self.window),
            HOST: Tries(self.host_limit, self.window),
        }
        self._count = 0

    def _keys(self, session: str, address: str | None) -> dict[str, str | None]:
        return {SESSION: session, ADDRESS: address, HOST: EVERYONE}

    def refused(self, session: str, address: str | None = None) -> tuple[str, float] | None:
        """The level that refuses `session` (at `address`) now and how many seconds are left, or None."""
        now = self.clock()
        waits = [
            (level, self.levels[level].refused_for(key, now))
            for level, key in self._keys(session, address).items()
            if key is not None
        ]
        waits = [(level, wait) for level, wait in waits if wait > 0]
        return max(waits, key=lambda found: found[1]) if waits else None

    def check(self, session: str, address: str | None, matches: Callable[[], bool]) -> Verdict:
        """One try of the PIN: refused while any level refuses (`matches` is not called then), else compared;
        a wrong PIN is counted at every level."""
        refused = self.refused(session, address)
        if refused is not None:
            return Verdict(False, refused[1], refused[0])
        if matches():
            self.levels[SESSION].right(session)
            return Verdict(True)
        now = self.clock()
        for level, key in self._keys(session, address).items():
            if key is not None:
                self.levels[level].wrong(key, now)
        self._count += 1
        if self._count % 256 == 0:
            for tries in self.levels.values():
                tries.forget_old(now)
        return Verdict(False)

    def clear(self) -> None:
        for tries in self.levels.values():
            tries.clear()


GUARD = PinGuard()
"""The PIN tries of this process (the app's sessions share it)."""


def session_of(ctx: Any) -> str:
    """Who counts as one session: the browser tab's Flet session, else the app session's own state."""
    try:
        return "session:" + str(ctx.page.session.id)
    except Exception:  # no Flet session (in-process use)
        return f"state:{id(ctx.session)}"


def too_short(pin: str) -> bool:
    """Whether a PIN the host is setting is too short (empty: no PIN, allowed)."""
    return 0 < len(pin.strip()) < MIN_LENGTH
