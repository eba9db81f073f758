"""One sync of a data folder with a target (`sync_once`).

0. The target is recognised by its identity (identity.py); what this device sent there and read there is
   kept per target (state.py). A target new to this device, emptied, or that lost files gets everything this
   device holds, whoever wrote it (the report says so in a sentence).
1. Local changes since the last sync are found by their marks (state.py) and get this device's next
   sequence number in their version vector; with them goes every record whose version the target has not
   had from this device yet (local.py: `unsent`).
2. Every other device's head is read; only its log chunks after the sequence number seen last are read, and
   each record's latest entry is merged (versions.py): taken when it has seen ours, merged when both changed,
   a conflict (both kept, `store/conflicts.py`) where the same round or a deleted match meets an edit. A
   device whose folder is gone (or behind what was read) is read from the start again and everything is sent;
   a log file its head names that is still missing at the next sync, or that cannot be read (too large,
   damaged), is skipped with a sentence, and this device's head asks that device (`lost`) to send everything
   again; until it has, every sync says what is still awaited from which device.
   A record this version cannot store is held as it came (held.py): it never enters the sync state, so no
   absence or refusal ever becomes a deletion; it is tried again at every sync and passed on to other targets.
   A deletion of a match from a device whose formats predate this one's (every device before 1.0.0, whose
   head says nothing) is never applied: the match stays and the deletion waits as a conflict for a person.
3. This device's changes (and merges) go out as one more chunk, then its head (guarded by its version tag).
4. Only then is the local state saved. A sync cut short anywhere (killed, offline, a full target) leaves the
   local state as before: the next sync finds the same changes again, and merging equal contents is a no-op,
   so nothing is lost or doubled.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from scorekeeper.games.base import Message
from scorekeeper.model.match import Match
from scorekeeper.model.match_data import made_by_newer
from scorekeeper.model.stamps import now_iso
from scorekeeper.release import FORMATS, VERSION
from scorekeeper.store import Store
from scorekeeper.store.conflicts import SyncRecords, storable
from scorekeeper.store.errors import ConflictError, StoreError
from scorekeeper.store.match_file import describe_match
from scorekeeper.store.records import Player, SavedGame
from scorekeeper.sync import identity, remote
from scorekeeper.sync.devices import hold_deletion
from scorekeeper.sync.held import HeldRecords
from scorekeeper.sync.local import collect, unsent
from scorekeeper.sync.merging import apply_match
from scorekeeper.sync.others import apply_player, apply_saved
from scorekeeper.sync.photos import PhotoSync
from scorekeeper.sync.remote import Entry, Head, RemoteProblem
from scorekeeper.sync.report import SyncReport, resend_note
from scorekeeper.sync.state import PREFIX, SyncState, TargetState, fingerprint, sync_lock
from scorekeeper.sync.target import SyncError, Target
from scorekeeper.sync.versions import join, leq

Progress = Callable[[int, int], None]


def sync_once(store: Store, target: Target, progress: Progress | None = None) -> SyncReport:
    """Sync the store with the target once; SyncError when the target fails (nothing is lost then)."""
    store.files.refuse_if_read_only()
    with sync_lock(store.data_dir):
        return Run(store, target, progress).go()


class Run:
    """One sync in progress (`sync_once` makes one and calls `go`). The modules that collect this device's
    changes (local.py) and apply the other devices' (merging.py, others.py) work on it: its store, target and
    sync state, the entries going out (`out`, by `send`), the report, the matches new here (`new_matches`)."""

    def __init__(self, store: Store, target: Target, progress: Progress | None) -> None:
        self.store, self.target, self.progress = store, target, progress
        self.sync = SyncRecords(store.matches)
        self.state = SyncState.load(store.data_dir)
        self.me = self.state.device
        self.here = TargetState()
        """This device's state for the target (set by `go`, from identity.find)."""
        self.why: identity.Why = None
        self.heads: dict[str, int] = {}  # device -> the sequence number of its head read now
        self.again = False  # a log file was skipped as missing: everything goes again
        self.out: dict[str, Entry] = {}
        self.report = SyncReport()
        self.resolved: dict[str, dict[str, int]] = {}
        self.new_matches: dict[str, tuple[Entry, dict[str, Any]]] = {}
        self.done = self.total = 0  # progress: log files read and parts written, of all to do
        self.checked: dict[str, Match] = {}
        """Matches new to this device, written in one batch after each device's entries (write_new)."""
        self.photos = PhotoSync(self)
        """Photo files: each sent once, fetched when a match read here names one (photos.py)."""
        self.held = HeldRecords(self.state.folder)
        """Records from other devices this version cannot store: kept as they came (held.py)."""

    def go(self) -> SyncReport:
        own, tag = self._own_head()
        if own is None:  # this device's first sync here: a mistyped address fails now, not silently
            self.target.check()
        known = identity.same(self.state, self.target, own)
        self.here, self.why = (known, None) if known else identity.find(self.state, self.target, own)
        self.state.seq = max(self.state.seq, own.seq if own else 0)
        heads = self._other_heads()
        if known is not None and self.why is not None:  # files gone: is it still the same target?
            here, why = identity.find(self.state, self.target, own)
            if why is not None:
                self.here, self.why = here, why
        if self.why is not None:
            self.here.sent = {}  # everything goes again
        collect(self)
        unsent(self)
        self._pass_on_held()
        todo = [(head, self._new_chunks(head)) for head in heads]
        # Progress counts the log files read and the parts written (a first sync of a big store is mostly
        # writing), and one step for the head.
        total = sum(len(c.files) for _, chunks in todo for c in chunks) + _parts(len(self.out)) + 1
        self.done, self.total = 0, total
        try:
            for head, chunks in todo:
                for _ in self._read_device(head, chunks):
                    self._tell(self.done, total)
        except SyncError:
            self._save_merged()  # what was merged into the store stays known as merged
            raise
        if self.again:
            unsent(self)  # a log file found missing while reading: everything goes again
        self._retry_held()
        self._save_merged()
        self._say_why()
        self.photos.fetch()
        self.photos.send()  # before the chunk: a device reading a match finds its photos there
        total = self.total = max(total, self.done + _parts(len(self.out)) + 1)  # merges may add to it
        if self.out or _head_outdated(own, self.here.lost, self.photos.asked()):
            self._publish(own, tag)
            for key, entry in self.out.items():
                self.here.sent[key] = fingerprint(entry.vv)
            self.here.head = self.state.seq
            self.state.save()
        answered = {d: seq for d, seq in self.here.lost.items() if self.heads.get(d, 0) <= seq}
        if answered != self.here.lost:  # those devices wrote a newer head: the next head no longer asks them
            self.here.lost = answered
            self.state.save()
        self.photos.save()
        self.held.save()
        self._say_waiting()
        self.sync.forget_resolved(set(self.resolved))
        self._tell(total, total)
        self.report.sent = len(self.out)
        self.report.finished = now_iso()
        return self.report

    def _save_merged(self) -> None:
        """Saved before writing to the target: what was merged has a version the target has not had from this
        device (`TargetState.sent`), so it still goes out if the sync stops before."""
        self.state.save()

    def _say_waiting(self) -> None:
        """What is still awaited: records held here, and devices asked to send again what could not be read."""
        self.report.notes.extend(self.held.summary())
        names = self.here.devices
        for device in sorted(self.here.lost):
            name = str(names.get(device, {}).get("name") or device)
            self.report.notes.append(
                Message(
                    "Still waiting for {device} to send again what could not be read here (it does so at its "
                    "next sync).",
                    device=name,
                )
            )

    def target_key(self) -> str:
        """The key of this target's state in the sync state (its identity)."""
        return next((k for k, t in self.state.targets.items() if t is self.here), self.target.name)

    def _pass_on_held(self) -> None:
        """Held records go on, unchanged, to every target that has not had them (not back where they came)."""
        key_here = self.target_key()
        for key, held in self.held.items.items():
            rec = self.state.records.get(key)
            if key_here in held.targets or key in self.out or (rec and leq(held.entry.vv, rec["vv"])):
                continue
            entry = held.entry
            self.out[key] = remote.Entry(
                self.state.next_seq(),
                entry.kind,
                entry.id,
                entry.vv,
                entry.deleted,
                entry.data,
                entry.history,
            )
            held.targets.add(key_here)
            self.held.changed = True

    def _retry_held(self) -> None:
        """Held records are tried again (an update of the app may read them now); stored ones leave the hold."""
        for key, held in list(self.held.items.items()):
            rec = self.state.records.get(key)
            if rec is not None and leq(held.entry.vv, rec["vv"]):
                self.held.release(key)  # a later version of the record came and was stored
                continue
            if self._unreadable(held.entry) is not None:
                continue
            self.held.release(key)
            head = Head(held.device, held.name, 0, (), app=held.app)
            try:
                self._apply(head, held.entry)
            except ConflictError:  # the player saved this record meanwhile: held, tried at the next sync
                self.held.items[key] = held
                self.held.changed = True
        self.write_new()

    def _say_why(self) -> None:
        """The sentence for a target that gets everything again (only when it is sent some games)."""
        games = sum(1 for key, e in self.out.items() if key.startswith("m:") and not e.deleted)
        if self.why is not None and games:
            self.report.notes.append(resend_note(self.why, self.target.name, games))

    def write_new(self) -> None:
        """Write the matches new to this device in one batch; their marks are set only once they are."""
        if not self.new_matches:
            self.checked = {}
            return
        items = [
            (entry.data, entry.history, self.checked.get(entry.id))
            for entry, _ in self.new_matches.values()
            if entry.data
        ]
        self.sync.put_new_matches(items)
        for match_id, (_entry, rec) in self.new_matches.items():
            stored, _ = self.store.matches.stored(match_id)
            if stored is not None:
                rec["mark"] = [stored["version"], stored["updated"]]
                self.report.new += 1
        self.new_matches, self.checked = {}, {}

    def _tell(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    # ------------------------------------------------------------------ the target
    def _own_head(self) -> tuple[Head | None, str]:
        got = self.target.read(remote.head_path(self.me))
        if got is None:
            return None, ""
        try:
            return remote.parse_head(got[0], self.me), got[1]
        except RemoteProblem:
            return None, got[1]  # rewritten below (the tag still guards against a second writer)

    def _other_heads(self) -> list[Head]:
        """Every other device's head. A device read here before whose head is gone or behind what was read
        (its folder removed or restored from an older copy) is read from the start again, and the target
        lost files: everything goes again; so does a head saying it missed a log file of this device."""
        heads = []
        for device in self.target.list("devices"):
            if device == self.me or not device.isalnum():
                continue
            got = self.target.read(remote.head_path(device))
            if got is None:
                continue
            try:
                head = remote.parse_head(got[0], device)
            except RemoteProblem as problem:
                self._skip(device, problem)
                self.heads[device] = -1  # there, but not readable: not lost
                continue
            heads.append(head)
            self.heads[device] = head.seq
            self.photos.asked_by(head.wants)
            said = {"name": head.name, "app": head.app, "at": head.at, "formats": dict(head.formats)}
            self.here.devices[device] = {k: v for k, v in said.items() if v}
            note = dict(head.lost).get(self.me)
            if note is not None and self.here.answered.get(device) != note:
                self.here.answered[device] = note
                self.why = self.why or "lost"
        for device, seen in list(self.here.seen.items()):
            if seen > 0 and self.heads.get(device, 0) != -1 and self.heads.get(device, 0) < seen:
                del self.here.seen[device]  # read again from the start
                self.why = self.why or "lost"
        return heads

    def _skip(self, device: str, problem: RemoteProblem) -> None:
        if problem.newer:
            message = Message(
                "The device {device} uses a newer version of the app: update the app on this device to sync "
                "with it.",
                device=device,
            )
        else:
            message = Message(
                "A file from the device {device} was skipped ({reason}).",
                device=device,
                reason=problem.reason,
            )
        self.report.skipped.append(message)

    def _read_device(self, head: Head, chunks: list[remote.Chunk]) -> Any:
        """Reads and merges the new chunks of one device (yields after each chunk: progress is told then)."""
        seen = self.here.seen.get(head.device, 0)
        latest: dict[str, Entry] = {}
        upto = seen
        waited = self.here.missing.pop(head.device, None)
        for chunk in chunks:
            try:
                entries, problems = self._read_chunk(head, chunk)
            except _NotYet:
                if waited != chunk.file:  # not there yet (a folder-sync tool brings it later): next time
                    self.here.missing[head.device] = chunk.file
                    break
                # Still missing: skipped, so the device's later files are read; it is asked to send all again.
                self._skip(head.name, RemoteProblem(Message("the file is missing on the target")))
                self.here.lost[head.device] = head.seq
                self.why = self.why or "lost"
                self.here.sent, self.again = {}, True
                upto = chunk.last
                yield
                continue
            except RemoteProblem as problem:
                self._skip(head.name, problem)
                if problem.newer:
                    break
                self.here.lost[head.device] = head.seq  # that device sends everything again
                upto = chunk.last
                yield
                continue
            for reason in problems:  # sent again, such an entry would come the same: not asked for again
                self._skip(head.name, RemoteProblem(reason))
            for entry in entries:
                key = f"{PREFIX[entry.kind]}:{entry.id}"
                if entry.seq > seen and (key not in latest or latest[key].seq < entry.seq):
                    latest[key] = entry
            upto = max(upto, chunk.last)
            yield
        complete = True
        for entry in sorted(latest.values(), key=lambda e: e.seq):
            self.photos.want(entry)
            try:
                self._apply(head, entry)
            except ConflictError:  # the player saved this record meanwhile: merge it at the next sync
                complete = False
        self.write_new()
        if complete:
            self.here.seen[head.device] = upto

    def _read_chunk(self, head: Head, chunk: remote.Chunk) -> tuple[list[Entry], list[Message]]:
        entries: list[Entry] = []
        problems: list[Message] = []
        for file in chunk.files:
            got = self.target.read(f"devices/{head.device}/{file}")
            if got is None:
                raise _NotYet
            self.done += 1
            if len(chunk.files) > 1:  # a big chunk (a first sync): each of its files is a step
                self._tell(self.done, self.total)
            found, wrong = remote.parse_chunk(got[0], head.device)
            entries += found
            problems += wrong
        return entries, problems

    def _publish(self, own: Head | None, tag: str) -> None:
        """One chunk (in parts of CHUNK_ENTRIES entries) for everything this sync sends, then the head: its
        size depends on how often the device synced, never on how many games it holds. With nothing to send,
        only the head (what it asks of other devices, or the app version changed)."""
        entries = sorted(self.out.values(), key=lambda e: e.seq)
        if not entries:
            self._write_head(own.chunks if own else (), own.older if own else None, tag)
            return
        size = remote.CHUNK_ENTRIES
        # The chunk starts right after the one before it: the numbers this device gave changes it sent to
        # other targets leave no gap a reader would look for in the older-chunks files.
        first = min(entries[0].seq, own.chunks[-1].last + 1) if own and own.chunks else entries[0].seq
        chunk = remote.Chunk(
            first,
            entries[-1].seq,
            f"log/{entries[-1].seq:010d}-{secrets.token_hex(4)}.json",
            _parts(len(entries)),
        )
        for part, file in enumerate(chunk.files):
            data = remote.chunk_bytes(self.me, entries[part * size : (part + 1) * size])
            self.target.write(f"devices/{self.me}/{file}", data)
            self.done += 1
            self._tell(self.done, self.total)
        chunks, older = (*self._kept_chunks(own), chunk), own.older if own else None
        keep, limit = remote.HEAD_CHUNKS
        if len(chunks) > limit:
            moved = f"log/older-{chunk.last:010d}-{secrets.token_hex(4)}.json"
            data = remote.older_bytes(self.me, chunks[:-keep], older)
            self.target.write(f"devices/{self.me}/{moved}", data)
            chunks, older = chunks[-keep:], moved
        self._write_head(chunks, older, tag)

    def _write_head(self, chunks: tuple[remote.Chunk, ...], older: str | None, tag: str) -> None:
        lost = tuple(sorted(self.here.lost.items()))
        formats = tuple(sorted(FORMATS.items()))
        wants = self.photos.asked()
        head = Head(
            self.me, _device_name(), self.state.seq, chunks, older, lost, VERSION, formats, now_iso(), wants
        )
        self.target.write(remote.head_path(self.me), remote.head_bytes(head), expect=tag)

    def _kept_chunks(self, own: Head | None) -> tuple[remote.Chunk, ...]:
        """The chunks this device's head lists; when the target lost files, only those still there (one
        listing), so no reader waits for a file that is gone: what was in it goes out again in this sync."""
        if own is None or self.why != "lost":
            return own.chunks if own else ()
        there = set(self.target.list(f"devices/{self.me}/log"))
        return tuple(c for c in own.chunks if all(f.removeprefix("log/") in there for f in c.files))

    def _new_chunks(self, head: Head) -> list[remote.Chunk]:
        """The chunks of `head`'s device after the sequence number read last, following the older-chunks
        files back only as far as needed."""
        seen = self.here.seen.get(head.device, 0)
        found = [c for c in head.chunks if c.last > seen]
        listed, older = head.chunks, head.older
        while older and (not listed or min(c.first for c in listed) > seen + 1):
            got = self.target.read(f"devices/{head.device}/{older}")
            if got is None:
                break
            try:
                listed, older = remote.parse_older(got[0], head.device)
            except RemoteProblem as problem:
                self._skip(head.name, problem)
                break
            found += [c for c in listed if c.last > seen]
        return sorted(found, key=lambda c: c.first)

    # ------------------------------------------------------------------ local changes
    def send(self, kind: str, record_id: str, rec: dict[str, Any], data: dict[str, Any] | None) -> None:
        key = f"{PREFIX[kind]}:{record_id}"
        history = self._history(record_id) if kind == "match" and data is not None else None
        entry = Entry(self.state.next_seq(), kind, record_id, dict(rec["vv"]), data is None, data, history)
        self.out[key] = entry

    def _history(self, match_id: str) -> dict[str, Any] | None:
        """The match's undo and redo stacks as they belong to its stored version (the newest steps)."""
        stored, history = self.store.matches.stored(match_id)
        if stored is None or history.get("head") != stored["version"]:
            return None
        stacks = {name: list(history.get(name) or [])[-remote.HISTORY_SENT :] for name in ("undo", "redo")}
        return stacks if stacks["undo"] or stacks["redo"] else None

    def bump(self, rec: dict[str, Any], extra: dict[str, int] | None = None) -> None:
        rec["vv"] = join(rec["vv"], extra or {})
        rec["vv"][self.me] = self.state.next_seq()

    # ------------------------------------------------------------------ remote changes
    def _apply(self, head: Head, entry: Entry) -> None:
        key = f"{PREFIX[entry.kind]}:{entry.id}"
        known = self.state.records.get(key)
        if known is not None and leq(entry.vv, known["vv"]):
            if entry.vv == known["vv"]:  # the target has this version: no need to send it there
                self.here.sent[key] = fingerprint(entry.vv)
            return
        problem = self._unreadable(entry)
        if problem is not None:
            # Held as it came, before anything about it enters the sync state: a state record without a
            # stored game is what a later sync would take for a deletion.
            self._hold(key, head, entry, problem)
            return
        rec = self.state.record(key)
        older = head.format_of(entry.kind) < FORMATS[entry.kind]
        if entry.kind == "match" and entry.deleted and older and hold_deletion(self, head, entry, rec):
            return
        if entry.kind == "match":
            apply_match(self, head, entry, rec)
        elif entry.kind == "player":
            apply_player(self, entry, rec)
        else:
            apply_saved(self, entry, rec)
        if rec["vv"] == entry.vv and key not in self.out:
            self.here.sent[key] = fingerprint(entry.vv)

    def _hold(self, key: str, head: Head, entry: Entry, problem: str) -> None:
        newer = head.format_of(entry.kind) > FORMATS.get(entry.kind, 0)
        if key not in self.held.items:  # said once; then the report's summary lists what is held
            self.report.skipped.append(
                Message(
                    "A record from the device {device} could not be read and is kept until this app can read it: "
                    "{what} ({reason}).",
                    device=head.name,
                    what=describe_match(entry.data) if entry.kind == "match" and entry.data else entry.id,
                    reason=problem,
                )
            )
        self.held.hold(key, head, entry, problem, newer=newer)
        self.held.items[key].targets.add(self.target_key())  # it came from here: not sent back
        self.held.changed = True

    def _unreadable(self, entry: Entry) -> str | None:
        """Why a remote record cannot be stored here, or None (a match checked here is kept in `checked`,
        so a new one is not checked twice when it is written)."""
        if entry.data is None:
            return None
        try:
            if entry.kind == "match":
                if not made_by_newer(entry.data):  # a newer version's match travels as it is (match_data)
                    self.checked[entry.id] = storable(entry.data)
            elif entry.kind == "player":
                Player.from_dict(entry.data)
            else:
                SavedGame.from_dict({**entry.data, "version": 0})
        except (ValueError, TypeError, KeyError, StoreError) as error:
            return str(error)
        return None


def _head_outdated(own: Head | None, lost: dict[str, int], wants: tuple[str, ...]) -> bool:
    """Whether this device's head on the target must be written even with nothing to send: it asks other
    devices for other files than it says (`lost`, `wants`), or an earlier version of the app wrote it."""
    if own is None:
        return bool(lost or wants)
    return dict(own.lost) != lost or own.wants != wants or own.app != VERSION


def _parts(entries: int) -> int:
    """How many files a chunk of `entries` entries is written as."""
    return (entries + remote.CHUNK_ENTRIES - 1) // remote.CHUNK_ENTRIES


class _NotYet(Exception):
    """A log file the head names has not arrived yet."""


def _device_name() -> str:
    import platform

    return (platform.node() or "device")[:60]
