"""Version vectors and the merge of two versions of a record.

Every synced record carries a version vector: device id -> the sequence number of that device's latest change
to it (a device's sequence numbers only grow, so a number is never given to two different contents). Version A
*has seen* B when every entry of B is at most A's; otherwise, and if B has not seen A either, the two changed
independently and are merged field by field against their common ancestors (earlier versions both have
seen, kept as hashes). A match's rounds merge by position: a round changed on one side only takes that side's
value; the same round changed differently on both sides (two devices entering round 4 differently included) is
a conflict, never decided by a clock.

Which ancestors a record keeps (`remember`, `read_from`; its `anc` list in the sync state): the last
ANCESTORS_KEPT versions; for every other device the versions it is known to have seen, tagged with its id in
`by`: the version last read from it, and the latest version of this device's own that version had seen; and
the versions after the oldest tagged one (that device may have read any of them by now), ANCESTORS_MAX at most.
A device that saves and syncs often passes many versions of its own before the other device's change arrives;
the last few alone then no longer reach back to what both have seen (issue 49). The version read from a device
is the exact common ancestor for the next version that device sends when its own version is the last thing
both saw, so of two devices one always holds it; the other finds the base `stale` (`stale`) and leaves the
merge to it (merging.py) instead of calling the change a conflict. The tags cost one or two entries per
device, and an ancestors list written without them (an earlier version's) reads as untagged.
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
ANCESTORS_MAX = 16
"""The most versions kept after the oldest one another device is known to have seen (besides the tagged)."""


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


def common(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> list[dict[str, Any]]:
    """The remembered versions both `left` and `right` have seen, the latest first."""
    found = [c for c in candidates if leq(c["vv"], left) and leq(c["vv"], right)]
    return sorted(found, key=lambda c: sum(c["vv"].values()), reverse=True)


def ancestor(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> Hashes | None:
    """The latest remembered version both `left` and `right` have seen."""
    found = common(candidates, left, right)
    return found[0]["h"] if found else None


def ancestors(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> list[Hashes]:
    """Every remembered version both `left` and `right` have seen, the latest first (what `merge` takes)."""
    return [c["h"] for c in common(candidates, left, right)]


def stale(candidates: list[dict[str, Any]], me: str, left: Vector, right: Vector) -> bool:
    """Whether `right` (another device's version) has seen a version of this device (`me`) newer than every
    common ancestor remembered here: the exact base then fell out of this device's list, while the other
    device still holds it (the version it last read from this one)."""
    seen = right.get(me, 0)
    return seen > 0 and all(c["vv"].get(me, 0) < seen for c in common(candidates, left, right))


def _kept(candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every version tagged as seen by another device, and the versions after the oldest of them (any of
    which that device may have read by now: the last ANCESTORS_MAX of them at most, the last ANCESTORS_KEPT
    in any case), in order."""
    tagged = [n for n, c in enumerate(candidates) if c.get("by")]
    last = len(candidates) - ANCESTORS_KEPT
    start = max(min([last, *tagged]), len(candidates) - ANCESTORS_MAX)
    return [c for n, c in enumerate(candidates) if n >= start or c.get("by")]


def _added(candidates: list[dict[str, Any]], vector: Vector, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The list with this version last (moved there when it is in the list already, its tags kept)."""
    old = next((c for c in candidates if c["vv"] == vector), None)
    entry: dict[str, Any] = {"vv": dict(vector), "h": hashes(data)}
    if old is not None and old.get("by"):
        entry["by"] = list(old["by"])
    return [*(c for c in candidates if c is not old), entry]


def remember(candidates: list[dict[str, Any]], vector: Vector, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ancestors list with this version added (the last few, and the tagged ones: see the module)."""
    return _kept(_added(candidates, vector, data))


def read_from(
    candidates: list[dict[str, Any]],
    device: str,
    vector: Vector,
    data: dict[str, Any] | None,
    mine: Vector,
) -> list[dict[str, Any]]:
    """The ancestors list after reading `device`'s version (`vector`, `data`; None: a deletion) while this
    device's version is `mine`: that version, and the latest remembered version both have seen, are tagged
    as the ones `device` is known to have seen (its older tags go)."""
    listed = _added(candidates, vector, data) if data is not None else list(candidates)
    both = common(listed, mine, vector)
    tagged = {id(c) for c in listed if c["vv"] == vector} | ({id(both[0])} if both else set())
    result = []
    for c in listed:
        by = [d for d in c.get("by", ()) if d != device] + ([device] if id(c) in tagged else [])
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
    """One field or round: equal on both sides, or changed on one side only since the latest common ancestor
    that holds either side's value (an older one decides where a newer one holds neither: the side that
    still has what both saw there did not change it)."""
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
