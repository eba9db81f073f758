"""Where the server's time of one "Save round" goes: the app's real save handler driven in process on a Flet
session whose connection encodes every message as Flet's web server does (msgpack) but keeps it, with the spans
the code marks (`scorekeeper.spans`) collected per save.

`save_server_ms` is the median whole handler (from the tap's event reaching the app to the patch encoded for
the socket); `save_server_spans_ms` the median of each part: `save.form` (the form's answer), `save.rules` (the
match with the round, checked by the game's rules), `save.store` (all of the store: `store.check`, `store.read`,
`store.history` (undo), `store.write` (the match file, with `disk.encode` and `disk.fsync` inside),
`store.index`, `store.tell` (the live table and other listeners)), `save.broadcast` (other sessions),
`view.build` (the scoreboard built), `view.patch` (Flet's diff and sending, `patch.encode` inside);
`save_patch_bytes` the bytes sent. Rounds 1..SAVES of a fresh two-player Racko game, as `bench ui` saves them.
`save_server_cpu_ms` is the median processor time of the whole handler (this thread's, so waiting for the disk
is not in it): unlike the times above it hardly moves when other work shares the machine, so it compares two
versions measured on a busy machine.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

SAVES = 7


def _session(data_dir: Path) -> tuple[Any, Any, Any, list[int]]:
    import flet as ft
    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.connection import Connection
    from flet.messaging.protocol import Message, MessageAction, configure_encode_object_for_msgpack
    from flet.messaging.session import Session
    from flet.pubsub.pubsub_hub import PubSubHub

    from scorekeeper.spans import span
    from scorekeeper.store import Store
    from scorekeeper.ui.app import make_main

    sent: list[int] = []

    class Encoding(Connection):
        def __init__(self) -> None:
            super().__init__()
            self.loop = asyncio.new_event_loop()
            self.executor = ThreadPoolExecutor(max_workers=1)
            self.pubsubhub = PubSubHub(self.loop, self.executor)

        def send_message(self, message: Any) -> None:
            with span("patch.encode"):
                body = msgpack.packb(
                    [getattr(message.action, "value", message.action), message.body],
                    default=configure_encode_object_for_msgpack(BaseControl),
                )
            sent.append(len(body))

    session = Session(Encoding())
    page: ft.Page = session.page
    session.apply_page_patch({"route": "/", "width": 390, "height": 844})
    session.connection.send_message(Message(MessageAction.REGISTER_CLIENT, session.get_page_patch()))
    store = Store.open(data_dir)
    make_main(store=store)(page)
    return session, page, store, sent  # the page holds its session weakly: keep it


def _find(page: Any, identifier: str) -> Any:
    import flet as ft

    def walk(control: Any) -> Any:
        if isinstance(control, ft.Semantics) and control.identifier == identifier:
            content = control.content
            while isinstance(content, ft.Semantics) and content.identifier is None:
                content = content.content
            return content
        if not dataclasses.is_dataclass(control):
            return None
        for f in dataclasses.fields(control):
            if f.name.startswith("_") or f.name == "parent":
                continue
            value = getattr(control, f.name, None)
            for child in value if isinstance(value, list | tuple) else [value]:
                found = walk(child) if dataclasses.is_dataclass(child) else None
                if found is not None:
                    return found
        return None

    found = walk(page.views[-1])
    if found is None:
        raise LookupError(identifier)
    return found


def _tap(page: Any, identifier: str) -> None:
    control = _find(page, identifier)
    control.on_click(SimpleNamespace(control=control, data=None))


def _close(session: Any) -> None:
    """Close the session's loop. What the app scheduled on it (the wake lock, the address bar's history entry)
    never runs here: nothing drives the loop and no browser would answer. So it is cancelled, not left to be
    collected unrun (Python then warns of a coroutine never awaited, in whatever code runs at that moment). On a
    thread of its own: the caller's thread may have a loop running (Playwright's sync API keeps one registered)."""
    connection = session.connection

    async def cancel_all() -> None:
        await asyncio.sleep(0)  # the work handed over by `page.run_task` becomes tasks
        tasks = asyncio.all_tasks() - {asyncio.current_task()}
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(connection.loop.run_until_complete, cancel_all()).result()
    connection.loop.close()
    connection.executor.shutdown(wait=False)


def measure(saves: int = SAVES) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-spans-"))
    try:
        return _measure(data_dir, saves)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def seed_match(data_dir: str) -> str:
    """A Racko game of two with a far target, so rounds can be saved again and again."""
    from scorekeeper.games.racko.spec import SPEC as RACKO
    from scorekeeper.model.match import Match
    from scorekeeper.store import Store

    store = Store.open(data_dir)
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    # Without the 2-player rule the quick form asks no run of the caller: one round is three taps.
    match = Match.new(RACKO.key, {"target": 100_000, "two_player_rule": False}, ids, names=["Anna", "Ben"])
    store.save_match(evening_of(store, match, 0))
    store.close()
    return match.id


PLACES = ("Anna's kitchen", "Club", "Ben's garden", "Holiday flat", "Café Central")
NOTES = "Ben's birthday. Blitz next time; Cleo watched and wants to join."


def bench_photo(store: Any) -> str:
    """One photo added the way the app adds one (scaled, with its thumbnail); its id."""
    from PIL import Image

    picture = io.BytesIO()
    Image.new("RGB", (1200, 900), (40, 120, 80)).save(picture, "JPEG")
    return str(store.photos.add(picture.getvalue()))


def evening_of(store: Any, match: Any, number: int, photo: str | None = None) -> Any:
    """`match` with what a game night gives it (issue 42): notes, a place and a photo (`photo`: the id of one
    already stored, else a new one), so the benches measure saves and lists with them."""
    photo = photo or bench_photo(store)
    return dataclasses.replace(match, notes=NOTES, place=PLACES[number % len(PLACES)], photos=[photo])


def _measure(data_dir: Path, saves: int) -> dict[str, Any]:
    from scorekeeper.spans import medians_ms, recording, totals_ms

    match_id = seed_match(str(data_dir))
    session, page, store, sent = _session(data_dir)
    page.data.navigate(f"/match/{match_id}/round")
    wholes: list[float] = []
    cpu: list[float] = []
    parts: list[dict[str, float]] = []
    sizes: list[int] = []
    for _ in range(saves):
        for identifier in ("mode-quick", "caller-0", "count-1-3"):
            _tap(page, identifier)
        count = len(sent)
        save = _find(page, "save-round")  # found before the clock starts: the browser names its target
        with recording() as spans:
            start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
            save.on_click(SimpleNamespace(control=save, data=None))
            wholes.append((time.perf_counter_ns() - start) / 1e6)
            cpu.append((time.thread_time_ns() - start_cpu) / 1e6)
        parts.append(totals_ms(spans))
        sizes.append(sum(sent[count:]))
        _tap(page, "enter-round")
    store.close()
    _close(session)
    return {
        "save_server_ms": round(statistics.median(wholes), 3),
        "save_server_ms_all": [round(t, 2) for t in wholes],
        "save_server_cpu_ms": round(statistics.median(cpu), 3),
        "save_server_spans_ms": medians_ms(parts),
        "save_patch_bytes": int(statistics.median(sizes)),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=1))
