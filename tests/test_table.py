"""The live table without Flet: join codes, the wrong-code guard, seat tokens, computer players, resume, privacy."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.digital import engine
from scorekeeper.games.base import Message, RuleError
from scorekeeper.store import Store
from scorekeeper.table.codes import ALPHABET, CODE_LENGTH, new_code, normalize
from scorekeeper.table.host import TableHost, TooManyTries
from scorekeeper.table.public import BOARD_SEAT, blank, private_fields, seat_views
from scorekeeper.table.table import Table, TableError
from tests.test_play_session import MemoryStore

OPTIONS = {"racko": {"target": 150}, "ruckzuck": {"rounds": 3}, "rage": {"edition": "amigo"}}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seated(game: str = "racko", players: int = 3, store: Any = None) -> tuple[Table, list[str], Any]:
    """A started table whose seats are all taken by phones (P1, P2, ...); their tokens by seat."""
    store = store if store is not None else MemoryStore()
    table = TableHost().create(game, OPTIONS[game], players)
    tokens = [table.claim(seat, f"P{seat + 1}") for seat in range(players)]
    table.start(store, seed=17)
    return table, tokens, store


# ---------------------------------------------------------------------- codes and the guard
def test_codes_use_no_look_alikes_and_are_unique() -> None:
    for look_alike in "0O1IL5S2Z8B":
        assert look_alike not in ALPHABET
    taken = {new_code() for _ in range(200)}
    assert all(len(code) == CODE_LENGTH and set(code) <= set(ALPHABET) for code in taken)
    forced = iter("A" * CODE_LENGTH + "C" * CODE_LENGTH)
    assert new_code({"A" * CODE_LENGTH}, choice=lambda _: next(forced)) == "C" * CODE_LENGTH
    assert normalize(" ack-39 x ") == "ACK39X"


def test_more_than_ten_wrong_codes_a_minute_are_refused_for_a_minute() -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    table = host.create("racko", {}, 2)
    for _ in range(10):
        with pytest.raises(TableError) as wrong:
            host.find("AAAAAA", "10.0.0.7")
        assert not isinstance(wrong.value, TooManyTries)
        clock.now += 1
    with pytest.raises(TooManyTries):
        host.find("AAAAAA", "10.0.0.7")
    with pytest.raises(TooManyTries):  # the right code too, for that client, for a minute
        host.find(table.code.lower(), "10.0.0.7")
    assert host.find(table.code, "10.0.0.8") is table  # another client is not affected
    clock.now += 59
    with pytest.raises(TooManyTries):
        host.find(table.code, "10.0.0.7")
    clock.now += 1
    assert host.find(table.code, "10.0.0.7") is table


def test_wrong_codes_spread_over_more_than_a_minute_are_not_refused() -> None:
    clock = Clock()
    host = TableHost(clock=clock)
    for _ in range(30):
        with pytest.raises(TableError) as wrong:
            host.find("#", "phone")
        assert not isinstance(wrong.value, TooManyTries)
        clock.now += 7


# ---------------------------------------------------------------------- seats and tokens
def test_a_seat_is_taken_once_and_every_request_needs_its_token() -> None:
    table = TableHost().create("racko", {}, 2)
    token = table.claim(0, "  Anna  ")
    assert table.seats[0].name == "Anna" and table.seat_of(token) == 0 and table.seat_of("forged") is None
    assert token not in repr(table.seats)  # the host keeps only a hash
    with pytest.raises(TableError):
        table.claim(0, "Ben")  # a stolen seat
    with pytest.raises(TableError):
        table.claim(1, "   ")
    with pytest.raises(TableError):
        table.claim(5, "Ben")
    with pytest.raises(TableError):
        table.start(MemoryStore())  # seat 2 still open
    ben = table.claim(1, "Ben")
    table.start(MemoryStore(), seed=3)
    for seat, wrong in ((0, ben), (1, token), (0, None), (1, "x" * 32)):
        with pytest.raises(TableError):
            table.payload(seat, wrong)
    assert table.payload(0, token).seat == 0


def test_a_move_for_another_seat_or_a_forged_move_changes_nothing() -> None:
    table, tokens, _ = seated("racko", 3)
    session = table.session
    mover = session.to_act
    other = (mover + 1) % 3
    before = (list(session.state.log), table.version, [list(m) for m in table.moves.seats])
    refused: list[tuple[int, str | None, Any]] = [
        (mover, tokens[other], "stock"),  # another phone's token for the mover's seat
        (other, tokens[other], "stock"),  # not its turn
        (mover, tokens[mover], 4),  # a slot before drawing
        (mover, tokens[mover], ["stock"]),  # not an action at all
        (mover, None, "stock"),
    ]
    for seat, token, action in refused:
        with pytest.raises(RuleError):
            table.act(seat, token, action)
        assert (list(session.state.log), table.version, [list(m) for m in table.moves.seats]) == before
    table.act(mover, tokens[mover], "stock")
    assert session.state.log == ["stock"] and table.version == before[1] + 1


def test_a_computer_player_takes_an_empty_seat_in_the_lobby() -> None:
    table = TableHost().create("racko", {}, 3)
    anna = table.claim(0, "Anna")
    table.set_computer(1, "hard")
    table.set_computer(2, "easy")
    with pytest.raises(TableError):
        table.set_computer(0, "nonsense")
    session = table.start(MemoryStore(), seed=1)
    assert [s.is_person for s in session.seats] == [True, False, False]
    assert session.match.players[1].startswith("computer-hard-")
    while table.step_computer():
        pass
    assert session.to_act in (0, -1)
    if session.to_act == 0:
        assert table.payload(0, anna).legal


def test_a_vanished_seat_goes_to_a_computer_or_to_another_phone() -> None:
    table, tokens, store = seated("racko", 2)
    session = table.session
    table.connect(0, tokens[0])
    table.connect(1, tokens[1])
    with pytest.raises(TableError):
        table.set_computer(1, "normal")  # Ben's phone is still here
    table.disconnect(1)
    table.set_computer(1, "normal")
    assert (
        not session.seats[1].is_person
        and store.get_digital_game(session.saved.id).data["seats"][1]["kind"] == "computer"
    )
    with pytest.raises(TableError):
        table.payload(1, tokens[1])  # the old phone no longer holds the seat
    while table.step_computer():
        pass
    assert session.to_act in (0, -1)
    table.free(1)  # a new phone may take it
    carla = table.claim(1, "Carla")
    assert session.seats[1].is_person and session.seats[1].name == "Carla"
    assert table.payload(1, carla).names[1] == "Carla" and table.board().names[1] == "Carla"
    with pytest.raises(TableError):
        table.payload(1, tokens[1])


def test_a_host_restart_resumes_the_table_and_the_phones_reconnect(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        table, tokens, _ = seated("racko", 2, store=store)
        session = table.session
        for _ in range(5):
            seat = session.to_act
            table.act(seat, tokens[seat], session.legal_for(seat)[0])
        before = [table.payload(seat, tokens[seat]) for seat in range(2)]
        board = table.board()
        code = table.code
    with Store.open(tmp_path) as store:
        host = TableHost()
        [again] = host.resume(store)
        assert again.code == code and host.find(code.lower(), "phone") is again
        assert [again.seat_of(token) for token in tokens] == [0, 1]
        assert [again.payload(seat, tokens[seat]) for seat in range(2)] == before
        assert again.board() == board
        with pytest.raises(TableError):
            again.payload(0, tokens[1])


def test_guests_never_open_the_tables_host_screens() -> None:
    """Checked on the screen a route resolves to, whatever its spelling (tests/test_route_rights.py walks all)."""
    from scorekeeper.server import rights
    from scorekeeper.ui.routes import resolve

    def may(route: str, role: str) -> bool:
        return rights.may_view(role, resolve(route)[0])

    for route in ("/join", "/join/ACK39X", "/table/ACK39X/board", "/table/ACK39X/seat", "/join/ACK39X?x=1"):
        assert may(route, rights.VISITOR)
    for route in ("/table/new", "/table/ACK39X", "/table/ACK39X/", "//table/new", "/table/new?game=rage"):
        assert not may(route, rights.VISITOR) and not may(route, rights.MEMBER) and may(route, rights.OWNER)


# ---------------------------------------------------------------------- nothing hidden leaves its seat
def atoms(value: Any) -> set[Any]:
    """Every number and word inside a payload part; a message by its fields (not its fixed template)."""
    found: set[Any] = set()
    if isinstance(value, Message):
        for field in value.fields.values():
            found |= atoms(field)
    elif isinstance(value, str):
        found |= set(re.findall(r"[^\s\[\]',()]+", value)) | {value}
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        found.add(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            found |= atoms(getattr(value, field.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= atoms(key) | atoms(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            found |= atoms(item)
    return found


def card_atoms(message: Message) -> set[Any]:
    """The cards a move description names: its `card` fields, and the words of an action written out."""
    found: set[Any] = set()
    for key, field in message.fields.items():
        if isinstance(field, Message):
            found |= card_atoms(field)
        elif key == "card":
            found |= atoms(field)
        elif key == "action":
            found |= {word for word in atoms(field) if isinstance(word, str) and not word.isdigit()}
    return found


def check_privacy(table: Table, tokens: list[str]) -> None:
    state = table.session.state
    views = seat_views(state)
    private = private_fields(views)
    public = atoms(table.board().view)
    hidden = [atoms([getattr(view, name) for name in private]) for view in views]
    for seat, token in enumerate(tokens):
        payload = table.payload(seat, token)
        assert payload.view == views[seat]  # its own seat's view, nothing else
        secret = (
            set().union(*(hidden[o] for o in range(len(views)) if o != seat)) - atoms(views[seat]) - public
        )
        named = set().union(*(card_atoms(move) for move in payload.moves))
        assert not named & secret, (seat, named & secret)
        rest = atoms([payload.names, payload.result_lines])
        assert not {a for a in rest if isinstance(a, str)} & secret
    board = table.board()
    assert board.view.seat == BOARD_SEAT
    for field in dataclasses.fields(board.view):
        value = getattr(board.view, field.name)
        if field.name != "seat":
            common = all(getattr(v, field.name) == getattr(views[0], field.name) for v in views)
            assert (common and value == getattr(views[0], field.name)) or value == blank(value), field.name
    secret = set().union(*hidden) - public
    assert not set().union(*(card_atoms(move) for move in board.moves)) & secret


@pytest.mark.parametrize(("game", "players"), [("racko", 3), ("racko", 2), ("rage", 3), ("ruckzuck", 3)])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_hidden_card_reaches_another_seat_or_the_board(game: str, players: int, seed: int) -> None:
    """At every step of a random round, each phone's payload holds none of the others' hidden cards and the
    board's none at all."""
    table, tokens, _ = seated(game, players)
    session = table.session
    rng = random.Random(seed)
    bot = engine.make_bot(
        game, "normal"
    )  # mostly sensible moves, so that a round ends in a few hundred steps
    check_privacy(table, tokens)
    for _ in range(3000):
        if session.round_over:
            break
        seat = session.to_act
        legal = session.legal_for(seat)
        move = rng.choice(legal) if rng.random() < 0.3 else bot.choose(session.view_for(seat), legal)
        table.act(seat, tokens[seat], move)
        check_privacy(table, tokens)
    assert session.round_over
    payload = table.payload(0, tokens[0])
    assert payload.round_points is not None and payload.round_over


def test_a_table_game_set_aside_is_not_resumed(tmp_path: Path) -> None:
    """A game the host set aside (its moves no longer replayed) stays in the store, but no table comes back."""
    with Store.open(tmp_path) as store:
        table, _tokens, _ = seated("racko", 2, store=store)
        saved_id = table.session.saved.id
        assert store.set_aside_digital_game(saved_id) is not None
    with Store.open(tmp_path) as store:
        assert TableHost().resume(store) == []
        assert store.get_digital_game(saved_id) is not None
