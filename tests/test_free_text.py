"""One rule for free text (issue 51; `scorekeeper.model.free_text`): player names, places and notes refuse control and
text-direction characters, are trimmed, and are cut to limits declared once, with a word whenever something is
cut. Walked through every free-text field: the scoreboard's place and notes, a player's name, and the place,
notes and names a BG Stats file brings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.exchange.bgstats import export_bgstats_text
from scorekeeper.exchange.bgstats_import import import_bgstats_text
from scorekeeper.games.base import RuleError
from scorekeeper.model import evening
from scorekeeper.model.free_text import LIMITS, clean, problem, refused
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.errors import InputError
from scorekeeper.store.people import NAME_MAX
from scorekeeper.ui.components import evening as evening_screen

BAD = ["Club\x00\x07\x1b[31mRED\u202e", "\u202eevil", "a\u2066b", "x\x7f", "\ud800"]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


def test_the_limits_are_declared_once() -> None:
    assert (LIMITS["notes"], LIMITS["place"], LIMITS["name"]) == (
        evening_screen.NOTES_MAX,
        evening_screen.PLACE_MAX,
        NAME_MAX,
    )


@pytest.mark.parametrize("text", BAD)
def test_a_place_with_control_characters_is_refused_like_a_name(store: Store, text: str) -> None:
    match = Match.new("racko", {"players": 2}, ["a", "b"], names=["Anna", "Ben"])
    with pytest.raises(RuleError, match="control or text-direction"):
        evening.with_place(text)(match)
    with pytest.raises(RuleError, match="control or text-direction"):
        evening.with_notes(text)(match)
    with pytest.raises(InputError, match="control or text-direction"):
        store.add_player(text)


def test_text_is_trimmed_and_cut_with_a_word() -> None:
    match = Match.new("racko", {"players": 2}, ["a", "b"], names=["Anna", "Ben"])
    assert evening.with_place("  Café \t Central \n")(match).place == "Café Central"
    assert evening.with_notes("  line one\n\tline two  ")(match).notes == "line one\n\tline two"
    long = "x" * 2_500
    assert len(evening.with_notes(long)(match).notes) == 2_000
    cleaned = clean(long, "notes")
    assert (
        cleaned.cut
        and [str(m) for m in cleaned.problems("notes")] == ["The notes was cut to 2000 characters."]
    ) or [str(m) for m in cleaned.problems("notes")] == ["The notes were cut to 2000 characters."]
    assert not clean("short", "notes").cut


def test_a_bg_stats_file_brings_no_control_characters_and_says_what_it_cut(store: Store) -> None:
    document = {
        "games": [{"id": 1, "name": "Racko"}],
        "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Ben"}],
        "locations": [{"id": 1, "name": "Club\x00\x07\x1b[31mRED\u202e"}],
        "plays": [
            {
                "uuid": "e0000000-0000-4000-8000-000000000001",
                "gameRefId": 1,
                "playDate": "2026-03-14 19:00:00",
                "locationRefId": 1,
                "comments": "n" * 2_500,
                "playerScores": [
                    {"playerRefId": 1, "score": "500", "winner": True},
                    {"playerRefId": 2, "score": "100", "winner": False},
                ],
            }
        ],
    }
    report = import_bgstats_text(store, json.dumps(document))
    match = next(store.iter_matches())
    assert match.place == "Club[31mRED" and len(match.notes) == 2_000
    assert [str(p) for p in report.problems] == [
        "Racko of 2026-03-14: The place had control or text-direction characters: they were removed.",
        "Racko of 2026-03-14: The notes were cut to 2000 characters.",
    ]
    exported = export_bgstats_text(store)
    assert "\x1b" not in exported and "\u202e" not in exported


@given(text=st.text(max_size=2_600), kind=st.sampled_from(["name", "place", "notes"]))
def test_property_clean_text_keeps_the_rule(text: str, kind: str) -> None:
    cleaned = clean(text, kind)  # type: ignore[arg-type]
    assert len(cleaned.text) <= LIMITS[kind]
    assert not any(refused(char) for char in cleaned.text)
    assert cleaned.text == cleaned.text.strip()
    assert clean(cleaned.text, kind).text == cleaned.text  # type: ignore[arg-type]
    assert cleaned.dropped == (problem(text, kind) is not None)  # type: ignore[arg-type]
