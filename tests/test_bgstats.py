"""The exchange with BG Stats (docs/BGSTATS.md): the plays file written from finished matches, a BG Stats export
read into matches known by their final totals, and the round trip between the two."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.exchange.bgstats import Period, export_bgstats_text, export_document
from scorekeeper.exchange.bgstats_import import game_key, import_bgstats_text, looks_like_bgstats
from scorekeeper.exchange.transfer import export_json_text
from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.errors import ImportFileError

FIXTURE = Path(__file__).parent / "fixtures" / "bgstats_export.json"
CLOCK = [["2026-11-20T19:00:00+00:00", "2026-11-20T19:20:00+00:00"], ["2026-11-20T19:30:00+00:00", None]]


def racko(store: Store, names: list[str], *, place: str = "", notes: str = "", clock: Any = None) -> Match:
    """A finished Racko match of two (to 50: one round ends it), saved; the first seat calls Racko."""
    ids = [store.add_player(name).id if not _known(store, name) else _known(store, name) for name in names]
    match = Match.new("racko", {"players": 2, "target": 50}, ids, names=names, first_dealer=1)
    match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    match = dataclasses.replace(match, place=place, notes=notes, clock=clock or [])
    return store.save_match(match)


def _known(store: Store, name: str) -> str:
    return next((p.id for p in store.list_players() if p.name == name), "")


def ruckzuck(store: Store, ids: list[str], names: list[str]) -> Match:
    """An active Ruck Zuck match (no rounds yet)."""
    return store.save_match(Match.new("ruckzuck", {"players": len(ids)}, ids, names=names))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "data")


# ---------------------------------------------------------------------- export
def test_export_holds_what_bg_stats_reads(store: Store) -> None:
    clock = [
        ["2026-11-20T19:00:00+00:00", "2026-11-20T19:20:00+00:00"],
        ["2026-11-20T19:00:00+00:00", "2026-11-20T19:05:00+00:00"],
    ]
    match = racko(store, ["Anna", "Ben"], place="Café Central", notes="Anna called it", clock=clock)
    ruckzuck(store, [match.players[0], match.players[1]], ["Anna", "Ben"])  # active: not a play yet
    document = json.loads(export_bgstats_text(store))
    assert {"games", "players", "locations", "plays"} <= set(document)
    assert [g["name"] for g in document["games"]] == ["Racko"]
    assert document["games"][0]["highestWins"] is True and "bggId" not in document["games"][0]
    (play,) = document["plays"]
    # The fields BG Stats requires of a play and of each score, of the types its files have.
    assert isinstance(play["uuid"], str) and len(play["uuid"]) == 36
    assert play["playDate"] == "2026-11-20 19:00:00" and play["playDateYmd"] == 20261120
    assert play["durationMin"] == 25  # 20 + 5 minutes played
    assert play["comments"] == "Anna called it"
    location = {loc["id"]: loc["name"] for loc in document["locations"]}
    assert location[play["locationRefId"]] == "Café Central"
    games = {g["id"]: g["name"] for g in document["games"]}
    assert games[play["gameRefId"]] == "Racko"
    people = {p["id"]: p["name"] for p in document["players"]}
    scores = play["playerScores"]
    assert [people[s["playerRefId"]] for s in scores] == ["Anna", "Ben"]
    assert [s["score"] for s in scores] == [str(t) for t in match.totals()] == ["75", "15"]
    assert [s["winner"] for s in scores] == [True, False]
    assert [s["rank"] for s in scores] == [1, 2]
    assert [s["startPlayer"] for s in scores] == [False, True]  # the first dealer
    assert all(isinstance(s["newPlayer"], bool) and isinstance(s["seatOrder"], int) for s in scores)


def test_export_of_a_period(store: Store) -> None:
    racko(store, ["Anna", "Ben"], clock=[["2026-11-20T19:00:00+00:00", "2026-11-20T19:10:00+00:00"]])
    racko(store, ["Anna", "Ben"], clock=[["2025-03-01T19:00:00+00:00", "2025-03-01T19:10:00+00:00"]])

    def dates(period: Period | None) -> list[str]:
        return [p["playDate"][:10] for p in export_document(store.iter_matches(), period)["plays"]]

    assert dates(None) == ["2025-03-01", "2026-11-20"]
    assert dates(Period(date(2026, 11, 1), date(2026, 11, 30))) == ["2026-11-20"]
    assert dates(Period(date(2025, 1, 1), date(2025, 12, 31))) == ["2025-03-01"]
    assert dates(Period(date(2026, 11, 21), None)) == []


# ---------------------------------------------------------------------- import
def test_import_of_a_bg_stats_export(store: Store) -> None:
    anna = store.add_player("anna")  # an existing player, matched by name whatever the case
    content = FIXTURE.read_bytes()
    assert looks_like_bgstats(content)
    report = import_bgstats_text(store, content)
    # issue 51: the play with no scores and a winner flag is a result known by its winner (5 imported, not 4)
    assert (report.imported, report.other_games, report.unreadable) == (5, 3, 1)
    assert report.players_added == 4  # Ben, Cleo, Dana, Emil; Anna was here
    matches = {m.id: m for m in store.iter_matches()}
    assert len(matches) == 5
    first = matches["c0000000000040008000000000000001"]
    assert (first.game, first.names, first.totals(), first.winners()) == (
        "racko",
        ["Anna", "Ben", "Cleo"],
        [525, 410, 385],
        [0],
    )
    assert first.players[0] == anna.id
    assert (first.place, first.notes, first.first_dealer, first.rounds) == (
        "Home",
        "Anna called Rack-O twice in a row.",
        1,
        [],
    )
    assert first.is_over and first.status == "finished"
    zuck = matches["c0000000000040008000000000000003"]  # seats by seatOrder; lower wins
    assert (zuck.names, zuck.totals(), zuck.winners(), zuck.first_dealer) == (
        ["Anna", "Cleo", "Dana"],
        [18, 12, 31],
        [1],
        1,
    )
    assert zuck.place == "Café Central"
    rage = matches["c0000000000040008000000000000005"]
    assert [row.place for row in rage.standings()] == [1, 2, 3, 4] and rage.winners() == [2]
    assert matches["c0000000000040008000000000000009"].totals() == [9, 4]  # numbers, not text, as scores

    again = import_bgstats_text(store, content)  # a second import adds nothing
    assert (again.imported, again.already, again.players_added) == (0, 5, 0)
    assert len(list(store.iter_matches())) == 5 and len(store.list_players()) == 5


def test_a_totals_only_match_takes_no_round(store: Store) -> None:
    import_bgstats_text(store, FIXTURE.read_bytes())
    match = store.get_match("c0000000000040008000000000000001")
    assert match is not None
    with pytest.raises(RuleError, match="final totals only"):
        match.with_round({"counts": [None, 3, 2], "runs": [3, 1, 1], "callers": [0], "blitz": False})
    assert Match.from_dict(match.to_dict()).totals() == [525, 410, 385]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"games": [], "players": []}', "no list of \u201cplays\u201d"),
        (b'{"games": [], "players": [], "plays": [3]}', "must be objects"),
        (
            b'{"format": "scorekeeper-export", "schema": 2, "players": [], "matches": []}',
            "export of this app",
        ),
    ],
)
def test_a_file_that_is_not_a_bg_stats_export_is_refused(store: Store, content: bytes, reason: str) -> None:
    racko(store, ["Anna", "Ben"])
    before = export_json_text(store)
    assert not looks_like_bgstats(content)
    with pytest.raises(ImportFileError, match=reason) as refused:
        import_bgstats_text(store, content)
    assert "Nothing was changed" in str(refused.value)
    assert json.loads(export_json_text(store))["matches"] == json.loads(before)["matches"]


def test_game_names_of_bg_stats() -> None:
    assert [game_key(n) for n in ("Rack-O", "RACKO", "Ruck Zuck", "RuckZuck", "Rage", "Wingspan", None)] == [
        "racko",
        "racko",
        "ruckzuck",
        "ruckzuck",
        "rage",
        None,
        None,
    ]


# ---------------------------------------------------------------------- round trip
def facts(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Per play: game, players with score, winner and rank, the start player, place, duration, comments."""
    games = {g["id"]: g["name"] for g in document["games"]}
    people = {p["id"]: p["name"] for p in document["players"]}
    places = {loc["id"]: loc["name"] for loc in document["locations"]}
    return [
        (
            play["uuid"],
            games[play["gameRefId"]],
            play["playDate"],
            tuple(
                (people[s["playerRefId"]], s["score"], s["winner"], s["rank"], s["startPlayer"])
                for s in play["playerScores"]
            ),
            places.get(play.get("locationRefId")),
            play["durationMin"],
            play["comments"],
        )
        for play in document["plays"]
    ]


