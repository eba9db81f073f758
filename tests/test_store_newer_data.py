"""Data made by a newer version of the app (docs/DATA.md, "Newer data"), opened by today's code.

The fixture `data_next` (tests/fixtures/make_next.py) is today's data folder with what a later version may add:
fields on every match, an option on every game, a key on every match file's envelope, a match of a fourth game
("skyjo") and, in its export, a part this version does not know. Today's version keeps all of it: nothing is set
aside or reported as damage, the unknown parts come back unchanged through an edit, undo and redo, an export and
an import, and the fourth game is listed read-only. The one declaration of the match record
(`match_data.FIELDS`) is checked against the `Match` dataclass and the places derived from it.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fixtures.make_next import NEXT_ENVELOPE, NEXT_FIELDS, NEXT_OPTIONS, NEXT_PART, SKYJO, SKYJO_ID
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ui_core_harness import App

from scorekeeper.exchange.transfer import CSV_COLUMNS, export_csv_text, export_json_text, import_json_text
from scorekeeper.games.contract import OptionField
from scorekeeper.model import match_data
from scorekeeper.model.match import Match
from scorekeeper.model.match_data import BY_NAME, FIELDS, LOCAL, NAMES, NO_DEFAULT, ROUNDS, made_by_newer
from scorekeeper.store import Store
from scorekeeper.sync import versions
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.folder import FolderTarget

FIXTURES = Path(__file__).parent / "fixtures"
RACKO_BONUS = "1f114b4bef7053e1adfeeabd27dee6ad"  # a tracked Racko game (bonus, 2 players) at round 2
RACKO_ROUND = {"counts": [None, 3], "runs": [6, 2], "callers": [0]}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(FIXTURES / "data_next", target)
    return target


def record_of(folder: Path, match_id: str) -> dict[str, Any]:
    document = json.loads((folder / "matches" / f"{match_id}.json").read_text(encoding="utf-8"))
    record: dict[str, Any] = document["tables"]["match"]["1"]
    return record


def unknown_parts(record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the fields this version does not know, the options of its game this version does not know)."""
    fields = {key: value for key, value in record.items() if key not in NAMES}
    options = {
        key: value for key, value in record["options"].items() if key in NEXT_OPTIONS.get(record["game"], {})
    }
    return fields, options


# ------------------------------------------------------------------------- the declaration
def test_the_match_dataclass_has_the_declared_fields_in_their_order_with_their_defaults() -> None:
    stored = [f for f in dataclasses.fields(Match) if f.name != "extra"]
    assert [f.name for f in stored] == [field.name for field in FIELDS]
    for item in stored:
        declared = BY_NAME[item.name]
        if item.default is not dataclasses.MISSING:
            assert declared.default == item.default, item.name
        elif item.default_factory is not dataclasses.MISSING and declared.factory is not None:
            assert declared.factory() == item.default_factory(), item.name
        else:  # required, or made anew by Match (id, created, updated): no default a record may lack it for
            assert declared.default is NO_DEFAULT and declared.factory is None, item.name
        assert declared.kind.__name__ in str(item.type), item.name


def test_sync_merges_the_fields_as_declared() -> None:
    assert {f.name for f in FIELDS if f.merge == LOCAL} == set(versions.UNSYNCED)
    assert [f.name for f in FIELDS if f.merge == ROUNDS] == ["rounds"]  # merged by position in versions.merge
    base = {"game": "racko", "rounds": [], "notes": "a", "version": 1, "updated": "x"}
    left = {**base, "rounds": [1]}
    right = {**base, "notes": "b"}
    merged = versions.merge(versions.hashes(base), left, right)
    assert merged["notes"] == "b" and merged["rounds"] == [1]  # a newer version's field merges as a value


def test_the_csv_columns_are_the_declared_ones_then_the_round_s() -> None:
    assert CSV_COLUMNS == (
        "match_id", "started", "game", "mode", "status", "round", "dealer", "seat", "player_id", "player",
        "points", "total", "notes", "place", "minutes_played",
    )  # fmt: skip


