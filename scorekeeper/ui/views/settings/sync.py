"""Settings, "Sync" (owner devices only, like export): a folder that a sync tool keeps in step, or a WebDAV address
with user name and (app) password; "Test connection" answers in the target's own words (wrong password, server
not found, ...); "Sync now"; when the last sync finished and what it brought, or why it failed; progress while
a sync runs; the other devices seen on the target with their app versions, when each last synced, and which of
them (or this one) needs an update.

Nothing here waits for the network on the screen's thread: the test runs on a thread of its own, the sync on
the runner's (`sync_runtime`), and the status box is refilled in place when the runner's news arrives on the
pubsub topic `sync` (the fields keep what is typed meanwhile).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.release import FIRST_RELEASE, VERSION
from scorekeeper.server import permissions
from scorekeeper.server import sync_runtime as rt
from scorekeeper.sync import credentials
from scorekeeper.sync.devices import DeviceSeen, devices_seen
from scorekeeper.sync.report import SyncReport
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import revealable, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.settings import sync_static
from scorekeeper.ui.views.settings.owner import when


@dataclass
class SyncForm:
    """This session's sync form: what is typed but not saved yet, and the last connection test's answer."""

    address: str | None = None  # None: show the saved one
    user: str | None = None
    password: str = ""
    tested: tuple[bool, Exception | None] | None = None
    """The last "Test connection": (done, its failure or None); kept untranslated, so a language change applies."""
    hub: bool | None = None
    """The static build's choice of the owner's own server (None: as saved; sync_static.py)."""
    started: bool = False
    """Sync was turned on here: the status box says so until a sync has finished (a snack bar there covered the
    progress bar on a phone)."""


_forms: dict[int, SyncForm] = {}


def form_of(ctx: AppContext) -> SyncForm:
    """The session's form (dropped with its context)."""
    key = id(ctx)
    form = _forms.get(key)
    if form is None:
        form = _forms[key] = SyncForm()
        weakref.finalize(ctx, _forms.pop, key, None)
    return form


def brought_text(ctx: AppContext, report: SyncReport) -> str:
    """What a sync brought: "3 new games, 1 changed", or that it brought nothing (the report's own words)."""
    return ctx.describe(report.summary)


def finished_at(report: SyncReport) -> float | None:
    """When the sync finished (the report keeps an ISO time in UTC), as epoch seconds."""
    return finished_at_text(report.finished)


def status_rows(ctx: AppContext, status: rt.SyncStatus, *, started: bool = False) -> list[ft.Control]:
    """The status box's content: progress while a sync runs, else the last sync's outcome or failure; above
    them, until the first sync has finished, that sync was just turned on (`started`)."""
    rows = _status_rows(ctx, status)
    if started and status.report is None:
        rows.insert(0, tag("sync-started", ft.Text(ctx.t("Sync is on. The first sync starts now."))))
    return rows


def _status_rows(ctx: AppContext, status: rt.SyncStatus) -> list[ft.Control]:
    if status.running:
        label = (
            ctx.t("Syncing… {done} of {total}", done=status.done, total=status.total)
            if status.total
            else ctx.t("Syncing…")
        )
        bar = ft.ProgressBar(value=status.done / status.total if status.total else None, width=280)
        return [tag("sync-progress", ft.Column([ft.Text(label), bar], tight=True))]
    rows: list[ft.Control] = []
    if status.error is not None:
        rows.append(tag("sync-error", ft.Text(ctx.describe(status.error), color=ft.Colors.ERROR)))
    report = status.report
    finished = finished_at(report) if report is not None else None
    if report is not None and finished is not None and status.error is None:
        text = ctx.t(
            "Last sync: {when}. {brought}", when=when(ctx, finished), brought=brought_text(ctx, report)
        )
        rows.append(tag("sync-last", ft.Text(text)))
        news = status.news
        if news is not None and news is not report and (news_at := finished_at(news)) is not None:
            earlier = ctx.t(
                "Last changes from other devices: {when}, {brought}",
                when=when(ctx, news_at),
                brought=brought_text(ctx, news),
            )
            rows.append(tag("sync-news", ft.Text(earlier, size=13)))
        rows.extend(
            tag(f"sync-note-{i}", ft.Text(ctx.describe(m), size=13)) for i, m in enumerate(report.notes)
        )
        rows.extend(
            tag(f"sync-skipped-{i}", ft.Text(ctx.describe(m), size=12)) for i, m in enumerate(report.skipped)
        )
    if not rows:
        rows.append(tag("sync-last", ft.Text(ctx.t("Not synced yet."))))
    return rows


