"""The store is the only owner of a match: a digital game or a live table records its round through
`Store.change_match`, applied to the match as stored, so an edit on the scoreboard, another Store object on the
same folder or a sync that brings rounds in meanwhile loses nothing and raises nothing, and every round is
recorded once. `Match` is immutable; nothing in the app changes one in place."""

from __future__ import annotations

import ast
import dataclasses
import threading
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorekeeper
from scorekeeper.digital.session import PlaySession, computer_seat
from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.errors import ConflictError
from scorekeeper.ui.components.match_io import change_match as screen_change
from tests.sync_support import Devices
from tests.test_table_keeping_sync import kept_table

RZ_DIGITAL = {"rounds": 6}


def computers(store: Store, seed: int = 3) -> PlaySession:
    """A digital Ruck Zuck game of three computer players, its first round dealt."""
    seats = [computer_seat("easy", seat, name) for seat, name in enumerate(("Ann", "Ben", "Cy"))]
    return PlaySession.create(store, "ruckzuck", RZ_DIGITAL, seats, seed=seed)


def half_a_round(session: PlaySession, moves: int = 4) -> None:
    """A few moves into the round being played (it does not end with them)."""
    for _ in range(moves):
        assert session.step_computer()
    assert not session.round_over


def corrected(result: dict[str, Any]) -> dict[str, Any]:
    """A Ruck Zuck round as the scoreboard corrects it: the same player out, other penalties."""
    out = result["out"]
    return {"hands": [0 if seat == out else 10 + seat for seat in range(3)], "out": out}


def second_round_played(store: Store) -> PlaySession:
    """A digital game with round 1 recorded and round 2 a few moves in."""
    session = computers(store)
    session.run_computers()
    assert session.next_round() is not None
    half_a_round(session)
    return session


def round_ends_once(store: Store, session: PlaySession, first: dict[str, Any]) -> None:
    """The round being played ends: it is recorded once, after the (changed) first round."""
    session.run_computers()
    assert session.round_over
    stored = store.get_match(session.match_id)
    assert stored is not None and stored.rounds == [first, session.state.result()]
    finished = session.next_round()  # a second path to the same round's end records nothing more
    assert finished is not None and finished.index == 1
    stored = store.get_match(session.match_id)
    assert stored is not None and len(stored.rounds) == 2 and session.round_index == 2


