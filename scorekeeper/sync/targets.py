"""Which `Target` an address names: an http(s):// address is a WebDAV server, anything else a folder."""

from __future__ import annotations

from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.target import Target
from scorekeeper.sync.webdav import WebDavTarget, is_webdav_address


def target_from(
    address: str, user: str | None = None, password: str | None = None, timeout: float = 20.0
) -> Target:
    """The target at `address`: "https://cloud.example.org/remote.php/dav/files/me/Scorekeeper" (also dav://,
    davs://) is a WebDAV folder reached with `user` and `password`; "~/Sync/Scorekeeper" or "D:\\Scorekeeper"
    is a folder on this device (user and password are not used)."""
    address = address.strip()
    if is_webdav_address(address):
        return WebDavTarget(address, user, password, timeout)
    return FolderTarget(address)
