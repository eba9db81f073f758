"""Undo and redo as a per-match history stored with the match, and a match
is checked before it is written."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_store_support import new_match, rz_round, tree

from scorekeeper.games.base import RuleError
from scorekeeper.store import ConflictError, InputError, Store
from scorekeeper.store.storage import read_envelope


def test_undo_never_drops_a_round_another_device_saved(tmp_path: Path) -> None:
    """A saves round 1, B saves round 2, A taps Undo: refused with a conflict, round 2 stays."""
    phone, tablet = Store.open(tmp_path), Store.open(tmp_path)
    match = phone.save_match(new_match(phone))
    match = match.with_round(rz_round())
    match = phone.save_match(match, "Round 1 added")
    on_tablet = tablet.get_match(match.id)
    on_tablet = on_tablet.with_round(rz_round())
    on_tablet = tablet.save_match(on_tablet, "Round 2 added")
    with pytest.raises(ConflictError, match="changed on another device"):
        phone.undo_match(match.id, match.version)  # the phone still shows round 1 only
    assert len(phone.get_match(match.id).rounds) == 2
    # The tablet, showing the stored state, may undo its own round; the phone's round 1 stays.
    tablet.undo_match(match.id, on_tablet.version)
    assert len(phone.get_match(match.id).rounds) == 1


def test_twenty_changes_can_be_undone_after_a_reload_from_another_device(tmp_path: Path) -> None:
    phone = Store.open(tmp_path)
    match = phone.save_match(new_match(phone))
    for number in range(1, 23):
        match = match.with_round(rz_round())
        match = phone.save_match(match, f"Round {number} added")
    rounds = [dict(r) for r in match.rounds]
    phone.close()
    tablet = Store.open(tmp_path)  # a reload, or another device
    for number in range(22, 2, -1):
        shown = tablet.get_match(match.id)
        history = tablet.match_history(match.id)
        assert history.version == shown.version and history.undo == f"Round {number} added"
        undone = tablet.undo_match(match.id, shown.version)
        assert undone.rounds == rounds[: number - 1]
    assert len(tablet.get_match(match.id).rounds) == 2
    for number in range(3, 6):
        shown = tablet.get_match(match.id)
        assert tablet.match_history(match.id).redo == f"Round {number} added"
        tablet.redo_match(match.id, shown.version)
    assert tablet.get_match(match.id).rounds == rounds[:5]


def test_a_new_change_ends_redo_and_there_is_nothing_to_undo_on_a_new_match(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    match = store.save_match(new_match(store))
    assert store.match_history(match.id).undo is None
    with pytest.raises(InputError, match="nothing to undo"):
        store.undo_match(match.id, match.version)
    match = match.with_round(rz_round())
    match = store.save_match(match, "Round 1 added")
    match = store.undo_match(match.id, match.version)
    assert store.match_history(match.id).redo == "Round 1 added"
    match = match.with_round(rz_round(seats=3))
    match = store.save_match(match, "Round 1 added again")
    assert store.match_history(match.id).redo is None
    with pytest.raises(InputError, match="nothing to redo"):
        store.redo_match(match.id, match.version)


def test_the_history_is_kept_beside_the_match_so_older_readers_see_the_match_unchanged(
    tmp_path: Path,
) -> None:
    store = Store.open(tmp_path)
    match = store.save_match(new_match(store, rounds=1))
    match = match.with_round(rz_round())
    match = store.save_match(match, "Round 2 added")
    tables = read_envelope(store.layout.match(match.id), "match")
    assert tables["match"]["1"] == match.to_dict()
    assert set(tables) == {"match", "history"}


def test_an_invalid_match_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    match = new_match(store)
    match = dataclasses.replace(match, rounds=[{"hands": [3, 4, 5], "out": 7}])  # past the rules check
    before = tree(tmp_path / "data")
    with pytest.raises(RuleError):
        store.save_match(match)
    assert tree(tmp_path / "data") == before and match.version == 0
    assert Store.open(tmp_path / "data").recovery_messages == []