def device_rows(ctx: AppContext, seen: list[DeviceSeen]) -> list[ft.Control]:
    """The other devices seen on the target: name, app version, last sync, and who needs an update."""
    if not seen:
        return []
    rows: list[ft.Control] = [
        ft.Text(ctx.t("Devices seen on the target (this one runs {version})", version=VERSION), size=13)
    ]
    for i, device in enumerate(seen):
        version = device.app or ctx.t("a version before {version}", version=FIRST_RELEASE)
        at = finished_at_text(device.at)
        details = (
            ctx.t("{version}, last synced {when}", version=version, when=when(ctx, at))
            if at is not None
            else version
        )
        line: list[ft.Control] = [ft.Text(f"{device.name}: {details}", size=13)]
        if device.outdated:
            line.append(ft.Text(ctx.t("needs an update of the app"), size=13, color=ft.Colors.ERROR))
        elif device.newer:
            line.append(
                ft.Text(ctx.t("newer: update the app on this device"), size=13, color=ft.Colors.ERROR)
            )
        rows.append(tag(f"sync-device-{i}", ft.Row(line, wrap=True, spacing=6, run_spacing=0)))
    return rows


def finished_at_text(text: str) -> float | None:
    """An ISO time in UTC as epoch seconds (None when there is none)."""
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _setting_from(ctx: AppContext, form: SyncForm) -> rt.TargetSetting | str:
    """The target the form names (a field not typed in shows the saved value), or what is missing."""
    saved = rt.saved_target(ctx.settings)
    address = (form.address if form.address is not None else saved.address if saved else "").strip()
    user = form.user if form.user is not None else saved.user if saved else ""
    if not address:
        return ctx.t("Enter a folder or a WebDAV address.")
    setting = rt.TargetSetting(address, user.strip())
    if not setting.webdav:
        return rt.TargetSetting(str(Path(address).expanduser()), "")
    if not setting.user:
        return ctx.t("Enter the user name for {address}.", address=address)
    return setting


def save(ctx: AppContext, form: SyncForm) -> None:
    """Use the form's target from now on: the password into the vault, the rest into the settings."""
    setting = sync_static.setting_from(ctx, form) if IN_BROWSER else _setting_from(ctx, form)
    if isinstance(setting, str):
        ctx.error(setting)
        return
    vault = credentials.vault()
    if setting.webdav and form.password:
        vault.set(setting.address, setting.user, form.password)
    elif setting.webdav and not vault.get(setting.address, setting.user):
        ctx.error(sync_static.secret_missing(ctx, setting))
        return
    form.password = ""
    form.address = form.user = form.hub = None
    form.started = True
    rt.for_store(ctx.store).apply({rt.TARGET_KEY: setting.as_saved()}, renew=True)
    ctx.update_settings(**{rt.TARGET_KEY: setting.as_saved()})


def stop_syncing(ctx: AppContext, current: rt.TargetSetting) -> None:
    """No target any more: the runner stops, the password is forgotten; the data here stays as it is."""
    if current.webdav:
        credentials.vault().delete(current.address, current.user)
    rt.for_store(ctx.store).apply({})
    ctx.update_settings(**{rt.TARGET_KEY: None})


def test_connection(ctx: AppContext, form: SyncForm, answer: ft.Text) -> None:
    """Check the typed (or saved) target on a thread of its own; the answer replaces `answer`'s text."""
    setting = _setting_from(ctx, form)
    if isinstance(setting, str):
        ctx.error(setting)
        return
    answer.value, answer.color = ctx.t("Testing the connection…"), None
    _redraw(answer)

    def run() -> None:
        failure = rt.check_target(setting, form.password or None)
        form.tested = (True, failure)
        answer.value, answer.color = tested_text(ctx, form)
        _redraw(answer)

    threading.Thread(target=run, daemon=True, name="sync-test").start()


def tested_text(ctx: AppContext, form: SyncForm) -> tuple[str, str | None]:
    """The answer of the last connection test in the app's language, and its colour."""
    if form.tested is None:
        return "", None
    failure = form.tested[1]
    if failure is None:
        return ctx.t("The connection works."), None
    return ctx.describe(failure), ft.Colors.ERROR


def _redraw(control: ft.Control) -> None:
    try:
        control.update()
    except Exception:  # the screen was left meanwhile
        pass


