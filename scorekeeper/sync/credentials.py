"""Where the WebDAV password of the sync target is kept: never in the data folder, so never in a backup, an
export or a synced file.

- The packaged app on a phone or tablet (Android, iOS): the phone's secure store (Keystore, Keychain) through
  `flet-secure-storage` (`phone_vault.py`; chosen by `use_page` at the app's start).
- A desktop with a real secret store (the macOS Keychain, the Windows Credential Manager, the Secret Service of
  GNOME or KDE): `keyring`.
- Anywhere else (a server without a desktop session; a phone whose secure store fails): `sync-credentials.json` in the
  user's config folder (platformdirs; on a phone the app's private storage, beside the data folder but not in
  it), created readable and writable by the user only (0600, its folder 0700). A file found readable by others
  is narrowed back to 0600 before it is read.

`SCOREKEEPER_CONFIG` names another config folder (tests, several instances on one machine). The settings keep
only the address and the user name (`sync_target`); the password is looked up by both.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Protocol

import platformdirs

from scorekeeper.store.paths import APP_NAME, ENV_FLET_DATA

log = logging.getLogger(__name__)

ENV_CONFIG = "SCOREKEEPER_CONFIG"
SERVICE = "scorekeeper-sync"
FILE_NAME = "sync-credentials.json"

Where = Literal["keyring", "file", "secure_storage"]


def account(address: str, user: str) -> str:
    """The name a password is kept under: one per server and user ("anna@https://cloud.example/dav")."""
    return f"{user}@{address}"


class Vault(Protocol):
    """A place for passwords."""

    @property
    def where(self) -> Where: ...

    def get(self, address: str, user: str) -> str | None: ...

    def set(self, address: str, user: str, password: str) -> None: ...

    def delete(self, address: str, user: str) -> None: ...


def config_dir() -> Path:
    """SCOREKEEPER_CONFIG, else a packaged app's private storage, else the platform's user config folder."""
    named = os.environ.get(ENV_CONFIG)
    if named:
        return Path(named).expanduser()
    packaged = os.environ.get(ENV_FLET_DATA)
    if packaged:  # the data folder is <this>/scorekeeper: the credentials sit beside it, not in it
        return Path(packaged).expanduser() / "config"
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


class FileVault:
    """Passwords in one JSON file only the user may read (0600, in a 0700 folder)."""

    where: Where = "file"

    def __init__(self, folder: Path | None = None) -> None:
        self.path = (folder or config_dir()) / FILE_NAME
        self._lock = threading.Lock()

    def _read(self) -> dict[str, str]:
        try:
            mode = stat.S_IMODE(self.path.stat().st_mode)
            if mode & 0o077:  # someone made it readable by others: narrow it before reading a secret from it
                log.warning("%s was readable by others; now only by its owner", self.path)
                os.chmod(self.path, 0o600)
            found: Any = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:  # unreadable or damaged: the password is asked for again
            log.warning("the sync credentials could not be read: %s", error)
            return {}
        if not isinstance(found, dict):
            return {}
        return {str(key): value for key, value in found.items() if isinstance(value, str)}

    def _write(self, entries: dict[str, str]) -> None:
        """Write a temp file created 0600 (never wider, not even for a moment), fsync, replace."""
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(OSError):  # a folder made earlier by someone else: ours to narrow if we can
            os.chmod(folder, 0o700)
        tmp = folder / f".{FILE_NAME}.tmp"
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(entries, out, indent=1, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)

    def get(self, address: str, user: str) -> str | None:
        with self._lock:
            return self._read().get(account(address, user))

    def set(self, address: str, user: str, password: str) -> None:
        with self._lock:
            entries = self._read()
            entries[account(address, user)] = password
            self._write(entries)

    def delete(self, address: str, user: str) -> None:
        with self._lock:
            entries = self._read()
            if entries.pop(account(address, user), None) is not None:
                self._write(entries)


class KeyringVault:
    """Passwords in the desktop's secret store, through `keyring`."""

    where: Where = "keyring"

    def __init__(self, backend: Any) -> None:
        self.backend = backend

    def get(self, address: str, user: str) -> str | None:
        value = self.backend.get_password(SERVICE, account(address, user))
        return value if isinstance(value, str) else None

    def set(self, address: str, user: str, password: str) -> None:
        self.backend.set_password(SERVICE, account(address, user), password)

    def delete(self, address: str, user: str) -> None:
        try:
            self.backend.delete_password(SERVICE, account(address, user))
        except Exception:  # keyring.errors.PasswordDeleteError: there was none
            pass


def real_keyring() -> Any:
    """The desktop's keyring backend, or None where keyring has only its placeholders (no Secret Service on a
    headless Linux, a phone): "fail" and "null" backends keep nothing, and a chainer of none is the same."""
    try:
        import keyring
        from keyring.backends import chainer, fail
    except Exception:  # not installed, or a broken backend at import: the file is the place
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:
        return None
    if isinstance(backend, fail.Keyring) or type(backend).__module__.endswith(".null"):
        return None
    if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
        return None
    try:
        if float(backend.priority) <= 0:
            return None
    except Exception:
        return None
    return backend


_vault: Vault | None = None
_vault_lock = threading.Lock()


def vault() -> Vault:
    """The place for passwords on this machine (chosen once per process)."""
    global _vault
    with _vault_lock:
        if _vault is None:
            backend = None if os.environ.get(ENV_CONFIG) else real_keyring()
            _vault = KeyringVault(backend) if backend is not None else FileVault()
        return _vault


def use_page(page: Any, make_storage: Callable[[], Any | None] | None = None) -> Vault | None:
    """Choose the place for passwords of an app with a screen (at its start): the phone's secure store in the
    packaged app on Android or iOS; None elsewhere (`vault()` chooses then: keyring on a desktop, else the
    file). `make_storage` makes the secure-store service (tests give a stand-in)."""
    from scorekeeper.sync import phone_vault

    global _vault
    platform, web = getattr(page, "platform", None), bool(getattr(page, "web", False))
    if not phone_vault.is_phone(platform, web):
        return None
    with _vault_lock:
        if isinstance(_vault, phone_vault.SecureStorageVault):
            return _vault
        try:
            storage = (make_storage or phone_vault.secure_storage)()
            if storage is not None:
                _vault = phone_vault.SecureStorageVault(storage, page.run_task, FileVault(), account)
                return _vault
        except Exception:  # no running session to ask through: the file it is
            log.exception("the phone's secure store could not be used")
    log.warning("flet-secure-storage is missing: the sync password is kept in the app's private file")
    return None


def reset() -> None:
    """Choose again at the next `vault()` (tests that change SCOREKEEPER_CONFIG)."""
    global _vault
    with _vault_lock:
        _vault = None