def test_round_trip_through_an_empty_store(store: Store, tmp_path: Path) -> None:
    racko(store, ["Anna", "Ben"], place="Home", notes="first", clock=[CLOCK[0]])
    racko(store, ["Cleo", "Anna"])
    exported = export_bgstats_text(store)
    other = Store.open(tmp_path / "other")
    report = import_bgstats_text(other, exported)
    assert (report.imported, report.other_games, report.unreadable) == (2, 0, 0)
    assert facts(json.loads(export_bgstats_text(other))) == facts(json.loads(exported))
    # Back into the store it came from: the matches with rounds stay as they are.
    assert import_bgstats_text(store, exported).already == 2
    assert all(m.rounds for m in store.iter_matches())


names = st.sampled_from(["Anna", "Ben", "Cleo", "Dana", "Émile", "Zoë"])


@st.composite
def plays_file(draw: st.DrawFn) -> dict[str, Any]:
    """A BG Stats file of this app's games: any seats, scores, start player, place, duration and date."""
    plays = []
    people = draw(st.lists(names, min_size=4, max_size=6, unique=True))
    for number in range(draw(st.integers(1, 5))):
        game = draw(st.sampled_from([(1, 4), (2, 6), (3, 10)]))
        seated = draw(
            st.lists(st.integers(1, len(people)), min_size=2, max_size=min(game[1], len(people)), unique=True)
        )
        start = draw(st.integers(0, len(seated) - 1))
        plays.append(
            {
                "uuid": f"d0000000-0000-4000-8000-{number:012d}",
                "gameRefId": game[0],
                "playDate": f"2026-{draw(st.integers(1, 12)):02d}-{draw(st.integers(1, 28)):02d} 19:30:00",
                "durationMin": draw(st.integers(0, 300)),
                "comments": draw(st.text(max_size=20)),
                "locationRefId": draw(st.sampled_from([0, 1, 2])),
                "playerScores": [
                    {
                        "playerRefId": ref,
                        "score": str(draw(st.integers(-500, 2000))),
                        "startPlayer": i == start,
                        "seatOrder": i + 1,
                    }
                    for i, ref in enumerate(seated)
                ],
            }
        )
    return {
        "games": [{"id": 1, "name": "Racko"}, {"id": 2, "name": "Ruck Zuck"}, {"id": 3, "name": "Rage"}],
        "players": [{"id": i + 1, "name": name} for i, name in enumerate(people)],
        "locations": [{"id": 1, "name": "Home"}, {"id": 2, "name": "Club"}],
        "plays": plays,
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=plays_file())
def test_property_import_export_import_keeps_every_play(
    tmp_path_factory: pytest.TempPathFactory, document: dict[str, Any]
) -> None:
    first = Store.open(tmp_path_factory.mktemp("first"))
    report = import_bgstats_text(first, json.dumps(document))
    assert report.imported == len(document["plays"]) and report.unreadable == 0
    exported = export_bgstats_text(first)
    second = Store.open(tmp_path_factory.mktemp("second"))
    import_bgstats_text(second, exported)
    assert facts(json.loads(export_bgstats_text(second))) == facts(json.loads(exported))
    by_uuid = {p["uuid"].lower(): p for p in document["plays"]}
    people = {p["id"]: p["name"] for p in document["players"]}
    for play in json.loads(exported)["plays"]:
        source = by_uuid[play["uuid"]]
        assert [s["score"] for s in play["playerScores"]] == [s["score"] for s in source["playerScores"]]
        exported_people = {p["id"]: p["name"] for p in json.loads(exported)["players"]}
        assert [exported_people[s["playerRefId"]] for s in play["playerScores"]] == [
            people[s["playerRefId"]] for s in source["playerScores"]
        ]
        assert play["durationMin"] == source["durationMin"]
        assert [s["startPlayer"] for s in play["playerScores"]] == [
            s["startPlayer"] for s in source["playerScores"]
        ]


