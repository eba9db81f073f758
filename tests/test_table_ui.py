"""The table screens in process (no browser): host a table, phones join by code, play from the seat screens,
the board; refused codes and stolen seats; each phone's screen built from its own seat only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest

from scorekeeper.table.host import HOST
from scorekeeper.ui.digital.kit import action_key
from tests.test_ui_core_harness import App, walk


@pytest.fixture(autouse=True)
def fresh_host() -> Iterator[None]:
    """Every test starts and ends with no table and no wrong-code count on the process's host (autouse: a
    module that imports it gets it too)."""
    HOST.tables.clear()
    HOST.guard.clear()
    yield
    HOST.tables.clear()
    HOST.guard.clear()


def app(tmp_path: Path, name: str, *, web: bool = True, width: float = 390) -> App:
    folder = tmp_path / name
    folder.mkdir()
    opened = App(folder, width=width)
    opened.page.web = web
    return opened


def setting_up(game: str, players: int, *choices: str) -> list[str]:
    """The host's taps from home to a new table's lobby (the browser tests tap the same)."""
    return ["host-table", f"table-game-{game}", f"table-players-{players}", *choices, "create-table"]


def host_table(tmp_path: Path, players: int = 2, game: str = "racko", *choices: str) -> tuple[App, str]:
    """The host's tablet creates a table for `game` at `players` (tapping `choices` first) and shows its code."""
    host = app(tmp_path, "host", width=1280)
    host.go("/")
    for identifier in setting_up(game, players, *choices):
        host.tap(identifier)
    code = host.ctx.route.rsplit("/", 1)[1]
    assert host.find("table-code").value == code
    return host, code


def join(tmp_path: Path, code: str, name: str, seat: int) -> App:
    phone = app(tmp_path, f"phone-{name}")
    phone.go(f"/join/{code}")
    phone.type_text("join-name", name)
    phone.tap(f"take-seat-{seat}")
    phone.tap("join-submit")
    assert phone.ctx.route == f"/table/{code}/seat"
    return phone


def test_host_a_table_join_and_play_a_move(tmp_path: Path) -> None:
    host, code = host_table(tmp_path)
    assert host.has("table-qr") and host.has("seat-1") and host.has("seat-2")
    assert f"/join/{code}" in host.find("join-address").value
    anna = join(tmp_path, code, "Anna", 1)
    assert anna.has("seat-waiting")
    ben = join(tmp_path, code, "Ben", 2)
    host.go(f"/table/{code}")
    assert "Anna" in host.screen_text() and "Ben" in host.screen_text()
    host.tap("start-table")
    assert host.ctx.route == f"/table/{code}/board"
    assert host.has("board-discard") and host.has("board-score-0")
    table = HOST.tables[code]
    for phone in (anna, ben):
        phone.go(f"/table/{code}/seat")
    mover = anna if table.session.to_act == 0 else ben
    waiting = ben if mover is anna else anna
    assert mover.has(f"act-{action_key('stock')}")
    assert not waiting.has(f"act-{action_key('stock')}")
    mover.tap(f"act-{action_key('stock')}")
    assert table.session.state.log == ["stock"]


def test_home_explains_where_a_table_cannot_be_hosted(tmp_path: Path) -> None:
    window = app(tmp_path, "window", web=False)
    window.go("/")
    window.tap("host-table")
    assert window.has("host-table-why") and not window.has("create-table")


def test_a_wrong_code_is_told_and_too_many_are_refused(tmp_path: Path) -> None:
    _, code = host_table(tmp_path)
    phone = app(tmp_path, "guesser")
    phone.go("/join/AAAAAA")
    assert "There is no table with the code AAAAAA" in phone.find("join-error").value
    for _ in range(10):
        phone.go("/join/CCCCCC")
    phone.go(f"/join/{code}")
    assert "Too many wrong codes" in phone.find("join-error").value


def test_a_taken_seat_cannot_be_taken_again(tmp_path: Path) -> None:
    _, code = host_table(tmp_path)
    join(tmp_path, code, "Anna", 1)
    thief = app(tmp_path, "thief")
    thief.go(f"/join/{code}")
    assert thief.find("take-seat-1").disabled
    thief.go(f"/table/{code}/seat")  # no token: not at the table, back to joining
    assert not thief.has("play-panel") and not thief.has("seat-waiting")


