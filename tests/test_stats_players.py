"""Statistics by player and period (scorekeeper.stats.players): every figure against small hand-worked examples
(rows written out, and real matches for the two records), the rows read from the store's index, and invariants
over random sets of matches (Hypothesis)."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import places
from scorekeeper.model.match import Match
from scorekeeper.model.player_row import ROW_VERSION, MatchRow, longest_run, row_from, row_of, rows_of
from scorekeeper.stats.players import (
    Filters,
    nemesis,
    period_of,
    periods,
    places_of,
    player_report,
    players_of,
)
from scorekeeper.store import Store
from scorekeeper.store.matches import lacks_row
from scorekeeper.store.records import MatchSummary

RACKO_RUN3 = [1, 2, 3, 5, 7, 9, 11, 13, 15, 17]
RACKO_LOW = [40, 4, 6, 8, 10, 12, 14, 16, 18, 20]
RACKO_RUN4_FOR_B = [21, 22, 23, 24, 26, 28, 30, 32, 34, 36]
RACKO_A_LOW = [39, 25, 27, 29, 31, 33, 35, 37, 38, 19]
ANN_CALLS = {"racks": [RACKO_RUN3, RACKO_LOW], "callers": [0], "blitz": False}  # Ann 75, Bob 5
BOB_CALLS = {"racks": [RACKO_A_LOW, RACKO_RUN4_FOR_B], "callers": [1], "blitz": False}  # Ann 5, Bob 75


def row(
    match_id: str,
    game: str,
    created: str,
    players: str,
    seat_places: tuple[int, ...],
    totals: tuple[int, ...],
    **more: Any,
) -> MatchRow:
    """A row written out by hand: players as letters ("ABC"), winners from the places."""
    return MatchRow(
        id=match_id,
        game=game,
        created=f"{created}T19:00:00+00:00",
        place=more.pop("place", ""),
        seconds=more.pop("seconds", None),
        players=tuple(players),
        names=tuple(p.lower() for p in players),
        totals=totals,
        winners=frozenset(seat for seat, place in enumerate(seat_places) if place == 1),
        places=seat_places,
        **more,
    )


ROWS = [
    row("m1", "racko", "2026-01-05", "AB", (1, 2), (510, 200), best=(75, 40), seconds=3600.0, place="Club"),
    row("m2", "racko", "2026-01-20", "AC", (2, 1), (300, 505), best=(50, 80)),
    row("m3", "rage", "2026-02-03", "ABC", (1, 1, 3), (40, 40, 10), best=(20, 20, 10), bids=(3, 1, 0)),
    row("m4", "rage", "2026-02-10", "ABC", (3, 1, 2), (-5, 60, 20), best=(15, 30, 20), bids=(5, 2, 1)),
    row(
        "m5",
        "ruckzuck",
        "2026-03-01",
        "ABC",
        (1, 2, 3),
        (10, 30, 50),
        best=(0, 5, 12),
        seconds=1800.0,
        place="club",
    ),
    row("m6", "ruckzuck", "2027-01-01", "AB", (1, 2), (4, 9), best=(2, 0)),
]
NAMES = {"A": "Ann", "B": "Ben"}  # the registry's names; C is not in it (named as in the matches: "c")


def test_a_players_figures_by_hand() -> None:
    report = player_report(ROWS, "A", Filters(), NAMES)
    assert report.name == "Ann"
    # Results in order: W, L, W (shared with B), L, W, W.
    assert (report.games, report.wins, report.shared_wins) == (6, 4, 1)
    assert report.win_rate == 4 / 6
    assert (report.longest_streak, report.current_streak) == (2, 2)
    assert (report.seconds, report.timed_games) == (5400.0, 2)
    assert [line.game for line in report.per_game] == ["racko", "ruckzuck", "rage"]  # the order of GAMES
    racko, ruckzuck, rage = report.per_game
    assert (racko.game, racko.games, racko.wins, racko.best_total, racko.average_total) == (
        "racko",
        2,
        1,
        510,
        405,
    )
    assert (racko.best_round, racko.best_round_match) == (75, "m1")  # the highest Racko round
    assert racko.bid_run is None
    assert (rage.games, rage.wins, rage.shared_wins, rage.best_total, rage.average_total) == (
        2,
        1,
        1,
        40,
        17.5,
    )
    assert (rage.bid_run, rage.bid_run_match) == (5, "m4")  # most bids made in a row
    # Ruck Zuck: the lower total and round are the better ones.
    assert (ruckzuck.games, ruckzuck.wins, ruckzuck.best_total, ruckzuck.average_total) == (2, 2, 4, 7)
    assert (ruckzuck.best_round, ruckzuck.best_round_match) == (0, "m5")
    assert report.months == [("2026-01", 2, 1), ("2026-02", 2, 1), ("2026-03", 1, 1), ("2027-01", 1, 1)]


def test_opponents_and_the_nemesis_by_hand() -> None:
    report = player_report(ROWS, "A", Filters(), NAMES)
    ben, cee = report.opponents  # most games together first
    # Ben: ahead in m1, m5, m6; shared first place in m3; behind in m4.
    assert (ben.player, ben.name, ben.games, ben.ahead, ben.behind) == ("B", "Ben", 5, 3, 1)
    # C: behind in m2 and m4, ahead in m3 and m5.
    assert (cee.player, cee.name, cee.games, cee.ahead, cee.behind) == ("C", "c", 4, 2, 2)
    assert report.nemesis is cee  # 2 of 4 (50 %) beats 3 of 5 (60 %)
    # With a game filter nobody is met three times: no nemesis.
    assert player_report(ROWS, "A", Filters(game="rage")).nemesis is None
    # B's nemesis is A (ahead of A only in m4: 1 of 5); C met A 4 times and B 3 times, never ahead of B.
    b_nemesis = player_report(ROWS, "B").nemesis
    assert b_nemesis is not None and b_nemesis.player == "A"
    c_report = player_report(ROWS, "C")
    assert [(o.player, o.games, o.ahead) for o in c_report.opponents] == [("A", 4, 2), ("B", 3, 0)]
    assert c_report.nemesis is not None and c_report.nemesis.player == "B"  # 0 of 3 < 2 of 4


def test_nemesis_ties_go_to_the_opponent_met_more_often_then_the_name() -> None:
    report = player_report(ROWS, "A")
    ben, cee = report.opponents
    even = [dataclasses.replace(ben, games=4, ahead=2), dataclasses.replace(cee, games=6, ahead=3)]
    assert nemesis(even) is even[1]
    same = [dataclasses.replace(cee, games=4, ahead=2), dataclasses.replace(ben, games=4, ahead=2)]
    assert nemesis(same) is same[1]  # "Ben" before "c"
    assert nemesis(same, minimum=5) is None


def test_a_partner_is_no_opponent() -> None:
    partners = row(
        "p1", "racko", "2026-04-01", "ABCD", (1, 2, 1, 2), (300, 100, 250, 120), teams=((0, 2), (1, 3))
    )
    report = player_report([partners], "A")
    assert [(o.player, o.ahead) for o in report.opponents] == [("B", 1), ("D", 1)]
    assert (report.wins, report.shared_wins) == (1, 1)  # the team's first place is shared by the partners


def test_filters_by_game_period_and_place() -> None:
    assert player_report(ROWS, "A", Filters(game="rage")).games == 2
    assert player_report(ROWS, "A", Filters(year=2026)).games == 5
    assert player_report(ROWS, "A", Filters(year=2026, month=2)).games == 2
    by_place = player_report(ROWS, "A", Filters(place=" CLUB "))  # case and spaces around do not count
    assert (by_place.games, by_place.seconds) == (2, 5400.0)
    assert player_report(ROWS, "A", Filters(place="")).games == 4  # the matches without a place
    assert periods(ROWS) == ["2027-01", "2026-03", "2026-02", "2026-01"]
    assert places_of(ROWS) == ["Club"]
    lines = players_of(ROWS, Filters(year=2026), NAMES)
    assert [(p.player, p.name, p.games, p.wins) for p in lines] == [
        ("A", "Ann", 5, 3),
        ("B", "Ben", 4, 2),
        ("C", "c", 4, 1),
    ]


def test_streaks_count_the_matches_in_the_order_they_were_started() -> None:
    shuffled = [ROWS[5], ROWS[0], ROWS[3], ROWS[1], ROWS[4], ROWS[2]]
    rows = sorted(shuffled, key=lambda r: (r.created, r.id))  # what rows_of hands out
    report = player_report(rows, "B")
    # B: L (m1), W shared (m3), W (m4), L (m5), L (m6).
    assert (report.longest_streak, report.current_streak) == (2, 0)
    assert longest_run([True, True, False, True, True, True]) == 3 and longest_run([]) == 0


def test_matches_started_in_one_second_count_in_the_order_played_not_by_random_id() -> None:
    """`created` is to the second: two matches started within it came in the order of their random ids, so a
    streak changed between runs. Ann won the one played first (its id sorts last) and lost the next."""

    def entry(match_id: str, updated: str, winner: int) -> dict[str, Any]:
        return {
            "id": match_id,
            "game": "racko",
            "status": "finished",
            "is_over": True,
            "created": "2026-03-01T19:00:00+00:00",
            "updated": updated,
            "players": ["A", "B"],
            "names": ["Ann", "Ben"],
            "totals": [500, 100] if winner == 0 else [100, 500],
            "winners": [winner],
            "stats": {"v": ROW_VERSION, "places": [1, 2] if winner == 0 else [2, 1]},
        }

    played_first = entry("f" * 32, "2026-03-01T19:00:00.000001+00:00", winner=0)
    played_next = entry("0" * 32, "2026-03-01T19:00:00.000002+00:00", winner=1)
    rows = rows_of([played_next, played_first], lambda _id: None)
    assert [row.id for row in rows] == ["f" * 32, "0" * 32]
    report = player_report(rows, "A")
    assert (report.longest_streak, report.current_streak) == (1, 0)


def make(game: str, options: dict[str, Any], players: list[str], rounds: list[dict[str, Any]]) -> Match:
    match = Match.new(game, options, players, names=[p.title() for p in players])
    for result in rounds:
        match = match.with_round(result)
    return match


def rage_rounds(missed_at: int) -> list[dict[str, Any]]:
    """Amigo, 3 players, hands 10 down to 1: seat 0 makes every bid but the one of round `missed_at` (0-based),
    seat 1 only every third, seat 2 (bid 0, no trick) every one."""
    rounds = []
    for index in range(10):
        size = 10 - index
        first = size // 2
        bids = [first + (index == missed_at), 0 if index % 3 else size - first, 0]
        rounds.append({"bids": bids, "tricks": [first, size - first, 0], "bonus": [0] * 3, "minus": [0] * 3})
    return rounds


def untimed(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A row without its time played (the clock of a match made in a test runs for a few microseconds)."""
    return None if row is None else {key: value for key, value in row.items() if key != "seconds"}


