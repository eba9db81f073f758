"""The match index writes a bucket by joining its entries' JSON as last encoded (so a save encodes one entry
whatever the size of the history): the file must be byte for byte what encoding the whole bucket makes, after
any sequence of puts and removals, and read back to the same summaries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.racko.spec import SPEC as RACKO
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store import index as index_module
from scorekeeper.store import storage as storage_module
from scorekeeper.store.index import KIND, TABLE, MatchIndex
from scorekeeper.store.paths import Layout
from scorekeeper.store.records import MatchSummary
from scorekeeper.store.storage import dumps, envelope

NAMES = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)
STEPS = st.lists(
    st.tuples(st.booleans(), st.sampled_from([f"m{n}" for n in range(12)]), st.integers(0, 99), NAMES),
    max_size=30,
)


def summary(match_id: str, total: int, name: str) -> MatchSummary:
    return MatchSummary(
        id=match_id,
        game="racko",
        mode="score",
        status="in_progress",
        players=["p1", "p2"],
        names=[name, "Ben"],
        created="2026-01-01T00:00:00+00:00",
        updated=f"2026-01-01T00:00:{total % 60:02d}+00:00",
        version=total + 1,
        rounds=total,
        totals=[total, 0],
        winners=[],
        is_over=False,
    )


@settings(max_examples=40, deadline=None)
@given(steps=STEPS)
def test_a_bucket_file_is_the_whole_bucket_encoded(tmp_path_factory: object, steps: list) -> None:
    root = Path(tmp_path_factory.mktemp("index"))  # type: ignore[attr-defined]
    layout = Layout(root)
    layout.index.mkdir(parents=True)
    (root / "matches").mkdir()
    index = MatchIndex(layout, lambda _m: None)
    probe = root / "matches" / "probe.json"
    probe.write_bytes(b"{}")
    for put, match_id, total, name in steps:
        if put:
            index.put(summary(match_id, total, name), os.stat(probe))
        else:
            index.remove(match_id)
        number = layout.bucket_of(match_id)
        entries = index.bucket_entries(number)
        table = {str(i + 1): entry for i, entry in enumerate(sorted(entries.values(), key=lambda e: e["id"]))}
        if layout.bucket(number).exists():
            assert layout.bucket(number).read_bytes() == dumps(envelope(KIND, {TABLE: table}))
    fresh = MatchIndex(layout, lambda _m: None)  # read back from the files
    assert sorted(s.id for s in fresh.summaries()) == sorted(s.id for s in index.summaries())
    assert fresh.all_entries() == index.all_entries()


def test_a_save_encodes_one_index_entry_whatever_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted, not timed: with 200 matches stored (about six per bucket) saving one more round encodes the
    saved match's index entry and no other (before, the whole bucket was encoded again: its cost grew with
    the history, `bench store`'s write_ratio_10k)."""
    store = Store.open(tmp_path / "data")
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    matches = []
    for _ in range(200):
        match = Match.new(
            RACKO.key, {"target": 100_000, "two_player_rule": False}, ids, names=["Anna", "Ben"]
        )
        matches.append(store.save_match(match))
    encoded: list[str] = []
    real_dumps = index_module.dumps

    def dumps(document: object) -> bytes:
        if isinstance(document, dict) and "file" in document:  # an index entry
            encoded.append(str(document["id"]))
        elif isinstance(document, dict) and document.get("scorekeeper") == KIND:  # a whole bucket
            encoded.extend(str(e["id"]) for e in document["tables"][TABLE].values())
        return real_dumps(document)

    monkeypatch.setattr(index_module, "dumps", dumps)
    monkeypatch.setattr(storage_module, "dumps", dumps)
    played = matches[37]
    played = played.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    played = store.save_match(played)
    assert encoded == [played.id]
    assert played.id in {s.id for s in Store.open(tmp_path / "data").list_matches() if s.rounds == 1}
