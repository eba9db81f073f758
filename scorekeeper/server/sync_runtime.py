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

import json
import logging
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.sync import credentials
from scorekeeper.sync.dav_fetch import DavClient
from scorekeeper.sync.fetch_runner import FetchRunner
from scorekeeper.sync.report import SyncReport
from scorekeeper.sync.runner import SyncRunner
from scorekeeper.sync.runner import SyncStatus as RunnerStatus
from scorekeeper.sync.target import SyncError, Target

if TYPE_CHECKING:
    from scorekeeper.store import Store

log = logging.getLogger(__name__)

TARGET_KEY = "sync_target"
TOPIC = "sync"
CHANGED_TOPIC = "sync:changed"
MATCH_TOPIC = "match:{id}"  # = match_io.TOPIC (not imported: this module stays free of the views)


@dataclass(frozen=True)
class TargetSetting:
    """Where this device syncs to, as saved in the settings (never the password). `hub`: the owner's own
    server (its address; the device token from pairing is the secret), which the static build syncs with."""

    address: str
    user: str = ""
    hub: bool = False

    @property
    def webdav(self) -> bool:
        from scorekeeper.sync.dav_fetch import is_http_address

        return is_http_address(self.address)

    def as_saved(self) -> dict[str, Any]:
        saved: dict[str, Any] = {"address": self.address, "user": self.user}
        return saved | {"hub": True} if self.hub else saved


def saved_target(settings: Any) -> TargetSetting | None:
    """The target named in the settings, or None (none set, or something unreadable there)."""
    found = settings.get(TARGET_KEY) if isinstance(settings, dict) else None
    if not isinstance(found, dict):
        return None
    address, user = found.get("address"), found.get("user", "")
    if not isinstance(address, str) or not address.strip() or not isinstance(user, str):
        return None
    return TargetSetting(address.strip(), user.strip(), found.get("hub") is True)


def hub_target(store: Any) -> TargetSetting | None:
    """The owner's own hub folder while the hub is on (server/dav_hub.py: used when no other target is set);
    another device's news on the hub then asks this store's sync to run at once."""
    if IN_BROWSER:  # a browser serves no hub
        return None
    from scorekeeper.server import dav_hub

    folder = dav_hub.hub_of(store, lambda alive: (app := running_for(alive)) is not None and app.sync_now())
    return TargetSetting(str(folder), "") if folder is not None else None


def make_target(setting: TargetSetting, password: str | None = None) -> Target:
    """The folder or WebDAV target the setting names (a WebDAV password from the vault unless given)."""
    from scorekeeper.sync.targets import target_from

    if setting.webdav and password is None:
        password = credentials.vault().get(setting.address, setting.user) or ""
    return target_from(setting.address, setting.user, password or "")


def make_client(setting: TargetSetting, password: str | None = None) -> DavClient:
    """The static build's WebDAV folder for the setting: the server's address with user and password, or the
    owner's server (`hub`) with the device token; reached with the browser's fetch."""
    from scorekeeper.sync import dav_fetch, fetch_js

    if password is None:
        password = credentials.vault().get(setting.address, setting.user) or ""
    if setting.hub:
        url, auth = dav_fetch.hub_url(setting.address), f"Bearer {password}"
    else:
        url, auth = dav_fetch.dav_url(setting.address), dav_fetch.basic_auth(setting.user, password)
    return dav_fetch.DavClient(url, fetch_js.browser_fetch, auth, setting.hub, fetch_js.origin())


async def check_client(setting: TargetSetting, password: str | None = None) -> SyncError | None:
    """`check_target` in the static build (awaited: the browser's fetch)."""
    try:
        await make_client(setting, password).check()
    except SyncError as error:
        return error
    return None


def check_target(setting: TargetSetting, password: str | None = None) -> SyncError | None:
    """Test the connection: None when the target can be read and written, else the reason."""
    target: Any = None
    try:
        target = make_target(setting, password)
        target.check()
    except SyncError as error:
        return error
    finally:
        _close(target)
    return None


def _close(target: Any) -> None:
    """Close a WebDAV target's client and its kept connections (a folder has nothing to close)."""
    close = getattr(target, "close", None)
    if callable(close):
        try:
            close()
        except Exception:
            log.info("could not close the sync target's connections")


@dataclass
class SyncStatus:
    """What Settings shows about this device's sync."""

    running: bool = False
    done: int = 0
    total: int = 0
    report: SyncReport | None = None  # what the last finished sync brought, and when it finished
    error: Exception | None = None  # why the last sync failed (None: it did not)
    news: SyncReport | None = None  # the last report that brought something (a later one may bring nothing)


