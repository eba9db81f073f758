"""The owner's own server as a sync hub (issue 54, server/dav_hub.py): the app served for real (`run(web=True)`)
with the hub on, and the app's own WebDAV client (sync/webdav.py) of a second data folder, a phone, syncing
through `/sync/` with the paired device's token.

- a game with notes, a place and a photo goes from the phone into the server's own data folder (the served app
  syncs with its hub folder by itself), an edit and a deletion made on the server come back;
- only a paired device's token opens the hub: a visitor, a wrong token, a revoked owner device and an unpaired
  member get 401 for every method, and nothing is listed or written;
- a browser page of another origin is answered a CORS preflight for the WebDAV methods and headers, and sees
  the ETag; a Bearer token works as Basic's password does;
- a device writes only the device folder it claimed first: a member cannot write in the owner's phone's name
  nor in the served app's own, and nobody removes `devices/` or the hub's root;
- a body over the limit is refused before it is read; a switched-off hub answers nothing.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from PIL import Image
from sync_support import game

from scorekeeper.model import evening
from scorekeeper.server import dav_devices, dav_hub
from scorekeeper.server import owner_devices as owners
from scorekeeper.store import Store
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.webdav import WebDavTarget
from tests.browser.conftest import served

METHODS = ("GET", "HEAD", "PUT", "DELETE", "PROPFIND", "MKCOL", "MOVE", "COPY", "OPTIONS")
OTHER_ORIGIN = "http://phone-app.example:8000"


def picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1200, 900), (30, 120, 200)).save(out, "JPEG", quality=90)
    return out.getvalue()


@dataclasses.dataclass
class Hub:
    url: str
    data: Path
    owner: str
    member: str
    revoked: str
    unpaired: str


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """The app served with its hub on; an owner device, a member device, and one of each signed out."""
    data = tmp_path_factory.mktemp("hub") / "data"
    data.mkdir()
    dav_hub.switch(data, True)
    owner, _ = owners.devices_of(data).add("phone")
    revoked, gone = owners.devices_of(data).add("lost phone")
    owners.devices_of(data).revoke(gone.id)
    member, _ = owners.members_of(data).add("Ben's phone")
    unpaired, left = owners.members_of(data).add("Cleo's old phone")
    owners.members_of(data).revoke(left.id)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_SYNC_INTERVAL", "1")  # the served app's own sync with its hub folder
        patch.setenv(dav_devices.WRONG_ENV, "100000")  # every wrong token here comes from 127.0.0.1
        with served(data) as url:
            yield Hub(url + "sync/", data, owner, member, revoked, unpaired)


def until(what: Callable[[], Any], timeout: float = 120.0, data: Path | None = None) -> Any:
    """Polls `what` until it gives something true (the served app syncs every second); on a time-out says what
    the served app's sync last did (`data`: its data folder) and what its log says."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.3)  # waiting for the other process's sync, not proving that something did not happen
    said = ""
    if data is not None:
        last = data / "sync" / "last.json"
        said = last.read_text() if last.exists() else "no sync finished"
        said += "".join(log.read_text()[-3000:] for log in data.parent.glob("server-*.log"))
    raise AssertionError(f"never happened: {said}")


def on_server(hub: Hub, look: Callable[[Store], Any]) -> Any:
    """`look` at the server's own data folder (another process sharing the folder, as instances do)."""
    store = Store.open(hub.data)
    try:
        return look(store)
    finally:
        store.close()


def test_a_phones_game_reaches_the_servers_data_and_an_edit_and_a_deletion_come_back(
    hub: Hub, tmp_path: Path
) -> None:
    phone = Store.open(tmp_path / "phone")
    try:
        match = game(phone, rounds=2)
        photo = phone.photos.add(picture())
        phone.change_match(
            match.id,
            lambda m: dataclasses.replace(
                evening.with_place("Club")(evening.with_notes("Anna's birthday")(m)), photos=[photo]
            ),
        )
        with WebDavTarget(hub.url, "device", hub.owner, timeout=10) as target:
            sync_once(phone, target)

            def arrived(store: Store) -> Any:
                found = store.get_match(match.id)
                return found is not None and found.photos and store.photos.path(photo).is_file()

            until(lambda: on_server(hub, arrived), data=hub.data)
            served_photo = on_server(hub, lambda store: store.photos.path(photo).read_bytes())
            assert served_photo == phone.photos.path(photo).read_bytes()
            there = on_server(hub, lambda store: store.get_match(match.id))
            assert (there.notes, there.place, len(there.rounds), there.photos) == (
                "Anna's birthday",
                "Club",
                2,
                [photo],
            )

            on_server(hub, lambda store: store.change_match(match.id, evening.with_notes("Edited")))

            def synced_notes() -> Any:
                sync_once(phone, target)
                found = phone.get_match(match.id)
                return found is not None and found.notes == "Edited"

            until(synced_notes, data=hub.data)
            assert on_server(hub, lambda store: store.delete_match(match.id))

            def deleted() -> bool:
                sync_once(phone, target)
                return phone.get_match(match.id) is None

            until(deleted, data=hub.data)
    finally:
        phone.close()


