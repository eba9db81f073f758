"""Sync over an asynchronous fetch (the static build: Python in the browser's worker, which also runs the
screens), with the engine unchanged: `sync_fetched` fetches, then syncs in memory, then pushes.

1. **Fetch** (awaited, yielding between requests): this device's head, the target's identity when the engine
   will need it, the list of devices and their heads (a head still as held from the last sync costs a 304),
   the log chunks the engine will read (those after the position read there last, `TargetState.seen`, and the
   older-chunks files leading to them), and the photos the engine will look for (named by those chunks or
   still wanted, found by listing the devices' photo folders). All of it goes into `Staged`, a `Target` in
   memory.
2. **Sync**: `engine.sync_once` against `Staged`, as against any target (fast, local). A read or listing that
   step 1 did not foresee raises `Unstaged` (a SyncError, so the engine stops as at a network failure, nothing
   is lost): it is fetched and the sync runs again, at most `RUNS` times.
3. **Push** (awaited): the engine's writes, in its order (photos, log parts, the head last), each with its
   version tag (`If-Match` for the head, the tag read in step 1). The head is written last, so another device
   sees nothing of this sync until all of it is there.

A push cut short (the network gone, the server full, another copy of this device) leaves the local sync state
as it was before the engine's first write: `sync/state.json` as the engine saved it after merging (what came
in is kept; what went out is "not sent"), the photos not pushed removed from what `sync/photos.json` says the
target has, and the records not pushed no longer counted as passed on (`sync/held.json`). The next sync sends
them again: exactly what the engine's own SyncError at that write would have left.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.store import Store
from scorekeeper.store.photos import PHOTO_SUFFIX, photo_ids_of
from scorekeeper.store.storage import atomic_write_bytes, dumps
from scorekeeper.sync import identity, remote
from scorekeeper.sync.dav_fetch import SAME, DavClient
from scorekeeper.sync.engine import Progress, sync_once
from scorekeeper.sync.held import FILE as HELD_FILE
from scorekeeper.sync.photos import STATE_FILE as PHOTOS_FILE
from scorekeeper.sync.report import SyncReport
from scorekeeper.sync.state import PREFIX, SyncState, TargetState
from scorekeeper.sync.target import SyncError

RUNS = 4
"""Engine runs per sync at most (one more after each read step 1 did not foresee)."""


class Unstaged(SyncError):
    """The engine asked for a file or a listing that was not fetched ahead."""

    def __init__(self, name: str, path: str, listing: bool) -> None:
        super().__init__("server", name, f"not fetched ahead: {path}")
        self.path, self.listing = path, listing


@dataclass
class Remote:
    """What was fetched from the target: files (bytes, tag), files known to be absent, folder listings.
    Kept between syncs for the heads and the identity (`held`): their tags make the next reads conditional."""

    files: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    absent: set[str] = field(default_factory=set)
    listings: dict[str, list[str]] = field(default_factory=dict)
    checked: bool = False
    held: dict[str, tuple[bytes, str]] = field(default_factory=dict)

    async def get(self, client: DavClient, path: str) -> tuple[bytes, str] | None:
        if path in self.files:
            return self.files[path]
        if path in self.absent:
            return None
        before = self.held.get(path)
        got = await client.read(path, before[1] if before else None)
        if got is SAME and before is not None:
            got = before
        if got is None:
            self.absent.add(path)
            self.held.pop(path, None)
        else:
            self.files[path] = got
            if _kept(path):
                self.held[path] = got
        return got

    async def listing(self, client: DavClient, folder: str) -> list[str]:
        if folder not in self.listings:
            self.listings[folder] = await client.list(folder)
        return self.listings[folder]

    def new_round(self) -> None:
        """Forget what a sync fetched, keeping the heads and the identity for conditional reads."""
        self.files, self.absent, self.listings, self.checked = {}, set(), {}, False


def _kept(path: str) -> bool:
    return path == identity.IDENTITY or path.endswith("/head.json")


@dataclass
class Write:
    path: str
    data: bytes
    expect: str | None
    tag: str


class Staged:
    """The `Target` the engine runs against: what `Remote` holds, with the engine's writes kept for the push."""

    def __init__(self, remote_: Remote, name: str, url: str, first_write: Callable[[], None]) -> None:
        self.remote, self.name, self.url = remote_, name, url
        self.writes: list[Write] = []
        self._files: dict[str, tuple[bytes, str]] = {}
        self._first_write: Callable[[], None] | None = first_write

    def read(self, path: str) -> tuple[bytes, str] | None:
        if path in self._files:
            return self._files[path]
        if path in self.remote.files:
            return self.remote.files[path]
        if path in self.remote.absent:
            return None
        raise Unstaged(self.name, path, listing=False)

    def write(self, path: str, data: bytes, expect: str | None = None) -> str:
        if expect is not None:
            now = self.read(path)  # Unstaged when not fetched ahead
            if (now[1] if now else "") != expect:
                raise SyncError("changed", self.name, f"{path}: version tag differs")
        if self._first_write is not None and path.startswith("devices/"):
            self._first_write()  # the state the engine saved after merging: restored if the push fails
            self._first_write = None
        tag = f"staged-{len(self.writes)}"
        self.writes.append(Write(path, data, expect, tag))
        self._files[path] = (data, tag)
        folder, _, file = path.rpartition("/")
        listed = self.remote.listings.get(folder)
        if listed is not None and file not in listed:
            listed.append(file)
        return tag

    def list(self, folder: str) -> list[str]:
        folder = folder.strip("/")
        if folder not in self.remote.listings:
            raise Unstaged(self.name, folder, listing=True)
        return sorted(self.remote.listings[folder])

    def check(self) -> None:
        if not self.remote.checked:
            raise Unstaged(self.name, "", listing=False)


