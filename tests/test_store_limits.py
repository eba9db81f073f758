"""Full disks, read-only folders and hostile import files."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_store_support import new_match, rz_round, tree
from test_store_transfer import filled

from scorekeeper.exchange.transfer import export_csv_text, export_json_text, import_json_text
from scorekeeper.games.base import Message
from scorekeeper.model.match import Match
from scorekeeper.store import ImportFileError, InputError, Store, WriteError, locking
from scorekeeper.ui.i18n import Translator

needs_proc = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="finds files by descriptor in /proc"
)


def full_disk(monkeypatch: pytest.MonkeyPatch, where: Callable[[Path], bool] = lambda _p: True) -> None:
    """Every write into a file for which `where(path)` holds fails as on a full disk (the path of the open
    file is looked up by its descriptor, so this works whatever writes the file)."""
    real = os.write

    def write(fd: int, data: Any) -> int:
        try:
            path = Path(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            path = None
        if path is not None and path.is_file() and where(path):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)


# ------------------------------------------------------------------ item 2: disk full
@pytest.fixture
def saved(tmp_path: Path) -> tuple[Store, Match]:
    """A store in `tmp_path` with one saved match of one round."""
    store = Store.open(tmp_path)
    return store, store.save_match(new_match(store, rounds=1))


@needs_proc
def test_a_full_disk_after_the_match_file_still_saves_and_says_so(
    saved: tuple[Store, Match], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, match = saved
    full_disk(monkeypatch, lambda path: path.parent.name == "index")
    match = match.with_round(rz_round())
    match = store.save_match(match)  # the round is on disk: no false "nothing was changed"
    assert len(store.get_match(match.id).rounds) == 2
    assert store.list_matches()[0].rounds == 2  # the list in memory knows it too
    match = match.with_round(rz_round())
    match = store.save_match(match)  # no false "changed on another device"
    monkeypatch.undo()
    match = match.with_round(rz_round())
    match = store.save_match(match)
    again = Store.open(tmp_path)
    assert again.recovery_messages == [] and again.list_matches()[0].rounds == 4


@needs_proc
def test_a_save_refused_by_a_full_disk_says_so_and_succeeds_once_there_is_space(
    saved: tuple[Store, Match], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, match = saved
    full_disk(monkeypatch)
    match = match.with_round(rz_round())
    with pytest.raises(WriteError, match="storage is full") as caught:
        store.save_match(match)
    assert "Nothing was changed" in str(caught.value) and match.version == 1
    assert len(store.get_match(match.id).rounds) == 1
    monkeypatch.undo()
    match = store.save_match(match)
    assert len(store.get_match(match.id).rounds) == 2


@needs_proc
def test_the_store_opens_on_a_full_disk_with_the_list_rebuilt_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.open(tmp_path)
    ids = {store.save_match(new_match(store, rounds=1, seed=n)).id for n in range(3)}
    store.close()
    for bucket in (tmp_path / "index").iterdir():
        bucket.unlink()  # stale index: the open must rebuild it
    full_disk(monkeypatch)
    opened = Store.open(tmp_path)
    assert {s.id for s in opened.list_matches()} == ids
    assert all(opened.get_match(match_id) is not None for match_id in ids)


# ------------------------------------------------------------------ item 12: read-only folder
def test_a_folder_that_cannot_be_written_opens_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = filled(tmp_path / "data")
    match_id = store.list_matches()[0].id
    store.close()
    for bucket in (tmp_path / "data" / "index").iterdir():
        bucket.unlink()
    before = tree(tmp_path / "data")

    def refuse(path: Path) -> int:
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(locking, "open_lock_file", refuse, raising=False)
    opened = Store.open(tmp_path / "data")
    assert opened.read_only is True
    assert isinstance(opened.read_only_reason, Message)
    assert "read-only" in str(opened.read_only_reason)
    assert opened.read_only_reason.translated(Translator("de")) != str(opened.read_only_reason)
    assert len(opened.list_matches()) == 3 and opened.get_match(match_id) is not None
    assert [p.name for p in opened.list_players()] == ["Anna", "Ben", "Cleo"]
    with pytest.raises(WriteError, match="read-only"):
        opened.add_player("Eva")
    match = opened.get_match(match_id)
    with pytest.raises(WriteError):
        opened.save_match(match)
    assert tree(tmp_path / "data") == before  # nothing was touched


# ------------------------------------------------------------------ items 3 and 13: imports
def _document(store: Store) -> dict[str, Any]:
    return json.loads(export_json_text(store))


def _digital(document: dict[str, Any]) -> dict[str, Any]:
    return document["digital_games"][0]


def _player(document: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return document["players"][index]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        section, *rest = path.split(".")
        target: Any = document[section]
        for key in rest[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = rest[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


BAD_TEXT: dict[str, tuple[str, str]] = {
    # name: (raw JSON text replacement applied to a valid export, words the message must contain)
    "nan in settings": ('"theme": "dark"', '"theme": NaN'),
    "infinity in a saved game": ('"bots": [', '"x": Infinity, "bots": ['),
    "lone surrogate in a saved game": ('"hard"', '"\\ud800"'),
    "5000-digit integer": ('"seed": 9', '"seed": 9' + "0" * 5000),
}


@pytest.mark.parametrize("case", sorted(BAD_TEXT))
def test_an_import_with_values_that_cannot_be_stored_changes_nothing(tmp_path: Path, case: str) -> None:
    source = filled(tmp_path / "a")
    text = export_json_text(source).replace(*BAD_TEXT[case], 1)
    assert text != export_json_text(source)
    target = Store.open(tmp_path / "b")
    target.add_player("Zoe")
    before = tree(tmp_path / "b")
    with pytest.raises(ImportFileError) as caught:
        import_json_text(target, text)
    message = str(caught.value)
    assert "Nothing was changed" in message and "Exceeds" not in message and "\\u" not in message
    assert tree(tmp_path / "b") == before


BAD_RECORDS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "long name": (_set("players.0.name", "A" * 10_000), "at most 40 characters"),
    "control character": (_set("players.0.name", "An\x07na"), "control or text-direction"),
    "bidi override": (_set("players.0.name", "\u202eannA"), "control or text-direction"),
    "same active name": (
        lambda d: next(p for p in d["players"] if p["name"] == "Ben").update(name="anna"),
        "same name",
    ),
    "negative version": (_set("matches.0.version", -3), "edit version"),
    "huge version": (_set("matches.0.version", 10**100), "too large"),
    "setting of wrong type": (_set("settings.language", ["de"]), "setting language"),
    "big setting blob": (_set("settings.blob", "x" * 100_000), "setting blob"),
    "surrogate in a name": (_set("players.0.name", "An\ud800na"), "broken text"),
}


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_an_import_applies_the_rules_of_the_forms(tmp_path: Path, case: str) -> None:
    change, words = BAD_RECORDS[case]
    source = filled(tmp_path / "a")
    document = _document(source)
    change(document)
    target = Store.open(tmp_path / "b")
    before = tree(tmp_path / "b")
    with pytest.raises(ImportFileError, match=words):
        import_json_text(target, json.dumps(document, ensure_ascii=True))
    assert tree(tmp_path / "b") == before


def test_a_deeply_nested_import_file_is_refused_with_a_message(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    text = (
        '{"format": "scorekeeper-export", "schema": 2, "settings": {"x": '
        + "[" * 100_000
        + "]" * 100_000
        + "}}"
    )
    with pytest.raises(ImportFileError, match="Nothing was changed"):
        import_json_text(store, text)


def test_an_active_name_already_on_this_device_is_refused(tmp_path: Path) -> None:
    source = filled(tmp_path / "a")
    target = Store.open(tmp_path / "b")
    target.add_player("Anna")
    with pytest.raises(ImportFileError, match="already an active player called Anna"):
        import_json_text(target, export_json_text(source))
    assert [p.name for p in target.list_players()] == ["Anna"]


def test_the_forms_refuse_control_and_direction_characters(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    for name in ("\u202eannA", "Bo\x00b", "x\u2066y"):
        with pytest.raises(InputError, match="control or text-direction"):
            store.add_player(name)
    assert store.add_player("Oma \U0001f475 \u674e").name == "Oma \U0001f475 \u674e"


# ------------------------------------------------------------------ item 8: import in batches
def test_an_import_writes_each_index_bucket_once_per_batch_and_reports_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.model.match import Match

    matches = []
    for _ in range(300):
        match = Match.new("ruckzuck", {"rounds": 3}, ["p1", "p2", "p3"], names=["Anna", "Ben", "Cleo"])
        match = match.with_round(rz_round())
        matches.append({**match.to_dict(), "version": 1})
    text = json.dumps({"format": "scorekeeper-export", "schema": 2, "matches": matches})
    store = Store.open(tmp_path)
    replaced: list[str] = []
    real = os.replace

    def counting(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        replaced.append(str(dst))
        real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", counting)
    steps: list[tuple[int, int]] = []
    report = import_json_text(store, text, progress=lambda done, total, *phase: steps.append((done, total)))
    monkeypatch.undo()
    assert report.matches_added == 300 and steps[-1] == (300, 300)
    index_writes = [p for p in replaced if Path(p).parent.name == "index"]
    assert len(index_writes) <= 32  # one batch: at most one write per bucket (before: one per game)
    assert len(store.list_matches()) == 300
    assert Store.open(tmp_path).recovery_messages == []


# ------------------------------------------------------------------ item 14: CSV injection
def test_csv_cells_cannot_become_formulas(tmp_path: Path) -> None:
    from scorekeeper.model.match import Match

    store = Store.open(tmp_path)
    names = ["\t=1+2", "\r=HYPERLINK()", "@SUM(A1)"]
    match = Match.new("ruckzuck", {"rounds": 3}, ["=cmd|' /C calc'!A0", "+p2", "-p3"], names=names)
    match = match.with_round(rz_round())
    match = store.save_match(match)
    import csv
    import io

    header, *rows = list(csv.reader(io.StringIO(export_csv_text(store))))
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            if cell.startswith("-"):
                assert cell.lstrip("-").isdigit(), cell  # only a negative number may start with a minus
    assert {row[header.index("player_id")] for row in rows} == {"'=cmd|' /C calc'!A0", "'+p2", "'-p3"}
