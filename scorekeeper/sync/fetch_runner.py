"""Sync that runs by itself where Python has no threads (the static build): `SyncRunner`'s twin as a task on the
event loop. The same times and the same status: at start, `after_save` seconds after a save, every `interval`
seconds, when asked (`sync_now`), and when the browser comes back online; a failure that may pass is tried
again after `retry` seconds. While the browser is offline no request is made and the status says so.

Nothing waits for the network but the task itself: the fetching and the pushing are awaited (the screens go on
between two requests), only the engine's run in memory (sync/fetched.py) is synchronous. A save never waits
for a sync either: it is written to the data folder (and IndexedDB) first, and only later read by a sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import replace

from scorekeeper.store import Store
from scorekeeper.store.errors import StoreError
from scorekeeper.sync.dav_fetch import DavClient
from scorekeeper.sync.fetched import Remote, sync_fetched
from scorekeeper.sync.runner import Listener, SyncStatus
from scorekeeper.sync.target import SyncError

log = logging.getLogger(__name__)

ClientSource = Callable[[], DavClient | None]


class FetchRunner:
    """Keeps one store in sync with the WebDAV folder `source()` gives (None: not set up)."""

    def __init__(
        self,
        store: Store,
        source: ClientSource,
        *,
        after_save: float = 5.0,
        interval: float = 300.0,
        retry: float = 60.0,
        online: Callable[[], bool] = lambda: True,
    ) -> None:
        self.store, self._source, self._online = store, source, online
        self.after_save, self.interval, self.retry = after_save, interval, retry
        self._status = SyncStatus()
        self._listeners: list[Listener] = []
        self._remote = Remote()
        self._remote_for = ""
        self._timer: asyncio.TimerHandle | None = None
        self._due: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._in_engine = False
        self._stopped = False

    @property
    def status(self) -> SyncStatus:
        return self._status

    @property
    def in_engine(self) -> bool:
        """The engine runs now: a store change now is the sync's own (from another device)."""
        return self._in_engine

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def start(self) -> None:
        self.store.watch_changes(self._saved)
        self._schedule(0.0)

    def stop(self, timeout: float = 0.0) -> None:
        self._stopped = True
        self.store.unwatch_changes(self._saved)
        if self._timer is not None:
            self._timer.cancel()

    def sync_now(self) -> None:
        self._schedule(0.0)

    # ------------------------------------------------------------------ inside
    def _saved(self, _kind: str, _record_id: str) -> None:
        if not self._in_engine:  # not the sync's own writes
            self._schedule(self.after_save)

    def _schedule(self, delay: float) -> None:
        if self._stopped:
            return
        loop = asyncio.get_event_loop()
        due = loop.time() + delay
        if self._timer is not None and self._due is not None and self._due <= due:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._due = due
        self._timer = loop.call_later(delay, self._kick)

    def _kick(self) -> None:
        self._timer, self._due = None, None
        if self._task is not None and not self._task.done():
            self._again = True  # right after the sync that runs
            return
        self._task = asyncio.ensure_future(self._run())

    def _set(self, **changes: object) -> None:
        self._status = replace(self._status, **changes)  # type: ignore[arg-type]
        for listener in list(self._listeners):
            try:
                listener(self._status)
            except Exception:
                log.exception("a sync listener failed")

    def _engine(self, running: bool) -> None:
        self._in_engine = running

    async def _run(self) -> None:
        self._again = False
        client = self._source()
        if client is None:
            self._schedule(self.interval)
            return
        if not self._online():
            self._set(running=False, last_error=SyncError("offline", client.name, "the browser is offline"))
            self._schedule(self.retry)
            return
        if client.url != self._remote_for:  # another target: nothing held of the last one applies
            self._remote, self._remote_for = Remote(), client.url
        self._set(running=True, done=0, total=0)
        delay = self.interval
        try:
            report = await sync_fetched(
                self.store,
                client,
                self._remote,
                lambda done, total: self._set(done=done, total=total),
                self._engine,
            )
        except SyncError as error:
            self._set(running=False, last_error=error)
            delay = self.retry if error.retry_later else self.interval
        except (StoreError, OSError) as error:
            self._set(running=False, last_error=error)
        except Exception as error:  # a fault of ours must not end automatic sync for the session
            log.exception("sync failed")
            self._set(running=False, last_error=error)
        else:
            self._set(running=False, last_report=report, last_error=None)
        self._schedule(0.0 if self._again else delay)
