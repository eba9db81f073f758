"""What the table screens share: the host's tables, the join address and its QR code, pubsub, computer moves.

- Every change at a table (a join, a move, a computer move) is sent on the pubsub topic `table:<code>`; each
  device showing that table (lobby, phones, board) redraws from its own payload, without a reload.
- Computer players move on a thread of the host, at a pace a person can follow.
- The join address is the public URL (`--public-url`, `SCOREKEEPER_PUBLIC_URL`) when the app is on the internet,
  else `SCOREKEEPER_TABLE_URL` (set by `main.py --table` to the LAN address), else the address the host's
  browser uses.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import struct
import threading
import time
import zlib
from typing import TYPE_CHECKING, Any

import qrcode

from scorekeeper.table.host import HOST, TableHost
from scorekeeper.table.table import Table

if TYPE_CHECKING:  # the type only (no import at run time: no cycle)
    from scorekeeper.store import Store

log = logging.getLogger(__name__)

TOPIC = "table:{code}"
PACE = 0.6
"""Seconds between computer moves, so the people at the table can follow them."""
URL_ENV = "SCOREKEEPER_TABLE_URL"
PUBLIC_URL_ENV = "SCOREKEEPER_PUBLIC_URL"
TOKEN_KEY = "scorekeeper.table.{code}"
"""The client-storage key under which a phone keeps its seat token for a table."""
BOARD_KEY = "scorekeeper.table.{code}.board"
"""The client-storage key under which a board (a TV, a tablet) keeps its board token for a table."""

_pubsub: dict[str, Any] = {}
_runners: dict[str, threading.Thread] = {}
_lock = threading.RLock()


def host(store: Store) -> TableHost:
    """The tables of this process; tables of unfinished saved games come back after a restart (once)."""
    with _lock:
        if not HOST.resumed:
            HOST.resumed = True
            try:
                for table in HOST.resume(store):
                    watch(table)
            except Exception:  # a store without saved games (tests) has nothing to resume
                log.info("no tables to resume")
        return HOST


def watch(table: Table) -> None:
    """Send every change of `table` to the devices showing it."""
    if broadcast not in table.listeners:
        table.listeners.append(broadcast)


def remember_pubsub(pubsub: Any) -> None:
    """Keep a live session's pubsub client: computer moves are broadcast through it."""
    _pubsub["client"] = pubsub


def broadcast(table: Table) -> None:
    client = _pubsub.get("client")
    if client is None:
        return
    try:
        client.send_all_on_topic(TOPIC.format(code=table.code), table.version)
    except Exception:
        log.exception("could not tell the table's devices")


def kick(table: Table) -> None:
    """Let the computer players move (off the UI thread) while it is their turn."""
    with _lock:
        runner = _runners.get(table.code)
        if runner is not None and runner.is_alive():
            return
        session = table.session
        if session is None or not session.computer_to_act:
            return
        runner = threading.Thread(target=_run, args=(table,), daemon=True, name=f"table-{table.code}")
        _runners[table.code] = runner
        runner.start()


def _run(table: Table) -> None:
    while True:
        time.sleep(PACE)
        try:
            moved = table.step_computer()
        except Exception:
            log.exception("computer player failed")
            moved = False
        with _lock:  # kick() decides under the same lock, so no computer turn is left without a runner
            session = table.session
            if not moved or session is None or not session.computer_to_act:
                _runners.pop(table.code, None)
                return


# ---------------------------------------------------------------------- the join address and its QR code
def lan_address() -> str:
    """This machine's address on the local network (no packet is sent to find it); 127.0.0.1 without one."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def base_url(page: Any) -> str:
    configured = os.environ.get(PUBLIC_URL_ENV) or os.environ.get(URL_ENV)
    if configured:
        return configured.rstrip("/")
    url = str(getattr(page, "url", "") or "")
    if url.startswith("http"):
        return url.split("/#")[0].rstrip("/")
    return "http://127.0.0.1:8550"


def join_url(page: Any, code: str) -> str:
    return f"{base_url(page)}/join/{code}"


@functools.lru_cache(maxsize=16)
def qr_png(text: str, scale: int = 8, border: int = 4) -> bytes:
    """A QR code of `text` as a PNG image (black modules on white), written without an imaging library. Kept:
    the lobby draws it again on every join."""
    code = qrcode.QRCode(border=border, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    rows = []
    for row in matrix:
        line = bytes(0 if dark else 255 for dark in row for _ in range(scale))
        rows.extend([b"\x00" + line] * scale)
    size = len(matrix) * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )
