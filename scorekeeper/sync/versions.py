"""Version vectors and the merge of two versions of a record.

Every synced record carries a version vector: device id -> the sequence number of that device's latest change
to it (a device's sequence numbers only grow, so a number is never given to two different contents). Version A
*has seen* B when every entry of B is at most A's; otherwise, and if B has not seen A either, the two changed
independently and are merged field by field against their common ancestor (the latest earlier version both
have seen, kept as hashes). A match's rounds merge by position: a round changed on one side only takes that
side's value; the same round changed differently on both sides (two devices entering round 4 differently
included) is a conflict, never decided by a clock.
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


def ancestor(candidates: list[dict[str, Any]], left: Vector, right: Vector) -> Hashes | None:
    """The latest remembered version both `left` and `right` have seen."""
    common = [c for c in candidates if leq(c["vv"], left) and leq(c["vv"], right)]
    if not common:
        return None
    return max(common, key=lambda c: sum(c["vv"].values()))["h"]


def remember(candidates: list[dict[str, Any]], vector: Vector, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ancestors list with this version added (the last few only)."""
    kept = [c for c in candidates if c["vv"] != vector]
    return [*kept, {"vv": dict(vector), "h": hashes(data)}][-ANCESTORS_KEPT:]


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


def _one(base: str | None, left: Any, right: Any, missing: object, decide: Callable[[], Any]) -> Any:
    if left == right:
        return left
    left_hash = None if left is missing else digest(left)
    right_hash = None if right is missing else digest(right)
    if left_hash == base:
        return right
    if right_hash == base:
        return left
    return decide()


def merge(
    base: Hashes | None, left: dict[str, Any], right: dict[str, Any], pick: Pick = overlap
) -> dict[str, Any]:
    """The three-way merge of two versions' contents (see the module's docstring); Overlap where they
    changed the same field or round differently and `pick` does not decide."""
    missing = object()
    base_fields = (base or {}).get("f", {})
    merged: dict[str, Any] = {}
    left_c, right_c = content(left), content(right)
    for key in sorted(set(left_c) | set(right_c)):
        if key == "rounds":
            continue
        lv, rv = left_c.get(key, missing), right_c.get(key, missing)
        value = _one(base_fields.get(key), lv, rv, missing, partial(pick, key, lv, rv))
        if value is not missing:
            merged[key] = value
    if "rounds" in left_c or "rounds" in right_c:
        merged["rounds"] = _rounds(
            (base or {}).get("r", []), left_c.get("rounds", []), right_c.get("rounds", [])
        )
    return merged


def _rounds(base: list[str], left: list[Any], right: list[Any]) -> list[Any]:
    missing = object()
    merged = []
    for position in range(max(len(left), len(right), len(base))):
        lv = left[position] if position < len(left) else missing
        rv = right[position] if position < len(right) else missing
        bv = base[position] if position < len(base) else None
        merged.append(_one(bv, lv, rv, missing, partial(overlap, "rounds", lv, rv)))
    while merged and merged[-1] is missing:
        merged.pop()
    if any(value is missing for value in merged):  # a round removed on one side, later ones kept on the other
        raise Overlap
    return merged