def test_a_field_or_option_declared_only_when_set_is_written_only_when_it_differs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values = {**Match.new("ruckzuck", {}, ["a", "b"]).record(), "mood": ""}
    mood = match_data.Field("mood", str, "", only_when_set=True)
    monkeypatch.setattr(match_data, "FIELDS", (*FIELDS, mood))
    assert "mood" not in match_data.record(values, {})
    assert match_data.record({**values, "mood": "cheerful"}, {})["mood"] == "cheerful"
    speed = OptionField("speed", "Speed", "", "bool", default=False, only_when_set=True)
    blitz = OptionField("blitz", "Blitz", "", "bool", default=False)
    assert not speed.written(False, False) and speed.written(True, False)
    assert blitz.written(False, False) and not blitz.written(None, None)  # None: "as the rules say"


def test_a_conflict_names_the_fields_the_two_versions_differ_in() -> None:
    this = Match.new("ruckzuck", {}, ["a", "b"]).record()
    other = {**this, "names": ["Anna", "b"], "mood": "cheerful"}
    assert match_data.differing(this, other) == ["names", match_data.EXTRA_SUMMARY]
    assert match_data.differing(this, dict(this)) == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=8).filter(lambda k: k not in NAMES), json_values, max_size=4
    ),
    st.dictionaries(
        st.text(min_size=1, max_size=8).filter(lambda k: k not in ("players", "rounds")),
        json_values,
        max_size=3,
    ),
)
@settings(max_examples=100, deadline=None)
def test_unknown_fields_and_options_come_back_exactly(extra: dict[str, Any], options: dict[str, Any]) -> None:
    data = {
        "game": "ruckzuck",
        "options": {"players": 2, **options},
        "players": ["a", "b"],
        "names": ["A", "B"],
        **extra,
    }
    try:
        match = Match.from_dict(data)
    except ValueError:  # an option of today's game with a wrong value (e.g. "hard_mode") still refuses
        return
    written = json.loads(json.dumps(match.to_dict()))
    assert {k: v for k, v in written.items() if k not in NAMES} == extra
    assert written["options"] == data["options"]
    assert Match.from_dict(written) == match


# ------------------------------------------------------------------------- the next version's folder
def test_the_next_version_s_folder_opens_with_nothing_set_aside_and_everything_listed(folder: Path) -> None:
    before = {p.name: p.read_bytes() for p in (folder / "matches").iterdir()}
    store = Store.open(folder)
    listed = {summary.id: summary for summary in store.list_matches()}
    assert store.recovery_messages == []
    assert not [p for p in folder.rglob("*") if ".corrupt-" in p.name]
    assert set(listed) == {p.name[: -len(".json")] for p in (folder / "matches").glob("*.json")}
    skyjo = listed[SKYJO_ID]
    assert skyjo.newer and skyjo.names == ["Anna", "Ben", "Cleo"] and skyjo.rounds == 1 and skyjo.totals == []
    assert store.get_match(SKYJO_ID) is None and store.newer_match(SKYJO_ID) == skyjo
    for match_id, summary in listed.items():
        if match_id == SKYJO_ID:
            continue
        match = store.get_match(match_id)
        assert match is not None and not summary.newer
        assert dict(match.extra) == NEXT_FIELDS
        assert match.options.items() >= NEXT_OPTIONS[match.game].items()
    # Reading and listing rewrote nothing: the envelope's key of a newer version is still in every file.
    assert {p.name: p.read_bytes() for p in (folder / "matches").iterdir()} == before


