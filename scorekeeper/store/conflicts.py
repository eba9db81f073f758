"""What sync needs inside the data folder: writes of records that came from another device, and conflicts.

A **conflict** is a match changed differently on two devices (the same round, or edited on one and deleted on
the other). Both versions are kept until a person chooses: the match file holds this device's version (or the
other one when this device had deleted the match, so that the match stays visible), and
`sync/conflicts/<match id>.json` holds the other devices' versions. Resolving writes the chosen version as an
ordinary change and leaves `sync/resolved/<match id>.json` (the version information of what was chosen
between), which the next sync folds into the match's version so every device drops the conflict.

The version information itself (version vectors, the log on the target) is `scorekeeper.sync`'s; the store
only keeps it opaque here.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from scorekeeper.games.base import Message
from scorekeeper.games.messages import N_
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store.errors import ConflictError, InputError
from scorekeeper.store.match_file import check_storable, check_storable_or_newer, describe_match
from scorekeeper.store.matches import Matches
from scorekeeper.store.paths import is_safe_id
from scorekeeper.store.storage import atomic_write_bytes, dumps
from scorekeeper.store.undo import history_after_change

Keep = Literal["this", "other", "both"]

FROM_OTHER_DEVICE = N_("Changes from another device")
"""How undo names a change that sync brought (the undo list shows it)."""


@dataclass(frozen=True)
class ConflictVersion:
    """Another device's version of a conflicting match: its data, or deleted there."""

    device: str
    device_name: str
    deleted: bool
    match: Match | None
    versions: dict[str, int]


@dataclass(frozen=True)
class Conflict:
    """A match with versions from two or more devices that a person has to choose between."""

    match_id: str
    this_deleted: bool
    """This device had deleted the match (the match file then shows the other version)."""
    others: tuple[ConflictVersion, ...]

    @property
    def other(self) -> ConflictVersion:
        """The most recent other version (what "other" keeps)."""
        return self.others[-1]

    @property
    def what(self) -> Message:
        """How messages name the match."""
        for version in self.others:
            if version.match is not None:
                return describe_match(version.match.to_dict())
        return Message("a saved game")


def sync_folder(root: Path) -> Path:
    return root / "sync"


