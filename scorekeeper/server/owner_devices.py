"""Owner devices: who holds the host's rights, proved by a secret, never by a network address.

The anchor is Jupyter's token model. The web server mints a one-time *link token* at every start and prints the
owner link (`http://host:port/#owner=<token>`); an owner device shows a fresh one as a QR code to pair another
device. A browser that opens such a link redeems the token once and gets a long-lived *device token*, which it
keeps in its client storage and shows at every later visit. Every other session is a guest, whatever its
address: behind a reverse proxy or a tunnel every visitor connects from loopback.

- Link tokens live in memory only (`LinkTokens`): each is good once, a pairing one for a few minutes; a restart
  forgets them. `SCOREKEEPER_OWNER_TOKEN` names one more that stays good while the server runs (for scripts and
  the test harness: treat it like a password; one under 16 characters is ignored).
- Device tokens are kept hashed (SHA-256: they are 256 random bits, so a slow hash adds nothing) in
  `owner-devices.json` in the data folder, with a name, when added and when last seen; revoking one deletes it.

No Flet here: the UI (`server/owner_session.py` and the screens) asks this module and keeps the tokens in the browser.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.store.storage import atomic_write_bytes

FILE = "owner-devices.json"
ENV_TOKEN = "SCOREKEEPER_OWNER_TOKEN"
MIN_FIXED = 16
"""A configured owner token shorter than this is ignored (it could be guessed)."""
PAIRING_SECONDS = 10 * 60
"""How long a pairing link shown as a QR code stays good (once)."""
SEEN_EVERY = 60.0
"""`last_seen` is written at most this often per device (a write per page load would be a write per reload)."""


def new_token() -> str:
    """256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


WRONG_TRIES = 10
"""Wrong link tokens within WRONG_WINDOW seconds (all clients together) before redemptions pause."""
WRONG_WINDOW = 60.0
LOCKED_SECONDS = 60.0
"""How long the configured token is refused after WRONG_TRIES wrong ones."""


