"""The evening around a game through the store: time played (the first round starts it, Pause and Resume, the
end stops it, a digital game counts its own), notes and place (undo, export and import, CSV, the places used
before), the start player, and older data without any of it."""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_play_session import MemoryStore, bots, play_match

from scorekeeper.digital.session import PlaySession
from scorekeeper.exchange.transfer import export_csv_text, export_json_text, import_json_text
from scorekeeper.games.base import RuleError
from scorekeeper.model import evening, playtime
from scorekeeper.model.match import Match
from scorekeeper.model.stamps import now_iso
from scorekeeper.store import Store
from scorekeeper.ui.components import evening as evening_screen

FIXTURES = Path(__file__).resolve().parent / "fixtures"
T0 = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
RACKO_ROUND = {"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False}
"""Anna calls Racko: 75 points to 15 (a Racko game of two to 100 ends after two such rounds)."""


def at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat(timespec="seconds")


class Clock:
    """The time the match's rounds are stamped with (`scorekeeper.model.match.now_iso`), set by the test."""

    def __init__(self) -> None:
        self.minutes = 0.0

    def __call__(self) -> str:
        return at(self.minutes)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr("scorekeeper.model.match.now_iso", made)
    return made


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "data")
    yield opened
    opened.close()


def racko(store: Store, target: int = 100) -> Match:
    return store.save_match(
        Match.new("racko", {"players": 2, "target": target}, ["a", "b"], names=["Anna", "Ben"])
    )


def add_round(store: Store, match_id: str) -> Match:
    return store.change_match(match_id, lambda m: m.with_round(RACKO_ROUND), "Round added")


# ------------------------------------------------------------------ time played
def test_the_first_round_starts_the_clock_a_pause_stops_it_and_the_end_of_the_game_stops_it(
    store: Store, clock: Clock
) -> None:
    match = racko(store)
    assert (
        match.clock == [] and "clock" not in store.matches.stored(match.id)[0]
    )  # no time before the first round
    clock.minutes = 10
    match = add_round(store, match.id)
    assert match.clock == [[at(10), None]] and playtime.running(match.clock)
    match = store.change_match(match.id, evening.paused(at(25)), "Clock paused")
    assert match.clock == [[at(10), at(25)]]
    assert store.change_match(match.id, evening.paused(at(30))).version == match.version  # paused already
    match = store.change_match(match.id, evening.resumed(at(40)), "Clock resumed")
    clock.minutes = 70
    match = add_round(store, match.id)  # 150 points: the game is over
    assert match.status == "finished" and not playtime.running(match.clock)
    assert playtime.played_seconds(match.clock) == (15 + 30) * 60
    assert store.change_match(match.id, evening.resumed(at(80))).clock == match.clock  # over: stays stopped
    assert store.list_matches()[0].clock == match.clock  # the history's duration comes from the index


def test_a_game_over_in_its_first_round_and_older_data_have_no_time_played(
    store: Store, clock: Clock
) -> None:
    short = add_round(store, racko(store, target=50).id)  # one round, and the game is over
    assert short.is_over and short.clock == []
    old = Match.new("racko", {"players": 2, "target": 500}, ["a", "b"], names=["Anna", "Ben"]).with_round(
        RACKO_ROUND
    )
    old = store.save_match(Match.from_dict({k: v for k, v in old.to_dict().items() if k != "clock"}))
    assert add_round(store, old.id).clock == []  # rounds before the clock: its time is not known
    assert store.change_match(old.id, evening.resumed(at(5))).clock == []  # nothing to resume


def test_undo_takes_back_a_pause_and_a_round_that_started_the_clock(store: Store, clock: Clock) -> None:
    match = add_round(store, racko(store).id)
    paused = store.change_match(match.id, evening.paused(at(5)), "Clock paused")
    assert store.match_history(match.id).undo == "Clock paused"
    assert playtime.running(store.undo_match(match.id, paused.version).clock)
    assert store.undo_match(match.id, paused.version + 1).clock == []


def test_a_digital_game_counts_its_own_time_from_the_deal_to_the_end() -> None:
    store = MemoryStore()
    session = PlaySession.create(
        store, "ruckzuck", {"rounds": 2}, bots("ruckzuck", ["easy", "normal"]), seed=3
    )
    assert playtime.running(session.match.clock)  # dealt: counting, before any round is over
    started = session.match.clock[0][0]
    play_match(session)
    match = store.get_match(session.match_id)
    assert match is not None and match.status == "finished"
    assert len(match.clock) == 1 and match.clock[0][0] == started and match.clock[0][1] is not None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["round", "pause", "resume"]), max_size=12))
def test_time_played_counts_only_while_running(steps: list[str]) -> None:
    """Whatever the order of rounds, pauses and resumes, the clock's spans follow one another and never
    overlap, and no span is open once the game is over."""
    match = Match.new("racko", {"players": 2, "target": 10_000}, ["a", "b"], names=["Anna", "Ben"])
    for step in steps:
        match = {
            "round": lambda m: m.with_round(RACKO_ROUND),
            "pause": evening.paused(now_iso()),
            "resume": evening.resumed(now_iso()),
        }[step](match)
    assert bool(match.clock) == ("round" in steps)
    ends = [span[1] for span in match.clock[:-1]]
    assert None not in ends
    starts = [span[0] for span in match.clock]
    assert starts == sorted(starts)


