"""The browser's sync (sync/fetched.py, sync/dav_fetch.py) on the host, against the real WsgiDAV on loopback, with
httpx standing in for the browser's fetch:

- `DavClient` keeps the `Target` contract of every other target (the contract tests of test_sync_targets.py,
  run here over it);
- a phone that syncs by fetching ahead, syncing in memory and pushing exchanges games with a laptop that syncs
  with the WebDAV target as the served app does: a game with its notes, place and photo goes both ways, an edit
  and a deletion travel, and a sync with nothing new asks only for the heads again (answered 304);
- a push cut anywhere (the log part, the photo, the head) loses nothing: the other device gets everything at
  the next sync, and the state says "not sent" until then.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import test_sync_targets as contract
from fetched_support import BlockingDav, Phone, client_for, run
from sync_servers import DavServer, Fault, wsgidav_server
from sync_support import game
from test_sync_photos import picture

from scorekeeper.store import Store
from scorekeeper.sync.dav_fetch import CrossOriginRefused, DavClient, NoAnswer
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.target import SyncError, Target


@pytest.fixture
def target(tmp_path: Path) -> Iterator[Target]:
    with wsgidav_server(tmp_path) as server:
        yield BlockingDav(client_for(server))


# The contract every target keeps, over the fetch client (collected here with the fixture above).
test_a_missing_file_reads_as_none = (
    contract.test_a_missing_file_reads_as_none_and_a_written_one_reads_back_with_its_tag
)
test_expect_empty_writes_only_a_new_file = contract.test_expect_empty_writes_only_a_new_file
test_expect_a_tag_writes_only_over_that_version = contract.test_expect_a_tag_writes_only_over_that_version
test_every_write_gets_a_new_tag = contract.test_every_write_of_the_same_size_gets_a_new_tag
test_list_names_what_is_directly_under = contract.test_list_names_what_is_directly_under_a_folder
test_names_keep_their_spelling = contract.test_names_with_spaces_and_other_scripts_keep_their_spelling
test_check_leaves_nothing_behind = contract.test_check_proves_read_and_write_and_leaves_nothing_behind
test_a_reader_never_sees_half_a_file = contract.test_a_reader_never_sees_half_a_file


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    phone, laptop = Store.open(tmp_path / "phone"), Store.open(tmp_path / "laptop")
    yield phone, laptop
    phone.close()
    laptop.close()


def test_a_game_with_notes_place_and_photo_goes_from_the_phone_and_back(
    webdav_server: DavServer, stores: tuple[Store, Store]
) -> None:
    phone_store, laptop = stores
    phone = Phone(phone_store, client_for(webdav_server))
    match = game(phone_store, rounds=2)
    photo = phone_store.photos.add(picture((200, 30, 30)))
    phone_store.change_match(
        match.id, lambda m: dataclasses.replace(m, photos=[photo], notes="Kept offline", place="Café")
    )
    report = phone.sync()
    assert report.sent > 0
    with webdav_server.target() as dav:
        sync_once(laptop, dav)
        got = laptop.get_match(match.id)
        assert got is not None and (got.notes, got.place, got.photos) == ("Kept offline", "Café", [photo])
        assert got.rounds == phone_store.get_match(match.id).rounds  # type: ignore[union-attr]
        assert laptop.photos.image(photo) == phone_store.photos.image(photo)

        # An edit on the laptop reaches the phone, and a photo of the laptop's own game comes with it.
        laptop.change_match(match.id, lambda m: dataclasses.replace(m, notes="Ben won the rematch"))
        other = game(laptop, rounds=1, seed=7)
        shot = laptop.photos.add(picture((30, 30, 200)))
        laptop.change_match(other.id, lambda m: dataclasses.replace(m, photos=[shot]))
        sync_once(laptop, dav)
        brought = phone.sync()
        assert brought.new == 1 and brought.changed == 1
        assert phone_store.get_match(match.id).notes == "Ben won the rematch"  # type: ignore[union-attr]
        assert phone_store.photos.image(shot) == laptop.photos.image(shot)

        # A deletion on the phone reaches the laptop; one on the laptop reaches the phone.
        phone_store.delete_match(match.id)
        phone.sync()
        sync_once(laptop, dav)
        assert laptop.get_match(match.id) is None
        laptop.delete_match(other.id)
        sync_once(laptop, dav)
        phone.sync()
        assert phone_store.get_match(other.id) is None


def test_a_sync_with_nothing_new_asks_only_for_the_heads_again(
    webdav_server: DavServer, stores: tuple[Store, Store]
) -> None:
    phone_store, laptop = stores
    phone = Phone(phone_store, client_for(webdav_server))
    game(phone_store)
    game(laptop, seed=2)
    with webdav_server.target() as dav:
        sync_once(laptop, dav)
    phone.sync()
    phone.sync()  # its own head as written: the first conditional read
    before = dataclasses.replace(phone.client.counts)
    phone.sync()
    requests = phone.client.counts.requests - before.requests
    # its own head and the laptop's (both 304), the list of devices: nothing else goes over the wire
    assert requests == 3, requests
    assert phone.client.counts.received - before.received < 2_000


@pytest.mark.parametrize("cut", ["/log/", "/photos/", "head.json"])
def test_a_push_cut_short_loses_nothing(
    webdav_server: DavServer, stores: tuple[Store, Store], cut: str
) -> None:
    phone_store, laptop = stores
    phone = Phone(phone_store, client_for(webdav_server, timeout=5.0))
    phone.sync()  # the phone known to the target already: the cut is in an ordinary sync
    match = game(phone_store, rounds=3)
    photo = phone_store.photos.add(picture((10, 160, 40)))
    phone_store.change_match(match.id, lambda m: dataclasses.replace(m, photos=[photo], notes="first"))
    state = phone_store.data_dir / "sync" / "state.json"
    webdav_server.faults.append(Fault(503, "PUT", path=cut, times=1))
    with pytest.raises(SyncError) as caught:
        phone.sync()
    assert caught.value.retry_later
    sent = json.loads(state.read_bytes())["targets"]
    assert all(f"m:{match.id}" not in t["sent"] for t in sent.values())  # still "not sent"
    with webdav_server.target() as dav:
        if cut == "head.json":  # the files before the head are there, but no head names them yet
            sync_once(laptop, dav)
            assert laptop.get_match(match.id) is None
        phone.sync()
        sync_once(laptop, dav)
    got = laptop.get_match(match.id)
    assert got is not None and got.notes == "first" and len(got.rounds) == 3
    assert laptop.photos.image(photo) == phone_store.photos.image(photo)


def test_a_fetch_that_fails_before_the_push_changes_nothing_here(
    webdav_server: DavServer, stores: tuple[Store, Store]
) -> None:
    phone_store, laptop = stores
    with webdav_server.target() as dav:
        game(laptop)
        sync_once(laptop, dav)
    phone = Phone(phone_store, client_for(webdav_server, timeout=5.0))
    webdav_server.faults.append(Fault(500, "GET", path="/log/", times=1))
    with pytest.raises(SyncError):
        phone.sync()
    assert phone_store.list_matches() == []
    phone.sync()
    assert len(phone_store.list_matches()) == 1


def test_a_server_that_refuses_the_origin_says_what_to_change() -> None:
    async def refused(method: str, url: str, headers: dict[str, str], body: bytes | None):  # type: ignore[no-untyped-def]
        raise NoAnswer("cross_origin", "TypeError: Failed to fetch")

    client = DavClient("https://nas.local:5006/scorekeeper", refused, origin="https://phone.example")
    with pytest.raises(CrossOriginRefused) as caught:
        run(client.check())
    text = str(caught.value)
    assert "nas.local" in text and "--allow-origin https://phone.example" in text
    assert not caught.value.retry_later
    hub = DavClient("https://home.example/sync/", refused, hub=True)
    with pytest.raises(CrossOriginRefused) as caught:
        run(hub.list("devices"))
    assert "your server's own address" in str(caught.value)