async def sync_fetched(
    store: Store,
    client: DavClient,
    remote_: Remote | None = None,
    progress: Progress | None = None,
    engine_running: Callable[[bool], None] | None = None,
) -> SyncReport:
    """One sync of `store` with the WebDAV folder `client` reaches (see the module's docstring). `remote_`
    kept between syncs makes the heads' reads conditional; `engine_running(True/False)` brackets the engine's
    run (the store changes made meanwhile are the sync's own). Raises SyncError (nothing lost then)."""
    remote_ = remote_ if remote_ is not None else Remote()
    remote_.new_round()
    await fetch_ahead(store, client, remote_)
    for _ in range(RUNS):
        snapshot: dict[str, bytes | None] = {}
        staged = Staged(remote_, client.name, client.url, _keeper(snapshot, store.data_dir))
        if engine_running is not None:
            engine_running(True)
        try:
            report = sync_once(store, staged, progress)
        except Unstaged as missing:
            await _fetch_missing(client, remote_, missing)
            continue
        finally:
            if engine_running is not None:
                engine_running(False)
        await push(store, client, remote_, staged, snapshot)
        return report
    raise SyncError("server", client.name, "the files a sync needs kept changing")


async def _fetch_missing(client: DavClient, remote_: Remote, missing: Unstaged) -> None:
    if missing.listing:
        await remote_.listing(client, missing.path)
    elif missing.path == "":
        await client.check()
        remote_.checked = True
    else:
        await remote_.get(client, missing.path)


async def fetch_ahead(store: Store, client: DavClient, remote_: Remote) -> None:
    """Step 1: fetch what the engine will read (a foreseen subset; anything else comes as `Unstaged`)."""
    state = SyncState.load(store.data_dir)
    me = state.device
    own = _head(await remote_.get(client, remote.head_path(me)), me)
    if own is None:
        await client.check()
        remote_.checked = True
    here = identity.same(state, Staged(remote_, client.name, client.url, lambda: None), own)
    again = False  # the engine will send everything again and list the photo folders
    if here is None:
        key = await _identity(client, remote_)
        here = state.targets.get(key)
        again = here is None or here.head > (own.seq if own else 0)
    devices = [d for d in await remote_.listing(client, "devices") if d.isalnum()]
    named: set[str] = set()
    others_want: set[str] = set()
    for device in devices:
        if device == me:
            continue
        head = _head(await remote_.get(client, remote.head_path(device)), device)
        if head is None:
            continue
        others_want.update(head.wants)
        if dict(head.lost).get(me) is not None:
            again = True
        named |= await _new_entries(client, remote_, head, here)
    photos = store.photos
    wanted = {p for p in _wanted(state.folder) | named if not photos.has(p)}
    if wanted or again:
        for device in sorted(devices):  # as photos.py looks: the first device holding a photo gives it
            if device != me or again:
                names = await remote_.listing(client, f"devices/{device}/photos")
                for name in sorted(names):
                    photo = name.removesuffix(PHOTO_SUFFIX)
                    if photo in wanted and device != me:
                        await remote_.get(client, f"devices/{device}/photos/{name}")
                        wanted.discard(photo)
    if again or any(photos.has(p) for p in others_want):
        await remote_.listing(client, f"devices/{me}/photos")
        await remote_.listing(client, f"devices/{me}/log")


async def _identity(client: DavClient, remote_: Remote) -> str:
    """The target's identity, made now when it has none (identity.read_or_make, awaited)."""
    got = await remote_.get(client, identity.IDENTITY)
    found = identity.parse(got[0]) if got is not None else None
    if found is not None:
        return found
    import secrets

    made = secrets.token_hex(8)
    try:
        await client.write(identity.IDENTITY, identity.identity_bytes(made), expect=got[1] if got else "")
    except SyncError as error:
        if error.problem != "changed":
            raise
    remote_.files.pop(identity.IDENTITY, None)
    remote_.absent.discard(identity.IDENTITY)
    remote_.held.pop(identity.IDENTITY, None)
    again = await remote_.get(client, identity.IDENTITY)
    return (identity.parse(again[0]) if again is not None else None) or made