def test_a_round_added_undone_and_redone_keeps_the_unknown_parts(folder: Path) -> None:
    store = Store.open(folder)
    unknown = unknown_parts(record_of(folder, RACKO_BONUS))
    assert unknown == (NEXT_FIELDS, NEXT_OPTIONS["racko"])
    match = store.get_match(RACKO_BONUS)
    assert match is not None
    store.save_match(match.with_round(RACKO_ROUND), "Round 2 added")
    added = record_of(folder, RACKO_BONUS)
    assert len(added["rounds"]) == 2 and unknown_parts(added) == unknown
    undone = store.undo_match(RACKO_BONUS, added["version"])
    assert len(undone.rounds) == 1 and unknown_parts(record_of(folder, RACKO_BONUS)) == unknown
    store.redo_match(RACKO_BONUS, undone.version)
    assert len(record_of(folder, RACKO_BONUS)["rounds"]) == 2
    assert unknown_parts(record_of(folder, RACKO_BONUS)) == unknown
    document = json.loads((folder / "matches" / f"{RACKO_BONUS}.json").read_text(encoding="utf-8"))
    assert document.items() >= NEXT_ENVELOPE.items()  # the envelope's key of a newer version is kept too
    assert Store.open(folder).recovery_messages == []


def test_a_match_of_a_game_this_version_does_not_know_cannot_be_changed_but_stays(folder: Path) -> None:
    store = Store.open(folder)
    stored, _ = store.matches.stored(SKYJO_ID)
    assert stored == SKYJO  # sync sends it on as it is
    assert made_by_newer(stored) and not made_by_newer({**SKYJO, "players": "anna"})


def test_export_and_import_bring_back_the_unknown_parts_unchanged(folder: Path, tmp_path: Path) -> None:
    exported = json.loads(export_json_text(Store.open(folder)))
    by_id = {record["id"]: record for record in exported["matches"]}
    assert by_id[SKYJO_ID] == SKYJO
    originals = {match_id: record_of(folder, match_id) for match_id in by_id}
    for match_id, record in by_id.items():
        assert unknown_parts(record) == unknown_parts(originals[match_id])
    fresh = Store.open(tmp_path / "fresh")
    report = import_json_text(fresh, json.dumps(exported))
    assert report.matches_added == len(by_id)
    assert fresh.recovery_messages == []
    again = {record["id"]: record for record in json.loads(export_json_text(fresh))["matches"]}
    assert set(again) == set(by_id)
    for match_id, record in again.items():
        assert unknown_parts(record) == unknown_parts(by_id[match_id])
    assert again[SKYJO_ID] == SKYJO
    assert [s.newer for s in fresh.list_matches() if s.id == SKYJO_ID] == [True]
    assert import_json_text(fresh, json.dumps(exported)).changed is False  # the same file again: nothing new


def test_the_next_version_s_export_file_imports(tmp_path: Path) -> None:
    """Its part this version does not know (`NEXT_PART`) is left out, the rest comes in."""
    text = (FIXTURES / "data_next.export.json").read_text(encoding="utf-8")
    assert NEXT_PART.keys() <= json.loads(text).keys()
    store = Store.open(tmp_path / "fresh")
    report = import_json_text(store, text)
    assert report.matches_added == len(json.loads(text)["matches"])
    match = next(m for m in store.iter_matches() if m.game == "rage")
    assert dict(match.extra) == NEXT_FIELDS and match.options["trump_shown"] == "always"
    assert store.newer_match(SKYJO_ID) is not None


