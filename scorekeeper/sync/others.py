"""Players and saved digital games from another device (matches: merging.py)."""

from __future__ import annotations

from typing import Any

from scorekeeper.model.stamps import now_iso
from scorekeeper.sync.remote import Entry
from scorekeeper.sync.running import Running
from scorekeeper.sync.versions import (
    ancestor,
    by_hash,
    content,
    digest,
    join,
    leq,
    merge,
    published,
    remember,
)


def apply_player(run: Running, entry: Entry, rec: dict[str, Any]) -> None:
    """A player from another device: taken, or merged field by field (the same pick on every device)."""
    players = run.store.players
    with run.store.files.lock.held():
        rows = players.rows()
        key = next((k for k, doc in rows.items() if doc.get("id") == entry.id), None)
        local = rows.get(key) if key else None
        assert entry.data is not None
        if local is None or leq(rec["vv"], entry.vv):
            new, vv = entry.data, dict(entry.vv)
        else:
            base = ancestor(rec["anc"], rec["vv"], entry.vv)
            new, vv = merge(base, local, entry.data, pick=by_hash), join(rec["vv"], entry.vv)
            if new not in (content(local), content(entry.data)):
                vv[run.me] = run.state.next_seq()
            rec["vv"] = vv
            run.send("player", entry.id, rec, dict(new))
        if local is not None and content(local) != content(new):
            run.report.players += 1  # renamed, recoloured or archived (new ones come with their games)
        if key is None:
            key = str(max((int(k) for k in rows if k.isdigit()), default=0) + 1)
        rows[key] = dict(new)
        players.write_rows(rows)
    rec.update(vv=vv, mark=digest(rows[key]), anc=remember(rec["anc"], vv, rows[key]))


def apply_saved(run: Running, entry: Entry, rec: dict[str, Any]) -> None:
    """A saved digital game from another device: taken whole; where both changed it, every device keeps the
    same one (by content hash)."""
    saved = run.store.saved
    vv = dict(entry.vv) if leq(rec["vv"], entry.vv) else join(rec["vv"], entry.vv)
    local = saved.get_digital_game(entry.id)
    take = entry
    if not leq(rec["vv"], entry.vv) and local is not None and not rec["del"]:
        mine = published(local.to_dict())
        if entry.deleted or digest(content(mine)) > digest(content(entry.data or {})):
            take = Entry(entry.seq, "digital", entry.id, vv, False, mine)  # the same pick on every device
        rec["vv"] = vv
        run.send("digital", entry.id, rec, take.data)
    if take.deleted:
        if local is not None:
            run.report.digital += 1
        saved.delete_digital_game(entry.id)
        rec.update(vv=vv, mark=None)
        rec["del"] = True
        return
    assert take.data is not None
    if local is None or content(local.to_dict()) != content(take.data):
        run.report.digital += 1
        version = local.version if local else 0
        with run.store.files.lock.held():
            saved.write_record(
                {**take.data, "version": version + 1, "updated": take.data.get("updated") or now_iso()}
            )
    game = saved.get_digital_game(entry.id)
    rec.update(vv=vv, mark=[game.version, game.updated] if game else None)
    rec["del"] = False