def _fields(ctx: AppContext, form: SyncForm, saved: rt.TargetSetting | None) -> list[ft.Control]:
    address = ft.TextField(
        label=ctx.t("Folder or WebDAV address"),
        value=form.address if form.address is not None else (saved.address if saved else ""),
        hint_text="https://cloud.example.org/remote.php/dav/files/anna/scorekeeper",
    )
    user = ft.TextField(
        label=ctx.t("User name (WebDAV)"),
        value=form.user if form.user is not None else (saved.user if saved else ""),
        width=260,
    )
    kept = saved is not None and saved.webdav and credentials.vault().get(saved.address, saved.user)
    password = revealable(
        ft.TextField(
            label=ctx.t("Password (WebDAV)"),
            helper=ctx.t("Kept on this device; type to change") if kept else None,
            value=form.password,
            width=340,
        ),
        ctx.t("Show password"),
        ctx.t("Hide password"),
    )
    address.on_change = lambda e: setattr(form, "address", e.control.value or "")
    user.on_change = lambda e: setattr(form, "user", e.control.value or "")
    password.on_change = lambda e: setattr(form, "password", e.control.value or "")
    return [
        tag("sync-address", address),
        ft.Row([tag("sync-user", user), tag("sync-password", password)], wrap=True, spacing=8, run_spacing=8),
    ]


def _buttons(ctx: AppContext, form: SyncForm, saved: rt.TargetSetting | None, answer: ft.Text) -> ft.Row:
    buttons: list[ft.Control] = [
        tag(
            "sync-save",
            ft.FilledButton(ctx.t("Use for sync"), icon=ft.Icons.SYNC, on_click=lambda _: save(ctx, form)),
        ),
        tag(
            "sync-test",
            ft.OutlinedButton(
                ctx.t("Test connection"),
                icon=ft.Icons.WIFI_FIND,
                on_click=lambda _: (
                    sync_static.test_connection(ctx, form, answer, lambda: tested_text(ctx, form))
                    if IN_BROWSER
                    else test_connection(ctx, form, answer)
                ),
            ),
        ),
    ]
    if saved is not None:
        buttons.append(
            tag(
                "sync-now",
                ft.OutlinedButton(ctx.t("Sync now"), icon=ft.Icons.SYNC, on_click=lambda _: sync_now(ctx)),
            )
        )
        buttons.append(
            tag(
                "sync-off",
                ft.TextButton(
                    ctx.t("Stop syncing"),
                    icon=ft.Icons.SYNC_DISABLED,
                    on_click=lambda _: stop_syncing(ctx, saved),
                ),
            )
        )
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def sync_now(ctx: AppContext) -> None:
    if not rt.for_store(ctx.store).sync_now():
        ctx.error(ctx.t("Sync is starting. Try again in a moment."))


def sync_section(ctx: AppContext) -> ft.Control | None:
    """The section, for the host (and guests the host lets change settings); None for other guests."""
    if not ctx.may(permissions.SYNC):
        return None
    form = form_of(ctx)
    saved = rt.saved_target(ctx.settings)
    app = rt.for_store(ctx.store)
    text, colour = tested_text(ctx, form)
    answer = ft.Text(text, color=colour)
    box = ft.Column(status_rows(ctx, app.status, started=form.started) if saved else [], spacing=6)
    devices = ft.Column(device_rows(ctx, devices_seen(ctx.store.data_dir)) if saved else [], spacing=2)

    def refresh() -> None:
        box.controls = status_rows(ctx, app.status, started=form.started)
        _redraw(box)
        if not app.status.running:
            devices.controls = device_rows(ctx, devices_seen(ctx.store.data_dir))
            _redraw(devices)

    if IN_BROWSER:  # Flet's pubsub does not run there: the news comes on the same event loop
        app.listen(f"settings-{id(ctx)}", rt.TOPIC, refresh)
    try:  # the runner's news (any thread) redraws the box, while this screen is shown
        app.remember(ctx.page.pubsub)
        ctx.page.pubsub.subscribe_topic(rt.TOPIC, lambda _topic, _message: refresh())
    except Exception:  # in-process tests have no live pubsub
        pass
    intro = ctx.t(
        "Keep your games on all your devices: a folder that a sync tool keeps in step (Syncthing, the "
        "Nextcloud or Dropbox client) or a WebDAV server (Nextcloud, a NAS). Each device writes only its own files."
    )
    if IN_BROWSER:
        intro = sync_static.intro(ctx)
    return tag(
        "sync-section",
        section(
            ctx.t("Sync"),
            ft.Text(intro, size=13),
            *(sync_static.fields(ctx, form, saved) if IN_BROWSER else _fields(ctx, form, saved)),
            _buttons(ctx, form, saved, answer),
            tag("sync-test-answer", answer),
            box,
            tag("sync-devices", devices),
        ),
    )
