"""The app's sync, one per process like the live tables: the SyncRunner of the data folder, started when
Settings names a target (and at every app start while one is named), and how its news reaches the screens:

- Settings redraws its sync status on the pubsub topic `sync` (progress during a sync, then when it finished
  and what it brought, or the reason it failed);
- a screen showing a match that a sync changed redraws on the match's own topic (`match_io.TOPIC`), as it does
  for a change from another session of this server; lists redraw on `sync:changed`.

The target is saved in the settings as `sync_target` = {"address", "user"}; the password is kept by
`scorekeeper.sync.credentials`, never in the data folder.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.sync import credentials
from scorekeeper.sync.target import SyncError, Target

log = logging.getLogger(__name__)

TARGET_KEY = "sync_target"
TOPIC = "sync"
CHANGED_TOPIC = "sync:changed"
MATCH_TOPIC = "match:{id}"  # = match_io.TOPIC (not imported: this module stays free of the views)


@dataclass(frozen=True)
class TargetSetting:
    """Where this device syncs to, as saved in the settings (never the password)."""

    address: str
    user: str = ""

    @property
    def webdav(self) -> bool:
        from scorekeeper.sync.webdav import is_webdav_address

        return is_webdav_address(self.address)

    def as_saved(self) -> dict[str, str]:
        return {"address": self.address, "user": self.user}


def saved_target(settings: Any) -> TargetSetting | None:
    """The target named in the settings, or None (none set, or something unreadable there)."""
    found = settings.get(TARGET_KEY) if isinstance(settings, dict) else None
    if not isinstance(found, dict):
        return None
    address, user = found.get("address"), found.get("user", "")
    if not isinstance(address, str) or not address.strip() or not isinstance(user, str):
        return None
    return TargetSetting(address.strip(), user.strip())


def make_target(setting: TargetSetting, password: str | None = None) -> Target:
    """The folder or WebDAV target the setting names (a WebDAV password from the vault unless given)."""
    from scorekeeper.sync.targets import target_from

    if setting.webdav and password is None:
        password = credentials.vault().get(setting.address, setting.user) or ""
    return target_from(setting.address, setting.user, password or "")


def check_target(setting: TargetSetting, password: str | None = None) -> SyncError | None:
    """Test the connection: None when the target can be read and written, else the reason."""
    target: Any = None
    try:
        target = make_target(setting, password)
        target.check()
    except SyncError as error:
        return error
    finally:
        close = getattr(target, "close", None)
        if callable(close):
            close()
    return None


@dataclass
class SyncStatus:
    """What Settings shows about this device's sync."""

    running: bool = False
    done: int = 0
    total: int = 0
    finished: float | None = None  # when the last sync finished (epoch seconds)
    new: int = 0  # what the last finished sync brought
    changed: int = 0
    conflicts: int = 0
    error: SyncError | None = None  # why the last sync failed (None: it did not)
    changed_ids: set[str] = field(default_factory=set)


class AppSync:
    """The sync of one store in this process: starts and stops the runner, keeps its status, tells the screens."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.runner: Any = None
        self.target: TargetSetting | None = None
        self.status = SyncStatus()
        self._pubsub: Any = None
        self._lock = threading.RLock()
        watch = getattr(store, "watch_matches", None)
        if callable(watch):
            watch(self._match_changed)

    # ------------------------------------------------------------ the runner
    def remember(self, pubsub: Any) -> None:
        """Keep a live session's pubsub client: the runner's news is sent through it to every session."""
        self._pubsub = pubsub

    def apply(self, settings: Any) -> None:
        """Run the runner for the target the settings name (a new one replaces the old; none stops it)."""
        setting = saved_target(settings)
        with self._lock:
            if setting == self.target and (self.runner is not None or setting is None):
                return
            self.stop()
            self.target = setting
            self.status = SyncStatus()
            if setting is not None:
                # off the caller's thread: the keyring may take a moment, and a screen must never wait for it
                threading.Thread(target=self._start, args=(setting,), daemon=True, name="sync-start").start()
        self._send(TOPIC)

    def _start(self, setting: TargetSetting) -> None:
        from scorekeeper.sync.runner import SyncRunner

        try:
            target = make_target(setting)
        except SyncError as error:
            self._failed(error)
            return
        with self._lock:
            if self.target != setting or self.runner is not None:
                return  # changed again meanwhile
            self.runner = SyncRunner(self.store, target, listener=self._heard)
            self.runner.start()

    def stop(self) -> None:
        with self._lock:
            runner, self.runner = self.runner, None
        if runner is not None:
            runner.stop()

    def sync_now(self) -> bool:
        """Ask for a sync at once; False when no target is set."""
        with self._lock:
            runner = self.runner
        if runner is None:
            return False
        runner.sync_now()
        return True

    # ------------------------------------------------------------ news
    def _heard(self, runner_status: Any) -> None:
        """The runner's listener (its thread): keep what Settings shows, tell the screens."""
        shown = status_from(runner_status, self.status)
        brought = shown.changed_ids
        shown.changed_ids = set()
        self.status = shown
        self._send(TOPIC)
        if brought:
            self._send(CHANGED_TOPIC)

    def _failed(self, error: SyncError) -> None:
        self.status = SyncStatus(error=error, finished=time.time())
        self._send(TOPIC)

    def _match_changed(self, match_id: str) -> None:
        """A store change made by the sync (on the runner's thread) redraws the screens showing that match."""
        if self.runner is not None and threading.current_thread() is getattr(
            self.runner, "thread", self.runner
        ):
            self.status.changed_ids.add(match_id)
            self._send(MATCH_TOPIC.format(id=match_id))

    def _send(self, topic: str) -> None:
        pubsub = self._pubsub
        if pubsub is None:
            return
        try:
            pubsub.send_all_on_topic(topic, topic)
        except Exception:  # a closed session's client: the next session brings a new one
            log.info("could not tell the screens about the sync")


def status_from(runner_status: Any, before: SyncStatus) -> SyncStatus:
    """The runner's status as Settings shows it."""
    report = getattr(runner_status, "report", None)
    error = getattr(runner_status, "error", None)
    return SyncStatus(
        running=bool(getattr(runner_status, "running", False)),
        done=int(getattr(runner_status, "done", 0) or 0),
        total=int(getattr(runner_status, "total", 0) or 0),
        finished=getattr(runner_status, "finished", None) or before.finished,
        new=int(getattr(report, "new", before.new) or 0) if report is not None else before.new,
        changed=int(getattr(report, "changed", before.changed) or 0)
        if report is not None
        else before.changed,
        conflicts=int(getattr(report, "conflicts", 0) or 0) if report is not None else before.conflicts,
        error=error if isinstance(error, SyncError) else None,
        changed_ids=before.changed_ids,
    )


_apps: dict[int, AppSync] = {}
_apps_lock = threading.Lock()


def for_store(store: Any) -> AppSync:
    """The sync of this store (made once per store and process)."""
    with _apps_lock:
        app = _apps.get(id(store))
        if app is None or app.store is not store:
            app = _apps[id(store)] = AppSync(store)
        return app


def forget(store: Any) -> None:
    """Stop and drop the sync of a store (tests, a closed store)."""
    with _apps_lock:
        app = _apps.pop(id(store), None)
    if app is not None:
        app.stop()
