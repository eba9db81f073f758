"""A match from another device meets this device's copy: taken, merged, or kept beside it as a conflict.

- It has seen this device's version: it replaces it (a deleted one deletes the match; the trash keeps it).
- Both changed: merged by round (versions.py); a merge that differs from both is this device's change.
- Every version read from another device is remembered as one it has seen (`versions.read_from`), so the next
  version it sends has a common ancestor here. Where both versions have seen a change newer than every
  common ancestor remembered here (this device saved and synced many times meanwhile, or both versions came
  from two other devices: `versions.stale`) and the merge finds the same part changed, the merge is left to
  the device that holds that change as the one it last read: its merge comes back with a later sync and is
  taken. Nothing is a conflict then.
- The same round changed differently, or an edit met a delete: a conflict. Neither device's version vector
  moves, so every device finds the same conflict, until a person resolves it on one of them; that resolution
  has seen every version, so it replaces the conflict everywhere.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import RuleError
from scorekeeper.store.errors import StoreError
from scorekeeper.sync.remote import Entry, Head
from scorekeeper.sync.running import Running
from scorekeeper.sync.versions import (
    Overlap,
    ancestors,
    content,
    join,
    leq,
    merge,
    read_from,
    remember,
    stale,
)


def apply_match(run: Running, head: Head, entry: Entry, rec: dict[str, Any]) -> None:
    local, _ = run.store.matches.stored(entry.id)
    doc = run.sync.conflict_doc(entry.id)
    rec["anc"] = read_from(rec["anc"], head.device, entry.vv, entry.data, rec["vv"])
    if doc is not None:
        _into_conflict(run, head, entry, rec, local, doc)
    elif leq(rec["vv"], entry.vv):
        _take(run, entry, rec, local)
    elif entry.deleted and (rec["del"] or local is None):
        rec["vv"] = join(rec["vv"], entry.vv)  # deleted on both
        rec["del"] = True
    elif entry.deleted or rec["del"] or local is None:
        _conflict(run, head, entry, rec, local)
    else:
        _merge(run, head, entry, rec, local)


def _mark(run: Running, match_id: str) -> list[Any] | None:
    stored, _ = run.store.matches.stored(match_id)
    return [stored["version"], stored["updated"]] if stored else None


def _expect(rec: dict[str, Any]) -> int:
    return rec["mark"][0] if rec["mark"] else 0


def _take(run: Running, entry: Entry, rec: dict[str, Any], local: dict[str, Any] | None) -> None:
    if entry.deleted:
        if local is not None:
            run.sync.delete_match(entry.id, _expect(rec))
            run.report.deleted += 1
        rec.update(vv=dict(entry.vv), mark=None)
        rec["del"] = True
        return
    assert entry.data is not None
    if local is None and entry.id not in run.sync.conflict_ids():
        run.new_matches[entry.id] = (entry, rec)  # written together, see Run.write_new
        rec["mark"] = None
    elif local is None or content(local) != content(entry.data):
        version, updated = run.sync.put_match(
            entry.data, expect=_expect(rec) if local else 0, history=entry.history
        )
        rec["mark"] = [version, updated]
        if local is None:
            run.report.new += 1
        else:
            run.report.changed += 1
    else:
        rec["mark"] = [local["version"], local["updated"]]
    rec["vv"] = dict(entry.vv)  # remembered as read (apply_match)
    rec["del"] = False


def _other(head: Head, entry: Entry) -> dict[str, Any]:
    return {
        "device": head.device,
        "name": head.name,
        "vv": entry.vv,
        "deleted": entry.deleted,
        "data": entry.data,
    }


def _conflict(
    run: Running, head: Head, entry: Entry, rec: dict[str, Any], local: dict[str, Any] | None
) -> None:
    this_deleted = rec["del"] or local is None
    if this_deleted and entry.data is not None:
        # Show the other version, so the match (and its conflict) is in the list.
        version, updated = run.sync.put_match(entry.data, expect=0)
        rec["mark"] = [version, updated]
    run.sync.write_conflict(
        entry.id, {"match_id": entry.id, "this_deleted": this_deleted, "others": [_other(head, entry)]}
    )
    run.report.conflicts += 1


def _merge(run: Running, head: Head, entry: Entry, rec: dict[str, Any], local: dict[str, Any]) -> None:
    assert entry.data is not None
    bases = ancestors(rec["anc"], rec["vv"], entry.vv)
    try:
        merged = {
            **merge(bases, local, entry.data),
            "updated": max(local["updated"], entry.data.get("updated", "")),
        }
        if content(merged) not in (content(local), content(entry.data)):
            from scorekeeper.store.conflicts import storable

            storable(merged)  # a merge the rules cannot score (a round after the end) is a conflict too
    except Overlap:
        if stale(rec["anc"], rec["vv"], entry.vv):
            return  # the other device holds the base: its merge comes back (see the module's docstring)
        _conflict(run, head, entry, rec, local)
        return
    except (RuleError, StoreError, ValueError, TypeError):
        _conflict(run, head, entry, rec, local)
        return
    vv = join(rec["vv"], entry.vv)
    if content(merged) != content(local):
        version, updated = run.sync.put_match(merged, expect=_expect(rec))
        rec["mark"] = [version, updated]
        run.report.changed += 1
    if content(merged) not in (content(local), content(entry.data)):
        vv[run.me] = run.state.next_seq()
    rec.update(vv=vv, anc=remember(rec["anc"], vv, merged))
    run.send("match", entry.id, rec, {**merged})


def _into_conflict(
    run: Running,
    head: Head,
    entry: Entry,
    rec: dict[str, Any],
    local: dict[str, Any] | None,
    doc: dict[str, Any],
) -> None:
    """A newer version of a match that is in conflict: it may settle it (a resolution elsewhere has seen
    every version) or replace the older version of its device."""
    others = [
        o for o in doc.get("others", []) if not leq(o["vv"], entry.vv) and o.get("device") != head.device
    ]
    if leq(rec["vv"], entry.vv):
        if others and entry.deleted:
            rec.update(vv=dict(entry.vv), mark=_mark(run, entry.id))
            rec["del"] = True
            doc["this_deleted"] = True
        else:
            _take(run, entry, rec, local)
            doc["this_deleted"] = False
    else:
        others.append(_other(head, entry))
    with run.store.files.lock.held():
        if run.sync.conflict_doc(entry.id) is None:
            return  # a person resolved it meanwhile: the resolution goes out with the next sync
        run.sync.write_conflict(entry.id, {**doc, "others": others} if others else None)
    run.store.matches._tell(entry.id)