# ------------------------------------------------------------------ notes, place, start player
def test_notes_and_place_are_kept_by_undo_and_redo_and_in_the_index(store: Store) -> None:
    match = racko(store)
    match = store.change_match(match.id, evening.with_notes("  Ben's birthday\n"), "Notes changed")
    match = store.change_match(match.id, evening.with_place(" Anna's   kitchen "), "Place changed")
    assert (match.notes, match.place) == ("Ben's birthday", "Anna's kitchen")
    assert store.list_matches()[0].place == "Anna's kitchen"
    assert store.change_match(match.id, evening.with_place("Anna's kitchen")).version == match.version
    undone = store.undo_match(match.id, match.version)
    assert (undone.notes, undone.place) == ("Ben's birthday", "")
    assert "place" not in store.matches.stored(match.id)[0]  # written only when set
    assert store.redo_match(match.id, undone.version).place == "Anna's kitchen"


def test_the_places_used_before_most_used_first_then_the_latest(store: Store) -> None:
    for place in ("Club", "Anna's kitchen", "club ", "Garden", "Anna's kitchen", "Club"):
        store.change_match(racko(store).id, evening.with_place(place))
    racko(store)  # no place
    assert store.places() == [
        "Club",
        "Anna's kitchen",
        "Garden",
    ]  # "club " is the club, named as last written
    store.change_match(racko(store).id, evening.with_place("Garden"))
    assert store.places() == ["Club", "Garden", "Anna's kitchen"]  # two each: the latest first


def test_the_places_come_from_the_index_without_reading_a_match(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for place in ("Club", "Garden", "Club"):
        store.change_match(racko(store).id, evening.with_place(place))
    store.close()

    def refused(*_: object, **__: object) -> None:
        raise AssertionError("a match was read")

    monkeypatch.setattr(Match, "from_dict", refused)
    with Store.open(tmp_path / "data") as reopened:
        assert reopened.places() == ["Club", "Garden"]


def test_the_start_player_changes_only_before_the_first_round(store: Store) -> None:
    match = racko(store)
    match = store.change_match(match.id, evening.with_start_player(1), "Start player changed")
    assert match.first_dealer == 1 and match.dealer == 1
    played = add_round(store, match.id)
    with pytest.raises(RuleError, match="before the first round"):
        store.change_match(match.id, evening.with_start_player(0))
    assert store.get_match(match.id) == played  # nothing changed: the round's dealer stays Ben


# ------------------------------------------------------------------ export and import
def test_json_export_and_import_keep_the_evening_and_csv_has_its_columns(
    store: Store, tmp_path: Path
) -> None:
    match = add_round(store, racko(store).id)
    match = store.change_match(match.id, evening.with_notes('Close game, "Blitz" next time'))
    match = store.change_match(match.id, evening.with_place("Club"))
    match = store.change_match(match.id, evening.paused(now_iso()))
    other = Store.open(tmp_path / "other")
    try:
        import_json_text(other, export_json_text(store))
        copy = other.get_match(match.id)
        assert copy is not None
        assert (copy.notes, copy.place, copy.clock) == (match.notes, match.place, match.clock)
        assert other.places() == ["Club"]
    finally:
        other.close()
    rows = list(csv.DictReader(io.StringIO(export_csv_text(store))))
    assert {row["notes"] for row in rows} == {match.notes}
    assert {row["place"] for row in rows} == {"Club"}
    assert {row["minutes_played"] for row in rows} == {"0"}


@pytest.mark.parametrize("fixture", ["data_804ac6b", "data_1427d2a"])
def test_older_data_opens_without_notes_place_or_time(fixture: str, tmp_path: Path) -> None:
    folder = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, folder)
    with Store.open(folder) as old:
        summaries = old.list_matches()
        assert summaries and all((s.place, s.clock) == ("", []) for s in summaries)
        assert old.places() == []
        for match in old.iter_matches():
            assert (match.notes, match.place, match.clock) == ("", "", [])
            assert evening_screen.played_text(old_t(), match.clock) is None
        rows = list(csv.DictReader(io.StringIO(export_csv_text(old))))
        assert rows and all((r["notes"], r["place"], r["minutes_played"]) == ("", "", "") for r in rows)


def old_t():  # the English translator: older data shows no time played in any language
    from scorekeeper.ui.i18n import Translator

    return Translator("en")


def test_durations_read_in_minutes_and_hours() -> None:
    t = old_t()
    assert evening_screen.duration_text(t, 59) == "0 min"
    assert evening_screen.duration_text(t, 42 * 60 + 59) == "42 min"
    assert evening_screen.duration_text(t, 65 * 60) == "1 h 5 min"
    assert evening_screen.place_and_time(t, "Club", [[at(0), at(90)]]) == "Club · 1 h 30 min"
    assert evening_screen.place_and_time(t, "", []) == ""