def test_the_records_come_from_the_engines_scores() -> None:
    racko = make("racko", {}, ["ann", "bob"], [ANN_CALLS, BOB_CALLS, ANN_CALLS])
    assert racko.round_scores() == [[75, 5], [5, 75], [75, 5]]
    assert untimed(row_of(racko)) == {"v": ROW_VERSION, "places": [1, 2], "best": [75, 75]}
    assert "seconds" not in (
        row_of(dataclasses.replace(racko, clock=[])) or {}
    )  # time played only where known
    hour: list[list[str | None]] = [["2026-01-05T19:00:00+00:00", "2026-01-05T20:00:00+00:00"]]
    assert (row_of(dataclasses.replace(racko, clock=hour)) or {})["seconds"] == 3600
    rage = make("rage", {"edition": "amigo"}, ["ann", "bob", "cy"], rage_rounds(missed_at=2))
    found = row_of(rage)
    assert found is not None
    assert found["bids"] == [7, 1, 10]  # rounds 4-10 for Ann; Bob never twice running; Cy all ten
    assert found["places"] == [place for place in places(rage.totals())]
    assert found["best"] == [max(r[seat] for r in rage.round_scores()) for seat in range(3)]
    ruckzuck = make("ruckzuck", {}, ["ann", "bob", "cy"], [{"hands": [[45], [], [44]], "out": 1}])
    assert row_of(ruckzuck) is not None and row_of(ruckzuck)["best"] == [45, 0, 44]  # type: ignore[index]
    assert row_of(Match.new("racko", {}, ["ann", "bob"])) is None  # not begun


