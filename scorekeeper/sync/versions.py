"""Version vectors and the merge of two versions of a record.

Every synced record carries a version vector: device id -> the sequence number of that device's latest change
to it (a device's sequence numbers only grow, so a number is never given to two different contents). Version A
*has seen* B when every entry of B is at most A's; otherwise, and if B has not seen A either, the two changed
independently and are merged field by field against their common ancestors (earlier versions both have
seen, kept as hashes). A match's rounds merge by position: a round changed on one side only takes that side's
value; the same round changed differently on both sides (two devices entering round 4 differently included) is
a conflict, never decided by a clock.

Which ancestors a record keeps (`remember`, `read_from`; its `anc` list in the sync state), so that two
devices that changed different parts merge cleanly however often they sync (issue 49):
- the last ANCESTORS_KEPT versions;
- per other device, the versions it is known to have seen, tagged with its id in `by`: the version last read
  from it, and the latest versions both it and this device had seen then;
- the window: the versions some device may have read by now but is not known to have passed (not behind
  every device's tags), ANCESTORS_MAX at most, packed in one more entry (each with only what changed since
  the one before). A device that saves and syncs often passes many versions while another device's change
  is on its way; the one that device saw is among them.
The version read from a device is the exact base for that device's next version when it was the last thing
both saw, so of two devices one always holds the base; the other (or a third device holding neither) finds
what it holds `stale` and leaves the merge to it (merging.py) instead of calling the change a conflict.
Entries stay readable by an earlier version: tagged ones are plain entries with one more key, the window an
entry with an empty vector and no hashes (an empty ancestor, the same as none); an earlier version's list
reads as untagged, with no window.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import partial
from typing import Any

Vector = dict[str, int]
Hashes = dict[str, Any]  # {"f": {field: hash}, "r": [hash of each round]}

UNSYNCED = ("version", "updated")
"""A match's and a saved game's local edit counter and time: they differ per device and are not merged."""

ANCESTORS_KEPT = 4
"""The last versions kept in any case."""
ANCESTORS_MAX = 32
"""The most versions kept in the window (`_kept`): versions another device may have seen, packed."""


def leq(a: Vector, b: Vector) -> bool:
    """b has seen everything a has."""
    return all(counter <= b.get(device, 0) for device, counter in a.items())


def join(*vectors: Vector) -> Vector:
    joined: Vector = {}
    for vector in vectors:
        for device, counter in vector.items():
            joined[device] = max(joined.get(device, 0), counter)
    return joined


def digest(value: Any) -> str:
    raw = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def content(data: dict[str, Any]) -> dict[str, Any]:
    """What syncs of a record: everything but the local edit counter and time."""
    return {key: value for key, value in data.items() if key not in UNSYNCED}


def published(data: dict[str, Any]) -> dict[str, Any]:
    """A record as it goes out: without the local edit counter (the time of the change stays)."""
    return {key: value for key, value in data.items() if key != "version"}


def hashes(data: dict[str, Any]) -> Hashes:
    fields = content(data)
    rounds = fields.pop("rounds", None)
    found: Hashes = {"f": {key: digest(value) for key, value in fields.items()}}
    if isinstance(rounds, list):
        found["r"] = [digest(one) for one in rounds]
    return found


def _full(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every remembered version with its hashes: the listed ones and those of the window (`_kept`)."""
    found = [c for c in candidates if "w" not in c]
    listed = {digest(c["vv"]) for c in found}
    for c in candidates:
        if "w" in c:
            found += [w for w in _unpacked(c["w"]) if digest(w["vv"]) not in listed]
    return found


