"""BG Stats exports as real files are (issue 51): two samples of public exports (tests/fixtures/bgstats/README.md
names their sources), counted by hand from the files, imported as they are and with their games standing in for
this app's, and what an import must keep of them: sums typed as scores, results known by their winners, the
winner BG Stats recorded, teams, and a round trip that gives the same matches back."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.exchange import bgstats_import
from scorekeeper.exchange.bgstats import export_bgstats_text
from scorekeeper.exchange.bgstats_import import import_bgstats_text
from scorekeeper.stats import overview as stats
from scorekeeper.stats.players import player_report
from scorekeeper.store import Store

FIXTURES = Path(__file__).parent / "fixtures" / "bgstats"
GAO = FIXTURES / "michaelgao8_sample.json"
"""michaelgao8/board-game-stats-shiny, BGStatsExport.json: 7 plays (5 of "7 Wonders", 2 team plays of
"Captain Sonar" with 8 players and no scores)."""
GZ = FIXTURES / "gz97_sample.json"
"""gz97/board-games-analysis, BGStatsExport.json: 6 plays (scores as sums, winner-only with manualWinner, team
plays, ordinary plays)."""

GAO_STAND_IN = {3: "rage", 30: "racko"}
"""The file's games standing in for this app's (by the game entry's id): 7 Wonders as Rage (2 to 10 players, the
highest total wins), Captain Sonar as Racko (whose partners game is the only one with teams)."""
GZ_STAND_IN = {185: "rage", 68: "rage", 175: "rage", 190: "ruckzuck", 10: "racko"}


def stand_in(table: Mapping[int, str]) -> Any:
    return lambda entry: table.get(entry.get("id"))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


def imported(store: Store, path: Path, table: Mapping[int, str], monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(bgstats_import, "game_of", stand_in(table))
    return import_bgstats_text(store, path.read_bytes())


# ------------------------------------------------------------------ the files as they are
@pytest.mark.parametrize(("path", "plays"), [(GAO, 7), (GZ, 6)])
def test_a_real_export_of_other_games_is_counted_and_skipped(store: Store, path: Path, plays: int) -> None:
    """Neither file holds Racko, Ruck Zuck or Rage (by BoardGameGeek id, bggName or name): every play is
    counted as another game's, none refused, nothing added."""
    assert len(json.loads(path.read_text(encoding="utf-8"))["plays"]) == plays
    report = import_bgstats_text(store, path.read_bytes())
    assert (report.imported, report.other_games, report.unreadable, report.players_added) == (0, plays, 0, 0)
    assert list(store.iter_matches()) == []