def test_anonymous_players_take_a_seat_each(store: Store) -> None:
    document = {
        "games": [{"id": 7, "name": "RAGE"}],
        "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Anonymous", "isAnonymous": True}],
        "plays": [
            {
                "uuid": "not-a-uuid",
                "gameRefId": 7,
                "playDate": "2026-02-03",
                "durationMin": 42.4,
                "playerScores": [
                    {"playerRefId": 2, "score": "10"},
                    {"playerRefId": 1},
                    {"playerRefId": 2, "score": 7},
                ],
            },
            {
                "gameRefId": 7,
                "playDate": "2026-02-04 20:00:00",
                "playerScores": [
                    {"playerRefId": 2, "score": "10"},
                    {"playerRefId": 1, "score": "30"},
                    {"playerRefId": 2, "score": "7.0"},
                ],
            },
        ],
    }
    report = import_bgstats_text(store, json.dumps(document))
    assert (report.imported, report.unreadable) == (1, 1)  # the first play lacks Anna's score
    (match,) = store.iter_matches()
    assert (match.names, match.totals(), match.winners()) == (
        ["Anonymous", "Anna", "Anonymous (2)"],
        [10, 30, 7],
        [1],
    )
    assert (
        import_bgstats_text(store, json.dumps(document)).already == 1
    )  # no uuid: the same id from its content
