"""Score keeping at the table against the real store: every change to the table's match reaches the table's
devices (the host's round entry, edit, delete, undo and redo on the normal screens), and the parts entered so far
survive a host restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.model.match import Match
from scorekeeper.store import Store
from scorekeeper.table import lobbies
from scorekeeper.table.host import TableHost
from scorekeeper.table.parts import RoundParts
from scorekeeper.table.table import KEEP, Table

RZ = {"rounds": 3}


def kept_table(
    folder: Path, game: str = "ruckzuck", options: dict[str, Any] | None = None
) -> tuple[TableHost, Table, list[str], list[int]]:
    """A score-keeping table of three phones on a host with a data folder; `heard` lists the table's versions
    each time it told its devices about a change."""
    host = TableHost()
    host.resume(Store.open(folder))
    table = host.create(game, RZ if options is None else options, 3, KEEP)
    tokens = [table.claim(seat, f"P{seat + 1}") for seat in range(3)]
    table.start_keeping(host.store)
    heard: list[int] = []
    table.listeners.append(lambda changed: heard.append(changed.version))
    return host, table, tokens, heard


def test_every_change_the_host_makes_to_the_tables_match_reaches_the_table(tmp_path: Path) -> None:
    host, table, tokens, heard = kept_table(tmp_path)
    store, keeping = host.store, table.keeping
    assert keeping is not None
    table.enter_part(0, tokens[0], {"hand": 12})
    heard.clear()
    match = store.get_match(keeping.match.id)
    saved = store.save_match(match.with_round({"hands": [0, 5, 7], "out": 0}), "Round 1 added")  # entry
    assert len(heard) == 1
    assert len(keeping.match.rounds) == 1 and keeping.parts.mine(0) == {}  # read back; the parts are void
    saved = store.save_match(saved.with_round_edited(0, {"hands": [0, 6, 7], "out": 0}), "Round 1 changed")
    assert len(heard) == 2 and keeping.match.rounds[0]["hands"] == [0, 6, 7]  # edit
    saved = store.undo_match(saved.id, saved.version)
    assert len(heard) == 3 and keeping.match.rounds[0]["hands"] == [0, 5, 7]  # undo
    saved = store.redo_match(saved.id, saved.version)
    assert len(heard) == 4 and keeping.match.rounds[0]["hands"] == [0, 6, 7]  # redo
    store.save_match(saved.without_round(0), "Round 1 deleted")
    assert len(heard) == 5 and keeping.match.rounds == []  # delete
    other = store.save_match(Match.new("ruckzuck", RZ, ["a", "b", "c"]))
    store.save_match(other.with_round({"hands": [0, 5, 7], "out": 0}))
    assert len(heard) == 5  # another game's change is not this table's


def test_a_round_the_phones_complete_is_told_once(tmp_path: Path) -> None:
    _host, table, tokens, heard = kept_table(tmp_path)
    table.enter_part(0, tokens[0], {"hand": 0, "out": True})
    table.enter_part(1, tokens[1], {"hand": 4})
    heard.clear()
    assert table.enter_part(2, tokens[2], {"hand": 9}) is True
    assert len(heard) == 1  # the table's own save is not heard a second time through the store


def test_a_host_restart_keeps_the_parts_entered_and_the_round_completes(tmp_path: Path) -> None:
    host, table, tokens, _heard = kept_table(tmp_path, "rage", {"edition": "amigo", "hook_rule": True})
    keeping = table.keeping
    assert keeping is not None
    dealer = keeping.match.dealer
    others = [seat for seat in range(3) if seat != dealer]
    table.enter_part(others[0], tokens[others[0]], {"bid": 3})
    table.enter_part(others[1], tokens[others[1]], {"bid": 4})
    table.enter_part(dealer, tokens[dealer], {"bid": 2})
    table.enter_part(others[0], tokens[others[0]], {"tricks": 3, "bonus": 1, "minus": 0})
    before = [keeping.parts.mine(seat) for seat in range(3)]
    host.store.close()

    after = TableHost()  # the host restarts
    after.resume(Store.open(tmp_path))
    back = after.get(table.code)
    assert back is not None and back.keeping is not None
    parts = back.keeping.parts
    assert [parts.mine(seat) for seat in range(3)] == before
    assert parts.stage == 1 and parts.done() == [seat == others[0] for seat in range(3)]
    assert back.enter_part(others[1], tokens[others[1]], {"tricks": 5, "bonus": 0, "minus": 0}) is False
    assert back.enter_part(dealer, tokens[dealer], {"tricks": 2, "bonus": 0, "minus": 0}) is True
    saved = after.store.get_match(back.keeping.match.id)
    bids = [0, 0, 0]
    bids[others[0]], bids[others[1]], bids[dealer] = 3, 4, 2
    assert len(saved.rounds) == 1 and saved.rounds[0]["bids"] == bids
    assert saved.rounds[0]["bonus"][others[0]] == 1
    again = TableHost()  # the next round starts empty after a restart too
    again.resume(Store.open(tmp_path))
    assert again.get(table.code).keeping.parts.mine(dealer) == {}


def test_parts_of_a_round_the_host_saved_meanwhile_are_not_brought_back(tmp_path: Path) -> None:
    host, table, tokens, _heard = kept_table(tmp_path)
    table.enter_part(0, tokens[0], {"hand": 12})
    saved = json.loads((tmp_path / lobbies.FILE).read_text())
    host.store.close()
    match_id = table.keeping.match.id  # type: ignore[union-attr]
    with Store.open(tmp_path) as other:  # the round was saved on the normal screens, the table heard nothing
        match = other.get_match(match_id)
        other.save_match(match.with_round({"hands": [0, 5, 7], "out": 0}))
    (tmp_path / lobbies.FILE).write_text(json.dumps(saved))
    after = TableHost()
    after.resume(Store.open(tmp_path))
    assert after.get(table.code).keeping.parts.mine(0) == {}


@pytest.mark.parametrize(
    "parts",
    [None, "junk", [[{"hand": 1}]], [[{"hand": 1}, None]], [["x", None, None]], {"round": 0}],
)
def test_damaged_saved_parts_are_dropped_and_the_table_still_comes_back(tmp_path: Path, parts: Any) -> None:
    host, table, tokens, _heard = kept_table(tmp_path)
    table.enter_part(0, tokens[0], {"hand": 12})
    host.store.close()
    data = json.loads((tmp_path / lobbies.FILE).read_text())
    data["tables"][0]["parts"] = {"round": 0, "parts": parts} if parts != {"round": 0} else parts
    (tmp_path / lobbies.FILE).write_text(json.dumps(data))
    after = TableHost()
    after.resume(Store.open(tmp_path))
    back = after.get(table.code)
    assert back is not None and back.keeping is not None and back.keeping.parts.mine(0) == {}
    assert back.enter_part(0, tokens[0], {"hand": 3}) is False


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2), st.sampled_from(["bid", "tricks"]), st.integers(0, 10), st.integers(0, 2)
        ),
        max_size=14,
    )
)
def test_saved_parts_come_back_exactly_whatever_was_entered(entries: list[tuple[int, str, int, int]]) -> None:
    """Invariant: the parts saved with the table are the parts restored, for any entries in any order."""
    options = {"edition": "amigo", "hook_rule": True}
    match = Match.new("rage", options, ["a", "b", "c"])
    parts = RoundParts("rage", 3)
    for seat, field, value, bonus in entries:
        values = {"bid": value} if field == "bid" else {"tricks": value, "bonus": bonus}
        try:
            parts.enter(seat, values, match.opts, match.dealer, 0)
        except RuleError:
            pass
    back = RoundParts("rage", 3)
    assert back.restore(json.loads(json.dumps(parts.saved())), match.opts, match.dealer, 0)
    assert back.parts == parts.parts and back.stage == parts.stage
