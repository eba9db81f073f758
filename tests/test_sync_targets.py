"""The `Target` contract, run over every kind of target: a folder, and a real WebDAV server (WsgiDAV on loopback,
and once over `rclone serve webdav`). Read, write with and without an expected version tag, list, check, names
with spaces and other scripts, and a reader that never sees half a file."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sync_servers import rclone_server, wsgidav_server

from scorekeeper.sync.folder import FolderTarget
from scorekeeper.sync.target import SyncError, Target
from scorekeeper.sync.targets import target_from
from scorekeeper.sync.webdav import WebDavTarget


@pytest.fixture(params=["folder", "webdav"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Target]:
    if request.param == "folder":
        (tmp_path / "sync").mkdir()
        yield FolderTarget(tmp_path / "sync")
        return
    # a generous time-out: the server shares this process's interpreter with the test's threads, and on a
    # loaded machine a 900 KB read may take more than the usual 5 s (what a time-out does is tested elsewhere)
    with wsgidav_server(tmp_path) as server, server.target(timeout=30.0) as dav:
        yield dav


def test_a_missing_file_reads_as_none_and_a_written_one_reads_back_with_its_tag(target: Target) -> None:
    assert target.read("devices/a/log.json") is None
    tag = target.write("devices/a/log.json", b'{"n": 1}')
    assert target.read("devices/a/log.json") == (b'{"n": 1}', tag)


def test_expect_empty_writes_only_a_new_file(target: Target) -> None:
    tag = target.write("devices/a/log.json", b"first", expect="")
    with pytest.raises(SyncError) as caught:
        target.write("devices/a/log.json", b"second", expect="")
    assert caught.value.problem == "changed"
    assert target.read("devices/a/log.json") == (b"first", tag)


def test_expect_a_tag_writes_only_over_that_version(target: Target) -> None:
    first = target.write("log.json", b"one", expect="")
    second = target.write("log.json", b"two!", expect=first)
    assert second != first
    with pytest.raises(SyncError) as caught:  # another copy wrote since `first` was read
        target.write("log.json", b"three", expect=first)
    assert caught.value.problem == "changed"
    assert caught.value.retry_later
    assert target.read("log.json") == (b"two!", second)
    assert target.write("log.json", b"four", expect=None) != second  # None: no check


def test_every_write_of_the_same_size_gets_a_new_tag(target: Target) -> None:
    tags = [target.write("same.json", bytes([65 + n]) * 10) for n in range(5)]
    assert len(set(tags)) == 5
    with pytest.raises(SyncError):
        target.write("same.json", b"x" * 10, expect=tags[0])


def test_list_names_what_is_directly_under_a_folder(target: Target) -> None:
    assert target.list("devices") == []
    target.write("devices/a/log.json", b"1")
    target.write("devices/a/matches/m1.json", b"2")
    target.write("devices/b/log.json", b"3")
    assert target.list("devices") == ["a", "b"]
    assert target.list("devices/a") == ["log.json", "matches"]
    assert target.list("devices/a/matches") == ["m1.json"]
    assert "devices" in target.list("")
    assert target.list("devices/nobody") == []


def test_names_with_spaces_and_other_scripts_keep_their_spelling(target: Target) -> None:
    names = ["Spieleabend am Fluss.json", "Zoë & Jürgen #2.json", "ゲーム 100%.json", "a+b=c?.json"]
    for index, name in enumerate(names):
        target.write(f"devices/Küche Tablet/{name}", str(index).encode())
    assert target.list("devices") == ["Küche Tablet"]
    assert target.list("devices/Küche Tablet") == sorted(names)
    for index, name in enumerate(names):
        found = target.read(f"devices/Küche Tablet/{name}")
        assert found is not None and found[0] == str(index).encode()


def test_check_proves_read_and_write_and_leaves_nothing_behind(target: Target) -> None:
    target.write("kept.json", b"1")
    target.check()
    assert target.list("") == ["kept.json"]


def test_a_reader_never_sees_half_a_file(target: Target) -> None:
    """Two large versions written in turn while another thread reads: every read is one whole version."""
    versions = [b"a" * 600_000, b"b" * 900_000]
    target.write("big.json", versions[0])
    done = threading.Event()
    errors: list[BaseException] = []

    def write() -> None:
        try:
            for turn in range(12):
                target.write("big.json", versions[turn % 2])
        except BaseException as error:
            errors.append(error)
        finally:
            done.set()

    writer = threading.Thread(target=write)
    writer.start()
    reads = 0
    while not done.is_set() or reads < 3:
        found = target.read("big.json")
        assert found is not None and found[0] in versions, (
            f"a torn read of {len(found[0]) if found else 0} bytes"
        )
        reads += 1
    writer.join()
    assert not errors


def test_target_from_tells_a_server_from_a_folder(tmp_path: Path) -> None:
    dav = target_from("https://cloud.example.org/remote.php/dav/files/me/Scorekeeper", "me", "pw")
    assert isinstance(dav, WebDavTarget) and dav.name == "cloud.example.org"
    assert isinstance(target_from("DAVS://nas.local:5006/sync"), WebDavTarget)
    folder = target_from(f"  {tmp_path}  ")
    assert isinstance(folder, FolderTarget) and folder.root == tmp_path
    assert isinstance(target_from("~/Sync/Scorekeeper"), FolderTarget)


def test_rclone_serve_webdav_works_with_the_client(tmp_path: Path) -> None:
    """The same client against another real server (Debian's rclone): read, write, list, check, odd names.
    (rclone 1.60 ignores If-Match and If-None-Match: there only the guard against a second copy of the same
    device id is gone; each device still writes only its own files.)"""
    with rclone_server(tmp_path) as server, server.target() as dav:
        assert dav.read("devices/a/log.json") is None
        tag = dav.write("devices/a/Zoë & Jürgen 100%.json", b"{}", expect="")
        assert dav.read("devices/a/Zoë & Jürgen 100%.json") == (b"{}", tag)
        assert dav.list("devices/a") == ["Zoë & Jürgen 100%.json"]
        dav.check()
        assert dav.list("") == ["devices"]
        with pytest.raises(SyncError) as caught:
            server.target(password="wrong").check()
        assert caught.value.problem == "auth"


PATHS = ["log.json", "devices/Zoë/head.json", "devices/Zoë/log/0000000001 a.json", "devices/b/ゲーム.json"]
OPS = st.lists(
    st.tuples(
        st.sampled_from(["write", "read"]),
        st.integers(0, len(PATHS) - 1),
        st.binary(max_size=40),
        st.sampled_from(["none", "current", "new", "stale"]),
    ),
    max_size=25,
)


def _replay(target: Target, ops: list[tuple[str, int, bytes, str]]) -> None:
    """Random writes with every kind of `expect` and reads, checked against a model of the files."""
    files: dict[str, tuple[bytes, str]] = {}
    old_tags: dict[str, list[str]] = {path: [] for path in PATHS}
    for op, index, data, expect_kind in ops:
        path = PATHS[index]
        if op == "read":
            assert target.read(path) == files.get(path)
            continue
        current = files.get(path)
        expect = {
            "none": None,
            "current": current[1] if current else "",
            "new": "",
            "stale": old_tags[path][0] if old_tags[path] else "",
        }[expect_kind]
        should_work = expect is None or expect == (current[1] if current else "")
        if should_work:
            tag = target.write(path, data, expect=expect)
            assert tag not in old_tags[path]
            if current:
                old_tags[path].append(current[1])
            files[path] = (data, tag)
        else:
            with pytest.raises(SyncError) as caught:
                target.write(path, data, expect=expect)
            assert caught.value.problem == "changed"
    for path in PATHS:
        assert target.read(path) == files.get(path)
    assert target.list("") == sorted({path.split("/")[0] for path in files})


@pytest.mark.parametrize("kind", ["folder", "webdav"])
def test_random_writes_and_reads_follow_the_contract(kind: str, tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        if kind == "webdav":
            server = stack.enter_context(wsgidav_server(tmp_path / "server", folders=()))
        runs = itertools.count()

        @settings(max_examples=20, deadline=None)
        @given(OPS)
        def check(ops: list[tuple[str, int, bytes, str]]) -> None:
            folder = f"run{next(runs)}"
            if kind == "folder":
                (tmp_path / folder).mkdir()
                _replay(FolderTarget(tmp_path / folder), ops)
                return
            (server.root / folder).mkdir()
            with server.target(folder) as dav:
                _replay(dav, ops)

        check()
