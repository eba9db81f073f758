"""The work one save does (issue 52, "Saves"): the options made once per match value, the rounds checked once
per change instead of again for the file about to be written and again for the screen built after it, and the
match written handed back only while its file is still that write."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from unittest import mock

import pytest
from test_store_support import new_match, rz_round

from scorekeeper.games.base import RuleError
from scorekeeper.games.contract import GameSpec
from scorekeeper.model import match as match_module
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.match_file import MATCH_KIND, match_tables
from scorekeeper.store.storage import write_envelope


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


def counting(target: object, name: str) -> mock._patch[mock.MagicMock]:
    """Patch `target.name` with a spy that still calls it."""
    return mock.patch.object(target, name, wraps=getattr(target, name))


def test_the_options_are_made_once_per_match_value() -> None:
    match = new_match(rounds=12)
    fresh = dataclasses.replace(match)  # the same options dict, no figures kept yet
    with mock.patch.object(
        GameSpec, "stored_options", autospec=True, side_effect=GameSpec.stored_options
    ) as made:
        fresh.totals()
        fresh.standings()
        assert fresh.is_over is False
    assert made.call_count == 1  # was once per question: chips, target, rounds planned, for every round


def test_a_save_checks_the_rounds_once_and_the_screen_after_it_reads_no_file(store: Store) -> None:
    match = new_match(store, rounds=6)
    store.save_match(match)
    rng = random.Random(7)
    store.change_match(match.id, lambda m: m.with_round(rz_round(rng)))  # the store now knows its last write
    with counting(match_module, "tally_rounds") as tallied, counting(Match, "from_dict") as rebuilt:
        saved = store.change_match(match.id, lambda m: m.with_round(rz_round(rng)), "Round 8 added")
        shown = store.get_match(match.id)  # the scoreboard built after the save
    # once, for the round entered: not again for the stored match, the data written or the screen (was 4 times)
    assert tallied.call_count == 1
    assert rebuilt.call_count == 1  # the data about to be written is still checked as a stored match
    assert shown is saved and shown is not None and shown.version == match.version + 3
    assert shown.round_index == 8


def test_the_written_match_is_read_again_once_anyone_else_writes_its_file(store: Store) -> None:
    match = new_match(store, rounds=3)
    store.save_match(match)
    saved = store.change_match(match.id, lambda m: m.with_round(rz_round()))
    assert store.get_match(match.id) is saved
    # another process (a sync, an older app) writes the file: a new file, another fingerprint
    other = dataclasses.replace(saved, notes="written elsewhere")
    data = {**other.to_dict(), "version": saved.version + 1}
    write_envelope(store.matches.path(match.id), MATCH_KIND, match_tables(data))
    read = store.get_match(match.id)
    assert read is not saved and read is not None
    assert read.notes == "written elsewhere" and read.version == saved.version + 1
    changed = store.change_match(match.id, lambda m: dataclasses.replace(m, place="Club"))
    assert changed.notes == "written elsewhere"  # the change applied to the file as it is, not the kept match
    assert store.delete_match(match.id)
    assert store.get_match(match.id) is None


def test_figures_are_kept_only_for_the_same_rounds() -> None:
    match = new_match(rounds=4)
    data = match.to_dict()
    assert Match.from_dict(data, checked=match).totals() == match.totals()
    # data whose rounds differ from the match given (a round that cannot be scored): checked, and refused
    data["rounds"][1] = {"hands": [1, 2], "out": 0}
    with pytest.raises(RuleError):
        Match.from_dict(data, checked=match)


def test_the_save_breakdown_gives_the_handlers_processor_time() -> None:
    """`save_server_cpu_ms` (bench/save_spans.py): the handler's own processor time, which compares versions on a
    busy machine; one thread's processor time never exceeds the time that passed."""
    from scorekeeper.bench.save_spans import measure

    figures = measure(saves=1)
    assert 0 < figures["save_server_cpu_ms"] <= figures["save_server_ms_all"][0] + 0.5