async def _new_entries(
    client: DavClient, remote_: Remote, head: remote.Head, here: TargetState | None
) -> set[str]:
    """Fetch the chunks of `head`'s device after the position read last (as `Run._new_chunks` follows
    them); the photo ids their matches name."""
    seen = here.seen.get(head.device, 0) if here is not None else 0
    found = [c for c in head.chunks if c.last > seen]
    listed, older = head.chunks, head.older
    while older and (not listed or min(c.first for c in listed) > seen + 1):
        got = await remote_.get(client, f"devices/{head.device}/{older}")
        if got is None:
            break
        try:
            listed, older = remote.parse_older(got[0], head.device)
        except remote.RemoteProblem:
            break
        found += [c for c in listed if c.last > seen]
    named: set[str] = set()
    for chunk in found:
        for file in chunk.files:
            got = await remote_.get(client, f"devices/{head.device}/{file}")
            if got is None:
                continue
            try:
                entries, _ = remote.parse_chunk(got[0], head.device)
            except remote.RemoteProblem:
                continue
            for entry in entries:
                if entry.kind == "match" and entry.data and entry.seq > seen:
                    named |= set(photo_ids_of(entry.data))
    return named


async def push(
    store: Store, client: DavClient, remote_: Remote, staged: Staged, snapshot: dict[str, Any]
) -> None:
    """Step 3: the engine's writes in order; on a failure the local state is put back (module docstring)."""
    tags: dict[str, str] = {}
    for done, write in enumerate(staged.writes):
        expect = tags.get(write.expect, write.expect) if write.expect else write.expect
        try:
            tag = await client.write(write.path, write.data, expect)
        except SyncError:
            _restore(store.data_dir, snapshot, staged.writes[done:], client.url)
            remote_.held.pop(write.path, None)
            raise
        tags[write.tag] = tag
        if _kept(write.path):
            remote_.held[write.path] = (write.data, tag)


def _keeper(snapshot: dict[str, bytes | None], data_dir: Path) -> Callable[[], None]:
    """What `Staged` calls at the engine's first write: keeps the sync state as the engine saved it then."""
    return lambda: snapshot.update(_snapshot(data_dir))


def _snapshot(data_dir: Path) -> dict[str, bytes | None]:
    folder = data_dir / "sync"
    try:
        return {"state.json": (folder / "state.json").read_bytes()}
    except FileNotFoundError:
        return {"state.json": None}


def _restore(data_dir: Path, snapshot: dict[str, Any], unsent: list[Write], address: str) -> None:
    """The sync state as before the engine's first write, keeping what came in (module docstring)."""
    folder = data_dir / "sync"
    before = snapshot.get("state.json")
    if before is not None:
        atomic_write_bytes(folder / "state.json", before)
    photos = {w.path.rpartition("/")[2].removesuffix(PHOTO_SUFFIX) for w in unsent if "/photos/" in w.path}
    doc = _read(folder / PHOTOS_FILE)
    there = doc.get("there")
    if photos and isinstance(there, dict):
        doc["there"] = {k: [p for p in v if p not in photos] for k, v in there.items() if isinstance(v, list)}
        atomic_write_bytes(folder / PHOTOS_FILE, dumps(doc))
    keys = set()
    for write in unsent:
        if "/log/" in write.path and "/log/older-" not in write.path:
            try:
                entries, _ = remote.parse_chunk(write.data, write.path.split("/")[1])
            except remote.RemoteProblem:
                continue
            keys |= {f"{PREFIX[e.kind]}:{e.id}" for e in entries}
    held = _read(folder / HELD_FILE)
    items = held.get("held")
    target_keys = _target_keys(before, address)
    if keys and isinstance(items, dict) and target_keys:
        for key, item in items.items():
            if key in keys and isinstance(item, dict) and isinstance(item.get("targets"), list):
                item["targets"] = [t for t in item["targets"] if t not in target_keys]
        atomic_write_bytes(folder / HELD_FILE, dumps(held))


def _target_keys(state: bytes | None, address: str) -> set[str]:
    try:
        doc = json.loads(state or b"{}")
        return {k for k, t in doc.get("targets", {}).items() if t.get("address") == address}
    except (ValueError, AttributeError):
        return set()


def _read(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _wanted(folder: Path) -> set[str]:
    wanted = _read(folder / PHOTOS_FILE).get("wanted")
    return {p for p in wanted if isinstance(p, str)} if isinstance(wanted, list) else set()


def _head(got: tuple[bytes, str] | None, device: str) -> remote.Head | None:
    if got is None:
        return None
    try:
        return remote.parse_head(got[0], device)
    except remote.RemoteProblem:
        return None
