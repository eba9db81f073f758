"""The store's everyday behaviour: creating the folder, players, settings, matches, saved games, conflicts
between devices, serialised writes, data-folder resolution, schema versions and the legacy migration."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from pathlib import Path

import pytest
from test_store_support import new_match, rz_round, tree

from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.store import (
    ConflictError,
    InputError,
    NewerVersionError,
    SavedGame,
    Store,
    StoreError,
    resolve_data_dir,
)
from scorekeeper.store.paths import ENV_DATA, ENV_FLET_DATA
from scorekeeper.store.storage import read_envelope


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


# ------------------------------------------------------------------ folder
def test_open_creates_the_folder_and_its_files(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "deep"
    store = Store.open(folder)
    assert store.data_dir == folder
    assert (folder / "meta.json").is_file()
    assert (folder / "players.json").is_file() and (folder / "settings.json").is_file()
    assert (folder / "matches").is_dir() and (folder / "index").is_dir()
    assert store.recovery_messages == []
    assert store.list_matches() == [] and store.list_players() == []
    again = Store.open(folder)
    assert again.recovery_messages == []


def test_data_dir_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_DATA, raising=False)
    monkeypatch.delenv(ENV_FLET_DATA, raising=False)
    assert resolve_data_dir().name == "scorekeeper"  # platformdirs user data folder
    monkeypatch.setenv(ENV_FLET_DATA, str(tmp_path / "flet"))
    assert resolve_data_dir() == tmp_path / "flet" / "scorekeeper"
    monkeypatch.setenv(ENV_DATA, str(tmp_path / "env"))
    assert resolve_data_dir() == tmp_path / "env"
    assert resolve_data_dir(tmp_path / "explicit") == tmp_path / "explicit"


def test_every_file_is_a_tinydb_envelope_with_schema(store: Store) -> None:
    store.save_match(new_match(store, rounds=2))
    for path in store.data_dir.rglob("*.json"):
        if "backups" in path.parts:
            continue
        document = json.loads(path.read_text())
        assert document["schema"] == 2
        assert isinstance(document["tables"], dict)


# ------------------------------------------------------------------ players
def test_players_add_rename_colour_archive(store: Store) -> None:
    anna = store.add_player("  Anna  ", "#e53935")
    ben = store.add_player("ben")
    assert anna.name == "Anna" and anna.colour == "#e53935" and not anna.archived
    assert [p.name for p in store.list_players()] == ["Anna", "ben"]
    assert store.rename_player(ben.id, "Ben").name == "Ben"
    assert store.set_player_colour(ben.id, "#1e88e5").colour == "#1e88e5"
    store.archive_player(anna.id)
    assert [p.name for p in store.list_players()] == ["Ben"]
    assert [p.name for p in store.list_players(include_archived=True)] == ["Anna", "Ben"]
    store.archive_player(anna.id, archived=False)
    assert store.get_player(anna.id) == Store.open(store.data_dir).get_player(anna.id)


@pytest.mark.parametrize(
    ("name", "words"),
    [("", "Enter a name"), ("   ", "Enter a name"), ("x" * 41, "at most 40"), ("ANNA", "already a player")],
)
def test_bad_player_names_are_refused_with_a_message(store: Store, name: str, words: str) -> None:
    store.add_player("Anna")
    with pytest.raises(InputError, match=words):
        store.add_player(name)
    assert len(store.list_players()) == 1


def test_an_archived_name_can_be_used_again(store: Store) -> None:
    store.archive_player(store.add_player("Anna").id)
    store.add_player("Anna")
    assert len(store.list_players(include_archived=True)) == 2


def test_editing_a_missing_player_is_an_input_error(store: Store) -> None:
    with pytest.raises(InputError, match="no longer exists"):
        store.rename_player("nobody", "X")
    # A store error is not a rules error, so `except RuleError` around a rules check cannot swallow it
    assert isinstance(InputError("x"), StoreError) and not isinstance(InputError("x"), RuleError)


# ------------------------------------------------------------------ settings
def test_settings_persist(store: Store) -> None:
    assert store.get_setting("language", "en") == "en"
    store.set_setting("language", "de")
    store.set_setting("theme", "dark")
    assert Store.open(store.data_dir).settings() == {"language": "de", "theme": "dark"}
    with pytest.raises(InputError):
        store.set_setting("theme", object())
    with pytest.raises(InputError):
        store.set_setting("", 1)


# ------------------------------------------------------------------ matches
def test_save_bumps_the_version_and_round_trips(store: Store) -> None:
    match = new_match(store, rounds=3)
    assert match.version == 0
    saved = store.save_match(match)
    assert saved is not match and saved.version == 1 and match.version == 0  # a new value; the argument stays
    match = store.save_match(saved.with_round(rz_round()))
    assert match.version == 2
    loaded = Store.open(store.data_dir).get_match(match.id)
    assert loaded is not None and loaded.to_dict() == match.to_dict()


def test_list_matches_filters_and_orders(store: Store) -> None:
    first = store.save_match(new_match(store, rounds=1))
    second = new_match(store, rounds=3, planned=3)
    second = store.save_match(second)
    summaries = store.list_matches()
    assert {s.id for s in summaries} == {first.id, second.id}
    finished = store.list_matches(status="finished")
    assert [s.id for s in finished] == [second.id]
    assert finished[0].is_over and finished[0].rounds == 3 and finished[0].totals == second.totals()
    assert finished[0].winners == second.winners() and finished[0].names == ["Anna", "Ben", "Cleo"]
    assert store.list_matches(game="rage") == []
    assert len(store.list_matches(player=first.players[0])) == 2
    assert store.list_matches(player="nobody") == []
    assert [m.id for m in store.iter_matches(status="active")] == [first.id]


def test_delete_moves_the_match_to_trash(store: Store) -> None:
    match = store.save_match(new_match(store, rounds=1))
    assert store.delete_match(match.id)
    assert store.get_match(match.id) is None and store.list_matches() == []
    assert list((store.data_dir / "trash").iterdir())
    assert not store.delete_match(match.id)
    assert Store.open(store.data_dir).list_matches() == []


def test_get_match_of_unknown_or_odd_ids(store: Store) -> None:
    assert store.get_match("0123abcd") is None
    assert store.get_match("../meta") is None


def test_non_json_data_in_a_match_is_refused_unchanged(store: Store) -> None:
    match = store.save_match(new_match(store, rounds=1))
    with pytest.raises(InputError):
        store.save_match(dataclasses.replace(match, options={**match.options, "note": {1, 2}}))
    assert match.version == 1
    assert "note" not in store.get_match(match.id).options


# ------------------------------------------------------------------ conflicts
def test_a_stale_edit_from_another_device_is_refused(tmp_path: Path) -> None:
    phone, tablet = Store.open(tmp_path), Store.open(tmp_path)
    match = phone.save_match(new_match(phone, rounds=1))
    on_phone, on_tablet = phone.get_match(match.id), tablet.get_match(match.id)
    on_phone = on_phone.with_round(rz_round())
    on_phone = phone.save_match(on_phone)
    on_tablet = on_tablet.without_round(0)
    with pytest.raises(ConflictError, match="changed on another device") as caught:
        tablet.save_match(on_tablet)
    assert isinstance(caught.value, StoreError) and not isinstance(caught.value, (RuleError, ValueError))
    assert "Ruck Zuck game of Anna, Ben and Cleo" in str(caught.value)
    assert on_tablet.version == 1  # untouched, so the screen can reload
    stored = tablet.get_match(match.id)
    assert stored.version == 2 and len(stored.rounds) == 2
    stored = stored.with_round(rz_round())
    stored = tablet.save_match(stored)  # after a reload the change goes through
    assert phone.get_match(match.id).version == 3


def test_saving_a_match_deleted_elsewhere_is_a_conflict(tmp_path: Path) -> None:
    one, two = Store.open(tmp_path), Store.open(tmp_path)
    match = one.save_match(new_match(one, rounds=1))
    copy = two.get_match(match.id)
    one.delete_match(match.id)
    copy = copy.with_round(rz_round())
    with pytest.raises(ConflictError, match="deleted on another device"):
        two.save_match(copy)
    assert one.list_matches() == []


def test_two_new_matches_with_the_same_id_conflict(store: Store) -> None:
    match = store.save_match(new_match(store))
    twin = Match.from_dict({**match.to_dict(), "version": 0})
    with pytest.raises(ConflictError):
        store.save_match(twin)


def test_concurrent_writers_from_threads_and_stores_lose_nothing(tmp_path: Path) -> None:
    stores = [Store.open(tmp_path) for _ in range(3)]
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            store = stores[worker % 3]
            for i in range(8):
                store.add_player(f"P{worker}-{i}")
                store.set_setting(f"w{worker}", i)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    fresh = Store.open(tmp_path)
    assert len(fresh.list_players()) == 48
    assert fresh.settings() == {f"w{n}": 7 for n in range(6)}


def test_concurrent_writers_from_processes_lose_nothing(tmp_path: Path) -> None:
    Store.open(tmp_path).close()
    children = []
    for worker in range(3):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            code = 0
            try:
                store = Store.open(tmp_path)
                for i in range(10):
                    store.add_player(f"P{worker}-{i}")
            except BaseException:
                code = 1
            os._exit(code)
        children.append(pid)
    assert all(os.waitpid(pid, 0)[1] == 0 for pid in children)
    assert len(Store.open(tmp_path).list_players()) == 30


# ------------------------------------------------------------------ saved digital games
def test_saved_digital_games(store: Store) -> None:
    saved = SavedGame.new("racko", {"players": 2}, 42, log=["stock", 3], data={"bots": [None, "hard"]})
    store.save_digital_game(saved)
    assert saved.version == 1
    saved.log.append("call")
    store.save_digital_game(saved)
    again = Store.open(store.data_dir)
    loaded = again.get_digital_game(saved.id)
    assert loaded == saved
    stale = again.get_digital_game(saved.id)
    saved.log.append("wait")
    store.save_digital_game(saved)
    with pytest.raises(ConflictError):
        again.save_digital_game(stale)
    assert [g.id for g in store.list_digital_games()] == [saved.id]
    assert store.delete_digital_game(saved.id) and store.list_digital_games() == []
    assert store.get_digital_game(saved.id) is None


def test_saved_game_with_unsafe_content_is_refused(store: Store) -> None:
    bad = SavedGame.new("rage", {}, 1, data={"x": object()})
    with pytest.raises(InputError):
        store.save_digital_game(bad)
    assert store.list_digital_games() == []


# ------------------------------------------------------------------ schema versions
def test_a_folder_from_a_newer_version_is_refused_and_untouched(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.save_match(new_match(store, rounds=2))
    store.close()
    meta = tmp_path / "meta.json"
    document = json.loads(meta.read_text())
    document["schema"] = 3
    document["tables"]["meta"]["1"]["layout"] = 3
    meta.write_text(json.dumps(document))
    (tmp_path / ".lock").unlink()
    before = tree(tmp_path)
    with pytest.raises(NewerVersionError, match="newer version of Scorekeeper") as caught:
        Store.open(tmp_path)
    assert isinstance(caught.value, StoreError)
    assert "Nothing has been changed" in str(caught.value)
    assert tree(tmp_path) == before


def test_a_single_match_file_from_a_newer_version_is_listed_read_only_untouched(store: Store) -> None:
    match = store.save_match(new_match(store, rounds=1))
    path = store.data_dir / "matches" / f"{match.id}.json"
    document = json.loads(path.read_text())
    document["schema"] = 9
    path.write_text(json.dumps(document))
    before = path.read_bytes()
    fresh = Store.open(store.data_dir)
    assert fresh.get_match(match.id) is None
    assert fresh.recovery_messages == []  # kept and listed, not damage (docs/DATA.md "Newer data")
    [listed] = [s for s in fresh.list_matches() if s.id == match.id]
    assert listed.newer and listed.names == match.names and listed.rounds == 1
    assert fresh.newer_match(match.id) == listed
    assert path.read_bytes() == before
    with pytest.raises(StoreError, match="newer version"):
        fresh.save_match(match.with_round(rz_round()))
    assert path.read_bytes() == before


def test_migration_from_the_single_file_schema_1(tmp_path: Path) -> None:
    match = new_match(None, rounds=4)
    legacy = match.to_dict()
    del legacy["version"]
    bad = {**new_match(None, rounds=1).to_dict(), "id": "bad1", "rounds": [{"hands": "nope"}]}
    (tmp_path / "scorekeeper.json").write_text(
        json.dumps(
            {
                "players": {
                    "1": {"id": "p-anna", "name": "Anna", "colour": "#f00"},
                    "2": {"id": "p-ben", "name": "Ben"},
                },
                "matches": {"1": legacy, "2": bad},
                "settings": {"1": {"language": "nl"}},
            }
        )
    )
    store = Store.open(tmp_path)
    assert any("moved to the new storage format (1 game, 2 players)" in m for m in store.recovery_messages)
    assert any("1 game in it could not be read and stays" in m for m in store.recovery_messages)
    assert (tmp_path / "scorekeeper.json.v1-migrated").is_file() and not (
        tmp_path / "scorekeeper.json"
    ).exists()
    migrated = store.get_match(match.id)
    assert migrated.rounds == match.rounds and migrated.version == 1
    assert [(p.name, p.colour, p.archived) for p in store.list_players()] == [
        ("Anna", "#f00", False),
        ("Ben", "", False),
    ]
    assert store.get_setting("language") == "nl"
    assert [s.id for s in store.list_matches()] == [match.id]
    assert read_envelope(tmp_path / "meta.json", "meta")["meta"]["1"]["layout"] == 2
    assert Store.open(tmp_path).recovery_messages == []


def test_an_unreadable_schema_1_file_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / "scorekeeper.json").write_text('{"players": {"1": ')
    store = Store.open(tmp_path)
    assert any("old data file could not be read" in m for m in store.recovery_messages)
    assert any("corrupt" in p.name for p in tmp_path.iterdir())
    assert store.list_matches() == []


def test_a_full_disk_refuses_the_save_and_changes_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    match = store.save_match(new_match(store, rounds=1))
    before = tree(store.data_dir)
    match = match.with_round(rz_round())

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(StoreError, match="the storage is full"):
        store.save_match(match)
    monkeypatch.undo()
    assert match.version == 1
    assert tree(store.data_dir) == before  # no temporary file left behind either
    assert store.get_match(match.id).version == 1
