"""BG Stats plays as real files hold them, one rule at a time (issue 51; docs/BGSTATS.md): teams written and read
as Racko's partners game, the winner BG Stats recorded kept (and told where the scores say otherwise), ignored
plays kept out of statistics, games known by bggName, far dates and absurd durations answered, what BG Stats has
no field for kept in metaData, and every numeric field walked through bad values (Hypothesis)."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.exchange.bgstats import export_bgstats_text
from scorekeeper.exchange.bgstats_import import import_bgstats_text, read_plays
from scorekeeper.exchange.bgstats_values import Refused, game_of, minutes_of, moment_of, score_of
from scorekeeper.model.match import Match
from scorekeeper.stats import overview as stats
from scorekeeper.store import Store
from scorekeeper.ui.i18n import catalog

PEOPLE = ["Anna", "Ben", "Cleo", "Dana"]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


def document(*plays: dict[str, Any], game: dict[str, Any] | None = None) -> str:
    """A BG Stats file of one game (Racko unless given) and four players, with these plays."""
    return json.dumps(
        {
            "games": [game or {"id": 1, "name": "Racko"}],
            "players": [{"id": n + 1, "name": name} for n, name in enumerate(PEOPLE)],
            "locations": [{"id": 1, "name": "Club"}],
            "plays": list(plays),
        }
    )


def play(scores: list[Any], winners: list[bool] | None = None, **fields: Any) -> dict[str, Any]:
    """A play of the file's game: one seat per score, in the players' order."""
    return {
        "uuid": fields.pop("uuid", "e0000000-0000-4000-8000-000000000001"),
        "gameRefId": 1,
        "playDate": "2026-03-14 19:00:00",
        "durationMin": 40,
        "playerScores": [
            {"playerRefId": n + 1, "score": score, "winner": bool(winners and winners[n]), "seatOrder": n + 1}
            for n, score in enumerate(scores)
        ],
        **fields,
    }


# ------------------------------------------------------------------ teams
def partners_match(store: Store) -> Match:
    ids = [store.add_player(name).id for name in PEOPLE]
    match = Match.new("racko", {"players": 4, "partners": True, "target": 50}, ids, names=PEOPLE)
    match = match.with_round(
        {"counts": [None, 3, 2, 1], "runs": [3, 1, 1, 1], "callers": [0], "blitz": False}
    )
    clock: list[list[str | None]] = [
        ["2026-11-20T19:00:00+00:00", "2026-11-20T19:20:00+00:00"],
        ["2026-11-20T19:30:00+00:00", "2026-11-20T19:45:00+00:00"],
    ]
    return store.save_match(dataclasses.replace(match, clock=clock, place="Club"))


def test_a_partners_game_is_written_with_its_teams_and_comes_back_as_one(
    store: Store, tmp_path: Path
) -> None:
    match = partners_match(store)
    assert match.winners() == [0, 2]
    exported = json.loads(export_bgstats_text(store))
    written = exported["plays"][0]
    assert written["usesTeams"] is True and exported["games"][0]["usesTeams"] is True
    assert [(s["team"], s["winner"], s["rank"]) for s in written["playerScores"]] == [
        ("1", True, 1),
        ("2", False, 2),
        ("1", True, 1),
        ("2", False, 2),
    ]
    other = Store.open(tmp_path / "other")
    assert import_bgstats_text(other, json.dumps(exported)).imported == 1
    back = next(other.iter_matches())
    assert (back.partners, back.team_totals(), back.winners()) == (True, [85, 20], [0, 2])
    # What BG Stats has no field for came back through metaData: the target, both spans of the clock (the
    # pause between them), the number of rounds.
    assert (back.options["target"], back.clock, back.recorded.rounds) == (50, match.clock, 1)
    assert json.loads(export_bgstats_text(other))["plays"][0]["rounds"] == 1


def test_a_team_play_is_seated_as_racko_partners(store: Store) -> None:
    """BG Stats lists the seats in any order; partners sit 1+3 and 2+4 here."""
    raw = play(["100", "200", "50", "25"], [False, True, False, True], usesTeams=True)
    for score, team in zip(raw["playerScores"], ["A", "B", "A", "B"][::-1], strict=True):
        score["team"] = team  # Dana and Ben are one team, Cleo and Anna the other
    report = import_bgstats_text(store, document(raw))
    assert report.imported == 1
    match = next(store.iter_matches())
    assert match.names == ["Anna", "Ben", "Cleo", "Dana"] and match.partners
    assert match.winners() == [1, 3] and match.team_totals() == [150, 225]


# ------------------------------------------------------------------ the winner BG Stats recorded
def test_bg_stats_winner_is_kept_and_the_difference_told(store: Store) -> None:
    report = import_bgstats_text(store, document(play(["300", "500"], [True, False])))
    match = next(store.iter_matches())
    assert match.totals() == [300, 500] and match.winners() == [0]
    assert [str(p) for p in report.problems] == [
        "Racko of 2026-03-14: BG Stats names Anna as winner, the scores Ben: BG Stats' winner is kept"
    ]
    assert json.loads(export_bgstats_text(store))["plays"][0]["manualWinner"] is True


def test_manual_winner_that_agrees_with_the_scores_is_kept_without_a_word(store: Store) -> None:
    report = import_bgstats_text(store, document(play(["500", "300"], [True, False], manualWinner=True)))
    assert report.problems == () and next(store.iter_matches()).winners() == [0]


def test_an_ignored_play_is_kept_but_not_counted(store: Store) -> None:
    import_bgstats_text(
        store,
        document(
            play(["500", "300"], [True, False], ignored=True),
            play(["100", "500"], [False, True], uuid="e0000000-0000-4000-8000-000000000002"),
        ),
    )
    assert len(list(store.iter_matches())) == 2
    assert {s.name: s.wins for s in stats.win_shares(store.iter_matches())} == {"Ben": 1, "Anna": 0}
    assert len(store.stat_rows()) == 1
    assert json.loads(export_bgstats_text(store))["plays"][0]["ignored"] is True


# ------------------------------------------------------------------ games by BoardGameGeek id, bggName, name
def test_games_known_by_bgg_name_and_in_every_language() -> None:
    assert game_of({"name": "Rage Card Game", "bggName": "Rage"}) == "rage"
    assert game_of({"name": "Kartenspiel", "bggName": "Rack-O"}) == "racko"
    assert game_of({"name": "RuckZuck", "bggId": 12345678}) == "ruckzuck"  # an id not known: the names decide
    assert game_of({"name": "Wingspan", "bggName": "Wingspan", "bggId": 266192}) is None
    for language in ("en", "de", "nl", "fr"):
        titles = catalog(language)
        for key, title in (("racko", "Racko"), ("ruckzuck", "Ruck Zuck"), ("rage", "Rage")):
            assert game_of({"name": titles.get(title, title)}) == key


# ------------------------------------------------------------------ far dates, absurd durations
def test_a_far_date_is_refused_with_a_reason_not_a_crash(store: Store) -> None:
    report = import_bgstats_text(store, document(play(["500", "300"], playDate="9999-12-31 23:00:00")))
    assert (report.imported, report.unreadable) == (0, 1)
    assert [str(p) for p in report.problems] == [
        "Racko of 9999-12-31: its date 9999-12-31 is not a date an evening was played on"
    ]


@pytest.mark.parametrize("minutes", [99999, -5, 1e308, "90", True])
def test_a_duration_not_believed_is_left_unknown_and_told(store: Store, minutes: Any) -> None:
    report = import_bgstats_text(store, document(play(["500", "300"], durationMin=minutes)))
    assert report.imported == 1 and next(store.iter_matches()).clock == []
    assert [str(p) for p in report.problems] == [
        "Racko of 2026-03-14: its duration was not believed and is left unknown"
    ]


def test_nan_in_the_file_is_answered(store: Store) -> None:
    text = document(play(["500", "300"])).replace('"durationMin": 40', '"durationMin": NaN')
    text = text.replace('"score": "500"', '"score": NaN')
    report = import_bgstats_text(store, text)
    assert (report.imported, report.unreadable) == (0, 1)
    assert "the score “nan” is not a whole number" in str(report.problems[0])


# ------------------------------------------------------------------ scores
@pytest.mark.parametrize(
    ("score", "total"),
    [("75+50+100+75+125+100", 525), (" 12 ", 12), ("12.0", 12), (12, 12), ("-5 + 10", 5), ("100-5", 95)],
)
def test_scores_typed_as_sums_are_summed(score: Any, total: int) -> None:
    assert score_of(score) == total


@pytest.mark.parametrize("score", ["75+fifty", "12.5", "ten", "1e3", "5++5", "+", "1 2", [1], float("inf")])
def test_a_score_that_is_no_number_or_sum_is_refused_naming_it(score: Any) -> None:
    with pytest.raises(Refused) as refused:
        score_of(score)
    assert str(score)[:10].strip() in str(refused.value.message)


def test_a_sum_with_words_refuses_the_play_and_says_which(store: Store) -> None:
    report = import_bgstats_text(store, document(play(["75+50+fifty", "300"])))
    assert (report.imported, report.unreadable) == (0, 1)
    assert [str(p) for p in report.problems] == [
        "Racko of 2026-03-14: the score “75+50+fifty” is not a number or a sum of numbers"
    ]


def test_a_winner_only_play_of_ruck_zuck_is_placed_by_its_flags(store: Store) -> None:
    game = {"id": 1, "name": "Ruck Zuck"}
    import_bgstats_text(store, document(play([None, "", None], [False, False, True]), game=game))
    match = next(store.iter_matches())
    assert match.winners() == [2] and not match.recorded.scored
    row = store.stat_rows()[0]
    assert row.scored is False and row.winners == frozenset({2})


# ------------------------------------------------------------------ every numeric field, any value
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["9999-12-31 23:59:59", "0001-01-01", "2026-02-30 10:00:00", "75+50", "1+two", "NaN"]),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=200, deadline=None)
@given(score=values, minutes=values, date=values, rounds=values, seat=values, meta=values)
def test_property_no_value_crashes_the_import(
    score: Any, minutes: Any, date: Any, rounds: Any, seat: Any, meta: Any
) -> None:
    """Whatever a numeric or date field holds, a play is read or refused with a reason: never an exception."""
    raw = play([score, "10"], [True, False], durationMin=minutes, playDate=date, rounds=rounds, metaData=meta)
    raw["playerScores"][0]["seatOrder"] = seat
    found = read_plays(document(raw))
    assert len(found.plays) + found.unreadable == 1
    assert found.unreadable == 0 or len(found.problems) >= 1
    for kept in found.plays:
        assert 0 <= kept.minutes <= 24 * 60
        assert all(isinstance(total, int) for total in kept.totals)


@given(value=values)
def test_property_value_readers_answer_or_refuse(value: Any) -> None:
    for reader in (score_of, moment_of):
        try:
            reader(value)
        except Refused:
            pass
    minutes, doubtful = minutes_of(value)
    assert 0 <= minutes <= 24 * 60 and (minutes == 0 or not doubtful)
    if isinstance(value, float) and math.isnan(value):
        assert minutes == 0


def test_play_again_after_an_imported_result_starts_an_ordinary_game(tmp_path: Path) -> None:
    """ "Play again with the same players" copies the options, not what BG Stats recorded of the old result."""
    from test_ui_core_harness import App

    app = App(tmp_path / "app")
    import_bgstats_text(app.store, document(play(["300", "500"], [True, False], manualWinner=True)))
    (old,) = app.store.list_matches()
    app.go(f"/new?again={old.id}")
    app.tap("start-game")
    (new,) = [m for m in app.store.list_matches() if m.id != old.id]
    match = app.store.get_match(new.id)
    assert match is not None and match.status == "active" and "recorded" not in match.options