INTERVAL_ENV = "SCOREKEEPER_SYNC_INTERVAL"
"""Seconds between automatic syncs while the app is open (the runner's few minutes by default; the tests and
the benchmark use a few seconds)."""


def runner_options() -> dict[str, float]:
    """The runner's timing from the environment (an unreadable or non-positive value keeps the default)."""
    try:
        interval = float(os.environ.get(INTERVAL_ENV, ""))
    except ValueError:
        return {}
    return {"interval": interval, "retry": min(interval, 60.0)} if interval > 0 else {}


SYNC_THREAD = "scorekeeper-sync"
"""The runner's thread: a store change made there came from another device."""


class AppSync:
    """The sync of one store in this process: runs the runner while a target is set, keeps its status for
    Settings, and tells the screens what changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.runner: SyncRunner | FetchRunner | None = None
        self.setting: TargetSetting | None = None
        self._target: Target | None = None
        self._retired: list[Target] = []
        """Targets replaced by a new setting: closed by the runner's thread before its next sync (one of them
        may still be in use by the sync running now), or when sync stops."""
        self._pubsub: Any = None
        self._local: dict[tuple[str, str], Callable[[], None]] = {}
        self._lock = threading.RLock()
        report, news = last_known(store)  # what Settings showed before the app was closed
        self.status = SyncStatus(report=report, news=news)
        watch = getattr(store, "watch_matches", None)
        if callable(watch):
            watch(self._match_changed)

    def remember(self, pubsub: Any) -> None:
        """Keep a live session's pubsub client: the runner's news is sent through it to every session."""
        self._pubsub = pubsub

    def apply(self, settings: Any, *, renew: bool = False) -> None:
        """Sync with the target the settings name from now on (none: the runner stops). `renew`: the target
        was saved again (a new password, perhaps): made anew and synced at once."""
        setting = saved_target(settings) or hub_target(self.store)
        with self._lock:
            changed = renew or setting != self.setting
            if changed:
                if self._target is not None:
                    self._retired.append(self._target)
                if renew or self.setting is not None or setting is None:
                    self.status = SyncStatus()  # (at start, what the last run of the app saw stays shown)
                self.setting, self._target = setting, None
            if setting is None:
                self.stop()
            elif self.runner is None:
                self.runner = self._new_runner()
                self.runner.add_listener(self._heard)
                self.runner.start()  # its first sync starts at once
            elif changed:
                self.runner.sync_now()
        if changed:
            self._send(TOPIC)

    def _new_runner(self) -> SyncRunner | FetchRunner:
        """A thread where Python has threads; in the browser a task of the event loop (sync/fetch_runner.py)."""
        if not IN_BROWSER:
            return SyncRunner(self.store, self._current_target, **runner_options())
        from scorekeeper.sync import fetch_js

        runner = FetchRunner(self.store, self._current_client, online=fetch_js.online, **runner_options())
        fetch_js.when_online(runner.sync_now)
        return runner

    def _current_client(self) -> DavClient | None:
        """The FetchRunner's source: the setting's WebDAV folder, made anew for each sync (a new password
        applies at once; nothing to close)."""
        with self._lock:
            setting = self.setting
        return make_client(setting) if setting is not None and (setting.webdav or setting.hub) else None

    def _current_target(self) -> Target | None:
        """The runner's source (its thread: the keyring and the network never hold up a screen)."""
        with self._lock:
            setting, target = self.setting, self._target
            retired, self._retired = self._retired, []
        for old in retired:  # no sync uses them now: this thread is the one that syncs
            _close(old)
        if setting is None:
            return None
        if target is None:
            target = make_target(setting)
            with self._lock:
                if self.setting == setting and self._target is None:
                    self._target = target
                else:  # the setting changed meanwhile: this one syncs once, then goes
                    self._retired.append(target)
        return target

    def stop(self) -> None:
        with self._lock:
            runner, self.runner = self.runner, None
        if runner is not None:
            runner.remove_listener(self._heard)
            runner.stop()
        with self._lock:
            if self.runner is not None:  # started again meanwhile: its targets are in use
                return
            done, self._retired = self._retired, []
            if self._target is not None:
                done.append(self._target)
                self._target = None
        for target in done:  # the runner's thread has ended (or its sync fails at once: it was stopping)
            _close(target)

    def sync_now(self) -> bool:
        """Ask for a sync at once; False when no target is set."""
        with self._lock:
            runner = self.runner
        if runner is None:
            return False
        runner.sync_now()
        return True

    def _heard(self, status: RunnerStatus) -> None:
        """The runner's listener (its thread): keep what Settings shows, tell the screens."""
        before = self.status
        report = status.last_report
        fresh = report is not None and report is not before.report
        brought = fresh and report is not None and report.brought
        self.status = SyncStatus(
            running=status.running,
            done=status.done,
            total=status.total,
            report=report or before.report,
            error=status.last_error,
            news=report if brought else before.news,
        )
        if fresh:
            keep_last(self.store, self.status)
        self._send(TOPIC)
        if brought:
            self._send(CHANGED_TOPIC)

    def _match_changed(self, match_id: str) -> None:
        """A store change made by the sync (on the runner's thread) redraws the screens showing that match."""
        runner = self.runner
        if threading.current_thread().name == SYNC_THREAD or (
            isinstance(runner, FetchRunner) and runner.in_engine
        ):
            self._send(MATCH_TOPIC.format(id=match_id))

    def listen(self, key: str, topic: str, call: Callable[[], None]) -> None:
        """Where Flet's pubsub does not run (the static build: its hub has no event loop there), `call()` on
        the event loop's thread when the news on `topic` comes; one per `key` (a screen built again replaces
        its own)."""
        self._local[(key, topic)] = call

    def _send(self, topic: str) -> None:
        for (_key, wanted), call in list(self._local.items()):
            if wanted == topic:
                try:
                    call()
                except Exception:  # a screen that is gone
                    log.info("could not tell a screen about the sync")
        pubsub = self._pubsub
        if pubsub is None or IN_BROWSER:
            return
        try:
            pubsub.send_all_on_topic(topic, topic)
        except Exception:  # a closed session's client: the next session brings a new one
            log.info("could not tell the screens about the sync")


