"""Who is told about a change to the player's data: a list of listeners, each called with the kind of record
("match", "player", "digital", or "import" for a whole import) and its id, after the write and outside the
store's lock. Sync schedules its next run from this; a listener that fails never fails the change."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[str, str], None]


class Watchers:
    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def watch(self, listener: Listener) -> None:
        if listener not in self.listeners:
            self.listeners.append(listener)

    def unwatch(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)

    def tell(self, kind: str, record_id: str) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, record_id)
            except Exception:
                log.exception("a listener to the store's changes failed")
