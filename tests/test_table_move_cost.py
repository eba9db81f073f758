"""What one move at a live Racko table costs the server per device (the `bench host` load): a phone that only
watches gets the piles and the others' lines drawn again, never its rack, and a patch of a few hundred bytes;
nothing is formatted as text for a log on the way out. Counts and sizes, never times."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.table.host import HOST
from scorekeeper.ui.components import keyed
from scorekeeper.ui.digital import racko_panel
from tests.test_table_speed import Recorded, deliver, sent
from tests.test_table_ui import app, fresh_host, host_table, join  # noqa: F401  (fresh_host: autouse)

WATCHING_PATCH_BYTES = 1500
"""A watching phone's patch after another seat's move: the new top of the discard pile and stock count, the
status line, a move-log line (measured: 225 to 935 bytes). Flet's keyed diff sent no more when the whole panel
was built again; what that cost was the server's time to build and diff the rack (see the rack count)."""


@pytest.fixture
def racko_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A Racko table of 4 phones, started; each phone's screen parts recorded."""
    Recorded.made = []
    monkeypatch.setattr(keyed, "KeyedParts", Recorded)
    host, code = host_table(tmp_path, 4, "racko")
    phones = [join(tmp_path, code, name, n + 1) for n, name in enumerate(("Anna", "Ben", "Cleo", "Dan"))]
    host.go(f"/table/{code}")
    host.tap("start-table")
    for phone in phones:
        phone.go(f"/table/{code}/seat")
    yield {"code": code, "phones": phones}


def test_a_watching_phone_gets_a_small_patch_and_keeps_its_rack(
    racko_table: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, phones = racko_table["code"], racko_table["phones"]
    racks: list[int] = []  # the seats whose rack was drawn
    real_rows = racko_panel._rack_rows
    monkeypatch.setattr(
        racko_panel, "_rack_rows", lambda pc, *rest: racks.append(pc.you) or real_rows(pc, *rest)
    )
    table = HOST.tables[code]
    session = table.session
    tokens = [phone.ctx.session.table_tokens[code] for phone in phones]
    rng = random.Random(4)
    for phone in phones:
        deliver(phone, code)
    sizes: list[int] = []
    for _ in range(8):
        seat = session.to_act
        counts = [len(phone.connection.sent) for phone in phones]
        racks.clear()
        table.act(seat, tokens[seat], rng.choice(session.state.legal_actions()))
        for n, phone in enumerate(phones):
            deliver(phone, code)
            if n in (seat, session.to_act):  # the mover's and the next one's own cards and moves change
                continue
            assert n not in racks  # the rack on screen is kept as it is
            sizes.extend(len(patch) for patch in sent(phone, counts[n]))
    assert sizes and max(sizes) <= WATCHING_PATCH_BYTES


def test_a_frame_is_not_written_out_as_text_on_its_way_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flet's own send_message formats every message for a debug line even with the log off: the whole control
    tree as text. The server packs the frame only (`server.lean_frames`), with the same bytes."""
    import flet as ft
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import MessageAction, configure_encode_object_for_msgpack
    from flet_web.fastapi.flet_app import FletApp

    from scorekeeper.server import web as server

    server.lean_frames()
    written: list[int] = []
    monkeypatch.setattr(ft.Text, "__repr__", lambda self: written.append(1) or "Text")
    queue: list[bytes] = []
    sender = FletApp.__new__(FletApp)
    outbox = type("Outbox", (), {"put_nowait": staticmethod(queue.append)})()
    sender._FletApp__send_queue = outbox  # type: ignore[attr-defined]
    body = {"patch": [ft.Text("7")]}
    message = type("M", (), {"action": MessageAction.PATCH_CONTROL, "body": body})()
    expected = msgpack.packb([message.action, body], default=configure_encode_object_for_msgpack(BaseControl))
    sender.send_message(message)
    assert written == []
    assert queue == [b"\x00" + expected]
