"""Play sessions: whole matches with computer players only, exact resume after any move, privacy of views."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.digital import engine
from scorekeeper.digital.session import COMPUTER, PERSON, PlaySession, Seat, computer_seat
from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.store.records import SavedGame


class MemoryStore:
    """The four store methods a session uses, in memory (copies, as a file would give)."""

    def __init__(self) -> None:
        self.matches: dict[str, dict[str, Any]] = {}
        self.games: dict[str, dict[str, Any]] = {}
        self.saves = 0

    def save_match(self, match: Match) -> Match:
        """Keep a copy with the version bumped, as the store does; the saved match comes back (a new value)."""
        data = {**copy.deepcopy(match.to_dict()), "version": match.version + 1}
        self.matches[match.id] = data
        return Match.from_dict(copy.deepcopy(data))

    def change_match(self, match_id: str, change: Any, why: str = "") -> Match:
        """`change` applied to the stored match (the store's `change_match`, without the lock: one thread)."""
        current = self.get_match(match_id)
        assert current is not None
        changed = change(current)
        return current if changed is current else self.save_match(changed.at_version(current.version))

    def get_match(self, match_id: str) -> Match | None:
        return self._get(self.matches, Match, match_id)

    def save_digital_game(self, saved: SavedGame) -> SavedGame:
        self.saves += 1
        return self._put(self.games, saved)

    def get_digital_game(self, saved_id: str) -> SavedGame | None:
        return self._get(self.games, SavedGame, saved_id)

    @staticmethod
    def _put(table: dict[str, dict[str, Any]], record: Any) -> Any:
        """Keep a copy, the version bumped as the store bumps it."""
        record.version += 1
        table[record.id] = copy.deepcopy(record.to_dict())
        return record

    @staticmethod
    def _get(table: dict[str, dict[str, Any]], kind: Any, record_id: str) -> Any:
        data = table.get(record_id)
        return None if data is None else kind.from_dict(copy.deepcopy(data))


def bots(game: str, strengths: list[str]) -> list[Seat]:
    return [computer_seat(strength, index, f"CPU {index + 1}") for index, strength in enumerate(strengths)]


def fingerprint(session: PlaySession) -> tuple[Any, ...]:
    """Everything a player could tell apart: every seat's view, the legal actions, the log and the match."""
    state = session.state
    views = tuple(repr(state.view(seat)) for seat in range(len(session.seats)))
    return (
        views,
        tuple(map(repr, session.legal_for(session.to_act))),
        tuple(map(repr, state.log)),
        repr(session.match.rounds),
        session.round_index,
        tuple(str(move) for move in session.moves),
    )


def play_match(session: PlaySession, limit: int = 200) -> None:
    for _ in range(limit):
        session.run_computers()
        if session.match_over:
            return
        assert session.round_over
        session.next_round()
    raise AssertionError("the match did not end")


OPTIONS = {
    "racko": {"target": 150},
    "ruckzuck": {"rounds": 3},
    "rage": {"edition": "amigo"},
}


@pytest.mark.parametrize("game", ["racko", "ruckzuck"])
def test_computers_play_a_whole_match(game: str) -> None:
    store = MemoryStore()
    session = PlaySession.create(store, game, OPTIONS[game], bots(game, ["easy", "normal", "hard"]), seed=7)
    play_match(session)
    match = store.get_match(session.match.id)
    assert match is not None and match.is_over and match.mode == "digital" and match.status == "finished"
    assert match.rounds == session.match.rounds
    assert store.get_digital_game(session.saved.id).data["over"] is True
    # The dealer passes on as in a tracked game: each round was dealt by the match's dealer of that round.
    assert [match.dealer_of(i) for i in range(len(match.rounds))] == match.tally().dealers


@pytest.mark.slow
def test_computers_play_a_whole_rage_match() -> None:
    store = MemoryStore()
    session = PlaySession.create(
        store, "rage", OPTIONS["rage"], bots("rage", ["easy", "normal", "normal"]), seed=3
    )
    play_match(session)
    assert session.match.is_over and len(session.match.rounds) == 10


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), blitz=st.booleans(), players=st.integers(2, 4))
def test_resume_after_every_move_is_exact(seed: int, blitz: bool, players: int) -> None:
    """Loading the saved game after any move gives the same position, legal actions and move log."""
    store = MemoryStore()
    seats = bots("racko", ["normal", "easy", "hard", "medium"][:players])
    session = PlaySession.create(store, "racko", {"target": 100, "blitz": blitz}, seats, seed=seed)
    for _ in range(2):  # two rounds: the second is dealt by the next dealer with the match's scores
        while session.step_computer():
            again = PlaySession.load(store, session.saved.id)
            assert again is not None
            assert fingerprint(again) == fingerprint(session)
        if session.match_over:
            break
        session.next_round()
        assert fingerprint(PlaySession.load(store, session.saved.id)) == fingerprint(session)