# ------------------------------------------------------------------ michaelgao8: counted by hand
def test_michaelgao8_sample_imports_five_plays_and_refuses_the_eight_player_teams(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By hand from the file: 5 plays of game 3 (5, 7, 8, 6 and 7 players, each with scores and one winner flag
    on the best score), 2 plays of game 30 with usesTeams, 8 players in two teams of 4, no scores. The teams of 4
    are no Racko partners game: refused with a reason. Players in the 5 plays: 10 different people."""
    report = imported(store, GAO, GAO_STAND_IN, monkeypatch)
    assert (report.imported, report.other_games, report.unreadable, report.players_added) == (5, 0, 2, 10)
    assert [str(p) for p in report.problems] == [
        "Racko of 2021-04-10: its teams are not two teams of two, as Racko's partners game has"
    ] * 2
    matches = {m.id[:8]: m for m in store.iter_matches()}
    first = matches["41b74198"]
    assert (first.names, first.totals(), first.winners()) == (
        ["Chris Lew", "Kayla Thompson", "LeAnna Nguyen", "Lizzy Zhao", "Michael Gao"],
        [66, 51, 56, 64, 53],
        [0],
    )
    assert (first.place, first.options, first.recorded.places) == ("Arium", {"players": 5}, None)
    assert matches["5a99d4bb"].names[2] == "Jay"  # "Jay " in the file: trimmed as every name is
    assert [matches[k].winners() for k in ("86a7536d", "cdf3964c", "7f7a4760", "5a99d4bb")] == [
        [4],
        [4],
        [3],
        [2],
    ]
    # By hand: LeAnna Nguyen won 3 of her 5 plays; Chris Lew 1 of 5; Jay 1 of 1.
    rows = store.stat_rows()
    people = {p.name: p.id for p in store.list_players()}
    leanna = player_report(rows, people["LeAnna Nguyen"])
    assert (leanna.games, leanna.wins) == (5, 3)
    assert (player_report(rows, people["Chris Lew"]).wins, player_report(rows, people["Jay"]).wins) == (1, 1)
    assert leanna.seconds == (47 + 54 + 42 + 42 + 38) * 60  # the plays' durations, minutes


# ------------------------------------------------------------------ gz97: counted by hand
def test_gz97_sample_sums_winner_only_and_teams(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """By hand from the file: two ordinary 4-player plays (winners Munir with 10, James Manning with 10), one
    2-player play with scores typed as sums ("78+73" = 151 against "58+65" = 123, Gosia Żurek the winner), one
    winner-only play ("" scores, manualWinner, James Manning the winner), and two team plays (usesTeams, every
    player in team "0": a cooperative game) that this app cannot seat as Racko partners: refused."""
    report = imported(store, GZ, GZ_STAND_IN, monkeypatch)
    assert (report.imported, report.other_games, report.unreadable, report.players_added) == (4, 0, 2, 5 - 1)
    assert [str(p) for p in report.problems] == [
        "Rage of 2024-11-16: it is played in teams: only Racko's partners game has teams here"
    ] * 2
    matches = {m.id[:8]: m for m in store.iter_matches()}
    summed = matches["1b5a0739"]
    assert (summed.game, summed.names, summed.totals(), summed.winners()) == (
        "racko",
        ["Gosia Żurek", "James Manning"],
        [151, 123],
        [0],
    )
    only = matches["3dfeae44"]
    assert (only.game, only.winners(), only.recorded.scored, only.recorded.places) == (
        "ruckzuck",
        [1],
        False,
        (2, 1),
    )
    assert [row.place for row in only.standings()] == [1, 2]
    assert matches["e1559ff1"].winners() == [3] and matches["e1559ff1"].first_dealer == 1
    assert matches["96a46a42"].winners() == [2] and matches["96a46a42"].first_dealer == 3
    # The winner-only play counts in games and wins, not in scores.
    rows = store.stat_rows()
    people = {p.name: p.id for p in store.list_players()}
    james = player_report(rows, people["James Manning"])
    assert (james.games, james.wins) == (4, 2)
    ruck = next(line for line in james.per_game if line.game == "ruckzuck")
    assert (ruck.games, ruck.wins, ruck.unscored, ruck.points, ruck.best_total, ruck.average_total) == (
        1,
        1,
        1,
        0,
        None,
        None,
    )
    wins = {share.name: share.wins for share in stats.win_shares(store.iter_matches())}
    assert wins == {"Munir": 1, "James Manning": 2, "Gosia Żurek": 1, "Bianca": 0}


def test_gz97_sample_round_trip_gives_the_same_matches(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Export the imported plays and import them into an empty store: the same matches (ids, names, totals,
    winners, places, the winner-only result, time played, place)."""
    imported(store, GZ, GZ_STAND_IN, monkeypatch)
    monkeypatch.undo()
    exported = export_bgstats_text(store)
    other = Store.open(tmp_path / "other")
    report = import_bgstats_text(other, exported)
    assert (report.imported, report.unreadable, report.problems) == (4, 0, ())

    def facts(s: Store) -> list[tuple[Any, ...]]:
        return sorted(
            (m.id, m.game, m.names, m.totals(), m.winners(), m.recorded, m.clock, m.place, m.options)
            for m in s.iter_matches()
        )

    assert facts(other) == facts(store)
