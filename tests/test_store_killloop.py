"""The SIGKILL loop: a child process saves rounds, undoes its own last change and imports files,
and is killed at a random moment, again and again on one data folder. After every kill nothing the child
reported as done is lost, the one change in flight is either there or not, an import in flight is there
completely or not at all (and the player is told which), and no file is unreadable."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest
from test_store_support import assert_files_readable, killed_child_lines, reopened, rz_round

from scorekeeper.bench.store import export_text
from scorekeeper.exchange.transfer import import_json_text
from scorekeeper.model.match import Match
from scorekeeper.store import ConflictError, Store

KILLS = 100
CUT_SHORT = ("An import was cut short; it has now been completed.",
             "An import was cut short before it changed anything; your data is as it was. Import the file again.")  # fmt: skip

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL"),
]


def child(folder: Path, side: Path, fd: int, seed: int) -> None:
    """Forever: mostly save a round, sometimes undo it, now and then import a file of new games. Each
    completed step is reported on the pipe as `M <id> <version> <rounds>` or `I <file>`."""
    rng = random.Random(seed)
    store, match = reopened(folder)
    step = 0
    while True:
        step += 1
        roll = rng.random()
        if roll < 0.06:
            name = side / f"import-{seed}-{step}.json"
            text = export_text(rng.randrange(20, 150), rounds=2, seed=seed * 1000 + step)
            ids = [m["id"] for m in json.loads(text)["matches"]]
            name.write_text(json.dumps(ids))
            os.write(fd, f"i {name.name}\n".encode())
            import_json_text(store, text)
            os.write(fd, f"I {name.name}\n".encode())
            continue
        if match is None or len(match.rounds) >= 12:
            match = Match.new("ruckzuck", {"rounds": 12}, ["p1", "p2", "p3"], names=["Anna", "Ben", "Cleo"])
            match = store.save_match(match)
        if roll < 0.3 and store.match_history(match.id).undo is not None:
            try:
                match = store.undo_match(match.id, match.version)
            except ConflictError:  # pragma: no cover - only this child writes
                raise
        else:
            match = match.with_round(rz_round(rng))
            store.save_match(match, f"Round {len(match.rounds)}")
        os.write(fd, f"M {match.id} {match.version} {len(match.rounds)}\n".encode())


def run_child(folder: Path, side: Path, seed: int, wait: float) -> list[str]:
    return killed_child_lines(lambda fd: child(folder, side, fd, seed), wait)


def test_sigkill_over_saves_undo_and_imports_loses_nothing_acknowledged(tmp_path: Path) -> None:
    folder, side = tmp_path / "data", tmp_path / "side"
    side.mkdir()
    rng = random.Random(909)
    acked: dict[str, tuple[int, int]] = {}  # match id -> (version, rounds) last reported
    imported: set[str] = set()
    counts = {"M": 0, "I": 0, "cut": 0, "completed": 0, "done": 0, "dropped": 0}
    Store.open(folder).close()
    for kill in range(KILLS):
        lines = run_child(folder, side, kill + 1, rng.uniform(0.05, 0.5))
        in_flight: str | None = None
        for line in lines:
            kind, value, *rest = line.split()
            if kind == "M":
                acked[value] = (int(rest[0]), int(rest[1]))
                counts["M"] += 1
            elif kind == "i":
                in_flight = value
            elif kind == "I":
                imported.update(json.loads((side / value).read_text()))
                in_flight = None
                counts["I"] += 1
        store = Store.open(folder)
        assert all(str(m) in CUT_SHORT for m in store.recovery_messages), store.recovery_messages
        for match_id, (version, rounds) in acked.items():
            match = store.get_match(match_id)
            assert match is not None, f"kill {kill}: match {match_id} lost"
            assert version <= match.version <= version + 1, f"kill {kill}: {match_id} v{match.version}"
            if match.version == version:
                assert len(match.rounds) == rounds
            acked[match_id] = (match.version, len(match.rounds))  # the baseline for the next child
        listed = {s.id for s in store.list_matches()}
        assert imported <= listed, f"kill {kill}: an acknowledged import lost games"
        if in_flight is not None:
            counts["cut"] += 1
            ids = set(json.loads((side / in_flight).read_text()))
            present = ids & listed
            assert present in (set(), ids), f"kill {kill}: half an import ({len(present)} of {len(ids)})"
            if present:
                # Finished at this open (and the player is told so), or already in place before the kill.
                finished_now = CUT_SHORT[0] in [str(m) for m in store.recovery_messages]
                counts["completed" if finished_now else "done"] += 1
                imported |= ids
            else:
                counts["dropped"] += 1
        assert_files_readable(folder)
        assert not (folder / "import-staging").exists() and not (folder / "import-journal.json").exists()
        store.close()
    print(
        f"\n{KILLS} kills: {counts['M']} saves/undos and {counts['I']} imports acknowledged, none lost; "
        f"{counts['cut']} imports cut by a kill ({counts['completed']} completed at open, {counts['done']} "
        f"complete before the kill, {counts['dropped']} left no trace)",
        file=sys.stderr,
    )
    assert counts["M"] >= KILLS  # the child did real work between kills