class LinkTokens:
    """One-time tokens of owner links, in memory (one set per process). The rule: a token is good once, until
    it expires (None: while the server runs); the token from `SCOREKEEPER_OWNER_TOKEN` is good every time.

    Wrong tokens are counted for the whole process (a guesser has many addresses): after WRONG_TRIES within
    WRONG_WINDOW seconds the configured token is refused for LOCKED_SECONDS, right or wrong, so nobody tries more
    than about ten guesses of it a minute (it is of a person's choosing). A minted token (256 random bits, no
    guess finds one) keeps working meanwhile: a guesser cannot keep the owner from pairing a device, and owner
    devices already paired show device tokens anyway (`OwnerDevices.check`)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._pending: dict[str, float | None] = {}  # hash -> expiry (None: none)
        self._wrong: list[float] = []  # when the recent wrong tries came
        self._locked_until = float("-inf")

    def mint(self, seconds: float | None = None) -> str:
        token = new_token()
        with self._lock:
            self._drop_expired()
            self._pending[digest(token)] = None if seconds is None else self._clock() + seconds
        return token

    def redeem(self, token: str) -> bool:
        """True once for a minted token that has not expired (and always for the configured one), unless wrong
        tries paused redemptions (see the class)."""
        if not token:
            return False
        with self._lock:
            now = self._clock()
            self._drop_expired()
            if self._pending.pop(digest(token), False) is not False:
                return True
            if now < self._locked_until:
                return False
            fixed = os.environ.get(ENV_TOKEN, "")
            if len(fixed) >= MIN_FIXED and hmac.compare_digest(fixed.encode(), token.encode()):
                return True
            self._wrong = [when for when in self._wrong if now - when < WRONG_WINDOW] + [now]
            if len(self._wrong) >= WRONG_TRIES:
                self._locked_until, self._wrong = now + LOCKED_SECONDS, []
            return False

    def locked(self) -> bool:
        """Whether wrong tries have paused the configured token now."""
        with self._lock:
            return self._clock() < self._locked_until

    def count(self) -> int:
        """How many minted tokens are pending (not redeemed, not expired)."""
        with self._lock:
            self._drop_expired()
            return len(self._pending)

    def pending(self, token: str) -> bool:
        """Minted, not redeemed and not expired yet."""
        with self._lock:
            self._drop_expired()
            return digest(token) in self._pending

    def _drop_expired(self) -> None:
        now = self._clock()
        for key, expiry in list(self._pending.items()):
            if expiry is not None and expiry < now:
                del self._pending[key]


LINKS = LinkTokens()
"""The link tokens of this process (the server that printed them is the one that redeems them)."""


@dataclass(frozen=True)
class OwnerDevice:
    id: str
    name: str
    added: float  # epoch seconds
    last_seen: float


class OwnerDevices:
    """The owner devices of one data folder (`folder` None: kept in memory, as for an in-memory store).

    Safe for the sessions' threads; the file is re-read when another process changed it (one process per
    table behind a proxy shares the data folder)."""

    def __init__(self, folder: Path | None, clock: Callable[[], float] = time.time, file: str = FILE) -> None:
        self.path = Path(folder) / file if folder is not None else None
        self._clock = clock
        self._lock = threading.RLock()
        self._entries: list[dict[str, Any]] = []
        self._stamp: tuple[int, int] | None = None
        self._load()

    @property
    def existed(self) -> bool:
        """Whether the file was there already (False: the first start with owner devices)."""
        return self.path is not None and self.path.exists()

    def devices(self) -> list[OwnerDevice]:
        with self._lock:
            self._load()
            return [self._device(entry) for entry in self._entries]

    def add(self, name: str) -> tuple[str, OwnerDevice]:
        """A new owner device: (its token, to keep on the device; the device)."""
        token = new_token()
        now = self._clock()
        entry = {
            "id": secrets.token_hex(6),
            "hash": digest(token),
            "name": name[:80],
            "added": now,
            "last_seen": now,
        }
        with self._lock:
            self._load()
            self._entries.append(entry)
            self._save()
        return token, self._device(entry)

    def check(self, token: str) -> OwnerDevice | None:
        """The device holding `token`, or None (unknown or signed out); notes that it was seen now."""
        if not token:
            return None
        wanted = digest(token)
        with self._lock:
            self._load()
            for entry in self._entries:
                if hmac.compare_digest(str(entry.get("hash", "")), wanted):
                    now = self._clock()
                    if now - float(entry.get("last_seen", 0)) >= SEEN_EVERY:
                        entry["last_seen"] = now
                        self._save()
                    return self._device(entry)
        return None

    def active(self, device_id: str) -> bool:
        """Still an owner device (not signed out, here or by another process)."""
        with self._lock:
            self._load()
            return any(entry.get("id") == device_id for entry in self._entries)

    def revoke(self, device_id: str) -> bool:
        """Sign one device out; True if it was there."""
        return self._keep(lambda entry: entry.get("id") != device_id) > 0

    def revoke_others(self, keep_id: str) -> int:
        """Sign out every device but `keep_id`; how many were signed out."""
        return self._keep(lambda entry: entry.get("id") == keep_id)

    def _keep(self, keep: Callable[[dict[str, Any]], bool]) -> int:
        with self._lock:
            self._load()
            before = len(self._entries)
            self._entries = [entry for entry in self._entries if keep(entry)]
            removed = before - len(self._entries)
            if removed:
                self._save()
            return removed

    @staticmethod
    def _device(entry: dict[str, Any]) -> OwnerDevice:
        return OwnerDevice(
            id=str(entry.get("id", "")),
            name=str(entry.get("name", "")),
            added=float(entry.get("added", 0)),
            last_seen=float(entry.get("last_seen", 0)),
        )

    def _load(self) -> None:
        """Read the file if it changed since the last read. An unreadable file counts as no devices (the owner
        link printed at start pairs again) and is left in place for the person to look at."""
        if self.path is None:
            return
        try:
            stat = self.path.stat()
        except OSError:
            self._entries, self._stamp = [], None
            return
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp == self._stamp:
            return
        try:
            data = json.loads(self.path.read_bytes())
            entries = [e for e in data.get("devices", []) if isinstance(e, dict) and e.get("hash")]
        except (OSError, ValueError, AttributeError):
            entries = []
        self._entries, self._stamp = entries, stamp

    def _save(self) -> None:
        if self.path is None:
            return
        body = json.dumps({"version": 1, "devices": self._entries}, indent=1).encode()
        stat = atomic_write_bytes(self.path, body)
        self._stamp = (stat.st_mtime_ns, stat.st_size)


MEMBER_FILE = "member-devices.json"
"""The member devices (rights.py: they see the history and keep score), kept like the owner devices."""
MEMBER_LINKS = LinkTokens()
"""The link tokens of member links (`#member=`), minted by an owner device's "Pair a member device"."""

_registries: dict[tuple[str, str], OwnerDevices] = {}
_registries_lock = threading.Lock()


def devices_of(folder: Path | None, file: str = FILE) -> OwnerDevices:
    """The owner devices of `folder` (with `file` MEMBER_FILE: its member devices), one object per folder and
    process (None: one in memory)."""
    key = (str(Path(folder).resolve()) if folder is not None else "", file)
    with _registries_lock:
        registry = _registries.get(key)
        if registry is None:
            registry = _registries[key] = OwnerDevices(folder, file=file)
        return registry


def members_of(folder: Path | None) -> OwnerDevices:
    """The member devices of `folder`."""
    return devices_of(folder, MEMBER_FILE)
