"""Damaged files: each kind of damage on each kind of file gives its documented outcome (recovery.py):
the file is set aside with "corrupt" in its name, the last good copy is restored, the store opens, and a
message says what happened and what was restored."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_store_support import new_match, rz_round

from scorekeeper.model.match import Match
from scorekeeper.store import SavedGame, Store
from scorekeeper.store.storage import read_envelope

WRONG_SHAPES = {
    "list": b"[1, 2, 3]",
    "other kind": json.dumps({"scorekeeper": "nonsense", "schema": 2, "tables": {}}).encode(),
    "no schema": json.dumps({"scorekeeper": "match", "tables": {}}).encode(),
}


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def empty(path: Path) -> None:
    path.write_bytes(b"")


def garbage(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 4)


def wrong_shape(path: Path) -> None:
    """Valid JSON, marked as the right kind, but its tables are not tables."""
    document = json.loads(path.read_text())
    document["tables"] = {name: [1, 2] for name in document["tables"]} or {"x": [1]}
    path.write_text(json.dumps(document))


def wrong_content(path: Path) -> None:
    """Valid JSON in a valid envelope whose records are wrong for the kind (a match of chess, a player
    with a number for a name)."""
    document = json.loads(path.read_text())
    for table in document["tables"].values():
        for key in table:
            table[key] = {"id": 7, "game": "chess", "name": 3, "layout": "x"}
    path.write_text(json.dumps(document))


def not_an_envelope(path: Path) -> None:
    path.write_bytes(WRONG_SHAPES["list"])


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": truncate,
    "empty": empty,
    "garbage": garbage,
    "wrong shape": wrong_shape,
    "plain list": not_an_envelope,
}
RECORD_DAMAGE = {**DAMAGE, "wrong content": wrong_content}
"""Files whose records have a checked shape (matches, players, the version record)."""
REASONS = {
    "truncated": "truncated",
    "empty": "empty",
    "garbage": "binary garbage",
    "wrong shape": "wrong shape",
    "plain list": "wrong shape",
    "wrong content": "wrong shape",
}


def corrupt_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if "corrupt" in p.name]


def all_files_readable(folder: Path) -> None:
    kinds = {"matches": "match", "index": "index", "digital": "digital"}
    for path in folder.rglob("*.json"):
        if "backups" in path.parts or "trash" in path.parts:
            continue
        kind = kinds.get(path.parent.name, path.stem)
        read_envelope(path, kind)


@pytest.fixture
def played(tmp_path: Path) -> tuple[Store, str]:
    """A store with a match saved three times (so a previous copy exists)."""
    store = Store.open(tmp_path)
    match = store.save_match(new_match(store, rounds=1))
    match = match.with_round(rz_round())
    match = store.save_match(match)
    match = match.with_round(rz_round())
    match = store.save_match(match)
    return store, match.id


@pytest.mark.parametrize("damage", RECORD_DAMAGE)
def test_damaged_match_file_is_set_aside_and_the_previous_copy_restored(
    played: tuple[Store, str], damage: str
) -> None:
    store, match_id = played
    path = store.data_dir / "matches" / f"{match_id}.json"
    RECORD_DAMAGE[damage](path)
    fresh = Store.open(store.data_dir)
    [message] = fresh.recovery_messages
    assert "The Ruck Zuck game of Anna, Ben and Cleo" in message
    assert REASONS[damage] in message and "the previous copy was restored" in message
    [aside] = corrupt_files(store.data_dir)
    assert aside.name.startswith(f"{match_id}.json.corrupt-") and aside.name in message
    restored = fresh.get_match(match_id)
    assert restored.version == 2 and len(restored.rounds) == 2
    assert [s.rounds for s in fresh.list_matches()] == [2]
    all_files_readable(store.data_dir)
    assert Store.open(store.data_dir).recovery_messages == []


def test_damage_found_while_running_is_recovered_on_read(played: tuple[Store, str]) -> None:
    store, match_id = played
    garbage(store.data_dir / "matches" / f"{match_id}.json")
    assert store.get_match(match_id).version == 2
    assert "the previous copy was restored" in store.recovery_messages[0]


def test_damage_found_when_saving_restores_then_checks_the_version(played: tuple[Store, str]) -> None:
    store, match_id = played
    match = store.get_match(match_id)  # version 3
    truncate(store.data_dir / "matches" / f"{match_id}.json")
    match = match.with_round(rz_round())
    with pytest.raises(Exception, match="changed on another device"):
        store.save_match(match)  # the restored copy is version 2: the edit must be redone on it
    assert store.get_match(match_id).version == 2


def test_match_without_backup_comes_from_the_latest_snapshot(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    match = store.save_match(new_match(store, rounds=2))
    store.snapshot()
    empty(tmp_path / "matches" / f"{match.id}.json")
    fresh = Store.open(tmp_path)
    assert "the copy from the latest backup snapshot was restored" in fresh.recovery_messages[0]
    assert fresh.get_match(match.id).rounds == match.rounds


def test_match_with_no_good_copy_anywhere_is_left_out_and_kept_aside(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    match = store.save_match(new_match(store, rounds=2))
    other = store.save_match(new_match(store, rounds=1, seed=5))
    garbage(tmp_path / "matches" / f"{match.id}.json")
    fresh = Store.open(tmp_path)
    [message] = fresh.recovery_messages
    assert "could not be read (the file is not text (binary garbage)) and no good copy was found" in message
    assert "kept as" in message
    assert [s.id for s in fresh.list_matches()] == [other.id]
    assert fresh.get_match(match.id) is None
    assert len(corrupt_files(tmp_path)) == 1


def test_missing_match_file_is_restored_from_its_backup(played: tuple[Store, str]) -> None:
    store, match_id = played
    (store.data_dir / "matches" / f"{match_id}.json").unlink()
    fresh = Store.open(store.data_dir)
    assert "file is missing" in fresh.recovery_messages[0]
    assert fresh.get_match(match_id).version == 2


@pytest.mark.parametrize("damage", RECORD_DAMAGE)
def test_damaged_player_list(tmp_path: Path, damage: str) -> None:
    store = Store.open(tmp_path)
    for name in ("Anna", "Ben", "Cleo"):
        store.add_player(name)
    RECORD_DAMAGE[damage](tmp_path / "players.json")
    fresh = Store.open(tmp_path)
    [message] = fresh.recovery_messages
    assert message.startswith("The player list could not be read") and "previous copy was restored" in message
    assert [p.name for p in fresh.list_players()] == ["Anna", "Ben"]  # the copy before the last change
    assert len(corrupt_files(tmp_path)) == 1


def test_player_list_with_no_good_copy_is_rebuilt_from_the_games(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.save_match(new_match(store, rounds=1))
    for path in (tmp_path / "players.json", tmp_path / "players.json.bak"):
        garbage(path)
    for snapshot in store.list_snapshots():
        snapshot.unlink()
    fresh = Store.open(tmp_path)
    assert "no good copy was found" in fresh.recovery_messages[0]
    assert "Players were rebuilt from the saved games (3 found)." in fresh.recovery_messages
    assert [p.name for p in fresh.list_players()] == ["Anna", "Ben", "Cleo"]


def test_computer_players_are_not_rebuilt_as_people(tmp_path: Path) -> None:
    """A digital game seats computer players (ids computer-<strength>-<n>, or computer-<n> at a table): they are
    not people, so a player list rebuilt from the games leaves them out."""
    store = Store.open(tmp_path)
    anna = store.add_player("Anna")
    seats = [anna.id, "computer-hard-2", "computer-3"]
    match = Match.new("racko", {}, seats, names=["Anna", "Hard", "Table CPU"], first_dealer=0, mode="digital")
    match = store.save_match(match)
    for path in (tmp_path / "players.json", tmp_path / "players.json.bak"):
        garbage(path)
    for snapshot in store.list_snapshots():
        snapshot.unlink()
    fresh = Store.open(tmp_path)
    assert "Players were rebuilt from the saved games (1 found)." in fresh.recovery_messages
    assert [p.name for p in fresh.list_players()] == ["Anna"]


@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_settings(tmp_path: Path, damage: str) -> None:
    store = Store.open(tmp_path)
    store.set_setting("language", "fr")
    store.set_setting("theme", "dark")
    DAMAGE[damage](tmp_path / "settings.json")
    fresh = Store.open(tmp_path)
    assert fresh.recovery_messages[0].startswith("Your settings could not be read")
    assert fresh.settings() == {"language": "fr"}


def test_settings_with_no_good_copy_fall_back_to_defaults(tmp_path: Path) -> None:
    for snapshot in Store.open(tmp_path).list_snapshots():
        snapshot.unlink()
    empty(tmp_path / "settings.json")
    fresh = Store.open(tmp_path)
    assert "The default settings are used" in fresh.recovery_messages[0]
    assert fresh.settings() == {}


@pytest.mark.parametrize("damage", RECORD_DAMAGE)
def test_damaged_version_record_is_recreated(played: tuple[Store, str], damage: str) -> None:
    store, match_id = played
    RECORD_DAMAGE[damage](store.data_dir / "meta.json")
    fresh = Store.open(store.data_dir)
    assert fresh.recovery_messages[0].startswith("The data version record could not be read")
    assert "recreated" in fresh.recovery_messages[0]
    assert fresh.get_match(match_id).version == 3


@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_index_is_rebuilt_from_the_match_files(played: tuple[Store, str], damage: str) -> None:
    store, match_id = played
    [bucket] = (store.data_dir / "index").glob("*.json")
    DAMAGE[damage](bucket)
    fresh = Store.open(store.data_dir)
    [message] = fresh.recovery_messages
    assert "list of saved games could not be read" in message and "rebuilt" in message
    assert [(s.id, s.version) for s in fresh.list_matches()] == [(match_id, 3)]


def test_index_damaged_while_running_is_rebuilt_on_listing(played: tuple[Store, str]) -> None:
    store, match_id = played
    [bucket] = (store.data_dir / "index").glob("*.json")
    garbage(bucket)
    assert [s.id for s in store.list_matches()] == [match_id]
    assert store.recovery_messages


def test_stale_index_entry_is_refreshed_silently(played: tuple[Store, str]) -> None:
    """A crash between writing the match and its index leaves the index one edit behind."""
    store, match_id = played
    [bucket] = (store.data_dir / "index").glob("*.json")
    old_index = bucket.read_bytes()
    match = store.get_match(match_id)
    match = match.with_round(rz_round())
    match = store.save_match(match)
    bucket.write_bytes(old_index)
    fresh = Store.open(store.data_dir)
    assert fresh.recovery_messages == []
    assert [(s.version, s.rounds) for s in fresh.list_matches()] == [(4, 4)]


def test_a_match_file_without_index_entry_is_listed(played: tuple[Store, str]) -> None:
    store, match_id = played
    for bucket in (store.data_dir / "index").glob("*.json"):
        bucket.unlink()
    assert [s.id for s in Store.open(store.data_dir).list_matches()] == [match_id]


def test_leftover_temporary_files_are_removed(played: tuple[Store, str]) -> None:
    store, match_id = played
    leftover = store.data_dir / "matches" / f".{match_id}.json.tmp-123-abcd"
    leftover.write_bytes(b'{"half')
    fresh = Store.open(store.data_dir)
    assert not leftover.exists() and fresh.recovery_messages == []


def test_damaged_saved_digital_game(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    saved = SavedGame.new("racko", {"players": 2}, 3, log=["stock"])
    store.save_digital_game(saved)
    saved.log.append(4)
    store.save_digital_game(saved)
    truncate(tmp_path / "digital" / f"{saved.id}.json")
    fresh = Store.open(tmp_path)
    loaded = fresh.get_digital_game(saved.id)
    assert loaded.log == ["stock"] and "previous copy was restored" in fresh.recovery_messages[0]


def test_a_file_holding_another_match_is_wrong_shape(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    one = store.save_match(new_match(store, rounds=1))
    two = store.save_match(new_match(store, rounds=2, seed=3))
    one_path, two_path = (tmp_path / "matches" / f"{m.id}.json" for m in (one, two))
    os.replace(two_path, one_path)  # two's content now under one's name; two's file is gone
    fresh = Store.open(tmp_path)
    assert any("different game" in m for m in fresh.recovery_messages)
    assert fresh.get_match(one.id) is None or fresh.get_match(one.id).id == one.id


def test_players_restored_from_an_old_snapshot_get_everyone_seated_since(tmp_path: Path) -> None:
    store = Store.open(tmp_path)  # the day's snapshot is taken now, with nobody in it
    store.save_match(new_match(store, rounds=1))
    garbage(tmp_path / "players.json")
    garbage(tmp_path / "players.json.bak")
    fresh = Store.open(tmp_path)
    assert "latest backup snapshot was restored" in fresh.recovery_messages[0]
    assert [p.name for p in fresh.list_players()] == ["Anna", "Ben", "Cleo"]


def test_a_deleted_player_file_is_brought_back(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.save_match(new_match(store, rounds=1))
    store.add_player("Dirk")
    (tmp_path / "players.json").unlink()
    fresh = Store.open(tmp_path)
    assert "the previous copy was restored" in fresh.recovery_messages[0]
    assert [p.name for p in fresh.list_players()] == ["Anna", "Ben", "Cleo"]
    assert Store.open(tmp_path).recovery_messages == []