def quick(
    counts: list[int | None], callers: list[int], runs: list[int | None] | None = None
) -> dict[str, Any]:
    return {"counts": counts, "runs": runs, "callers": callers, "blitz": False}


def test_a_partners_match_keeps_its_teams_and_a_chips_game_no_best_round() -> None:
    partners = make("racko", {"partners": True, "target": 200}, ["a", "b", "c", "d"], [])
    partners = partners.with_round(quick([None, 4, 6, 2], [0]))  # 75 20 30 10
    partners = partners.with_round(quick([5, 3, None, 1], [2]))  # 25 15 75 5: team A 205, team B 50
    assert untimed(row_of(partners)) == {
        "v": ROW_VERSION,
        "places": [1, 2, 1, 2],
        "best": [75, 20, 75, 10],
        "teams": [[0, 2], [1, 3]],
    }
    chips = make("racko", {"variant": "chips", "rounds": 2, "two_player_rule": False}, ["a", "b"], [])
    chips = chips.with_round(quick([None, 3], [0], runs=[3, 1]))
    chips = chips.with_round(quick([3, None], [1], runs=[2, 5]))
    assert untimed(row_of(chips)) == {
        "v": ROW_VERSION,
        "places": [1, 1],
    }  # chips won and paid are no round score


def test_the_store_keeps_each_matchs_row_in_its_index_and_makes_an_older_entry_again(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        ann, bob = store.add_player("Ann"), store.add_player("Bob")
        match = Match.new("racko", {}, [ann.id, bob.id], names=["Ann", "Bob"])
        for result in [ANN_CALLS, ANN_CALLS, BOB_CALLS] + [ANN_CALLS] * 5:
            match = match.with_round(result)
        assert match.is_over
        saved = store.save_match(
            dataclasses.replace(
                match, place="Club", clock=[["2026-01-05T19:00:00+00:00", "2026-01-05T20:30:00+00:00"]]
            )
        )
        running = store.save_match(
            Match.new("racko", {}, [ann.id, bob.id], names=["Ann", "Bob"]).with_round(ANN_CALLS)
        )
        rows = store.stat_rows()
        assert [r.id for r in rows] == [saved.id]  # the running game does not count
        assert (rows[0].place, rows[0].seconds, rows[0].places, rows[0].best) == (
            "Club",
            5400.0,
            (1, 2),
            (75, 75),
        )
        assert store.stat_rows() is rows  # nothing changed: the same rows
        report = player_report(rows, ann.id)
        assert (report.games, report.wins, report.per_game[0].best_round) == (1, 1, 75)
        assert running.id != saved.id
    # An index written by a version before the rows: each entry is made again from its file at open.
    for bucket in (tmp_path / "index").glob("bucket-*.json"):
        data = json.loads(bucket.read_text())
        for entry in data["tables"]["matches"].values():
            entry.pop("stats", None)
        bucket.write_text(json.dumps(data))
    with Store.open(tmp_path) as store:
        entries = store.matches.index.all_entries()
        assert all(entry["stats"]["v"] == ROW_VERSION for entry in entries.values())
        assert [r.id for r in store.stat_rows()] == [saved.id]


def test_an_entry_without_a_row_is_read_from_its_match() -> None:
    match = make("racko", {}, ["ann", "bob"], [ANN_CALLS, ANN_CALLS, BOB_CALLS] + [ANN_CALLS] * 5)
    entry = {**MatchSummary.of(match).to_dict()}
    entry.pop("stats")
    loaded: list[str] = []

    def load(match_id: str) -> Match:
        loaded.append(match_id)
        return match

    found = row_from(entry, load)
    assert found is not None and found.best == (75, 75) and loaded == [match.id]
    newer = row_from({**entry, "stats": {"v": ROW_VERSION + 1, "places": "a newer shape"}}, load)
    assert newer is not None and newer.places == (1, 2) and len(loaded) == 2  # read from the match as well
    # The index makes an entry again only when its row is missing or older, never a newer version's row.
    assert lacks_row(entry) and lacks_row({**entry, "stats": {"v": ROW_VERSION - 1}})
    assert not lacks_row({**entry, "stats": {"v": ROW_VERSION + 1}}) and not lacks_row(
        {**entry, "rounds": 0, "is_over": False}
    )
    assert row_from({**entry, "status": "abandoned"}, load) is None
    assert rows_of([entry, {**entry, "id": "gone"}], lambda _id: None) == []


# ------------------------------------------------------------------ invariants

GAME_KEYS = ("racko", "ruckzuck", "rage")
PEOPLE = "ABCDE"


@st.composite
def random_rows(draw: Any) -> list[MatchRow]:
    rows = []
    for number in range(draw(st.integers(0, 25))):
        seated = draw(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=4, unique=True))
        totals = tuple(draw(st.lists(st.integers(0, 3), min_size=len(seated), max_size=len(seated))))
        month = draw(st.integers(1, 12))
        rows.append(
            MatchRow(
                id=f"m{number:02d}",
                game=draw(st.sampled_from(GAME_KEYS)),
                created=f"{draw(st.sampled_from((2025, 2026)))}-{month:02d}-01T10:00:00+00:00",
                place=draw(st.sampled_from(("", "Club", "Home"))),
                seconds=draw(st.none() | st.floats(0, 10_000)),
                players=tuple(seated),
                names=tuple(seated),
                totals=totals,
                winners=frozenset(s for s, p in enumerate(places(totals)) if p == 1),
                places=tuple(places(totals)),
                best=totals,
                bids=totals,
            )
        )
    return sorted(rows, key=lambda r: (r.created, r.id))


