"""Who may do what with the whole data set: the owner, and the members the owner allows.

Screens are the business of rights.py (visitor, member, owner). Members may view the games and keep score in
them; the actions below reach the whole data set or the host's files and stay with the owner unless the owner
allows members in the settings (the setting keeps its old name, `guests_allowed`, so older settings keep
working: it meant every other browser then, and means the members now); with a PIN set there, a member must
enter it first (once per session, tries limited). A visitor never does any of them, whatever the settings say.

This is the one check the UI asks (`ctx.may(action)`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

# The host-only actions, by name.
DELETE_HISTORY = "delete_history"
ARCHIVE_PLAYERS = "archive_players"
SETTINGS = "settings"  # change what is saved for everyone (language and theme of a guest stay in its session)
IMPORT = "import"
EXPORT = "export"
BACKUPS = "backups"
DATA_PATH = "data_path"
SYNC = "sync"  # where this device syncs to, and the password for it
HOST_ONLY: frozenset[str] = frozenset(
    {DELETE_HISTORY, ARCHIVE_PLAYERS, SETTINGS, IMPORT, EXPORT, BACKUPS, DATA_PATH, SYNC}
)

# Settings keys the owner controls.
GUESTS_ALLOWED = "guests_allowed"
"""Members may change settings, export, import, back up and delete (with `GUEST_PIN`, after entering it)."""
GUEST_PIN = "guest_pin"
EVERYONE_MEMBER = "everyone_member"
"""Every browser that opens the app is a member (a game night at home, `make table`); off by default."""
PERMISSION_KEYS: frozenset[str] = frozenset({GUESTS_ALLOWED, GUEST_PIN, EVERYONE_MEMBER})
"""The settings that give rights: only the owner sets them, on an owner device (never an import)."""


def everyone_member(settings: Mapping[str, Any]) -> bool:
    """Whether the owner lets every visitor be a member (only an explicit yes)."""
    return settings.get(EVERYONE_MEMBER) is True


def guest_pin(settings: Mapping[str, Any]) -> str:
    pin = settings.get(GUEST_PIN)
    return pin.strip() if isinstance(pin, str) else ""


def allowed(action: str, *, guest: bool, settings: Mapping[str, Any], unlocked: str = "") -> bool:
    """May a session do `action`? The host always; a guest only what is not host-only, unless the host allows
    guests (and, with a PIN set, the guest has entered that PIN: `unlocked`, the `pin_fingerprint` the session
    unlocked with, so a PIN the owner changes ends every right it gave)."""
    if not guest or action not in HOST_ONLY:
        return True
    if settings.get(GUESTS_ALLOWED) is not True:
        return False
    pin = guest_pin(settings)
    return not pin or (bool(unlocked) and hmac.compare_digest(unlocked, pin_fingerprint(settings)))


def pin_fingerprint(settings: Mapping[str, Any]) -> str:
    """What a session keeps of the PIN it was unlocked with ("" without a PIN): a hash, not the PIN."""
    pin = guest_pin(settings)
    return hashlib.sha256(f"scorekeeper-pin:{pin}".encode()).hexdigest() if pin else ""


def pin_matches(settings: Mapping[str, Any], entered: str) -> bool:
    """The PIN a guest typed is the host's (compared in constant time)."""
    pin = guest_pin(settings)
    return bool(pin) and hmac.compare_digest(pin.encode(), entered.strip().encode())
