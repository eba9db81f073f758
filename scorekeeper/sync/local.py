"""This device's changes for a sync: what changed here since the last sync, found by the marks in the sync
state (state.py), each changed record given this device's next sequence number in its version vector and sent
(`Run.send`) with the run's chunk.

- A match, player or saved game whose mark differs (or a match whose conflict a person resolved) is a change.
- A deletion goes out only for what a person deleted: a match or saved game gone from the store whose file is
  in the trash (where the store moves what is deleted), or a conflict a person resolved by deleting, once.
  A record gone for any other reason (a file set aside as damaged, a folder restored from an older copy, a
  record never stored because it could not be read) is never taken for a deletion: the other devices keep it.
- Every record whose version this target has not had from or sent by this device (`TargetState.sent`: what
  an earlier sync merged but could not send, a change sent to another target, everything for a target new to
  this device or emptied) is sent as it is stored now, with its version vector.
"""

from __future__ import annotations

import bisect
import os
from typing import Any

from scorekeeper.sync.running import Running
from scorekeeper.sync.state import PREFIX, fingerprint
from scorekeeper.sync.versions import digest, published, remember


def collect(run: Running) -> None:
    """Send every local change of a match, a player or a saved game (a resolved conflict counts too)."""
    run.resolved = run.sync.resolved()
    summaries = {s.id: s for s in run.store.list_matches()}
    for match_id, summary in summaries.items():
        rec = run.state.record(f"m:{match_id}")
        mark = [summary.version, summary.updated]
        if rec["mark"] == mark and match_id not in run.resolved:
            continue
        data, _ = run.store.matches.stored(match_id)
        if data is None:
            continue
        run.bump(rec, run.resolved.get(match_id))
        rec.update(mark=mark, anc=remember(rec["anc"], rec["vv"], data))
        rec["del"] = False
        run.send("match", match_id, rec, published(data))
    trashed = Trashed(run)
    for key, rec in run.state.records.items():
        match_id = key[2:]
        if (
            key.startswith("m:")
            and match_id not in summaries
            and ((not rec["del"] and trashed.match(match_id)) or match_id in run.resolved)
        ):
            run.bump(rec, run.resolved.get(match_id))
            rec.update(mark=None, anc=rec["anc"])
            rec["del"] = True
            run.send("match", match_id, rec, None)
    _collect_players(run)
    _collect_saved(run, trashed)


class Trashed:
    """Which records a person deleted: their files are in the data folder's trash (`<id>-<time>.json` for a
    match, `digital-<id>-<time>.json` for a saved game). The folder is listed once, when first asked."""

    def __init__(self, run: Running) -> None:
        self.folder = run.store.layout.trash
        self.names: list[str] | None = None

    def _has(self, prefix: str) -> bool:
        if self.names is None:
            try:
                self.names = sorted(entry.name for entry in os.scandir(self.folder))
            except OSError:
                self.names = []
        at = bisect.bisect_left(self.names, prefix)
        return at < len(self.names) and self.names[at].startswith(prefix)

    def match(self, match_id: str) -> bool:
        return self._has(f"{match_id}-")

    def saved(self, game_id: str) -> bool:
        return self._has(f"digital-{game_id}-")


def unsent(run: Running) -> None:
    """Send every record the target has not had in its current version (`TargetState.sent`), as it is stored
    now: deleted ones as deleted; one whose data is gone and not deleted (nothing to say) is left out."""
    sent = run.here.sent
    rows: dict[Any, dict[str, Any]] | None = None
    for key, rec in run.state.records.items():
        if key in run.out or not rec["vv"] or sent.get(key) == fingerprint(rec["vv"]):
            continue
        kind = next(k for k, prefix in PREFIX.items() if prefix == key[0])
        data: dict[str, Any] | None = None
        if not rec["del"]:
            if kind == "match":
                data = run.store.matches.stored(key[2:])[0]
            elif kind == "player":
                if rows is None:
                    rows = {doc.get("id"): doc for doc in run.store.players.rows().values()}
                data = rows.get(key[2:])
            else:
                game = run.store.get_digital_game(key[2:])
                data = game.to_dict() if game else None
            if data is None:
                continue
        run.send(kind, key[2:], rec, None if data is None else published(data))


def _collect_players(run: Running) -> None:
    for doc in run.store.players.rows().values():
        rec = run.state.record(f"p:{doc['id']}")
        mark = digest(doc)
        if rec["mark"] != mark:
            run.bump(rec)
            rec.update(mark=mark, anc=remember(rec["anc"], rec["vv"], doc))
            run.send("player", doc["id"], rec, dict(doc))


def _collect_saved(run: Running, trashed: Trashed) -> None:
    present = set()
    for game in run.store.list_digital_games():
        present.add(game.id)
        rec = run.state.record(f"d:{game.id}")
        mark = [game.version, game.updated]
        if rec["mark"] != mark:
            run.bump(rec)
            rec.update(mark=mark)
            rec["del"] = False
            run.send("digital", game.id, rec, published(game.to_dict()))
    for key, rec in run.state.records.items():
        if key.startswith("d:") and key[2:] not in present and not rec["del"] and trashed.saved(key[2:]):
            run.bump(rec)
            rec.update(mark=None)
            rec["del"] = True
            run.send("digital", key[2:], rec, None)
