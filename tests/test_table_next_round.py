"""Digital play at a table: a finished round's result stays on each phone until its player moves on; the next
round is dealt once every person has moved on, or when the host deals it."""

from __future__ import annotations

from pathlib import Path

from test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: the autouse fixture)

from scorekeeper.digital import engine
from scorekeeper.table.host import HOST, TableHost
from scorekeeper.table.table import Table
from tests.test_play_session import MemoryStore


def finish_round(table: Table, tokens: dict[int, str]) -> None:
    """Play the round to its end: the people's moves chosen by a computer player for them."""
    session = table.session
    assert session is not None
    bot = engine.make_bot(table.game, "easy")
    for _ in range(2_000):
        if session.round_over:
            return
        seat = session.to_act
        if seat in tokens:
            table.act(seat, tokens[seat], bot.choose(session.view_for(seat), session.legal_for(seat)))
        else:
            table.step_computer()
    raise AssertionError("the round did not end")


def rage_table() -> tuple[Table, dict[int, str]]:
    table = TableHost().create("rage", {"edition": "amigo"}, 3)
    tokens = {0: table.claim(0, "Anna"), 1: table.claim(1, "Ben")}
    table.set_computer(2, "easy")
    table.start(MemoryStore(), seed=4)
    return table, tokens


def test_the_next_round_waits_until_every_person_has_moved_on() -> None:
    table, tokens = rage_table()
    finish_round(table, tokens)
    session = table.session
    assert session is not None
    anna = table.payload(0, tokens[0])
    assert anna.result_round == 0 and not anna.moved_on and anna.waiting == ["Anna", "Ben"]
    table.next_round(0, tokens[0])  # Anna moves on: Ben still looks at the result
    assert session.round_over and session.round_index == 0
    anna, ben = table.payload(0, tokens[0]), table.payload(1, tokens[1])
    assert anna.result_round == 0 and anna.moved_on and anna.waiting == ["Ben"]
    assert ben.result_round == 0 and not ben.moved_on and ben.round_points is not None
    table.next_round(1, tokens[1])  # Ben too: the next round is dealt
    assert session.round_index == 1 and not session.round_over
    assert table.payload(0, tokens[0]).result_round is None
    assert table.payload(1, tokens[1]).result_round is None


def test_the_host_deals_and_a_phone_keeps_the_result_until_its_player_moves_on() -> None:
    table, tokens = rage_table()
    finish_round(table, tokens)
    session = table.session
    assert session is not None
    points = list(session.match.round_scores()[0])
    table.next_round()  # the host deals for everyone
    assert session.round_index == 1 and not session.round_over
    for seat in (0, 1):
        payload = table.payload(seat, tokens[seat])
        assert payload.result_round == 0 and payload.round_points == points and not payload.moved_on
    table.next_round(0, tokens[0])  # Anna moves on to the round being played; nothing is dealt again
    assert session.round_index == 1
    assert table.payload(0, tokens[0]).result_round is None
    assert table.payload(1, tokens[1]).result_round == 0


def test_next_round_on_one_phone_does_not_take_the_result_from_the_other(tmp_path: Path) -> None:
    from test_table_speed import deliver

    host, code = host_table(tmp_path, 3, "rage")
    anna, ben = join(tmp_path, code, "Anna", 1), join(tmp_path, code, "Ben", 2)
    host.go(f"/table/{code}")
    host.tap("computer-3")
    host.tap("start-table")
    table = HOST.tables[code]
    tokens = {0: anna.ctx.session.table_tokens[code], 1: ben.ctx.session.table_tokens[code]}
    finish_round(table, tokens)
    for phone in (anna, ben):
        phone.go(f"/table/{code}/seat")
        assert phone.has("round-result") and phone.has("next-round")
    anna.tap("next-round")
    deliver(ben, code)
    assert ben.has("round-result") and ben.has("next-round")  # Ben still sees the result
    assert anna.has("round-result") and anna.has("next-waiting") and not anna.has("next-round")
    assert "Ben" in anna.find("next-waiting").value
    host.go(f"/table/{code}")
    assert host.has("host-next-round")
    ben.tap("next-round")
    deliver(anna, code)
    assert table.session.round_index == 1
    assert not anna.has("round-result") and not ben.has("round-result")