class SyncRecords:
    """The sync files of one data folder (`sync/`) beside the matches they are about."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self.root = sync_folder(matches.layout.root)
        self.conflict_dir = self.root / "conflicts"
        self.resolved_dir = self.root / "resolved"

    # ------------------------------------------------------------------ conflicts
    def conflict_ids(self) -> set[str]:
        try:
            return {
                entry.name[: -len(".json")]
                for entry in os.scandir(self.conflict_dir)
                if entry.name.endswith(".json") and not entry.name.startswith(".")
            }
        except FileNotFoundError:
            return set()

    def conflict_doc(self, match_id: str) -> dict[str, Any] | None:
        """The stored conflict (written by sync, so its shape is trusted), or None."""
        if not is_safe_id(match_id):
            return None
        try:
            doc = json.loads((self.conflict_dir / f"{match_id}.json").read_bytes())
        except (FileNotFoundError, ValueError):
            return None
        return doc if isinstance(doc, dict) else None

    def write_conflict(self, match_id: str, doc: dict[str, Any] | None) -> None:
        """Store (or with None remove) the conflict of a match."""
        path = self.conflict_dir / f"{match_id}.json"
        if doc is None:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        self.conflict_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, dumps(doc))

    def conflicts(self) -> list[Conflict]:
        found = []
        for match_id in sorted(self.conflict_ids()):
            doc = self.conflict_doc(match_id)
            conflict = _conflict_of(match_id, doc) if doc else None
            if conflict is not None:
                found.append(conflict)
        return found

    def resolve(self, match_id: str, keep: Keep) -> str:
        """Keep this device's version, the other one, or both (the other becomes a separate game with a new
        id). Returns the id of the match that now holds the other version (or `match_id`)."""
        doc = self.conflict_doc(match_id)
        conflict = _conflict_of(match_id, doc) if doc else None
        if conflict is None:
            raise InputError(
                "This game has no conflict to resolve (it may have been resolved on another device)."
            )
        versions: dict[str, int] = {}
        for version in conflict.others:
            for device, counter in version.versions.items():
                versions[device] = max(versions.get(device, 0), counter)
        self.resolved_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.resolved_dir / f"{match_id}.json", dumps({"versions": versions}))
        other = conflict.other
        kept = match_id
        if keep == "this" and conflict.this_deleted:
            self.matches.delete(match_id)
        elif keep == "other" or (keep == "both" and conflict.this_deleted):
            if other.deleted or other.match is None:
                self.matches.delete(match_id)
            elif not conflict.this_deleted:
                self.put_match(other.match.to_dict(), N_("Kept the other device's version"))
        elif keep == "both" and other.match is not None:
            copy = {**other.match.to_dict(), "id": uuid.uuid4().hex}
            self.put_match(copy, N_("Kept both versions"))
            kept = copy["id"]
        self.write_conflict(match_id, None)
        self.matches._tell(match_id)
        return kept

    def resolved(self) -> dict[str, dict[str, int]]:
        """match id -> the version information a person chose between (read by the next sync)."""
        found: dict[str, dict[str, int]] = {}
        with contextlib.suppress(FileNotFoundError):
            for entry in os.scandir(self.resolved_dir):
                if entry.name.endswith(".json") and not entry.name.startswith("."):
                    with contextlib.suppress(ValueError, OSError, AttributeError):
                        versions = json.loads(Path(entry.path).read_bytes()).get("versions", {})
                        found[entry.name[: -len(".json")]] = {
                            str(k): int(v) for k, v in versions.items() if isinstance(v, int)
                        }
        return found

    def forget_resolved(self, match_ids: set[str]) -> None:
        for match_id in match_ids:
            with contextlib.suppress(FileNotFoundError):
                (self.resolved_dir / f"{match_id}.json").unlink()

    # ------------------------------------------------------------------ writes from sync
    def put_match(
        self,
        data: dict[str, Any],
        what: str = FROM_OTHER_DEVICE,
        expect: int | None = None,
        history: dict[str, Any] | None = None,
    ) -> tuple[int, str]:
        """Write a match that came from elsewhere as the next local edit (undo can take it back); it keeps
        its `updated` time, so the list orders it by when it was played. Returns (version, updated).
        `expect`: the local version sync last saw (0: none); ConflictError if the player saved since.
        `history`: the other device's undo and redo stacks, taken over with the version they belong to."""
        match_id = data["id"]
        matches, incoming = self.matches, history
        with matches._lock.held():
            matches.files.refuse_if_read_only()
            stored, history = matches.stored(match_id)
            version = stored["version"] if stored else 0
            if expect is not None and version != expect:
                raise ConflictError("This game was changed while it synced.")
            new = {**data, "version": version + 1, "updated": data.get("updated") or now_iso()}
            checked = check_storable_or_newer(new)  # a newer version's match comes as it is
            if incoming is not None:
                history = {
                    "head": new["version"],
                    "undo": incoming.get("undo", []),
                    "redo": incoming.get("redo", []),
                }
            elif stored is not None:
                history = history_after_change(stored, history, new["version"], what, now_iso())
            matches._save_file(checked, new, history)
        matches._tell(match_id)
        return new["version"], new["updated"]

    def put_new_matches(
        self, items: list[tuple[dict[str, Any], dict[str, Any] | None, Match | None]]
    ) -> list[str]:
        """Write matches this device does not have yet (data, undo history) all at once, as an import does
        (staged, one flush, then moved into place: a first sync of thousands of games is not one flush per
        game). `checked`: the match already checked from `data` (else it is checked here). A match that
        appeared here meanwhile is left out; returns the ids written."""
        from scorekeeper.store.batch import Batch
        from scorekeeper.store.match_file import MATCH_KIND, match_tables
        from scorekeeper.store.records import MatchSummary

        matches = self.matches
        written: list[Match | MatchSummary] = []
        with matches._lock.held():
            matches.files.refuse_if_read_only()
            batch = Batch(matches.layout)
            for data, incoming, checked in items:
                if matches.path(data["id"]).exists():
                    continue
                new = {**data, "version": 1, "updated": data.get("updated") or now_iso()}
                history = {"head": 1, **incoming} if incoming else None
                made = checked if checked is not None else check_storable_or_newer(new)
                written.append(made.at_version(new["version"], new["updated"]))
                batch.add(matches.path(data["id"]), MATCH_KIND, match_tables(new, history))
            batch.commit()
            matches.index.put_many([(MatchSummary.of(m), os.stat(matches.path(m.id))) for m in written])
        for match in written:
            matches._tell(match.id)
        return [match.id for match in written]

    def delete_match(self, match_id: str, expect: int) -> None:
        """Delete a match for sync, unless it was saved since sync saw version `expect` (ConflictError)."""
        with self.matches._lock.held():
            stored, _ = self.matches.stored(match_id)
            if stored is not None and stored["version"] != expect:
                raise ConflictError("This game was changed while it synced.")
            self.matches.delete(match_id)


def _conflict_of(match_id: str, doc: dict[str, Any]) -> Conflict | None:
    others = []
    for item in doc.get("others", []):
        try:
            match = None if item.get("deleted") else Match.from_dict(item["data"])
        except (ValueError, KeyError, TypeError):
            continue
        others.append(
            ConflictVersion(
                device=str(item.get("device", "")),
                device_name=str(item.get("name", "")),
                deleted=bool(item.get("deleted")),
                match=match,
                versions=dict(item.get("vv", {})),
            )
        )
    if not others:
        return None
    return Conflict(match_id, bool(doc.get("this_deleted")), tuple(others))


def storable(data: dict[str, Any]) -> Match:
    """The match a remote record describes, checked as stored data (RuleError / InputError otherwise)."""
    return check_storable({**data, "version": int(data.get("version", 0) or 0)})