def test_the_csv_carries_what_it_has_columns_for(folder: Path) -> None:
    rows = list(csv.reader(io.StringIO(export_csv_text(Store.open(folder)))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert {row[0] for row in rows[1:]} and SKYJO_ID not in {row[0] for row in rows[1:]}
    assert not any(NEXT_FIELDS["scribble"] in cell for row in rows for cell in row)


def test_a_file_of_a_newer_schema_is_listed_read_only_and_left_as_it_is(folder: Path) -> None:
    path = folder / "matches" / f"{RACKO_BONUS}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**document, "schema": 3, **NEXT_ENVELOPE}), encoding="utf-8")
    before = path.read_bytes()
    store = Store.open(folder)
    [summary] = [s for s in store.list_matches() if s.id == RACKO_BONUS]
    assert summary.newer and summary.names == ["Anna", "Ben"] and summary.rounds == 1
    assert store.recovery_messages == [] and store.get_match(RACKO_BONUS) is None
    exported = json.loads(export_json_text(store))
    assert RACKO_BONUS not in {m["id"] for m in exported["matches"]}  # its record is in a newer shape
    assert path.read_bytes() == before


def test_a_saved_digital_game_keeps_the_fields_of_a_newer_version(folder: Path) -> None:
    path = sorted((folder / "digital").glob("*.json"))[0]
    document = json.loads(path.read_text(encoding="utf-8"))
    document["tables"]["game"]["1"]["hints_seen"] = [1, {"move": 2}]
    path.write_text(json.dumps(document), encoding="utf-8")
    store = Store.open(folder)
    game = store.get_digital_game(path.name[: -len(".json")])
    assert game is not None and game.extra == {"hints_seen": [1, {"move": 2}]}
    assert store.recovery_messages == []
    store.save_digital_game(game)
    saved = json.loads(path.read_text(encoding="utf-8"))["tables"]["game"]["1"]
    assert saved["hints_seen"] == [1, {"move": 2}] and saved["version"] == game.version


# ------------------------------------------------------------------------- sync
def test_sync_carries_the_next_version_s_data_on_unchanged(folder: Path, tmp_path: Path) -> None:
    """A device on today's version syncs the next version's data to a new device and back: the fourth game
    and every unknown field and option arrive as they are; an edit made on the new device keeps them."""
    (tmp_path / "target").mkdir()
    target = FolderTarget(tmp_path / "target")
    first, second = Store.open(folder), Store.open(tmp_path / "second")
    originals = {
        p.name[: -len(".json")]: record_of(folder, p.name[: -len(".json")])
        for p in (folder / "matches").glob("*.json")
    }
    sync_once(first, target)
    sync_once(second, target)
    assert second.recovery_messages == []
    assert [s.id for s in second.list_matches() if s.newer] == [SKYJO_ID]
    for match_id, record in originals.items():
        arrived = record_of(second.data_dir, match_id)
        assert unknown_parts(arrived) == unknown_parts(record)
        assert versions.content(arrived) == versions.content(record)
    match = second.get_match(RACKO_BONUS)
    assert match is not None
    second.save_match(match.with_round(RACKO_ROUND), "Round 2 added")
    sync_once(second, target)
    sync_once(first, target)
    back = record_of(folder, RACKO_BONUS)
    assert len(back["rounds"]) == 2 and unknown_parts(back) == unknown_parts(originals[RACKO_BONUS])
    assert record_of(folder, SKYJO_ID) == SKYJO


# ------------------------------------------------------------------------- the screens
def test_home_history_and_scoreboard_show_what_they_can(folder: Path) -> None:
    app = App(folder, width=1280, height=800)
    ids = [p.name[: -len(".json")] for p in (folder / "matches").glob("*.json")]
    routes = ["/", "/history", "/stats", *(f"/match/{i}" for i in ids), *(f"/history/{i}" for i in ids)]
    for route in routes:
        app.go(route)
        text = app.screen_text()
        assert "Something went wrong" not in text and "was not found" not in text, (route, text[:300])
    newer = "Mit einer neueren Version der App erstellt"  # the folder's language is German
    app.go("/history")
    assert newer in app.screen_text()
    # listed, with nothing to continue
    assert app.has(f"history-{SKYJO_ID}") and not app.has(f"history-continue-{SKYJO_ID}")
    assert app.has(f"history-continue-{RACKO_BONUS}")
    app.go("/")
    assert newer in app.screen_text()
    assert "skyjo · Runde 2" not in app.screen_text()  # on home too: no round to play next
    for route in (f"/match/{SKYJO_ID}", f"/history/{SKYJO_ID}"):
        app.go(route)
        assert app.has("newer-match")
        text = app.screen_text()
        assert newer in text and "skyjo" in text and "Runden: 1" in text and "Anna, Ben, Cleo" in text
    assert app.store.recovery_messages == []
    assert not [p for p in folder.rglob("*") if ".corrupt-" in p.name]
