"""What a WebDAV target says when something goes wrong: every failure is a `SyncError` with the problem a player
can act on and a sentence naming the server, never the password. The server is the real WsgiDAV on loopback;
409, 500, 507 and time-outs come from the fault layer in front of it (tests/sync_servers.py)."""

from __future__ import annotations

import base64
import logging
import shutil
import ssl
import subprocess
import threading
from pathlib import Path

import pytest
from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter
from sync_servers import PASSWORD, DavServer, Fault, free_port

from scorekeeper.bench.store import export_text
from scorekeeper.exchange.transfer import import_json_text
from scorekeeper.store import Store
from scorekeeper.sync import remote
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.target import SyncError
from scorekeeper.sync.webdav import WebDavTarget


def _fails(call, *args, **kwargs) -> SyncError:  # type: ignore[no-untyped-def]
    with pytest.raises(SyncError) as caught:
        call(*args, **kwargs)
    return caught.value


def _secret_forms(password: str) -> list[str]:
    pair = f"player:{password}".encode("latin-1")
    return [password, base64.b64encode(pair).decode(), base64.b64encode(pair).decode()[:12]]


def _assert_no_password(*texts: str) -> None:
    for text in texts:
        for secret in _secret_forms(PASSWORD) + _secret_forms("wrong-Pässword"):
            assert secret not in text


def test_a_wrong_password_is_auth_for_every_operation(webdav_server: DavServer) -> None:
    dav = webdav_server.target(password="wrong-Pässword")
    for call, args in (
        (dav.read, ("a.json",)),
        (dav.write, ("a.json", b"1")),
        (dav.list, ("",)),
        (dav.check, ()),
    ):
        error = _fails(call, *args)
        assert error.problem == "auth", call
        assert str(error) == "The server 127.0.0.1 refused the user name or password."
        assert not error.retry_later


