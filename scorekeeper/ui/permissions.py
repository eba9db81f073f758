"""Who may do what: the host (the owner's devices) and its guests.

The desktop window and a browser that proved to be an owner device (an owner link or a paired device, see
owner.py) are the *host*; every other session is a *guest*, whatever its network address (behind a proxy or a
tunnel every visitor comes from loopback). Guests may view the games and keep score in them. The actions
below, which reach the whole data set or the host's files, stay with the host unless the host allows guests
in the settings; with a PIN set there, a guest must enter it first (once per session).

This is the one check the UI asks (`ctx.may(action)`); the live-table feature builds on the same roles.
"""

from __future__ import annotations

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

# Settings keys the host controls.
GUESTS_ALLOWED = "guests_allowed"
GUEST_PIN = "guest_pin"


def guest_pin(settings: Mapping[str, Any]) -> str:
    pin = settings.get(GUEST_PIN)
    return pin.strip() if isinstance(pin, str) else ""


def allowed(action: str, *, guest: bool, settings: Mapping[str, Any], unlocked: bool = False) -> bool:
    """May a session do `action`? The host always; a guest only what is not host-only, unless the host allows
    guests (and, with a PIN set, the guest has entered it: `unlocked`)."""
    if not guest or action not in HOST_ONLY:
        return True
    if settings.get(GUESTS_ALLOWED) is not True:
        return False
    return unlocked or not guest_pin(settings)


def pin_matches(settings: Mapping[str, Any], entered: str) -> bool:
    """The PIN a guest typed is the host's (compared in constant time)."""
    import hmac

    pin = guest_pin(settings)
    return bool(pin) and hmac.compare_digest(pin.encode(), entered.strip().encode())
