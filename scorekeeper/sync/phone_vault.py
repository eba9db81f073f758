"""Passwords in a packaged phone app: the phone's own secure store (the Android Keystore, the iOS Keychain)
through `flet-secure-storage`, a Flet service whose calls are async and go through the page's session.

Rules:
- Chosen only for the packaged app on Android or iOS (`is_phone`): the web app served to a phone's browser
  keeps the password on the host that serves it, never in the browser.
- Every password of the app is kept under one key (`KEY`) as a JSON object, like the 0600 file, and held in
  memory once read: the screens ask for a password on the session's event loop, where waiting for an answer of
  that same loop would never end. The sync's own thread waits for the first read (at most `timeout` seconds).
- If the secure store cannot be read (an error, no answer in time) the vault falls back to the file only the
  user may read, and says so in the log; a password kept in that file before (an older app version) is still
  found there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Literal

log = logging.getLogger(__name__)

KEY = "scorekeeper-sync-credentials"

Runner = Callable[..., Future[Any]]
"""`page.run_task`: runs a coroutine function on the page's event loop from any thread."""


def is_phone(platform: Any, web: bool) -> bool:
    """The packaged app on a phone or tablet (Android, iOS); not the web app opened in a phone's browser."""
    name = str(getattr(platform, "value", platform) or "").lower()
    return not web and name in ("android", "ios")


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class SecureStorageVault:
    """`Vault` over a `flet_secure_storage.SecureStorage` (or anything with its async get/set/remove)."""

    where: Literal["secure_storage"] = "secure_storage"

    def __init__(
        self,
        storage: Any,
        run: Runner,
        fallback: Any,
        account: Callable[[str, str], str],
        timeout: float = 10.0,
    ) -> None:
        """`fallback`: the vault of the 0600 file; `account(address, user)`: the name a password is kept under."""
        self.storage, self.run, self.fallback, self.timeout = storage, run, fallback, timeout
        self.account = account
        self._cache: dict[str, str] = {}
        self._loaded = threading.Event()
        self._failed = False
        self._lock = threading.Lock()
        self.run(self._load)

    @property
    def usable(self) -> bool:
        """False once the secure store failed: the fallback keeps the passwords then."""
        return not self._failed

    async def _load(self) -> None:
        try:
            raw = await self.storage.get(KEY)
            found = json.loads(raw) if raw else {}
            if not isinstance(found, dict):
                found = {}
            with self._lock:
                self._cache = {str(k): v for k, v in found.items() if isinstance(v, str)}
        except Exception as error:  # no Keystore, a locked Keychain: the 0600 file is the place then
            log.warning(
                "the phone's secure store could not be read (%s); using the app's private file", error
            )
            self._failed = True
        finally:
            self._loaded.set()

    def _ready(self) -> bool:
        """Whether what the store holds is known (waits for the first read, except on an event loop)."""
        if not self._loaded.is_set() and not _on_a_loop() and not self._loaded.wait(self.timeout):
            log.warning("the phone's secure store did not answer; using the app's private file")
            self._failed = True
        return self._loaded.is_set() and not self._failed

    def _save(self) -> None:
        with self._lock:
            text = json.dumps(self._cache, sort_keys=True)
        done = self.run(self._write, text)
        if not _on_a_loop():  # a thread may wait for the answer, so a failure is not lost
            done.result(self.timeout)

    async def _write(self, text: str) -> None:
        await self.storage.set(KEY, text)

    def get(self, address: str, user: str) -> str | None:
        if self._ready():
            with self._lock:
                found = self._cache.get(self.account(address, user))
            if found is not None:
                return found
        return self.fallback.get(address, user)  # kept there by an older version, or the store failed

    def set(self, address: str, user: str, password: str) -> None:
        if not self._ready():
            self.fallback.set(address, user, password)
            return
        with self._lock:
            self._cache[self.account(address, user)] = password
        self._save()
        self.fallback.delete(address, user)  # one place for it: the secure one

    def delete(self, address: str, user: str) -> None:
        self.fallback.delete(address, user)
        if not self._ready():
            return
        with self._lock:
            gone = self._cache.pop(self.account(address, user), None)
        if gone is not None:
            self._save()


def secure_storage() -> Any | None:
    """A new SecureStorage service, registered with the current page (None where the package is missing)."""
    try:
        from flet_secure_storage import SecureStorage
    except Exception:  # not installed (a build without it): the file is the place
        return None
    return SecureStorage()