def common(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> list[dict[str, Any]]:
    """The remembered versions both `left` and `right` have seen, the latest first."""
    found = [c for c in _full(candidates) if leq(c["vv"], left) and leq(c["vv"], right)]
    return sorted(found, key=lambda c: sum(c["vv"].values()), reverse=True)


def ancestor(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> Hashes | None:
    """The latest remembered version both `left` and `right` have seen."""
    found = common(candidates, left, right)
    return found[0]["h"] if found else None


def latest(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of remembered versions, those no other one of them has seen (one, unless changes crossed)."""
    return [c for c in found if not any(c["vv"] != o["vv"] and leq(c["vv"], o["vv"]) for o in found)]


def ancestors(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> list[Hashes]:
    """The latest remembered versions both `left` and `right` have seen, the latest first (what `merge`
    takes): one, or several where the two devices merged each other's changes at the same time."""
    return [c["h"] for c in latest(common(candidates, left, right))]


def stale(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> bool:
    """Whether both versions have seen a change (of any device: this one, the other one, a third one) newer
    than every common ancestor remembered here: the exact base fell out of this device's list (it saved and
    synced very often meanwhile) or never was in it (the two versions came from two other devices), while
    the device whose change it is, or the one that last read it, still holds it."""
    found = common(candidates, left, right)
    return any(
        min(counter, right.get(device, 0)) > max((c["vv"].get(device, 0) for c in found), default=0)
        for device, counter in left.items()
    )


def _kept(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last ANCESTORS_KEPT versions and every tagged one, listed as they are (an earlier version reads
    them); the other versions some device may have seen, not known to be behind every device's tag (the
    last ANCESTORS_MAX of them), packed in one more entry, the window: {"vv": {}, "h": {}, "w": [...]} (an
    earlier version finds it an empty ancestor, the same as none)."""
    listed = [c for c in candidates if "w" not in c]
    last = len(listed) - ANCESTORS_KEPT
    kept = [c for n, c in enumerate(listed) if n >= last or c.get("by")]
    window = [w for c in candidates if "w" in c for w in _unpacked(c["w"])]
    window += [c for n, c in enumerate(listed) if not (n >= last or c.get("by"))]
    tags: dict[str, list[Vector]] = {}
    for c in kept:
        for device in c.get("by", ()):
            tags.setdefault(device, []).append(c["vv"])
    ahead = [
        w for w in window if any(not any(leq(w["vv"], seen) for seen in vectors) for vectors in tags.values())
    ][-ANCESTORS_MAX:]
    return [*kept, {"vv": {}, "h": {}, "w": _packed(ahead)}] if ahead else kept


def _packed(versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Versions as a log: the first with its hashes, each next one with what changed (`d`)."""
    log: list[dict[str, Any]] = []
    before: Hashes | None = None
    for version in versions:
        h = version["h"]
        if before is None:
            log.append({"vv": version["vv"], "h": h})
        else:
            fields = {k: v for k, v in h.get("f", {}).items() if before.get("f", {}).get(k) != v}
            change: dict[str, Any] = {"f": fields, "x": [k for k in before.get("f", {}) if k not in h["f"]]}
            if "r" in h:
                old = before.get("r", [])
                change["r"] = [
                    len(h["r"]),
                    {str(n): v for n, v in enumerate(h["r"]) if old[n : n + 1] != [v]},
                ]
            log.append({"vv": version["vv"], "d": change})
        before = h
    return log


def _unpacked(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    versions: list[dict[str, Any]] = []
    before: Hashes = {"f": {}}
    for item in log:
        if "h" in item:
            h = item["h"]
        else:
            change = item["d"]
            fields = {k: v for k, v in before["f"].items() if k not in change["x"]} | change["f"]
            h = {"f": fields}
            if "r" in change:
                length, changed = change["r"]
                old = before.get("r", [])
                h["r"] = [changed.get(str(n), old[n] if n < len(old) else "") for n in range(length)]
        versions.append({"vv": item["vv"], "h": h})
        before = h
    return versions


def _added(candidates: list[dict[str, Any]], vector: Vector, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The list with this version last (moved there when it is in the list already, its tags kept)."""
    old = next((c for c in candidates if c["vv"] == vector and "w" not in c), None)
    entry: dict[str, Any] = {"vv": dict(vector), "h": hashes(data)}
    if old is not None and old.get("by"):
        entry["by"] = list(old["by"])
    return [*(c for c in candidates if c is not old), entry]


def remember(candidates: list[dict[str, Any]], vector: Vector, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ancestors list with this version added (see the module's docstring and `_kept`)."""
    return _kept(_added(candidates, vector, data))


def read_from(
    candidates: list[dict[str, Any]],
    device: str,
    vector: Vector,
    data: dict[str, Any] | None,
    mine: Vector,
) -> list[dict[str, Any]]:
    """The ancestors list after reading `device`'s version (`vector`, `data`; None: a deletion) while this
    device's version is `mine`: that version, and the latest remembered versions both have seen (more than one
    where they crossed), are tagged as the ones `device` is known to have seen (its older tags go)."""
    listed = _added(candidates, vector, data) if data is not None else list(candidates)
    both = common(listed, mine, vector)
    newest = latest(both)
    marked = {digest(vector)} | {digest(c["vv"]) for c in newest}
    there = {digest(c["vv"]) for c in listed if "w" not in c}
    listed += [{"vv": c["vv"], "h": c["h"]} for c in newest if digest(c["vv"]) not in there]  # window ones
    result = []
    for c in listed:
        if "w" in c:
            result.append(c)
            continue
        tagged = digest(c["vv"]) in marked
        by = [d for d in c.get("by", ()) if d != device] + ([device] if tagged else [])
        entry = {"vv": c["vv"], "h": c["h"]}
        if by:
            entry["by"] = sorted(by)
        result.append(entry)
    return _kept(result)


Pick = Callable[[str, Any, Any], Any]
"""Decides a field both sides changed differently: (field, left value, right value) -> value; raises
`Overlap` where a person has to choose."""


class Overlap(Exception):
    """The same part of a record was changed differently on two devices."""


def overlap(_field: str, _left: Any, _right: Any) -> Any:
    raise Overlap


def by_hash(_field: str, left: Any, right: Any) -> Any:
    """Player names and archive state: the same choice on every device (the larger hash), never by clock."""
    return left if digest(left) >= digest(right) else right


def _one(bases: list[str | None], left: Any, right: Any, missing: object, decide: Callable[[], Any]) -> Any:
    """One field or round: equal on both sides, or changed on one side only since the common ancestor that
    holds either side's value (of several latest ones, where changes crossed: the side that still has what
    both saw there did not change it)."""
    if left == right:
        return left
    left_hash = None if left is missing else digest(left)
    right_hash = None if right is missing else digest(right)
    for base in bases:
        if left_hash == base:
            return right
        if right_hash == base:
            return left
    return decide()


def merge(
    base: Hashes | list[Hashes] | None, left: dict[str, Any], right: dict[str, Any], pick: Pick = overlap
) -> dict[str, Any]:
    """The three-way merge of two versions' contents (see the module's docstring) against their common
    ancestor (or ancestors, the latest first); Overlap where they changed the same field or round differently
    and `pick` does not decide."""
    missing = object()
    bases = base if isinstance(base, list) else [base or {}]
    bases = bases or [{}]
    merged: dict[str, Any] = {}
    left_c, right_c = content(left), content(right)
    for key in sorted(set(left_c) | set(right_c)):
        if key == "rounds":
            continue
        lv, rv = left_c.get(key, missing), right_c.get(key, missing)
        at = [b.get("f", {}).get(key) for b in bases]
        value = _one(at, lv, rv, missing, partial(pick, key, lv, rv))
        if value is not missing:
            merged[key] = value
    if "rounds" in left_c or "rounds" in right_c:
        merged["rounds"] = _rounds(
            [b.get("r", []) for b in bases], left_c.get("rounds", []), right_c.get("rounds", [])
        )
    return merged


def _rounds(bases: list[list[str]], left: list[Any], right: list[Any]) -> list[Any]:
    missing = object()
    merged = []
    for position in range(max(len(left), len(right), *(len(base) for base in bases))):
        lv = left[position] if position < len(left) else missing
        rv = right[position] if position < len(right) else missing
        at = [base[position] if position < len(base) else None for base in bases]
        merged.append(_one(at, lv, rv, missing, partial(overlap, "rounds", lv, rv)))
    while merged and merged[-1] is missing:
        merged.pop()
    if any(value is missing for value in merged):  # a round removed on one side, later ones kept on the other
        raise Overlap
    return merged
