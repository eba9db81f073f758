"""Sync that runs by itself (no Flet): at start, a few seconds after each save, every few minutes, and when
asked (`sync_now`). It runs on a thread of its own, so no caller ever waits for the network; a failure that
may pass (offline, a server error, a time-out) is tried again after `retry` seconds, and what went wrong is
kept in `status` for the screen to show."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from scorekeeper.store import Store
from scorekeeper.store.errors import StoreError
from scorekeeper.sync.engine import sync_once
from scorekeeper.sync.report import SyncReport
from scorekeeper.sync.target import SyncError, Target

log = logging.getLogger(__name__)

TargetSource = Callable[[], Target | None]
"""Gives the target to sync with now (None: sync is not set up), so a change in the settings applies."""


@dataclass(frozen=True)
class SyncStatus:
    running: bool = False
    done: int = 0
    total: int = 0
    last_report: SyncReport | None = None
    last_error: Exception | None = None
    """A SyncError (its sentence says what happened) or a StoreError; None after a sync that finished."""


Listener = Callable[[SyncStatus], None]


class SyncRunner:
    """Keeps one store in sync with the target `source()` gives. `start()` once; `stop()` on the way out."""

    def __init__(
        self,
        store: Store,
        source: TargetSource | Target,
        *,
        after_save: float = 5.0,
        interval: float = 300.0,
        retry: float = 60.0,
    ) -> None:
        self.store = store
        self._source: TargetSource = source if callable(source) else (lambda: source)
        self.after_save, self.interval, self.retry = after_save, interval, retry
        self._status = SyncStatus()
        self._listeners: list[Listener] = []
        self._wake = threading.Condition()
        self._due: float | None = None
        self._stopped = False
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ for the app
    @property
    def status(self) -> SyncStatus:
        return self._status

    def add_listener(self, listener: Listener) -> None:
        """`listener(status)` on the runner's thread whenever the status changes (start, progress, end)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def start(self) -> None:
        if self._thread is not None:
            return
        self.store.watch_changes(self._saved)
        self._thread = threading.Thread(target=self._loop, name="scorekeeper-sync", daemon=True)
        self._schedule(0.0)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self.store.unwatch_changes(self._saved)
        with self._wake:
            self._stopped = True
            self._wake.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def sync_now(self) -> None:
        """Sync as soon as possible (right away, or right after the sync that is running)."""
        self._schedule(0.0)

    # ------------------------------------------------------------------ inside
    def _saved(self, _kind: str, _record_id: str) -> None:
        """Any change sync carries (a match, a player, a saved digital game, an import) syncs a few seconds
        later; the sync's own writes do not."""
        if threading.current_thread() is not self._thread:  # not the sync's own writes
            self._schedule(self.after_save)

    def _schedule(self, delay: float) -> None:
        with self._wake:
            due = time.monotonic() + delay
            self._due = due if self._due is None else min(self._due, due)
            self._wake.notify_all()

    def _set(self, **changes: object) -> None:
        self._status = replace(self._status, **changes)  # type: ignore[arg-type]
        for listener in list(self._listeners):
            try:
                listener(self._status)
            except Exception:
                log.exception("a sync listener failed")

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and (self._due is None or self._due > time.monotonic()):
                    self._wake.wait(None if self._due is None else self._due - time.monotonic())
                if self._stopped:
                    return
                self._due = None
            self._schedule(self._run_once())

    def _run_once(self) -> float:
        """One sync; returns the seconds until the next one."""
        target = self._source()
        if target is None:
            return self.interval
        self._set(running=True, done=0, total=0)
        try:
            report = sync_once(self.store, target, lambda done, total: self._set(done=done, total=total))
        except SyncError as error:
            self._set(running=False, last_error=error)
            return self.retry if error.retry_later else self.interval
        except (StoreError, OSError) as error:
            self._set(running=False, last_error=error)
            return self.interval
        except Exception as error:  # a fault of ours must not end automatic sync for the session
            log.exception("sync failed")
            self._set(running=False, last_error=error)
            return self.interval
        self._set(running=False, last_report=report, last_error=None)
        return self.interval
