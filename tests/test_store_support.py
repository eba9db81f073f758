"""Shared builders for the store tests (holds no tests itself)."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.storage import is_tmp, read_envelope

KINDS = {"matches": "match", "index": "index", "digital": "digital"}
"""The envelope kind of a data file by its folder (else by its name)."""


def rz_round(rng: random.Random | None = None, seats: int = 3) -> dict[str, Any]:
    """A valid Ruck Zuck round: one seat went out, the others typed their penalty totals."""
    rng = rng or random.Random(1)
    out = rng.randrange(seats)
    return {"hands": [0 if seat == out else rng.randrange(1, 60) for seat in range(seats)], "out": out}


def new_match(store: Store | None = None, rounds: int = 0, planned: int = 50, seed: int = 1) -> Match:
    rng = random.Random(seed)
    if store is not None:
        existing = {p.name: p for p in store.list_players()}
        people = [existing.get(n) or store.add_player(n) for n in ("Anna", "Ben", "Cleo")]
        ids, names = [p.id for p in people], [p.name for p in people]
    else:
        ids, names = ["p-anna", "p-ben", "p-cleo"], ["Anna", "Ben", "Cleo"]
    match = Match.new("ruckzuck", {"rounds": planned}, ids, names=names)
    for _ in range(rounds):
        match = match.with_round(rz_round(rng))
    return match


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (to prove nothing was touched)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def killed_child_lines(work: Callable[[int], None], wait: float) -> list[str]:
    """Fork a child that runs `work(fd)` (writing one report line per acknowledged step to `fd`), SIGKILL it
    after `wait` seconds and return the complete lines it wrote."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        os.close(read_end)
        try:
            work(write_end)
        finally:
            os._exit(1)
    os.close(write_end)
    time.sleep(wait)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    text = b"".join(chunks).decode()
    return text.split("\n")[:-1]  # the last piece is empty or a report cut off mid-line


def reopened(folder: Path) -> tuple[Store, Match | None]:
    """The store in `folder` and its first active match, if any (a killed child's successor goes on with it)."""
    store = Store.open(folder)
    active = store.list_matches(status="active")
    return store, store.get_match(active[0].id) if active else None


def assert_files_readable(folder: Path) -> None:
    """Every data file opens as what it claims to be (backups aside); no file is corrupt or half-written."""
    for path in folder.rglob("*.json"):
        if "backups" not in path.parts:
            read_envelope(path, KINDS.get(path.parent.name, path.stem))  # raises if unreadable
    assert not any("corrupt" in p.name or is_tmp(p.name) for p in folder.rglob("*"))


def test_an_id_is_safe_only_as_a_string() -> None:
    """A list or tuple of letters passed the file-name check before (its items are letters too), so
    `is_safe_id(["abc"])` said yes; only a string of letters, digits, - and _ is a usable id."""
    from scorekeeper.store.paths import is_safe_id

    assert is_safe_id("a1-b_2")
    for value in (["abc"], ("a", "b"), {"abc": 1}, 5, None, "", "a/b", "x" * 101):
        assert not is_safe_id(value), value
