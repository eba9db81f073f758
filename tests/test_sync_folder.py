"""FolderTarget: atomic writes, version tags with `expect`, listing, and OS errors as a player's sentence."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.target import SyncError


def test_write_read_and_version_tags(tmp_path: Path) -> None:
    target = FolderTarget(tmp_path)
    assert target.read("devices/a/head.json") is None
    tag = target.write("devices/a/head.json", b"one", expect="")
    assert target.read("devices/a/head.json") == (b"one", tag)
    with pytest.raises(SyncError) as refused:
        target.write("devices/a/head.json", b"two", expect="")  # must not exist yet
    assert refused.value.problem == "changed"
    new_tag = target.write("devices/a/head.json", b"two!", expect=tag)
    assert new_tag != tag
    with pytest.raises(SyncError):
        target.write("devices/a/head.json", b"three", expect=tag)  # stale tag: nothing written
    assert target.read("devices/a/head.json") == (b"two!", new_tag)
    assert target.list("") == ["devices"]
    assert target.list("devices/a") == ["head.json"]
    assert target.list("nowhere") == []
    assert not [name for name in os.listdir(tmp_path / "devices" / "a") if name.startswith(".")]


def test_missing_folder_is_not_found(tmp_path: Path) -> None:
    target = FolderTarget(tmp_path / "stick")
    for call in (target.check, lambda: target.read("x"), lambda: target.write("x", b"")):
        with pytest.raises(SyncError) as error:
            call()
        assert error.value.problem == "not_found"
        assert str(tmp_path / "stick") in str(error.value)


@pytest.mark.parametrize(
    ("code", "problem"),
    [(errno.ENOSPC, "full"), (errno.EROFS, "read_only"), (errno.EACCES, "read_only"), (errno.EIO, "server")],
)
def test_os_errors_become_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, problem: str
) -> None:
    target = FolderTarget(tmp_path)
    target.write("a.json", b"old")

    def refuse(fd: int, data: object) -> int:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "write", refuse)
    with pytest.raises(SyncError) as error:
        target.write("a.json", b"new")
    assert error.value.problem == problem
    monkeypatch.undo()
    assert target.read("a.json")[0] == b"old"  # the old file is whole, no temporary file is left
    assert sorted(os.listdir(tmp_path)) == ["a.json"]


def test_check_proves_writing(tmp_path: Path) -> None:
    FolderTarget(tmp_path).check()
    assert os.listdir(tmp_path) == []