def test_resume_with_the_real_store_mid_round(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        player = store.add_player("Anna")
        seats = [Seat(PERSON, player.id, "Anna"), *bots("racko", ["hard"])[:1]]
        session = PlaySession.create(store, "racko", {}, seats, first_dealer=1, seed=11)
        assert session.to_act == 0  # left of the dealer begins
        session.act(0, "stock")
        session.act(0, 4)
        session.run_computers()
        before = fingerprint(session)
        saved_id = session.saved.id
    with Store.open(tmp_path) as store:
        again = PlaySession.load(store, saved_id)
        assert again is not None and fingerprint(again) == before
        assert [g.id for g in store.list_digital_games()] == [saved_id]


def test_a_round_recorded_before_a_crash_is_not_recorded_twice() -> None:
    store = MemoryStore()
    session = PlaySession.create(store, "racko", {"target": 500}, bots("racko", ["normal", "normal"]), seed=5)
    session.run_computers()
    assert session.round_over and len(session.match.rounds) == 1
    again = PlaySession.load(store, session.saved.id)
    assert len(again.match.rounds) == 1 and again.round_over and again.last_round() is not None


def test_people_act_only_on_their_turn_and_only_legally() -> None:
    store = MemoryStore()
    seats = [Seat(PERSON, "a", "Anna"), Seat(PERSON, "b", "Ben")]
    session = PlaySession.create(store, "racko", {}, seats, first_dealer=1, seed=1)
    assert session.legal_for(1) == []
    with pytest.raises(RuleError):
        session.act(1, "stock")
    with pytest.raises(RuleError):
        session.act(0, 3)  # a slot before drawing
    assert session.state.log == []
    session.act(0, "stock")
    assert session.hint(0) in session.legal_for(0)
    assert session.hint(1) is None


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**40))
def test_computers_see_only_their_own_seat(seed: int) -> None:
    """Every view handed out while computers play is the view of the seat that moves."""
    store = MemoryStore()
    seats = [Seat(PERSON, "a", "Anna"), *bots("racko", ["easy", "hard", "normal"])[1:]]
    session = PlaySession.create(store, "racko", {}, seats, first_dealer=0, seed=seed)
    asked: list[tuple[int, int]] = []
    original = type(session.state).view

    def spy(state: Any, seat: int) -> Any:
        asked.append((seat, state.current_player))
        return original(state, seat)

    type(session.state).view = spy  # type: ignore[method-assign]
    try:
        for _ in range(30):
            if not session.step_computer():
                if session.round_over:
                    break
                session.act(0, session.legal_for(0)[0])
    finally:
        type(session.state).view = original  # type: ignore[method-assign]
    # A view of a computer's seat is only ever taken while that computer is to move; the person's seat is
    # the move log's observer (one person at the device).
    for seat, mover in asked:
        assert seat == 0 or seat == mover


def test_move_log_names_people_and_hides_stock_cards() -> None:
    store = MemoryStore()
    seats = [Seat(PERSON, "a", "Anna"), Seat(COMPUTER, "computer-hard-2", "Ben", "hard")]
    session = PlaySession.create(store, "racko", {}, seats, first_dealer=0, seed=2)
    assert session.to_act == 1
    session.run_computers()
    assert session.moves and all("Ben" in str(move) for move in session.moves)
    first = str(session.moves[0])
    assert first == "Ben drew from the stock." or first.startswith("Ben took ")
    if first == "Ben drew from the stock.":
        assert str(session.moves[1]).startswith(("Ben put a card", "Ben discarded"))