# ------------------------------------------------------------------ (a) a digital game and the scoreboard
def test_a_digital_round_ends_once_while_the_scoreboard_edits_an_earlier_round(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    session = second_round_played(store)
    first = corrected(session.match.rounds[0])
    store.change_match(session.match_id, lambda m: m.with_round_edited(0, first), "Edit round 1")
    assert session.match.rounds[0] == first  # the game reads the match as stored, not a copy of its own
    round_ends_once(store, session, first)


def test_the_scoreboard_of_another_store_object_and_undo_lose_nothing(tmp_path: Path) -> None:
    store, other = Store.open(tmp_path), Store.open(tmp_path)  # another window on the same folder: not heard
    session = second_round_played(store)
    played = session.match.rounds[0]
    other.change_match(session.match_id, lambda m: m.with_round_edited(0, corrected(played)), "Edit round 1")
    shown = other.get_match(session.match_id)
    assert shown is not None
    other.undo_match(shown.id, shown.version)  # the edit taken back on the scoreboard
    round_ends_once(store, session, played)


def test_a_round_taken_back_meanwhile_is_dealt_again_not_recorded_twice(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    session = second_round_played(store)
    store.change_match(session.match_id, lambda m: m.without_round(0), "Delete round 1")
    session.run_computers()
    assert store.get_match(session.match_id).rounds == []  # round 2 no longer follows the match's rounds
    assert session.next_round() is None and session.round_index == 0  # the match's next round is dealt
    session.run_computers()
    session.next_round()
    assert len(store.get_match(session.match_id).rounds) == 1


# ------------------------------------------------------------------ (b) another device syncs rounds in
def test_a_digital_round_ends_once_while_another_device_syncs_in_an_edit(tmp_path: Path) -> None:
    devices = Devices(tmp_path, 2)
    try:
        here, there = devices.stores
        session = second_round_played(here)
        devices.sync(0, 1)
        first = corrected(session.match.rounds[0])
        there.change_match(session.match_id, lambda m: m.with_round_edited(0, first), "Edit round 1")
        devices.sync(1, 0)  # the edit arrives here in the middle of round 2
        assert here.get_match(session.match_id).rounds[0] == first
        round_ends_once(here, session, first)
        devices.everyone_twice()
        assert there.get_match(session.match_id).rounds == here.get_match(session.match_id).rounds
        assert here.conflicts() == [] and there.conflicts() == []
    finally:
        devices.close()


def test_a_round_another_device_recorded_meanwhile_is_not_recorded_again(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    session = second_round_played(store)
    stored = store.get_match(session.match_id)
    theirs = {"hands": [0, 5, 7], "out": 0}  # the other device's game of the same round ended first
    store.sync_records.put_match(stored.with_round(theirs).to_dict(), expect=stored.version)
    session.run_computers()
    assert store.get_match(session.match_id).rounds[1] == theirs  # kept, and this round not added after it
    finished = session.next_round()
    assert finished is not None and finished.points == store.get_match(session.match_id).round_scores()[1]
    assert len(store.get_match(session.match_id).rounds) == 2


# ------------------------------------------------------------------ (c) a live table and the scoreboard
def screen(store: Store) -> Any:
    """What `match_io.change_match` needs of a view's context (no page: nobody else to tell)."""
    return SimpleNamespace(
        store=store, describe=str, t=lambda text, **fields: text.format(**fields), page=None
    )


def test_a_table_round_is_recorded_once_while_the_scoreboard_edits_an_earlier_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, table, tokens, _heard = kept_table(tmp_path)
    keeping = table.keeping
    assert keeping is not None
    for seat, part in enumerate(({"hand": 0, "out": True}, {"hand": 5}, {"hand": 7})):
        table.enter_part(seat, tokens[seat], part)
    assert len(keeping.match.rounds) == 1
    other = Store.open(tmp_path)  # the scoreboard of another window on the folder: the table does not hear it
    shown = other.get_match(keeping.match.id)
    assert shown is not None
    complete, edits = keeping.parts.complete, []

    def complete_then_edit() -> bool:
        """Every part is in: right then, after the table's last read of its match and before its save, the
        scoreboard saves its edit of round 1."""
        done = complete()
        if done and not edits:
            edit = lambda m: m.with_round_edited(0, {"hands": [0, 6, 8], "out": 0})  # noqa: E731
            edits.append(screen_change(screen(other), shown, edit, "Edit round 1", index=0))
        return done

    monkeypatch.setattr(keeping.parts, "complete", complete_then_edit)
    table.enter_part(0, tokens[0], {"hand": 0, "out": True})
    table.enter_part(1, tokens[1], {"hand": 3})
    assert table.enter_part(2, tokens[2], {"hand": 4}) is True  # no ConflictError
    assert len(edits) == 1 and isinstance(edits[0], Match)
    stored = other.get_match(shown.id)
    assert stored is not None
    assert [r["hands"] for r in stored.rounds] == [[0, 6, 8], [0, 3, 4]]  # both kept, each once
    assert keeping.problem is None and keeping.match.rounds == stored.rounds and host.store is not other


def test_a_screen_change_to_a_round_changed_elsewhere_is_refused_with_nothing_changed(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    match = store.save_match(Match.new("ruckzuck", {"rounds": 9}, ["a", "b", "c"], names=["A", "B", "C"]))
    match = store.save_match(match.with_round({"hands": [0, 5, 7], "out": 0}))
    shown = match  # what the scoreboard shows
    store.change_match(match.id, lambda m: m.with_round({"hands": [0, 1, 2], "out": 0}))  # a table's round
    edited = screen_change(
        screen(store), shown, lambda m: m.with_round_edited(0, {"hands": [0, 9, 9], "out": 0}), "", index=0
    )
    assert isinstance(edited, Match) and len(edited.rounds) == 2  # another round: no conflict, both kept
    added = screen_change(
        screen(store), shown, lambda m: m.with_round({"hands": [4, 0, 4], "out": 1}), "", index=1
    )
    assert isinstance(added, str) and "changed on another device" in added  # round 2 was entered meanwhile
    store.change_match(match.id, lambda m: m.with_round_edited(0, {"hands": [0, 1, 1], "out": 0}))
    again = screen_change(
        screen(store), edited, lambda m: m.with_round_edited(0, {"hands": [0, 2, 2], "out": 0}), "", index=0
    )
    assert isinstance(again, str) and "changed on another device" in again  # the very round was changed
    assert store.get_match(match.id).rounds == [
        {"hands": [0, 1, 1], "out": 0},
        {"hands": [0, 1, 2], "out": 0},
    ]


# ------------------------------------------------------------------ change_match itself
def rz_match(store: Store) -> Match:
    return store.save_match(Match.new("ruckzuck", {"rounds": 60}, ["a", "b", "c"], names=["A", "B", "C"]))


def marked(writer: int, number: int) -> dict[str, Any]:
    """A round that says who added it and their how-manieth it was."""
    return {"hands": [0, writer + 1, number + 1], "out": 0}


def test_a_change_that_no_longer_applies_raises_and_changes_nothing(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    match = rz_match(store)
    with pytest.raises(RuleError):
        store.change_match(match.id, lambda m: m.without_round(0))
    unchanged = store.change_match(match.id, lambda m: m)  # nothing to do: nothing written
    assert unchanged.version == 1 and store.match_history(match.id).undo is None
    with pytest.raises(ConflictError, match="not found"):
        store.change_match("0" * 32, lambda m: m.with_round(marked(0, 0)))
    assert store.get_match(match.id) == match


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["read", "add", "edit"])), min_size=1, max_size=18)
)
def test_interleaved_writers_record_every_change_once(
    tmp_path_factory: Any, steps: list[tuple[int, str]]
) -> None:
    """Three writers (two Store objects on one folder; each writer keeps the match it read last, as a screen
    does, and may be far behind): every change is recorded once, on the stored match, one version each; undo
    then steps back through the changes one at a time."""
    folder = tmp_path_factory.mktemp("writers")
    stores = [Store.open(folder), Store.open(folder), Store.open(folder)]
    match = rz_match(stores[0])
    views = [match, match, match]
    expected = [match.to_dict()["rounds"]]  # the stored rounds after each change
    added = [0, 0, 0]
    for writer, step in steps:
        store = stores[writer % 2]  # writers 0 and 2 share a Store object
        if step == "read":
            views[writer] = store.get_match(match.id)
            continue
        if step == "add":
            result = marked(writer, added[writer])
            added[writer] += 1
            change: Callable[[Match], Match] = lambda m, r=result: m.with_round(r)  # noqa: E731
            rounds = [*expected[-1], result]
        else:
            if not expected[-1]:
                continue
            rounds = [*expected[-1][:-1], {"hands": [0, 9, writer + 1], "out": 0}]
            change = lambda m, r=rounds[-1]: m.with_round_edited(m.round_index - 1, r)  # noqa: E731
        saved = store.change_match(match.id, change, f"{writer} {step}")
        assert saved.version == match.version + len(expected)
        expected.append(rounds)
        views[writer] = saved
    stored = stores[1].get_match(match.id)
    assert stored.rounds == expected[-1] and stored.version == match.version + len(expected) - 1
    for rounds in reversed(expected[:-1][-20:]):  # undo: one change back at a time
        stored = stores[0].undo_match(match.id, stored.version)
        assert stored.rounds == rounds
    for store in stores:
        store.close()


def test_threads_on_two_store_objects_record_every_round_once(tmp_path: Path) -> None:
    stores = [Store.open(tmp_path), Store.open(tmp_path)]
    match = rz_match(stores[0])
    errors: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            for count in range(6):
                result = marked(number, count)
                stores[number % 2].change_match(match.id, lambda m, r=result: m.with_round(r), "round")
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stored = stores[1].get_match(match.id)
    assert stored.version == match.version + 24
    assert sorted(map(str, stored.rounds)) == sorted(str(marked(n, c)) for n in range(4) for c in range(6))
    for number in range(4):  # each writer's rounds in the order it added them
        mine = [r for r in stored.rounds if r["hands"][1] == number + 1]
        assert mine == [marked(number, c) for c in range(6)]


# ------------------------------------------------------------------ (e) an immutable match, no mutators
def test_a_match_is_frozen_and_its_changes_are_new_values(tmp_path: Path) -> None:
    match = Match.new("ruckzuck", {"rounds": 3}, ["a", "b", "c"], names=["A", "B", "C"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.version = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.rounds = []  # type: ignore[misc]
    for removed in ("add_round", "edit_round", "remove_round", "_become"):
        assert not hasattr(Match, removed)
    changed = match.with_round(marked(0, 0))
    assert match.rounds == [] and changed.rounds == [marked(0, 0)]
    store = Store.open(tmp_path)
    saved = store.save_match(changed)
    assert saved is not changed and changed.version == 0 and saved.version == 1


def test_no_module_of_the_app_calls_a_removed_mutator() -> None:
    root = Path(scorekeeper.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in (
                "add_round",
                "edit_round",
                "remove_round",
                "_become",
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.attr}")
    assert found == []