LAST_FILE = "last.json"
"""In the data folder's sync/ (this device's, never synced): when the last sync finished and what it brought,
and the last one that brought something, so Settings shows them after a restart too."""
_COUNTS = ("new", "changed", "deleted", "conflicts", "sent", "players", "digital")
_LATER_COUNTS = ("players", "digital")  # not in a file kept by an earlier version: 0 then


def keep_last(store: Store, status: SyncStatus) -> None:
    """Remember the status's reports (their counts and time; skipped-file messages are for the moment)."""
    doc = {name: _counts(report) for name, report in (("report", status.report), ("news", status.news))}
    try:
        from scorekeeper.store.storage import atomic_write_bytes, dumps

        atomic_write_bytes(Path(store.data_dir) / "sync" / LAST_FILE, dumps(doc))
    except (
        OSError,
        AttributeError,
        TypeError,
        ValueError,
    ):  # read-only, a stand-in store: shown until closed
        log.info("could not keep the last sync's outcome")


def last_known(store: Store) -> tuple[SyncReport | None, SyncReport | None]:
    """The reports `keep_last` kept (None for each that is missing or unreadable)."""
    try:
        doc = json.loads((Path(store.data_dir) / "sync" / LAST_FILE).read_bytes())
    except (OSError, ValueError, AttributeError, TypeError):
        return None, None
    if not isinstance(doc, dict):
        return None, None
    return _report(doc.get("report")), _report(doc.get("news"))


def _counts(report: SyncReport | None) -> dict[str, Any] | None:
    if report is None:
        return None
    return {**{name: getattr(report, name) for name in _COUNTS}, "finished": report.finished}


def _report(found: Any) -> SyncReport | None:
    if not isinstance(found, dict) or not isinstance(found.get("finished"), str):
        return None
    counts: dict[str, Any] = {name: found.get(name, 0 if name in _LATER_COUNTS else None) for name in _COUNTS}
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values()):
        return None
    return SyncReport(**counts, finished=found["finished"])


# Weak: the store keeps its AppSync alive (it listens to the store), nothing here keeps a closed store.
_apps: weakref.WeakValueDictionary[int, AppSync] = weakref.WeakValueDictionary()
_apps_lock = threading.Lock()


def for_store(store: Store) -> AppSync:
    """The sync of this store (made once per store and process)."""
    with _apps_lock:
        app = _apps.get(id(store))
        if app is None or app.store is not store:
            app = AppSync(store)
            _apps[id(store)] = app
        return app


def running_for(store: Store) -> AppSync | None:
    """The sync of this store if one was made (None: nothing to tell or stop)."""
    with _apps_lock:
        app = _apps.get(id(store))
        return app if app is not None and app.store is store else None


def forget(store: Store) -> None:
    """Stop and drop the sync of a store (tests, a closed store)."""
    with _apps_lock:
        app = _apps.pop(id(store), None)
    if app is not None:
        app.stop()
