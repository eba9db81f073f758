"""Files written by earlier versions stay readable: `fixtures/data_v2` is a data folder written by the store as
it was before the store was split into parts (schema 2), `fixtures/data_v2.export.json` its export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from scorekeeper.exchange.transfer import export_json_text, import_json
from scorekeeper.store import Store

FIXTURES = Path(__file__).parent / "fixtures"


def _without_time(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "exported"}


def test_a_folder_written_by_the_previous_version_opens_with_everything_in_it(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / "data_v2", folder)
    store = Store.open(folder)
    assert store.recovery_messages == []
    expected = json.loads((FIXTURES / "data_v2.export.json").read_text(encoding="utf-8"))
    assert _without_time(json.loads(export_json_text(store))) == _without_time(expected)
    assert len(store.list_matches()) == 4
    assert {p.name for p in store.list_players(include_archived=True)} == {"Anna", "Ben", "Cleo", "Dirk"}
    assert store.settings() == {"language": "de", "theme": "dark"}
    assert len(store.list_digital_games()) == 1
    # and it can still be changed
    match = store.get_match(store.list_matches(status="active")[0].id)
    assert match is not None
    match = store.save_match(match)


def test_an_export_of_the_previous_version_imports(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data")
    report = import_json(store, FIXTURES / "data_v2.export.json")
    assert (report.matches_added, report.players_added, report.saved_games_added) == (4, 4, 1)
    expected = json.loads((FIXTURES / "data_v2.export.json").read_text(encoding="utf-8"))
    assert _without_time(json.loads(export_json_text(store))) == _without_time(expected)
