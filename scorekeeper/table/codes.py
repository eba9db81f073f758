"""Join codes and the wrong-code guard.

A join code is 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B), so it can be
read aloud or typed from a TV across the room: 25^6 = 244 million codes.

The guard counts wrong codes in a sliding window of `WINDOW` seconds at three levels, and refuses a level for
`WINDOW` seconds once it is over its limit:

- per client (one browser tab's session): `LIMIT`, for a person's typos. This level refuses its own guesser
  everything, the right code too, for `WINDOW` seconds.
- per address: `ADDRESS_LIMIT`, higher, because everyone behind one home router or carrier NAT (or a proxy that
  sends no forwarding header) shares it;
- for the whole host: `HOST_LIMIT`, for many addresses together.

No lockout of the honest: the address and host levels refuse only the clients that themselves entered a wrong
code within the last `WINDOW` seconds (`JoinGuard.refused`). A new player with the right code, a family member
behind the same router, a phone that reloads, always gets their lookup answered, whatever others guessed (the
audit of issue 40: 13 sessions typing 10 wrong codes each in 6 s kept a whole game night out for a minute, right
codes, reloading phones and the TV board included). Phones and boards that hold a token for the table (a seat
token, a board token: `Table.seat_of`, `Table.board_held`) do not go through the guard at all.

What bounds guessing now:

- One session: `LIMIT` wrong codes a minute, then nothing for a minute.
- One address: once it is over `ADDRESS_LIMIT`, every session of it that has guessed wrong in the last minute is
  refused, and each fresh session gets at most its first lookup answered (a wrong one makes it a guesser). Fresh
  sessions are what the session cap bounds (`ui.proxies.SessionCap`: by default 60 sessions per address, each
  counted while open and for 120 s after it closed), so an address gets at most about 60 guesses a minute past
  its limit (60 sessions held, each with one wrong code a minute): at most 90 a minute, 21,600 in a four-hour
  game night, which find a given table with a chance of 21,600 / 244 million = 0.009 %.
- The host-wide level adds the same rule across addresses; it no longer caps a guesser with many addresses (a
  botnet) at a fixed number: each address is bounded as above, so 100 addresses make at most 9,000 guesses a
  minute, 2.2 million in four hours, a chance of 0.9 % for a given table. Refusing every lookup instead, as the
  cap used to, let about 2 requests a second keep everyone out; a right code is never refused to a session that
  has not guessed wrong, and no design can refuse such a guesser's first lookup without refusing the honest
  too (the two look the same until the code is compared).

Several instances behind one proxy (`Instance`, `--instance K/N`): a table lives in one process, so each
instance draws the first character of its codes from its own share of the alphabet (consecutive characters,
`share`), and a code tells its instance by that character alone (`instance_of`): the proxy routes `/join/<code>`
and `/table/<code>...` by it (`deploy/Caddyfile.instances`), and two instances never make the same code.
"""

from __future__ import annotations

import os
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


INSTANCE_ENV = "SCOREKEEPER_INSTANCE"
"""`K/N`: this process is instance K of N behind one proxy (`--instance`); unset: the only one."""


def share(number: int, count: int) -> str:
    """The first characters of instance `number`'s codes (1-based, of `count`): a run of consecutive characters
    of ALPHABET, the runs of all instances together the whole alphabet, each run one or two characters longer or
    shorter than the others (25 over 2: 13 and 12)."""
    if not 1 <= number <= count <= len(ALPHABET):
        raise ValueError(f"instance {number} of {count}: wanted 1 <= K <= N <= {len(ALPHABET)}")
    return ALPHABET[(number - 1) * len(ALPHABET) // count : number * len(ALPHABET) // count]


def instance_of(code: str, count: int) -> int:
    """The instance (1-based, of `count`) that makes and hosts `code`: told by its first character."""
    first = normalize(code)[:1]
    for number in range(1, count + 1):
        if first and first in share(number, count):
            return number
    raise ValueError(f"{code!r} is not a table code")


@dataclass(frozen=True)
class Instance:
    """Which of the instances behind one proxy this process is (`number` of `count`, 1-based)."""

    number: int = 1
    count: int = 1

    def __post_init__(self) -> None:
        share(self.number, self.count)  # ValueError for an instance that cannot be

    @classmethod
    def parse(cls, text: str | None) -> Instance:
        """`"2/3"` is instance 2 of 3; empty or None the only instance. ValueError with what is wrong."""
        if not text or not text.strip():
            return cls()
        number, slash, count = text.strip().partition("/")
        if not slash or not number.strip().isdigit() or not count.strip().isdigit():
            raise ValueError(f"{text!r} is not K/N, e.g. 1/2 for the first of two instances")
        return cls(int(number), int(count))

    @property
    def firsts(self) -> str:
        """The characters this instance's codes begin with."""
        return share(self.number, self.count)

    def owns(self, code: str) -> bool:
        """Whether `code` is one this instance makes (a code of another instance is routed there)."""
        first = normalize(code)[:1]
        return bool(first) and first in self.firsts

    def hosts_elsewhere(self, code: str) -> bool:
        """Whether `code` is a well-formed code another instance makes: its table lives there, and only a new
        page load through the proxy reaches it (a page already open stays connected to this instance)."""
        code = normalize(code)
        return well_formed(code) and not self.owns(code)


def this_instance() -> Instance:
    """This process's instance, from `SCOREKEEPER_INSTANCE` (set by `--instance`)."""
    return Instance.parse(os.environ.get(INSTANCE_ENV))


def new_code(
    taken: Container[str] = (),
    choice: Callable[[str], str] = secrets.choice,
    instance: Instance | None = None,
) -> str:
    """A fresh join code that is not in `taken`, beginning with a character of `instance`'s share (default:
    this process's instance)."""
    firsts = (instance or this_instance()).firsts
    while True:
        code = choice(firsts) + "".join(choice(ALPHABET) for _ in range(CODE_LENGTH - 1))
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

    def guessed(self, key: str, now: float) -> bool:
        """Whether `key` entered a wrong code within the window."""
        return any(now - t < self.window for t in self._wrong.get(key, ()))

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
        """Which level refuses `client` (at `address`) now: CLIENT, ADDRESS, HOST, or None when it may try.

        The client's own level refuses it once it is over `limit`; the address and host levels refuse only a
        client that itself entered a wrong code within the window (see the module docstring): a session that
        has not guessed wrong is never refused a lookup."""
        now = self.clock()
        guesser = self.levels[CLIENT].guessed(client, now)
        for level, key in self._keys(client, address).items():
            if key is None or (level != CLIENT and not guesser):
                continue
            if self.levels[level].refused(key, now):
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
