"""How many live tables one server carries: `python -m scorekeeper.bench host [--json]`.

One app server behind the real Caddy (`deploy/Caddyfile`, `tls internal`, https on loopback), N concurrent
digital tables (the registry's first game for 4 seats, Racko today) of 4 phones and one board each (5 devices a table), for N = 5, 10, 20, 40 (a fresh server
for each N). Every table makes a move every `PACE` seconds; for each N it prints:

- `move_to_all_devices_ms_p95` (and `_median`): from the move until each of the table's 5 devices has received
  the server's first frame after it (through Caddy, over TLS), the slowest device of each move;
- `server_cpu_ms_per_move`: the app server's CPU time (user + system) while the moves were made, per move;
  `proxy_cpu_ms_per_move` the same for Caddy;
- `server_core_share`: the app server's CPU time over the moving period's wall time (1.0 = one core busy; the
  server's Python runs one move at a time, so near 1.0 it is saturated whatever the machine has);
- `client_cpu_ms_per_move`: this process's CPU time per move (the 5 N device clients: TLS, websocket, decoding
  every frame), on the same cores as the server: when it nears the server's, the clients are what fill the
  machine, not the server;
- `server_rss_mb`: the app server's resident memory at the end; `moves`, `devices`, `moves_not_heard` (a device
  never got a frame after the move within the run), the machine's `load_average` (the figures above grow with
  it: other work on the machine delays every frame).

and `tables_within_goal`: the largest N whose p95 is within `GOAL_MS` (600 ms).

How the devices are driven (2 cores cannot run 200 Chromium pages): each device is a websocket client that
speaks Flet's protocol as the browser does (it registers on its route, `/table/<code>/seat` or `/board`,
receives every frame the server sends and answers the server's calls to the browser's storage, handing a
phone its seat token as a browser keeps it), so every session, every redraw and every frame is the real
server's, through the real proxy. The moves are not taps: a thread inside the server process (`serve` below)
calls `Table.act` with the seat's token, as the phone's tap handler does, at the pace above, and notes the time
(`time.monotonic`, one clock for every process on Linux). So the figures leave out decoding the tap's frame
and the mover's own redraw of its tap, and a move's time is its slowest device's first frame after it (past
saturation, a late frame of the move before can stand in: then the figure is a lower bound).
Bounded: loopback only, a fixed number of moves per N, timeouts everywhere.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from scorekeeper.bench.chromium import percentile
from scorekeeper.bench.fronts import available, caddy, free_port, stop, wait_answer

TABLE_COUNTS = (5, 10, 20, 40)
PHONES = 4
PACE = 2.0
"""Seconds between two moves at one table."""
MOVES_PER_TABLE = 10
GOAL_MS = 600.0
TOKEN_KEY = "scorekeeper.table.{code}"
ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------- inside the server process
def serve(port: int, data_dir: str, tables: int, info_path: str) -> None:
    """The app on 127.0.0.1:`port` with `tables` started Racko tables of PHONES seats; writes their codes and
    seat tokens to `info_path`, then moves once `info_path + ".go"` exists, writing each move's time to
    `info_path + ".moves"`."""
    from scorekeeper.server import table_runtime as rt
    from scorekeeper.server.web import serve as serve_app
    from scorekeeper.store import Store
    from scorekeeper.ui.app import ASSETS_DIR, make_main

    store = Store.open(data_dir)
    host = rt.host(store)
    made = []
    for index in range(tables):
        table = host.create(game_key(), {}, PHONES)
        tokens = [table.claim(seat, f"P{seat + 1}") for seat in range(PHONES)]
        table.start(store, seed=index)
        rt.watch(table)
        made.append((table, tokens))
    Path(info_path).write_text(json.dumps([{"code": t.code, "tokens": k} for t, k in made]))
    threading.Thread(target=_mover, args=(made, info_path), daemon=True).start()
    serve_app(
        make_main(data_dir, store=store, served=True), "127.0.0.1", port, str(ASSETS_DIR), open_browser=False
    )


def _mover(made: list[tuple[Any, list[str]]], info_path: str) -> None:
    go = Path(info_path + ".go")
    while not go.exists():
        time.sleep(0.05)
    start = time.monotonic()
    due = [(start + PACE * index / len(made), index) for index in range(len(made))]
    counts = [0] * len(made)
    rngs = [random.Random(index) for index in range(len(made))]  # the same moves in every run
    with open(info_path + ".moves", "w") as out:
        while due:
            due.sort()
            when, index = due.pop(0)
            time.sleep(max(0.0, when - time.monotonic()))
            table, tokens = made[index]
            moved_at = time.monotonic()
            _move(table, tokens, rngs[index])
            out.write(f"{table.code} {moved_at:.6f}\n")
            out.flush()
            counts[index] += 1
            if counts[index] < MOVES_PER_TABLE:
                due.append((when + PACE, index))
    Path(info_path + ".done").write_text("done")


def _move(table: Any, tokens: list[str], rng: random.Random) -> None:
    """A move a phone could make: the next round when one is over, else one of the legal actions."""
    session = table.session
    if session.round_over:
        table.next_round(0, tokens[0])
        return
    seat = session.to_act
    table.act(seat, tokens[seat], rng.choice(session.state.legal_actions()))


def game_key() -> str:
    """The first game of the registry that seats PHONES players (the registry's order: no game named here)."""
    from scorekeeper.games.spec import GAMES

    return next(game.key for game in GAMES if game.players[0] <= PHONES <= game.players[1])


# ---------------------------------------------------------------------- the devices
class Device:
    """One browser tab as the server sees it: registers on `route`, records when frames arrive, answers the
    server's calls to the browser (a phone's storage holds its seat token)."""

    def __init__(self, url: str, route: str, code: str, token: str | None) -> None:
        self.url, self.route, self.code, self.token = url, route, code, token
        self.frames: list[float] = []
        self.ready = asyncio.Event()

    def answer(self, body: dict[str, Any]) -> Any:
        args = body.get("args") or {}
        if body.get("name") == "get" and args.get("key") == TOKEN_KEY.format(code=self.code):
            return self.token
        return None

    async def run(self, stop: asyncio.Event) -> None:
        import msgpack
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        origin = self.url.rstrip("/")
        socket_url = origin.replace("https://", "wss://") + "/ws"
        page = {"route": self.route, "width": 390.0, "height": 844.0, "web": True, "platform": "android"}
        register = [1, {"session_id": None, "page_name": "", "page": page}]
        async with connect(
            socket_url, ssl=context, origin=Origin(origin), max_size=None, open_timeout=60
        ) as socket:
            await socket.send(b"\x00" + msgpack.packb(register))
            # Every frame is received and decoded, as a browser does; no timer per frame (a `wait_for` per
            # `recv` made a task and a timer for each of them, on the cores the server needs): `_drive` ends
            # the clients by cancelling them.
            while not stop.is_set():
                frame = await socket.recv()
                self.frames.append(time.monotonic())
                if isinstance(frame, bytes) and frame[:1] == b"\x00":
                    message = msgpack.unpackb(frame[1:], strict_map_key=False)
                    if message[0] == 5:  # the server calls the browser (storage, wakelock): answer
                        body = message[1]
                        reply = {"control_id": body["control_id"], "call_id": body["call_id"]}
                        reply |= {"result": self.answer(body), "error": None}
                        await socket.send(b"\x00" + msgpack.packb([5, reply]))
                if len(self.frames) >= 3:
                    self.ready.set()


async def _drive(url: str, tables: list[dict[str, Any]], info_path: str) -> dict[str, list[Device]]:
    """Connect every table's devices, wait until each has its screen, let the server move, wait for the end."""
    stop = asyncio.Event()
    devices: dict[str, list[Device]] = {}
    for table in tables:
        code = table["code"]
        devices[code] = [Device(url, f"/table/{code}/board", code, None)]
        devices[code] += [Device(url, f"/table/{code}/seat", code, token) for token in table["tokens"]]
    everyone = [device for group in devices.values() for device in group]
    tasks = []
    for device in everyone:  # a few at a time, as people arrive
        tasks.append(asyncio.create_task(device.run(stop)))
        await asyncio.sleep(0.02)
    ready = asyncio.gather(*(d.ready.wait() for d in everyone))
    waiting: list[asyncio.Future[Any]] = [ready, *tasks]
    await asyncio.wait(waiting, timeout=300, return_when=asyncio.FIRST_COMPLETED)
    failed = [task for task in tasks if task.done()]
    if failed or not ready.done():
        stop.set()
        for task in tasks:
            task.cancel()
        ready.cancel()
        problem = failed[0].exception() if failed else "not every device got its screen within 300 s"
        raise RuntimeError(f"a device could not connect: {problem}")
    await asyncio.sleep(2.0)  # first screens settle
    Path(info_path + ".go").write_text("go")
    deadline = time.monotonic() + PACE * MOVES_PER_TABLE + 120
    while not Path(info_path + ".done").exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(3.0)  # the last moves' frames
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return devices


# ---------------------------------------------------------------------- measuring
def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _caddy_pid(folder: Path) -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if command[:2] == [b"caddy", b"run"] and str(folder).encode() in b" ".join(command):
                return int(entry.name)
    return None


def one_count(tables: int) -> dict[str, Any]:
    """The figures for `tables` concurrent tables on a fresh server behind a fresh Caddy."""
    work = Path(tempfile.mkdtemp(prefix=f"scorekeeper-bench-host-{tables}-"))
    (work / "data").mkdir()
    info = str(work / "tables.json")
    port = free_port()
    env = {
        **os.environ,
        "FLET_FORCE_WEB_SERVER": "1",
        "FLET_WEB_NO_CDN": "1",
        "SCOREKEEPER_TRUSTED_PROXIES": "127.0.0.1",
        "SCOREKEEPER_SESSIONS_PER_CLIENT": "100000",  # every device comes from 127.0.0.1 here
    }
    code = (
        f"from scorekeeper.bench.host import serve; serve({port}, {str(work / 'data')!r}, {tables}, {info!r})"
    )
    log = open(work / "server.log", "wb")  # noqa: SIM115  # closed below
    server = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 120
        while not Path(info).exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        listed = json.loads(Path(info).read_text())
        wait_answer(f"http://127.0.0.1:{port}/", timeout=120)
        with caddy(port, work) as url:
            proxy = _caddy_pid(work / "caddy")
            cpu_before: dict[str, float | None] = {"server": None, "proxy": None, "client": None}

            async def measured() -> dict[str, list[Device]]:
                task = asyncio.create_task(_drive(url, listed, info))
                while not Path(info + ".go").exists() and not task.done():
                    await asyncio.sleep(0.05)
                cpu_before["server"] = _cpu_seconds(server.pid)
                cpu_before["proxy"] = _cpu_seconds(proxy) if proxy else None
                cpu_before["client"] = time.process_time()
                return await task

            devices = asyncio.run(measured())
            client_cpu = time.process_time() - (cpu_before["client"] or 0.0)
            server_cpu = _cpu_seconds(server.pid) - (cpu_before["server"] or 0.0)
            proxy_cpu = _cpu_seconds(proxy) - cpu_before["proxy"] if proxy and cpu_before["proxy"] else None
            rss = _rss_mb(server.pid)
    finally:
        stop(server, timeout=15)
        log.close()
    latencies = []
    moves = [line.split() for line in Path(info + ".moves").read_text().splitlines() if line.strip()]
    for code_moved, at in moves:
        moved_at = float(at)
        firsts = [next((t for t in d.frames if t >= moved_at), None) for d in devices[code_moved]]
        heard = [t for t in firsts if t is not None]
        if len(heard) < len(firsts):
            latencies.append(float("inf"))  # a device never heard of the move
        else:
            latencies.append((max(heard) - moved_at) * 1000)
    finite = [value for value in latencies if value != float("inf")]
    p95 = percentile(latencies, 0.95) if latencies else float("inf")
    wall = (max(float(at) for _, at in moves) - min(float(at) for _, at in moves) + PACE) if moves else 1.0
    return {
        "tables": tables,
        "devices": tables * (PHONES + 1),
        "moves": len(moves),
        "moves_not_heard": len(latencies) - len(finite),
        "move_to_all_devices_ms_median": round(statistics.median(finite), 1) if finite else None,
        # null: more than 5 % of the moves never reached every device within the run (3 s after the last move)
        "move_to_all_devices_ms_p95": round(p95, 1) if p95 != float("inf") else None,
        "server_cpu_ms_per_move": round(server_cpu * 1000 / max(1, len(moves)), 2),
        "proxy_cpu_ms_per_move": round(proxy_cpu * 1000 / max(1, len(moves)), 2) if proxy_cpu else None,
        "client_cpu_ms_per_move": round(client_cpu * 1000 / max(1, len(moves)), 2),
        "server_core_share": round(server_cpu / wall, 2),
        "server_rss_mb": round(rss, 1),
        "load_average": round(os.getloadavg()[0], 2),
    }


def run(as_json: bool = False, counts: tuple[int, ...] = TABLE_COUNTS) -> dict[str, Any]:
    if not available("caddy"):
        return {"host": {"skipped": "Debian's caddy is not installed"}}
    rows = []
    for tables in counts:
        row = one_count(tables)
        rows.append(row)
        if not as_json:
            print(f"  {tables} tables: {row}", flush=True)
    first = rows[0]["move_to_all_devices_ms_p95"] if rows else None
    for row in rows:  # against the smallest N of the same run: how the time grows with the tables
        mine = row["move_to_all_devices_ms_p95"]
        row["p95_ratio_to_first"] = round(mine / first, 2) if mine is not None and first else None
    within = [
        r["tables"]
        for r in rows
        if r["move_to_all_devices_ms_p95"] is not None and r["move_to_all_devices_ms_p95"] <= GOAL_MS
    ]
    return {
        "host": {
            "game": game_key(),
            "phones_per_table": PHONES,
            "pace_s": PACE,
            "goal_ms": GOAL_MS,
            "by_tables": rows,
            "tables_within_goal": max(within) if within else 0,
        }
    }
