"""Photo files in a sync: each travels once, as a file of its own, beside the records (engine.py).

On the target a device writes its photos under its own folder, like its log:

    devices/<device>/photos/<photo id>.jpg

A photo file never changes once made (store/photos.py), so it is sent once per target: the match that names it
travels as a record, and a change of that match (a note, a round) sends the record again, never the photo.

- **Sending.** Every photo in this data folder that this device has not sent to the target or read there goes
  out, before this device's new log chunk: a device that reads a match naming a photo finds the photo there.
  A target that gets everything again (new to this device, emptied, lost files: `Run.why`) gets every photo
  this device holds again too, whoever took it.
- **Receiving.** The photo ids named by the matches read from other devices are remembered (`wanted`) until
  the photo is here. While some are missing, each other device's photo folder is listed once per sync and the
  missing photos found there are read, checked (a picture within the store's limits, else skipped with a
  sentence naming the device) and stored with a thumbnail made here. Until then the screens show a placeholder.
- **Missing files.** A match going out that names a photo whose file is not on this device (lost, or never
  arrived) is said once, and the photo is wanted like one named by another device's match. A wanted photo
  that no device's photo folder on the target holds is said once and asked for in this device's head
  (`wants`, remote.py); a device that has it writes it there again, even where it believed it had sent it.
  Meanwhile the screens say the photo is not on this device yet.
- **State.** `sync/photos.json` in the data folder: the photos wanted, per target the ids known to be
  there, and the missing ones already said. Lost or damaged, it is started again: every photo is sent once
  more, which changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.games.base import Message, Plural
from scorekeeper.store.match_file import describe_match
from scorekeeper.store.paths import is_safe_id
from scorekeeper.store.photos import MAX_PHOTO_BYTES, PHOTO_SUFFIX, PhotoError, photo_ids_of
from scorekeeper.store.storage import atomic_write_bytes, dumps
from scorekeeper.sync.remote import MAX_WANTS, Entry
from scorekeeper.sync.running import Running

STATE_FILE = "photos.json"


def photo_path(device: str, photo_id: str) -> str:
    return f"devices/{device}/photos/{photo_id}{PHOTO_SUFFIX}"


class PhotoSync:
    """The photo part of one sync run (`Run.photos`)."""

    def __init__(self, run: Running) -> None:
        self.run = run
        self.path = run.state.folder / STATE_FILE
        doc = _read(self.path)
        self.wanted: set[str] = {p for p in doc.get("wanted", []) if is_safe_id(p)}
        there = doc.get("there", {})
        self.there: dict[str, set[str]] = {
            str(key): {p for p in ids if is_safe_id(p)}
            for key, ids in (there.items() if isinstance(there, dict) else ())
            if isinstance(ids, list)
        }
        self.said: set[str] = {p for p in doc.get("said", []) if is_safe_id(p)}
        """Missing photos already said (once each)."""
        self.unfound: set[str] = set()
        """Wanted photos on no device's photo folder at this sync: asked for in this device's head."""
        self.others_want: set[str] = set()
        """Photos other devices' heads ask for."""
        self.sent = self.received = 0
        self.listed = False  # the target's photo folders were listed in this run

    def asked_by(self, wants: tuple[str, ...]) -> None:
        """Another device's head asks for these photos."""
        self.others_want.update(wants)

    def asked(self) -> tuple[str, ...]:
        """The photos this device's head asks for."""
        return tuple(sorted(self.unfound)[:MAX_WANTS])

    def _check_own(self) -> None:
        """A match going out that names a photo whose file this device lacks: said once, and wanted."""
        photos = self.run.store.photos
        for entry in self.run.out.values():
            if entry.kind != "match" or not entry.data:
                continue
            for photo_id in photo_ids_of(entry.data):
                if photo_id in self.wanted or photos.has(photo_id):
                    continue
                self.wanted.add(photo_id)
                if photo_id not in self.said:
                    self.said.add(photo_id)
                    self.run.report.notes.append(
                        Message(
                            "A photo of {what} is missing on this device; it is asked for from the other "
                            "devices.",
                            what=describe_match(entry.data),
                        )
                    )

    def want(self, entry: Entry) -> None:
        """A match read from another device: the photos it names are fetched if this device lacks them."""
        if entry.kind == "match" and entry.data:
            self.wanted.update(photo_ids_of(entry.data))

    def _key(self) -> str:
        for key, state in self.run.state.targets.items():
            if state is self.run.here:
                return key
        return self.run.target.name

    def _known(self) -> set[str]:
        """The photo ids known to be on the target. When the target gets everything again (new to this device,
        emptied, lost files) what was known is forgotten and the photo folders there are listed once instead
        (one request per device), so a photo another device already put there is not sent again."""
        key = self._key()
        if self.run.why is not None and not self.listed:
            self.listed = True
            found: set[str] = set()
            for device in self.run.target.list("devices"):
                if device.isalnum():
                    found |= self._names(device)
            self.there[key] = found
        return self.there.setdefault(key, set())

    def _names(self, device: str) -> set[str]:
        """The photo ids in a device's photo folder on the target."""
        names = self.run.target.list(f"devices/{device}/photos")
        return {
            n[: -len(PHOTO_SUFFIX)]
            for n in names
            if n.endswith(PHOTO_SUFFIX) and is_safe_id(n[: -len(PHOTO_SUFFIX)])
        }

    def fetch(self) -> None:
        """Read the wanted photos this device lacks from the other devices' photo folders."""
        self._check_own()
        photos = self.run.store.photos
        missing = {p for p in self.wanted if not photos.has(p)}
        known = self._known()
        # Every device folder, not only those with a head: a device that never had a record to send still
        # writes a photo another device asks for.
        devices = self.run.target.list("devices") if missing else []
        for device in sorted(d for d in devices if d.isalnum() and d != self.run.me):
            if not missing:
                break
            names = self._names(device)
            for photo_id in sorted(missing & names):
                if self._receive(device, photo_id):
                    missing.discard(photo_id)
                    known.add(photo_id)
        self.wanted = missing
        self.unfound = missing
        new = missing - self.said
        if new:
            self.said |= new
            self.run.report.notes.append(
                Plural(
                    "{n} photo of a game is not on the sync target yet; it is asked for from the devices that "
                    "have it, and shows as not on this device yet.",
                    "{n} photos of games are not on the sync target yet; they are asked for from the devices "
                    "that have them, and show as not on this device yet.",
                    len(new),
                )
            )
        # Arrived: said again should it go missing once more.
        self.said -= {p for p in self.said if p not in missing and photos.has(p)}

    def _receive(self, device: str, photo_id: str) -> bool:
        got = self.run.target.read(photo_path(device, photo_id))
        if got is None:
            return False
        data = got[0]
        reason: Message | None = Message("the file is too large") if len(data) > MAX_PHOTO_BYTES else None
        if reason is None:
            try:
                self.run.store.photos.put(photo_id, data)
            except PhotoError:
                reason = Message("the file is not a picture the app can read")
        if reason is not None:
            self.run.report.skipped.append(
                Message(
                    "A photo from the device {device} was skipped ({reason}).", device=device, reason=reason
                )
            )
            return False
        self.received += 1
        return True

    def send(self) -> None:
        """Write every photo here that the target does not have from this device or another."""
        known = self._known()
        photos = self.run.store.photos
        asked = {p for p in self.others_want if photos.has(p)}
        if asked:  # another device found these nowhere: write those that are not in this device's folder
            known -= asked - self._names(self.run.me)
        for photo_id in sorted(set(photos.ids()) | asked):
            if photo_id in known:
                continue
            data = photos.image(photo_id)
            if data is None:  # deleted meanwhile (its match went to the trash)
                continue
            self.run.target.write(photo_path(self.run.me, photo_id), data)
            known.add(photo_id)
            self.sent += 1

    def save(self) -> None:
        doc = {
            "wanted": sorted(self.wanted),
            "there": {k: sorted(v) for k, v in sorted(self.there.items())},
            "said": sorted(self.said),
        }
        atomic_write_bytes(self.path, dumps(doc))


def _read(path: Any) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}