def test_a_member_device_syncs_too_and_a_bearer_token_is_the_same(hub: Hub) -> None:
    with WebDavTarget(hub.url, "ben", hub.member, timeout=10) as target:
        target.check()
    answer = httpx.request(
        "PROPFIND", hub.url, headers={"Authorization": f"Bearer {hub.member}", "Depth": "1"}, timeout=10
    )
    assert answer.status_code == 207


def _auth(kind: str, hub: Hub) -> dict[str, str]:
    token = {"visitor": "", "wrong": owners.new_token(), "revoked": hub.revoked, "unpaired": hub.unpaired}[
        kind
    ]
    if not token:
        return {}
    return {"Authorization": "Basic " + base64.b64encode(f"device:{token}".encode()).decode()}


@pytest.mark.parametrize("kind", ["visitor", "wrong", "revoked", "unpaired"])
@pytest.mark.parametrize("bearer", [False, True])
def test_no_token_a_wrong_one_a_revoked_device_and_an_unpaired_member_get_nothing(
    hub: Hub, kind: str, bearer: bool
) -> None:
    headers = _auth(kind, hub)
    if bearer and headers:
        token = base64.b64decode(headers["Authorization"].split()[1]).decode().split(":", 1)[1]
        headers = {"Authorization": f"Bearer {token}"}
    for method in METHODS:
        extra = {"Destination": hub.url + f"moved-{kind}", "Depth": "1"}
        answer = httpx.request(
            method, hub.url + f"devices/{kind}/head.json", headers=headers | extra, content=b"{}", timeout=10
        )
        assert answer.status_code == 401, (method, answer.status_code)
        assert b"devices" not in answer.content
    answer = httpx.request("PROPFIND", hub.url, headers=headers | {"Depth": "1"}, timeout=10)
    assert answer.status_code == 401 and b"multistatus" not in answer.content
    # (the served app's own sync writes the hub folder meanwhile: only what these requests named is looked for)
    folder = dav_hub.hub_folder(hub.data)
    assert not (folder / "devices" / kind).exists() and not (folder / f"moved-{kind}").exists()


def test_a_browser_of_another_origin_gets_its_preflight_and_sees_the_etag(hub: Hub) -> None:
    preflight = httpx.request(
        "OPTIONS",
        hub.url + "devices/x/head.json",
        headers={
            "Origin": OTHER_ORIGIN,
            "Access-Control-Request-Method": "PROPFIND",
            "Access-Control-Request-Headers": "authorization, depth, if-match, if-none-match, content-type",
        },
        timeout=10,
    )
    assert preflight.status_code == 204
    allowed = preflight.headers["access-control-allow-methods"]
    assert all(method in allowed for method in ("PROPFIND", "MKCOL", "PUT", "DELETE", "MOVE"))
    asked = {h.strip().lower() for h in preflight.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "depth", "if-match", "if-none-match", "content-type"} <= asked
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert (
        "access-control-allow-credentials" not in preflight.headers
    )  # the token is a header, never a cookie

    bearer = {"Authorization": f"Bearer {hub.owner}", "Origin": OTHER_ORIGIN}
    put = httpx.put(hub.url + "cors-probe.json", headers=bearer, content=b"{}", timeout=10)
    assert put.status_code in (201, 204)
    got = httpx.get(hub.url + "cors-probe.json", headers=bearer, timeout=10)
    assert got.status_code == 200 and got.headers["etag"]
    assert got.headers["access-control-allow-origin"] == "*"
    assert "etag" in got.headers["access-control-expose-headers"].lower()
    httpx.delete(hub.url + "cors-probe.json", headers=bearer, timeout=10)
    # A browser refused is asked for a Bearer token, never Basic (that would open its own login box)
    refused = httpx.get(hub.url, headers={"Origin": OTHER_ORIGIN}, timeout=10)
    assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer")
    assert refused.headers["access-control-allow-origin"] == "*"  # so the page can read the refusal


