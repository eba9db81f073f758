"""Export and import: the JSON export round-trips exactly, re-importing adds nothing, the newer copy of a
match wins, a bad file changes nothing and says what is wrong; CSV has one row per player per round."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_store_support import new_match, rz_round, tree

from scorekeeper.exchange.transfer import (
    export_csv,
    export_csv_text,
    export_json,
    export_json_text,
    import_json,
    import_json_text,
)
from scorekeeper.model.match import Match
from scorekeeper.store import ImportFileError, SavedGame, Store


def filled(folder: Path) -> Store:
    """A store with something of everything: three games, an archived player, settings, a saved game."""
    store = Store.open(folder)
    anna, ben, cleo = (
        store.add_player(n, c) for n, c in (("Anna", "#e53935"), ("Ben", ""), ("Cleo", "#43a047"))
    )
    store.archive_player(store.add_player("Dirk").id)
    seated = [anna.id, ben.id, cleo.id]
    names = [anna.name, ben.name, cleo.name]
    rz = new_match(store, rounds=3, planned=3)
    rz = store.save_match(rz)
    rage = Match.new("rage", {}, seated, names=names, first_dealer=1)
    rage = rage.with_round({"bids": [3, 3, 3], "tricks": [4, 3, 3], "bonus": [1, 0, 0], "minus": [0, 0, 1]})
    rage = store.save_match(rage)
    chips = Match.new("racko", {"variant": "chips"}, seated, names=names)
    chips = chips.with_round({"counts": [10, 4, 6], "runs": [3, 2, 2], "callers": [0], "blitz": False})
    chips = store.save_match(chips)
    store.update_settings({"language": "de", "theme": "dark"})
    store.save_digital_game(
        SavedGame.new("racko", {"players": 2}, 9, log=["stock", 4], data={"bots": ["hard"]})
    )
    return store


def without_time(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported"}


def test_export_import_round_trips_exactly(tmp_path: Path) -> None:
    source = filled(tmp_path / "a")
    exported = export_json(source, tmp_path / "all.json")
    target = Store.open(tmp_path / "b")
    steps: list[tuple[int, int]] = []
    report = import_json(target, exported, progress=lambda done, total, *phase: steps.append((done, total)))
    assert steps == [*((n, 4) for n in range(1, 5)), (4, 4)]  # the last: the saving phase
    assert (report.matches_added, report.players_added, report.saved_games_added) == (3, 4, 1)
    assert report.settings_changed == 2 and report.changed
    first = json.loads(exported.read_text(encoding="utf-8"))
    second = json.loads(export_json_text(target))
    assert without_time(first) == without_time(second)
    assert [p.name for p in target.list_players(include_archived=True)] == ["Anna", "Ben", "Cleo", "Dirk"]
    assert target.list_matches() == source.list_matches()
    for summary in source.list_matches():
        assert target.get_match(summary.id).to_dict() == source.get_match(summary.id).to_dict()


def test_reimporting_the_same_file_adds_nothing(tmp_path: Path) -> None:
    store = filled(tmp_path / "a")
    text = export_json_text(store)
    report = import_json_text(store, text)
    assert not report.changed
    assert report.matches_unchanged == 3 and report.players_unchanged == 4
    assert report.summary() == "Nothing new to import: everything in the file is already here."
    assert len(store.list_matches()) == 3 and len(store.list_players(include_archived=True)) == 4
    other = Store.open(tmp_path / "b")
    import_json_text(other, text)
    again = import_json_text(other, text)
    assert not again.changed and len(other.list_matches()) == 3


def test_the_newer_copy_of_a_match_wins(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "a")
    match = store.save_match(new_match(store, rounds=1))
    old_export = export_json_text(store)
    match = match.with_round(rz_round())
    match = store.save_match(match)
    newer_export = export_json_text(store)
    kept = import_json_text(store, old_export)
    assert kept.matches_kept == 1 and not kept.changed
    assert len(store.get_match(match.id).rounds) == 2
    other = Store.open(tmp_path / "b")
    import_json_text(other, old_export)
    updated = import_json_text(other, newer_export)
    assert updated.matches_updated == 1 and "1 updated" in updated.summary()
    assert other.get_match(match.id).rounds == match.rounds


def test_import_keeps_a_snapshot_to_go_back_to(tmp_path: Path) -> None:
    source = filled(tmp_path / "a")
    target = Store.open(tmp_path / "b")
    before = len(target.list_snapshots())
    import_json_text(target, export_json_text(source))
    assert len(target.list_snapshots()) == before + 1


def _export(store: Store) -> dict[str, Any]:
    return json.loads(export_json_text(store))


def _rz(document: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in document["matches"] if m["game"] == "ruckzuck")


def _named(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in document["players"] if p["name"] == name)


def _bad_round(document: dict[str, Any]) -> None:
    _rz(document)["rounds"][1] = {"hands": [[3], [], [5]], "out": 0}


BROKEN: dict[str, tuple[Any, str]] = {
    "not json": (b"hello, world", "not valid JSON"),
    "binary": (bytes(range(256)), "not text"),
    "empty": (b"", "not valid JSON"),
    "cut off": ("TRUNCATE", "not valid JSON"),
    "no marker": ({"players": []}, "lacks the export marker"),
    "a list": ([1, 2], "lacks the export marker"),
    "newer": (lambda d: d.update(schema=3), "newer version of Scorekeeper"),
    "no schema": (lambda d: d.pop("schema"), "no valid data version"),
    "bad round": (_bad_round, "(Ruck Zuck: Anna, Ben, Cleo): Round 2: Anna went out, so they have no cards"),
    # A game this version does not know is a newer version's and comes in as it is (test_store_newer_data.py),
    # but only when it has the shape of a match.
    "unknown game, wrong shape": (
        lambda d: d["matches"][0].update(game="chess", players="Anna"),
        "players has the wrong type",
    ),
    "twice": (lambda d: d["matches"].append(_rz(d)), "Game 4 (Ruck Zuck: Anna, Ben, Cleo): it appears twice"),
    "nameless player": (lambda d: d["players"][0].pop("name"), "Player 1: a player needs an id and a name"),
    "bad id": (lambda d: _named(d, "Dirk").update(id="../../x"), "(Dirk): its id is not usable"),
    "matches not a list": (lambda d: d.update(matches={}), "the matches are not a list"),
    "settings not an object": (
        lambda d: d.update(settings=[]),
        "settings are not a list of names and values",
    ),
    "bad saved game": (
        lambda d: d["digital_games"][0].update(seed="x"),
        "Saved digital game 1: a saved game's seed",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_import_file_changes_nothing(tmp_path: Path, case: str) -> None:
    source = filled(tmp_path / "a")
    target = Store.open(tmp_path / "b")
    target.add_player("Zoe")
    content, words = BROKEN[case]
    if content == "TRUNCATE":
        text = export_json_text(source)
        content = text[: len(text) // 2].encode()
    elif callable(content):
        document = _export(source)
        content(document)
        content = json.dumps(document).encode()
    elif not isinstance(content, bytes):
        content = json.dumps(content).encode()
    path = tmp_path / "in.json"
    path.write_bytes(content)
    before = tree(tmp_path / "b")
    with pytest.raises(ImportFileError, match="Nothing was changed") as caught:
        import_json(target, path)
    assert words in str(caught.value)
    assert tree(tmp_path / "b") == before


def test_several_problems_are_listed_together(tmp_path: Path) -> None:
    document = _export(filled(tmp_path / "a"))
    document["players"][0].pop("name")
    document["matches"][1]["names"] = "Anna"
    with pytest.raises(ImportFileError) as caught:
        import_json_text(Store.open(tmp_path / "b"), json.dumps(document))
    assert "Player 1" in str(caught.value) and "Game 2" in str(caught.value)


def test_importing_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImportFileError, match="could not be opened"):
        import_json(Store.open(tmp_path), tmp_path / "nope.json")


def test_csv_has_one_row_per_player_per_round(tmp_path: Path) -> None:
    store = filled(tmp_path / "a")
    path = export_csv(store, tmp_path / "games.csv")
    raw = path.read_bytes()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == 3 * 3 + 1 * 3 + 1 * 3
    rz = [r for r in rows if r["game"] == "Ruck Zuck"]
    assert [r["player"] for r in rz[:3]] == ["Anna", "Ben", "Cleo"]
    chips = [r for r in rows if r["game"] == "Racko"]
    assert [(r["player"], int(r["points"]), int(r["total"])) for r in chips] == [
        ("Anna", 2, 27),
        ("Ben", -1, 24),
        ("Cleo", -1, 24),
    ]
    rage = [r for r in rows if r["game"] == "Rage"]
    assert {r["dealer"] for r in rage} == {"Ben"} and [int(r["seat"]) for r in rage] == [1, 2, 3]
    match = store.get_match(rz[0]["match_id"])
    for seat in range(3):
        seat_rows = [r for r in rz if int(r["seat"]) == seat + 1]
        assert [int(r["round"]) for r in seat_rows] == [1, 2, 3]
        assert int(seat_rows[-1]["total"]) == match.totals()[seat]
        assert sum(int(r["points"]) for r in seat_rows) == match.totals()[seat]


def test_csv_keeps_names_from_becoming_formulas(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    match = Match.new("ruckzuck", {}, ["a", "b"], names=["=1+2", "Bo"])
    match = match.with_round({"hands": [0, 4], "out": 0})
    match = store.save_match(match)
    rows = list(csv.reader(io.StringIO(export_csv_text(store))))
    assert rows[1][9] == "'=1+2" and rows[2][9] == "Bo"


hands = st.integers(1, 80)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(hands, hands), min_size=0, max_size=6), st.text(min_size=1, max_size=12))
def test_round_trip_of_any_ruck_zuck_match(
    tmp_path_factory: pytest.TempPathFactory, rounds: list, name: str
) -> None:
    folder = tmp_path_factory.mktemp("rt")
    store = Store.open(folder / "a")
    match = Match.new("ruckzuck", {"rounds": 6}, ["x", "y", "z"], names=[name, "Y", "Z"])
    for first, second in rounds:
        match = match.with_round({"hands": [first, second, 0], "out": 2})
    match = store.save_match(match)
    other = Store.open(folder / "b")
    import_json_text(other, export_json_text(store))
    assert other.get_match(match.id).to_dict() == store.get_match(match.id).to_dict()
    assert without_time(_export(other)) == without_time(_export(store))


def test_an_import_writes_each_index_bucket_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index was written per 1,000 imported games, each time rewriting every bucket it touched, which had
    grown with all the games before: an export of 277,000 games (250 MB) spent most of its import there.
    Now each bucket is written once, with all the games it gets."""
    from scorekeeper.bench.store import export_text
    from scorekeeper.store.index import MatchIndex

    written: list[int] = []
    real = MatchIndex.write_bucket

    def counting(self: MatchIndex, number: int, entries: dict[str, Any]) -> None:
        written.append(number)
        real(self, number, entries)

    monkeypatch.setattr(MatchIndex, "write_bucket", counting)
    store = Store.open(tmp_path)
    report = import_json_text(store, export_text(1_050, rounds=3))
    assert report.matches_added == 1_050
    assert sorted(written) == sorted(set(written))  # no bucket twice
    assert len(store.list_matches()) == 1_050


def test_an_import_reports_a_saving_phase_before_its_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the last record is prepared, the commit and the index write still take seconds on a big file: the
    import reports that phase (once, with done == total) before it starts them, so the screen need not sit at
    100 %. Nothing is committed yet when it is reported (all or nothing)."""
    from scorekeeper.exchange.transfer import ImportPhase
    from scorekeeper.store.batch import Batch

    source = filled(tmp_path / "source")
    text = export_json_text(source)
    calls: list[tuple[int, int, ImportPhase]] = []
    committed: list[int] = []
    real_commit = Batch.commit

    def commit(self: Batch) -> None:
        committed.append(len(calls))
        real_commit(self)

    monkeypatch.setattr(Batch, "commit", commit)
    store = Store.open(tmp_path / "target")
    import_json_text(
        store, text, lambda done, total, phase=ImportPhase.WRITING: calls.append((done, total, phase))
    )
    total = calls[0][1]
    assert [c[2] for c in calls] == [ImportPhase.WRITING] * total + [ImportPhase.SAVING]
    assert calls[-1][:2] == (total, total) and calls[-2][:2] == (total, total)
    assert committed == [len(calls)]  # the commit comes after the saving phase was reported