@settings(max_examples=80, deadline=None)
@given(random_rows())
def test_wins_add_up_to_the_finished_matches_with_shared_first_places_counted_for_each(
    rows: list[MatchRow],
) -> None:
    reports = [player_report(rows, person) for person in PEOPLE]
    assert sum(r.wins for r in reports) == len(rows) + sum(len(row.winners) - 1 for row in rows)
    assert sum(r.wins - r.shared_wins for r in reports) == sum(len(row.winners) == 1 for row in rows)
    assert sum(line.wins for line in players_of(rows)) == sum(r.wins for r in reports)
    for report in reports:
        assert report.games == sum(line.games for line in report.per_game)
        assert report.wins == sum(line.wins for line in report.per_game)
        assert report.current_streak <= report.longest_streak <= report.wins
        assert all(o.ahead + o.behind <= o.games for o in report.opponents)
        assert sum(games for _m, games, _w in report.months) == report.games


@settings(max_examples=80, deadline=None)
@given(random_rows())
def test_the_filters_partition_the_matches(rows: list[MatchRow]) -> None:
    for person in PEOPLE:
        everything = player_report(rows, person)
        by_game = [player_report(rows, person, Filters(game=g)) for g in GAME_KEYS]
        assert sum(r.games for r in by_game) == everything.games
        assert sum(r.wins for r in by_game) == everything.wins
        by_place = [player_report(rows, person, Filters(place=p)) for p in ("", "club", "HOME")]
        assert sum(r.games for r in by_place) == everything.games
        for year in (2025, 2026):
            whole = player_report(rows, person, Filters(year=year))
            months = [player_report(rows, person, Filters(year=year, month=m)) for m in range(1, 13)]
            assert sum(r.games for r in months) == whole.games
            assert sum(r.timed_games for r in months) == whole.timed_games
        assert (
            sum(player_report(rows, person, Filters(year=y)).games for y in (2025, 2026)) == everything.games
        )


def test_a_period_names_a_year_and_month() -> None:
    today = date(2026, 12, 5)
    assert period_of("month", today) == (2026, 12) and period_of("year", today) == (2026, None)
    assert period_of("2025", today) == (2025, None) and period_of("2025-03", today) == (2025, 3)
    for everything in (None, "all", "2025-13", "20x5", "2025-3", "later"):
        assert period_of(everything, today) == (None, None)