def test_a_body_over_the_limit_is_refused_before_it_is_read(hub: Hub) -> None:
    """Only the headers are sent (a raw socket: no HTTP client sends less than it declares): the answer comes
    without a byte of the body."""
    parts = urlsplit(hub.url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(
            (
                f"PUT {parts.path}too-big.json HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                f"Authorization: Bearer {hub.owner}\r\nContent-Length: {dav_hub.MAX_BODY_BYTES + 1}\r\n\r\n"
            ).encode()
        )
        status_line = sock.makefile("rb").readline()
    assert status_line.split()[1] == b"413"
    assert not (dav_hub.hub_folder(hub.data) / "too-big.json").exists()


def test_the_rest_of_the_app_keeps_its_same_origin_rules(hub: Hub) -> None:
    answer = httpx.get(hub.url.removesuffix("sync/"), headers={"Origin": OTHER_ORIGIN}, timeout=10)
    assert answer.status_code == 200 and "access-control-allow-origin" not in answer.headers


def test_wrong_tokens_are_limited_per_address_and_a_clean_address_is_never_refused() -> None:
    now = [0.0]
    wrong = dav_devices.WrongTokens(clock=lambda: now[0], per_address=dav_devices.WRONG_PER_ADDRESS)
    for _ in range(dav_devices.WRONG_PER_ADDRESS):
        assert wrong.refused_for("198.51.100.7") == 0
        wrong.wrong("198.51.100.7")
    assert wrong.refused_for("198.51.100.7") > 0
    assert wrong.refused_for("203.0.113.5") == 0  # another address (a paired phone) goes on
    now[0] += dav_devices.WRONG_WINDOW
    assert wrong.refused_for("198.51.100.7") == 0
    for n in range(dav_devices.WRONG_PER_HOST):  # many addresses together: only those that tried are refused
        wrong.wrong(f"10.0.{n // 250}.{n % 250}")
    assert wrong.refused_for("10.0.0.1") > 0
    assert wrong.refused_for("203.0.113.5") == 0


@pytest.mark.parametrize(
    ("header", "token"),
    [
        (None, None),
        ("Bearer abc", "abc"),
        ("Basic " + base64.b64encode(b"device:abc").decode(), "abc"),
        ("Basic " + base64.b64encode(b"abc").decode(), None),  # no colon: no password
        ("Basic !!!", None),
        ("Digest username=x", None),
    ],
)
def test_the_token_is_read_from_basic_or_bearer(header: str | None, token: str | None) -> None:
    assert dav_devices.device_token(header) == token


def test_a_switched_off_hub_answers_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    token, _ = owners.devices_of(data).add("phone")
    with served(data) as url:
        answer = httpx.request(
            "PROPFIND", url + "sync/", headers={"Authorization": f"Bearer {token}", "Depth": "1"}, timeout=10
        )
        assert answer.status_code == 404
        dav_hub.switch(data, True)
        answer = httpx.request(
            "PROPFIND", url + "sync/", headers={"Authorization": f"Bearer {token}", "Depth": "1"}, timeout=10
        )
        assert answer.status_code == 207


def test_an_address_that_sent_too_many_wrong_tokens_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    dav_hub.switch(data, True)
    token, _ = owners.devices_of(data).add("phone")
    monkeypatch.setenv(dav_devices.WRONG_ENV, "3")
    with served(data) as url:
        right = {"Authorization": f"Bearer {token}", "Depth": "0"}
        assert httpx.request("PROPFIND", url + "sync/", headers=right, timeout=10).status_code == 207
        wrong = {"Authorization": f"Bearer {owners.new_token()}", "Depth": "0"}
        for _ in range(3):
            assert httpx.request("PROPFIND", url + "sync/", headers=wrong, timeout=10).status_code == 401
        refused = httpx.request("PROPFIND", url + "sync/", headers=right, timeout=10)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        log = (data.parent / f"server-{url.rstrip('/').rsplit(':', 1)[1]}.log").read_text()
        assert "too many wrong tokens" in log and token not in log


def test_a_device_writes_only_its_own_folder(hub: Hub, tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    try:
        game(phone)
        with WebDavTarget(hub.url, "device", hub.owner, timeout=10) as target:
            sync_once(phone, target)
        phone_id = json.loads((phone.data_dir / "sync" / "device.json").read_bytes())["device"]
    finally:
        phone.close()
    server_id = until(lambda: _server_sync_id(hub), data=hub.data)
    member = {"Authorization": f"Bearer {hub.member}"}
    owner = {"Authorization": f"Bearer {hub.owner}"}
    with httpx.Client(timeout=10) as client:
        assert client.request("MKCOL", hub.url + "devices/ben/", headers=member).status_code == 201
        for folder in (phone_id, server_id):  # the owner's phone's, the served app's own
            head = f"{hub.url}devices/{folder}/head.json"
            assert client.put(head, headers=member, content=b"{}").status_code == 403
            assert client.delete(head, headers=member).status_code == 403
            moved = member | {"Destination": head}
            client.put(hub.url + "devices/ben/x.json", headers=member, content=b"{}")
            assert client.request("MOVE", hub.url + "devices/ben/x.json", headers=moved).status_code == 403
            # the device's own head, never the member's (the served app writes one once it has news)
            kept = client.get(head, headers=owner)
            assert kept.status_code in (200, 404) and kept.content != b"{}"
        assert (
            client.put(hub.url + f"devices/{server_id}/head.json", headers=owner, content=b"{}").status_code
            == 403
        )
        for path in ("", "devices/"):
            assert client.delete(hub.url + path, headers=owner).status_code == 403
        assert client.put(hub.url + "devices/ben/y.json", headers=member, content=b"{}").status_code in (
            201,
            204,
        )
        assert client.delete(hub.url + "devices/ben/y.json", headers=member).status_code in (200, 204)


def _server_sync_id(hub: Hub) -> str | None:
    try:
        return str(json.loads((hub.data / "sync" / "device.json").read_bytes())["device"])
    except (OSError, ValueError, KeyError):
        return None
