"""A folder as sync target: a folder that a sync tool (Syncthing, a desktop cloud client) keeps in step, or a
USB stick. Each write goes to a temporary file beside the real one, is flushed, and replaces it in one step,
so a reader (or the sync tool) never sees half a file. The version tag is the file's size and modification
time in nanoseconds: a second writer of the same file changes it."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path

from scorekeeper.store.storage import fsync_dir
from scorekeeper.sync.target import Problem, SyncError

PROBE = ".scorekeeper-probe"
"""The probe file's name, made unique per check: two devices checking one folder at once never remove each
other's."""
TMP_MARK = ".tmp-"


def _problem(error: OSError) -> Problem:
    if error.errno == errno.ENOSPC or error.errno == getattr(errno, "EDQUOT", -1):
        return "full"
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "read_only"
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return "not_found"
    return "server"


def _tag(stat: os.stat_result) -> str:
    return f"{stat.st_size}-{stat.st_mtime_ns}"


class FolderTarget:
    """`Target` over a local folder (see target.py). The folder itself must exist: a missing root is
    "not_found" (a USB stick that is not plugged in), never silently created elsewhere."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.root = Path(path).expanduser()
        self.name = str(self.root)

    def _path(self, relative: str) -> Path:
        parts = [part for part in relative.split("/") if part]
        if any(part in (".", "..") or "\\" in part for part in parts):
            raise ValueError(f"not a relative target path: {relative!r}")
        return self.root.joinpath(*parts)

    def _error(self, error: OSError) -> SyncError:
        problem = _problem(error)
        if problem != "not_found" and not self.root.is_dir():
            problem = "not_found"
        return SyncError(problem, self.name, f"{type(error).__name__}: {error}")

    def _need_root(self) -> None:
        if not self.root.is_dir():
            raise SyncError("not_found", self.name, "no such folder")

    def read(self, path: str) -> tuple[bytes, str] | None:
        self._need_root()
        file = self._path(path)
        try:
            with file.open("rb") as handle:
                stat = os.fstat(handle.fileno())
                return handle.read(), _tag(stat)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as error:
            raise self._error(error) from error

    def _current_tag(self, file: Path) -> str:
        try:
            return _tag(os.stat(file))
        except FileNotFoundError:
            return ""

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        self._need_root()
        file = self._path(path)
        if expect is not None and self._current_tag(file) != expect:
            raise SyncError("changed", self.name, f"{path}: version tag differs from {expect!r}")
        tmp = file.with_name(f".{file.name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, file)
            fsync_dir(file.parent)
            return _tag(os.stat(file))
        except OSError as error:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise self._error(error) from error

    def list(self, folder: str) -> list[str]:
        self._need_root()
        try:
            return sorted(
                entry.name
                for entry in os.scandir(self._path(folder))
                if not (entry.name.startswith(".") and TMP_MARK in entry.name)
            )
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as error:
            raise self._error(error) from error

    def check(self) -> None:
        self._need_root()
        probe = f"{PROBE}-{secrets.token_hex(6)}"
        self.write(probe, b"probe")
        try:
            os.unlink(self._path(probe))
        except OSError as error:
            raise self._error(error) from error