def test_the_password_is_in_no_message_repr_log_or_exception(
    webdav_server: DavServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    good = webdav_server.target(password=PASSWORD)
    bad = webdav_server.target(password="wrong-Pässword")
    with WebDavTarget(webdav_server.url.replace("://", f"://player:{PASSWORD}@") + "sync") as inline:
        assert inline.read("none.json") is None  # the password written into the address still works
        webdav_server.faults.append(Fault(500))
        errors = [_fails(good.read, "x"), _fails(bad.read, "x"), _fails(inline.check)]
        webdav_server.faults.clear()
    errors.append(_fails(bad.check))
    texts = [caplog.text, repr(good), repr(bad), repr(inline), inline.url, inline.name]
    for error in errors:
        assert (
            error.__cause__ is None
        )  # the httpx error (its request holds the Authorization header) is not kept
        texts += [str(error), repr(error), error.detail, repr(error.args)]
    _assert_no_password(*texts)


def test_a_wrong_path_is_not_found_and_never_made(webdav_server: DavServer) -> None:
    wrong = webdav_server.target("no/such/folder")
    for call, args in (
        (wrong.check, ()),
        (wrong.write, ("devices/a/log.json", b"1")),
        (wrong.write, ("x", b"")),
    ):
        error = _fails(call, *args)
        assert error.problem == "not_found"
        assert str(error) == "127.0.0.1 was not found. Check the address."
    assert not (webdav_server.root / "no").exists()


def test_a_folder_removed_on_the_server_is_made_again(webdav_server: DavServer) -> None:
    dav = webdav_server.target()
    dav.write("devices/a/log/1.json", b"1")
    shutil.rmtree(webdav_server.root / "sync" / "devices")
    dav.write("devices/a/log/2.json", b"2")
    assert dav.list("devices/a/log") == ["2.json"]


def test_a_name_that_does_not_exist_is_not_found_and_a_closed_port_is_offline() -> None:
    with WebDavTarget("https://nonexistent.invalid/dav", "u", "p") as unknown:
        assert _fails(unknown.check).problem == "not_found"
    with WebDavTarget(f"http://127.0.0.1:{free_port()}/dav", "u", "p", timeout=5) as closed:
        error = _fails(closed.read, "a.json")
    assert error.problem == "offline" and error.retry_later


def test_an_address_with_a_port_that_is_no_number_is_not_found() -> None:
    error = _fails(WebDavTarget, "https://player:pw@nas.local:50o6/sync")
    assert (error.problem, str(error)) == ("not_found", "nas.local was not found. Check the address.")


def test_a_real_if_match_mismatch_is_changed(webdav_server: DavServer) -> None:
    one, other = webdav_server.target(), webdav_server.target()  # two copies of one device
    tag = one.write("devices/a/log.json", b"[1]", expect="")
    other.write("devices/a/log.json", b"[1, 2]", expect=tag)
    error = _fails(one.write, "devices/a/log.json", b"[1, 3]", expect=tag)
    assert error.problem == "changed" and error.retry_later
    assert "412" in error.detail
    found = one.read("devices/a/log.json")
    assert found is not None and found[0] == b"[1, 2]"


def test_a_read_only_folder_is_read_only(webdav_server: DavServer) -> None:
    error = _fails(webdav_server.target("ro/sync").check)
    assert error.problem == "read_only"
    assert str(error) == "127.0.0.1 can be read but not written to."


@pytest.mark.parametrize(
    ("fault", "problem", "sentence"),
    [
        (Fault(500, "PUT"), "server", "The server 127.0.0.1 had a problem. Sync will try again later."),
        (Fault(503, "GET"), "server", "The server 127.0.0.1 had a problem. Sync will try again later."),
        (Fault(507, "PUT"), "full", "127.0.0.1 has no space left."),
        (Fault(409, "PUT"), "server", "The server 127.0.0.1 had a problem. Sync will try again later."),
        (Fault(401, "PROPFIND"), "auth", "The server 127.0.0.1 refused the user name or password."),
        (Fault(404, "PROPFIND"), "not_found", "127.0.0.1 was not found. Check the address."),
    ],
)
def test_an_injected_status_is_the_right_problem(
    webdav_server: DavServer, fault: Fault, problem: str, sentence: str
) -> None:
    webdav_server.faults.append(fault)
    error = _fails(webdav_server.target().check)
    assert (error.problem, str(error)) == (problem, sentence)
    assert str(fault.status) in error.detail


def test_a_409_for_a_missing_parent_makes_the_folders_and_tries_once_more(webdav_server: DavServer) -> None:
    dav = webdav_server.target()
    dav.write("devices/a/matches/m1.json", b"1")  # the real server answers 409: the parents are made
    assert dav.read("devices/a/matches/m1.json") is not None
    webdav_server.faults.append(Fault(409, "PUT", times=1))  # a 409 once more on a folder that exists
    dav.write("devices/a/matches/m2.json", b"2")
    assert dav.list("devices/a/matches") == ["m1.json", "m2.json"]


def test_no_answer_in_time_is_timeout(webdav_server: DavServer) -> None:
    webdav_server.faults.append(Fault(0, "GET"))
    error = _fails(webdav_server.target(timeout=0.5).read, "a.json")
    assert error.problem == "timeout" and error.retry_later
    assert str(error) == "127.0.0.1 did not answer in time. Sync will try again later."


def test_a_target_that_fills_up_keeps_what_was_written(webdav_server: DavServer) -> None:
    dav = webdav_server.target()
    dav.write("devices/a/log.json", b"old log")
    webdav_server.faults.append(Fault(507, "PUT", after=5))
    written = []
    with pytest.raises(SyncError) as caught:
        for n in range(10):
            dav.write(f"devices/a/matches/m{n}.json", f"match {n}".encode())
            written.append(n)
    assert caught.value.problem == "full" and not caught.value.retry_later
    assert len(written) == 4  # the fifth PUT made the folder (409, MKCOL, PUT): 5 PUTs went through
    error = _fails(dav.write, "devices/a/log.json", b"new log")
    assert error.problem == "full"
    webdav_server.faults.clear()
    for n in written:
        assert dav.read(f"devices/a/matches/m{n}.json") == (
            f"match {n}".encode(),
            dav.read(f"devices/a/matches/m{n}.json")[1],  # type: ignore[index]
        )
    assert dav.list("devices/a/matches") == [f"m{n}.json" for n in written]
    found = dav.read("devices/a/log.json")
    assert found is not None and found[0] == b"old log"


def test_an_untrusted_certificate_is_certificate(tmp_path: Path, webdav_server: DavServer) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    request = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1"]
    subprocess.run(
        [
            *request,
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    server = wsgi.Server(("127.0.0.1", 0), webdav_server.layer)
    server.ssl_adapter = BuiltinSSLAdapter(str(cert), str(key))
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        url = f"https://127.0.0.1:{server.bind_addr[1]}/sync"
        with WebDavTarget(url, "player", PASSWORD, timeout=5) as untrusted:
            error = _fails(untrusted.check)
        assert error.problem == "certificate" and not error.retry_later
        assert str(error) == "The certificate of 127.0.0.1 is not trusted."
        trusted = ssl.create_default_context(cafile=str(cert))
        with WebDavTarget(url, "player", PASSWORD, timeout=5, verify=trusted) as same:
            same.check()  # the same server, trusted
    finally:
        server.stop()
        thread.join(10)


def test_a_sync_cut_by_a_full_or_failing_server_loses_nothing_and_the_next_one_completes(
    webdav_server: DavServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole syncs (synccore's sync_once) through the real server: cut after the first log chunk (507 for the
    rest), then on the head (500), then by a time-out reading another device's head; each time the stores
    are as before, and once the server is well again everything arrives."""
    one, other = Store.open(tmp_path / "one"), Store.open(tmp_path / "other")
    monkeypatch.setattr(remote, "CHUNK_ENTRIES", 10)
    import_json_text(one, export_text(25, rounds=3))  # three log chunks (with the players)
    before = {summary.id for summary in one.list_matches()}
    webdav_server.faults.append(Fault(507, "PUT", path="/log/", after=2))  # one chunk (409, then PUT) goes
    assert _fails(sync_once, one, webdav_server.target()).problem == "full"
    dav = webdav_server.target()
    (device,) = dav.list("devices")
    assert len(dav.list(f"devices/{device}/log")) == 1 and dav.read(f"devices/{device}/head.json") is None
    webdav_server.faults[:] = [Fault(500, "PUT", path="head.json")]
    assert _fails(sync_once, one, webdav_server.target()).problem == "server"
    assert {summary.id for summary in one.list_matches()} == before
    webdav_server.faults.clear()
    sync_once(other, webdav_server.target())
    assert other.list_matches() == []  # no head yet: the chunks written so far are not read
    sync_once(one, webdav_server.target())
    webdav_server.faults.append(Fault(0, "GET", path="head.json", times=1))
    assert _fails(sync_once, other, webdav_server.target(timeout=0.5)).problem == "timeout"
    assert other.list_matches() == []
    sync_once(other, webdav_server.target())
    assert {summary.id for summary in other.list_matches()} == before
    one.close()
    other.close()
