"""The data folder reads with TinyDB: every record file is a TinyDB document store that a script can query
through the store's storage class (docs/DATA.md), and it holds what the store itself reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from tinydb import Query

from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.errors import CorruptFileError
from scorekeeper.store.storage import tinydb


def a_store(folder: Path) -> tuple[list[str], str]:
    store = Store.open(folder)
    ids = [store.add_player(name).id for name in ("Anna", "Ben", "Cid")]
    match = Match.new("rage", {}, ids, names=["Anna", "Ben", "Cid"])
    match = store.save_match(match)
    store.set_setting("language", "de")
    store.close()
    return ids, match.id


def test_players_settings_and_matches_read_with_tinydb_queries(tmp_path: Path) -> None:
    ids, match_id = a_store(tmp_path)
    players = tinydb(tmp_path / "players.json", "players").table("players")
    (anna,) = players.search(Query().name == "Anna")
    assert anna["id"] == ids[0] and len(players) == 3
    (settings,) = tinydb(tmp_path / "settings.json", "settings").table("settings").all()
    assert settings["language"] == "de"
    (match,) = tinydb(tmp_path / "matches" / f"{match_id}.json", "match").table("match").all()
    assert match["id"] == match_id and match["game"] == "rage"


def test_a_damaged_file_reads_as_an_error_not_as_empty(tmp_path: Path) -> None:
    a_store(tmp_path)
    path = tmp_path / "players.json"
    path.write_bytes(path.read_bytes()[:30])
    with pytest.raises(CorruptFileError):
        tinydb(path, "players").table("players").all()
