"""Data written by earlier versions opens with every game as it was: a rule tightened since (Ruck Zuck with fewer
rounds than players, a Racko round with no caller, a quick-form round in a 2-player game without the caller's
run) does not make a stored match unreadable. The fixtures were written by the code of each commit
(`fixtures/make_fixtures.py`), with the totals that code computed (`data_<commit>.expected.json`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scorekeeper.digital.session import PlaySession
from scorekeeper.exchange.transfer import import_json
from scorekeeper.store import Store

FIXTURES = Path(__file__).parent / "fixtures"
WRITTEN_BY = ("804ac6b", "1427d2a")
"""Commits whose store wrote a fixture: the version of 2026-11-21 and the one before the readable/rules split."""


def _expected(label: str) -> dict:
    return json.loads((FIXTURES / f"data_{label}.expected.json").read_text(encoding="utf-8"))


def _set_aside(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if ".corrupt" in p.name)


def _check_everything_is_there(store: Store, label: str) -> None:
    expected = _expected(label)
    for match_id, figures in expected["matches"].items():
        match = store.get_match(match_id)
        assert match is not None, (label, match_id, figures["game"])
        assert match.totals() == figures["totals"], (label, match_id)
        assert (match.status, len(match.rounds), match.is_over, match.mode) == (
            figures["status"],
            figures["rounds"],
            figures["is_over"],
            figures["mode"],
        ), (label, match_id)
    assert {s.id for s in store.list_matches()} == set(expected["matches"])
    games = {g.id: g for g in store.list_digital_games()}
    assert set(games) == set(expected["digital_games"])
    for saved_id, figures in expected["digital_games"].items():
        assert (games[saved_id].match_id, len(games[saved_id].log)) == (figures["match_id"], figures["log"])
        session = PlaySession.load(store, saved_id)  # replays the saved moves with today's engine
        assert session is not None and len(session.state.log) == figures["log"]
        assert session.match_over == figures["over"]
    assert store.recovery_messages == []


@pytest.mark.parametrize("label", WRITTEN_BY)
def test_a_data_folder_of_an_earlier_version_opens_with_every_game(tmp_path: Path, label: str) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / f"data_{label}", folder)
    store = Store.open(folder)
    assert store.recovery_messages == []
    _check_everything_is_there(store, label)
    assert _set_aside(folder) == []


@pytest.mark.parametrize("label", WRITTEN_BY)
def test_an_export_of_an_earlier_version_imports_every_game(tmp_path: Path, label: str) -> None:
    """Import was all or nothing, and one old match refused the whole file: it imports whole now."""
    folder = tmp_path / "data"
    store = Store.open(folder)
    report = import_json(store, FIXTURES / f"data_{label}.export.json")
    expected = _expected(label)
    assert (report.matches_added, report.saved_games_added) == (
        len(expected["matches"]),
        len(expected["digital_games"]),
    )
    _check_everything_is_there(store, label)
    assert _set_aside(folder) == []
    store.close()
    again = Store.open(folder)  # and what the import wrote opens again
    _check_everything_is_there(again, label)


def test_the_reported_ruck_zuck_game_opens_with_its_round_and_totals(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / "data_804ac6b", folder)
    store = Store.open(folder)
    match = next(m for m in store.iter_matches(game="ruckzuck") if m.options.get("rounds") == 1)
    assert match.rounds == [{"hands": [[], [5, 12, "J"], [1, 2]], "out": 0}]
    assert (match.totals(), match.is_over, match.status) == ([0, 117, 3], True, "finished")
    assert store.recovery_messages == [] and _set_aside(folder) == []