def test_each_phone_screen_is_built_from_its_own_seat_only(tmp_path: Path) -> None:
    host, code = host_table(tmp_path)
    phones = [join(tmp_path, code, name, seat) for seat, name in ((1, "Anna"), (2, "Ben"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    table = HOST.tables[code]
    state_class = type(table.session.state)
    original = state_class.view
    asked: list[int] = []

    def spy(state, seat):  # type: ignore[no-untyped-def]
        asked.append(seat)
        return original(state, seat)

    state_class.view = spy  # type: ignore[method-assign]
    try:
        for seat, phone in enumerate(phones):
            asked.clear()
            phone.go(f"/table/{code}/seat")
            assert set(asked) == {seat}
            assert phone.has("play-panel")
    finally:
        state_class.view = original  # type: ignore[method-assign]


@pytest.mark.parametrize(("game", "players"), [("racko", 3), ("rage", 4), ("ruckzuck", 3)])
def test_the_board_shows_each_game_in_large_type_only(tmp_path: Path, game: str, players: int) -> None:
    """The TV board: turn, the game's public parts and the scores; no text under 24 px at 1080p."""
    tv = app(tmp_path, "tv", width=1920)
    table = HOST.create(game, {}, players)
    for seat in range(players):
        table.set_computer(seat, "normal")
    table.start(tv.store, seed=5)
    for _ in range(7):
        table.step_computer()
    tv.go(f"/table/{table.code}/board")
    assert tv.has("board-turn") and tv.has("board-score-0")
    expected = {"racko": "board-discard", "rage": "board-trump", "ruckzuck": "board-grid"}[game]
    assert tv.has(expected)
    small = [
        (node.value, node.size)
        for node in walk(tv.view)
        if isinstance(node, ft.Text) and (node.size is None or node.size < 24)
    ]
    assert not small


def test_the_host_gives_a_vanished_phone_seat_to_a_computer_player(tmp_path: Path) -> None:
    host, code = host_table(tmp_path)
    anna = join(tmp_path, code, "Anna", 1)
    ben = join(tmp_path, code, "Ben", 2)
    host.go(f"/table/{code}")
    host.tap("start-table")
    table = HOST.tables[code]
    for phone in (anna, ben):
        phone.go(f"/table/{code}/seat")
    host.go(f"/table/{code}")
    assert not host.has("computer-2")  # Ben's phone is at the table
    ben.page.on_disconnect(None)  # Ben's phone loses its connection ...
    assert table.connected.get(1) == 0
    ben.page.on_connect(None)  # ... and finds it again
    assert table.connected.get(1) == 1
    ben.page.on_disconnect(None)  # ... and loses it for good
    host.go(f"/table/{code}")
    host.tap("computer-2")
    assert not table.session.seats[1].is_person and table.seats[1].token_hash is None
    ben.go(f"/table/{code}/seat")  # the old phone no longer holds the seat
    assert not ben.has("play-panel")


def test_the_host_picks_the_game_options_of_the_table(tmp_path: Path) -> None:
    host = app(tmp_path, "host", width=1280)
    host.go("/table/new")
    host.tap("table-game-rage")
    host.tap("table-players-3")
    host.tap("option-edition-fundex")
    host.tap("create-table")
    table = HOST.tables[host.ctx.route.rsplit("/", 1)[1]]
    assert table.options["edition"] == "fundex"
    for seat in range(3):
        table.set_computer(seat, "easy")
    session = table.start(host.store, seed=2)
    assert session.match.opts.edition == "fundex"


def test_home_continues_a_table_game_at_its_table(tmp_path: Path) -> None:
    host, code = host_table(tmp_path)
    table = HOST.tables[code]
    table.set_computer(0, "easy")
    table.set_computer(1, "easy")
    session = table.start(host.store, seed=1)
    host.go("/")
    host.tap(f"resume-{session.saved.id}")
    assert host.ctx.route == f"/table/{code}"  # not a second play session on the same saved game


@pytest.mark.slow
def test_no_other_seats_hidden_card_is_in_a_phones_control_tree(tmp_path: Path) -> None:
    """At every step of a Racko round, the controls sent to each phone show none of the other seat's hidden
    cards, and the board's controls none of anyone's. (Multiples of 5 are left out: they are the slot labels
    printed on every rack.)"""
    from scorekeeper.digital import engine
    from scorekeeper.games.racko import TURN_LIMIT
    from scorekeeper.table.public import private_fields, seat_views
    from tests.test_table import atoms

    host, code = host_table(tmp_path)
    phones = [join(tmp_path, code, name, seat) for seat, name in ((1, "Anna"), (2, "Ben"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    table = HOST.tables[code]
    session = table.session
    tokens = [phone.ctx.session.table_tokens[code] for phone in phones]
    bot = engine.make_bot("racko", "normal")

    def shown(ui: App) -> set[str]:
        return {str(node.value).strip() for node in walk(ui.view) if isinstance(node, ft.Text) and node.value}

    # The deal is random: most rounds end within 100 turns, a rare one takes hundreds (2 actions a turn); the
    # rules end every round by TURN_LIMIT turns, so the loop runs to the end whatever was dealt.
    for _ in range(2 * TURN_LIMIT + 2):
        views = seat_views(session.state)
        private = private_fields(views)
        public = atoms(table.board().view)
        hidden = [atoms([getattr(v, name) for name in private]) - public for v in views]
        for seat, phone in enumerate(phones):
            phone.go(f"/table/{code}/seat")
            secret = {c for c in hidden[1 - seat] - atoms(views[seat]) if isinstance(c, int) and c % 5}
            assert not {str(c) for c in secret} & shown(phone), seat
        host.go(f"/table/{code}/board")
        assert not {str(c) for c in set().union(*hidden) if isinstance(c, int) and c % 5} & shown(host)
        if session.round_over:
            break
        seat = session.to_act
        table.act(seat, tokens[seat], bot.choose(session.view_for(seat), session.legal_for(seat)))
    assert session.round_over


def test_phones_keep_score_for_a_rage_round_and_the_board_shows_who_is_done(tmp_path: Path) -> None:
    host, code = host_table(tmp_path, 3, "rage", "table-mode-keep")
    assert not host.has("computer-1")  # score keeping: every seat is a phone
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben", "Cleo"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    assert host.ctx.route == f"/table/{code}/board" and host.has("board-done-0")
    table = HOST.tables[code]
    keeping = table.keeping
    assert keeping is not None
    size = keeping.match.next_hand_size()
    dealer = keeping.match.dealer
    order = [seat for seat in range(3) if seat != dealer] + [dealer]
    bids = {order[0]: 1, order[1]: 1, dealer: 0}
    for seat in order:
        phone = phones[seat]
        phone.go(f"/table/{code}/seat")
        if seat == dealer and keeping.match.opts.hook:  # the hook rule greys out the bid that makes the sum
            assert phone.find(f"part-bid-{size - 2}").disabled
            assert not phone.find(f"part-bid-{size - 3}").disabled
        phone.tap(f"part-bid-{bids[seat]}")
        phone.tap("part-submit")
    host.go(f"/table/{code}/board")
    assert keeping.parts.stage == 1
    tricks = {order[0]: 1, order[1]: size - 1, dealer: 0}
    for seat in order[:2]:
        phones[seat].go(f"/table/{code}/seat")
        phones[seat].tap(f"part-tricks-{tricks[seat] + 1}")  # one too many: corrected below
        phones[seat].tap("part-submit")
    wrong = phones[dealer]
    wrong.go(f"/table/{code}/seat")
    wrong.tap("part-tricks-0")
    wrong.tap("part-submit")  # the tricks add up to more than the hand: refused, nothing saved
    assert keeping.store.get_match(keeping.match.id).rounds == []
    phones[order[1]].go(f"/table/{code}/seat")
    phones[order[1]].tap(f"part-tricks-{tricks[order[1]]}")
    phones[order[1]].tap("part-submit")
    phones[order[0]].go(f"/table/{code}/seat")
    phones[order[0]].tap(f"part-tricks-{tricks[order[0]]}")
    phones[order[0]].tap("part-submit")
    wrong.go(f"/table/{code}/seat")
    wrong.tap("part-submit")
    saved = keeping.store.get_match(keeping.match.id)
    assert len(saved.rounds) == 1 and saved.rounds[0]["tricks"] == [tricks[s] for s in range(3)]
    host.go(f"/table/{code}")
    host.tap("open-scoreboard")  # the host enters or edits rounds on the normal screens
    assert host.ctx.route == f"/match/{saved.id}"
    assert "Anna" in host.screen_text()


def test_a_full_table_says_so_before_a_name_is_typed(tmp_path: Path) -> None:
    from test_table_speed import deliver  # (it imports this module)

    _, code = host_table(tmp_path)
    join(tmp_path, code, "Anna", 1)
    late = app(tmp_path, "late")
    late.go(f"/join/{code}")
    assert late.find("join-error").value == ""  # a seat is free
    join(tmp_path, code, "Ben", 2)
    deliver(late, code)  # the last seat was taken meanwhile: said at once
    assert late.find("join-error").value == "All seats are taken."
    later = app(tmp_path, "later")
    later.go(f"/join/{code}")  # nothing typed, nothing tapped
    assert later.find("join-error").value == "All seats are taken."


def test_the_waiting_screen_shows_your_name_and_who_else_has_joined(tmp_path: Path) -> None:
    from test_table_speed import deliver  # (it imports this module)

    _, code = host_table(tmp_path, 3)
    anna = join(tmp_path, code, "Anna", 1)
    waiting = anna.find("seat-waiting")
    assert "You sit at seat 1 as Anna." in anna.screen_text()
    assert anna.find("seat-joined").value == "At the table: Anna"
    join(tmp_path, code, "Ben", 2)
    deliver(anna, code)  # another phone joins: the line of who is here changes in place
    assert anna.find("seat-joined").value == "At the table: Anna, Ben"
    assert anna.find("seat-waiting") is waiting
