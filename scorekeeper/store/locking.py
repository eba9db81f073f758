"""Writes to one data folder happen one at a time: a thread lock shared by every Store object on that folder
in this process, plus an OS lock on `<data>/.lock` against other processes."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

try:  # POSIX
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]  # Windows has no fcntl: None marks it (mypy checks for POSIX)
    import msvcrt

_registry_guard = threading.Lock()
_thread_locks: dict[str, threading.RLock] = {}


def _thread_lock(folder: Path) -> threading.RLock:
    key = os.path.normcase(os.path.realpath(folder))
    with _registry_guard:
        return _thread_locks.setdefault(key, threading.RLock())


def open_lock_file(path: Path) -> int:
    """Open (creating) the lock file; PermissionError / OSError(EROFS) tell the store the folder is read-only."""
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


class FolderLock:
    """Re-entrant within a thread; `with lock.held():` serialises writers across threads, Store objects and
    processes."""

    def __init__(self, lock_file: Path, *, os_lock: bool = True) -> None:
        self._path = lock_file
        self._use_os_lock = os_lock
        """False for a read-only folder: no `.lock` can be created there, and nothing is written anyway."""
        self._rlock = _thread_lock(lock_file.parent)
        self._fd: int | None = None
        self._depth = 0

    def _os_lock(self) -> None:
        if self._fd is None:
            self._fd = open_lock_file(self._path)
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        else:  # pragma: no cover - Windows
            os.lseek(self._fd, 0, os.SEEK_SET)
            msvcrt.locking(self._fd, msvcrt.LK_LOCK, 1)

    def _os_unlock(self) -> None:
        assert self._fd is not None
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        else:  # pragma: no cover - Windows
            os.lseek(self._fd, 0, os.SEEK_SET)
            msvcrt.locking(self._fd, msvcrt.LK_UNLCK, 1)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self._rlock:
            if self._depth == 0 and self._use_os_lock:
                self._os_lock()
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0 and self._use_os_lock:
                    self._os_unlock()

    def close(self) -> None:
        with self._rlock:
            if self._fd is not None and self._depth == 0:
                os.close(self._fd)
                self._fd = None