def test_strengths_map_to_the_games_bots() -> None:
    assert engine.strengths("racko") == ["easy", "normal", "medium", "hard"]
    for game in ("racko", "ruckzuck", "rage"):
        for strength in engine.strengths(game):
            assert hasattr(engine.make_bot(game, strength), "choose")


def test_computer_players_and_the_hint_are_told_who_sits_where(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rage's hard bot reads bids and plays as a baseline's only at the seats of "normal" computer players: each
    computer player, and the hint's, is told the table, and told again when a seat changes hands."""
    store = MemoryStore()
    seats = [Seat(PERSON, "a", "Anna"), *bots("rage", ["hard", "hard", "normal", "easy"])[1:]]
    session = PlaySession.create(store, "rage", OPTIONS["rage"], seats, first_dealer=0, seed=4)
    assert session.to_act == 1  # the hard player bids first
    made = engine.make_bot
    tables: list[Any] = []
    monkeypatch.setattr(engine, "make_bot", lambda *args: tables.append(args[2]) or made(*args))
    session.step_computer()
    assert tables == [(None, "hard", "baseline", "random")]
    assert getattr(session._bots[1], "baseline_seats", None) == frozenset({2})
    session.run_computers()
    assert session.to_act == 0
    session.reseat(2, Seat(PERSON, "b", "Ben"))  # a person takes the normal player's seat
    assert all(getattr(bot, "baseline_seats", frozenset()) == frozenset() for bot in session._bots.values())
    tables.clear()
    session.hint(0)
    assert tables == [(None, "hard", None, "random")]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), choices=st.randoms(use_true_random=False))
def test_resume_with_people_moving_is_exact(seed: int, choices: Any) -> None:
    """Two people (random legal moves) and a computer: the saved game equals the live one after every move."""
    store = MemoryStore()
    seats = [Seat(PERSON, "a", "Anna"), Seat(PERSON, "b", "Ben"), *bots("racko", ["x", "x", "hard"])[2:]]
    session = PlaySession.create(store, "racko", {"target": 100}, seats, seed=seed)
    for _ in range(60):
        if session.round_over:
            break
        if not session.step_computer():
            seat = session.to_act
            session.act(seat, choices.choice(session.legal_for(seat)))
        again = PlaySession.load(store, session.saved.id)
        assert again is not None and fingerprint(again) == fingerprint(session)


def test_next_round_returns_the_round_moved_on_from() -> None:
    """`next_round` deals the next round and says which round it moved on from (its result and points as the
    match scored them); while the round goes on it does nothing and returns None."""
    store = MemoryStore()
    session = PlaySession.create(store, "racko", OPTIONS["racko"], bots("racko", ["easy", "normal"]), seed=5)
    assert session.next_round() is None and session.round_index == 0
    session.run_computers()
    result, points = session.last_round() or ({}, [])
    finished = session.next_round()
    assert finished is not None
    assert (finished.index, finished.result, finished.points) == (0, result, points)
    assert session.round_index == 1 and not session.round_over and session.state.log == []
    assert session.next_round() is None


def test_reseat_keep_and_dealt_are_what_a_table_needs() -> None:
    """A new computer player at a seat starts fresh and is saved with the game's next save; `keep` saves data
    with the game; `dealt` is the round as dealt, on which the saved moves replay."""
    store = MemoryStore()
    session = PlaySession.create(store, "racko", OPTIONS["racko"], bots("racko", ["easy", "normal"]), seed=5)
    for _ in range(3):
        session.step_computer()
    new = computer_seat("hard", 1, "Ben")
    session.reseat(1, new)
    assert session.seats[1] == new
    session.keep("table", {"code": "ABCD", "seats": []})
    again = PlaySession.load(store, session.saved.id)
    assert again is not None and again.seats[1] == new and again.saved.data["table"]["code"] == "ABCD"
    state = session.dealt()
    for action in session.state.log:
        state.apply(action)
    assert repr(state.view(0)) == repr(session.state.view(0))


def test_a_table_uses_only_the_sessions_public_parts() -> None:
    """The live table drives a play session through its public methods only (no `session._...`)."""
    import re

    table = Path(__file__).resolve().parents[1] / "scorekeeper" / "table"
    private = re.compile(r"session(\(\))?\._[a-z]")
    found = [
        f"{path.name}:{number}"
        for path in sorted(table.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if private.search(line)
    ]
    assert found == []
