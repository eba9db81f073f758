"""Settings, "Sync", in the static build (Python in the browser): the browser itself syncs, with the same engine
and target layout as every other device (sync/fetched.py), with one of two kinds of server:

- a WebDAV server (rclone, a NAS, Nextcloud) by its address, a user name and a password: it must allow this
  site's origin (CORS); where it does not, the sync's answer says what to change there;
- the owner's own server (`make web` with its sync hub on) by its address and the device token from pairing.

The password or token is kept in this browser only (an IndexedDB store of its own, outside the data folder:
never in an export, a backup or the synced files), and the section says so. The connection test is awaited on
the page's event loop: no thread, and the screen goes on meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import flet as ft

from scorekeeper.games.messages import N_
from scorekeeper.server import sync_runtime as rt
from scorekeeper.sync import credentials
from scorekeeper.ui.components.widgets import revealable, tag
from scorekeeper.ui.context import AppContext


class SyncForm(Protocol):
    """What the section keeps of this session's form (sync.py's SyncForm)."""

    address: str | None
    user: str | None
    password: str
    hub: bool | None
    tested: tuple[bool, Exception | None] | None


KEPT = N_("Kept in this browser only; clearing the site's data forgets it.")


def intro(ctx: AppContext) -> str:
    return ctx.t(
        "Keep your games on all your devices: this browser syncs by itself with a WebDAV server that allows "
        "this site (rclone, a NAS, Nextcloud) or with your own server, while it is online."
    )


def hub_chosen(form: SyncForm, saved: rt.TargetSetting | None) -> bool:
    return form.hub if form.hub is not None else bool(saved and saved.hub)


def setting_from(ctx: AppContext, form: SyncForm) -> rt.TargetSetting | str:
    """The target the form names in the browser, or what is missing."""
    saved = rt.saved_target(ctx.settings)
    hub = hub_chosen(form, saved)
    address = (form.address if form.address is not None else saved.address if saved else "").strip()
    user = (form.user if form.user is not None else saved.user if saved else "").strip()
    if not address:
        return ctx.t("Enter your server's address.") if hub else ctx.t("Enter the WebDAV address.")
    if not rt.TargetSetting(address).webdav:
        return ctx.t("Enter an address starting with https:// (or http://).")
    if hub:
        return rt.TargetSetting(address, "", hub=True)
    if not user:
        return ctx.t("Enter the user name for {address}.", address=address)
    return rt.TargetSetting(address, user)


def secret_missing(ctx: AppContext, setting: rt.TargetSetting) -> str:
    if setting.hub:
        return ctx.t("Enter the device token (from pairing this device with your server).")
    return ctx.t("Enter the password (an app password on Nextcloud).")


def fields(ctx: AppContext, form: SyncForm, saved: rt.TargetSetting | None) -> list[ft.Control]:
    """The kind of server, its address, the user name (WebDAV) and the password or device token."""
    hub = hub_chosen(form, saved)
    same_kind = saved is not None and saved.hub == hub
    address = ft.TextField(
        label=ctx.t("Your server's address") if hub else ctx.t("WebDAV address"),
        value=form.address if form.address is not None else (saved.address if saved and same_kind else ""),
        hint_text="https://home.example.org" if hub else "https://nas.local:5006/scorekeeper",
        keyboard_type=ft.KeyboardType.URL,
    )
    user = ft.TextField(
        label=ctx.t("User name (WebDAV)"),
        value=form.user if form.user is not None else (saved.user if saved and same_kind else ""),
        width=260,
    )
    # hidden as a whole: a tag's semantics over a hidden field draws Flutter's red "content must be visible" box
    user_row = tag("sync-user", user)
    user_row.visible = not hub
    kept = saved is not None and same_kind and credentials.vault().get(saved.address, saved.user)
    secret = revealable(
        ft.TextField(
            label=ctx.t("Device token") if hub else ctx.t("Password (WebDAV)"),
            helper=ctx.t("Kept in this browser; type to change") if kept else None,
            value=form.password,
            width=340,
        ),
        ctx.t("Show password"),
        ctx.t("Hide password"),
    )

    def chose(event: ft.Event[ft.RadioGroup]) -> None:
        form.hub = event.control.value == "hub"
        form.address = form.user = None
        form.password = ""
        now = form.hub
        address.label = ctx.t("Your server's address") if now else ctx.t("WebDAV address")
        address.hint_text = "https://home.example.org" if now else "https://nas.local:5006/scorekeeper"
        address.value = saved.address if saved is not None and saved.hub == now else ""
        user_row.visible = not now
        pairing.visible = now
        user.value = saved.user if saved is not None and not now and not saved.hub else ""
        secret.label = ctx.t("Device token") if now else ctx.t("Password (WebDAV)")
        secret.value = ""
        for control in (address, user_row, secret, pairing):
            _redraw(control)

    kind = ft.RadioGroup(
        value="hub" if hub else "webdav",
        on_change=chose,
        content=ft.Column(
            [
                tag("sync-kind-webdav", ft.Radio(value="webdav", label=ctx.t("A WebDAV server"))),
                tag("sync-kind-hub", ft.Radio(value="hub", label=ctx.t("My own server (device token)"))),
            ],
            spacing=0,
        ),
    )
    pairing = tag(
        "sync-use-pairing",
        ft.TextButton(
            ctx.t("Use this browser's pairing"),
            icon=ft.Icons.LINK,
            on_click=lambda _: use_pairing(ctx, form, address, secret),
        ),
    )
    pairing.visible = hub
    address.on_change = lambda e: setattr(form, "address", e.control.value or "")
    user.on_change = lambda e: setattr(form, "user", e.control.value or "")
    secret.on_change = lambda e: setattr(form, "password", e.control.value or "")
    return [
        tag("sync-kind", kind),
        tag("sync-address", address),
        ft.Row([user_row, tag("sync-password", secret)], wrap=True, spacing=8, run_spacing=8),
        pairing,
        tag("sync-kept", ft.Text(ctx.t(KEPT), size=12)),
    ]


async def paired_token(ctx: AppContext) -> str | None:
    """The device token this browser keeps for this origin's server (an owner or member device paired through
    the served app at the same address: the static build opened from that server's `/app/` shares its storage)."""
    from scorekeeper.server.owner_session import DEVICE_KEY, MEMBER_DEVICE_KEY

    storage = ctx.browser_storage()
    for key in (DEVICE_KEY, MEMBER_DEVICE_KEY):
        try:
            found = await storage.get(key)
        except Exception:  # a browser that does not answer
            return None
        if isinstance(found, str) and found:
            return found
    return None


def use_pairing(ctx: AppContext, form: SyncForm, address: ft.TextField, secret: ft.TextField) -> None:
    """Fill the owner's server's address (this site's origin) and the token this browser was paired with."""
    from scorekeeper.sync.fetch_js import origin

    async def run() -> None:
        token = await paired_token(ctx)
        if token is None:
            ctx.error(
                ctx.t(
                    "This browser is not paired with a server at this address: open your server's owner or "
                    "member link in this browser first, or type the device token."
                )
            )
            return
        form.address, form.password = origin(), token
        address.value, secret.value = form.address, token
        for control in (address, secret):
            _redraw(control)

    ctx.page.run_task(run)


def test_connection(
    ctx: AppContext, form: SyncForm, answer: ft.Text, said: Callable[[], tuple[str, str | None]]
) -> None:
    """Check the typed (or saved) server with the browser's fetch, awaited on the page's loop; `said()` is the
    answer's text and colour then."""
    setting = setting_from(ctx, form)
    if isinstance(setting, str):
        ctx.error(setting)
        return
    answer.value, answer.color = ctx.t("Testing the connection…"), None
    _redraw(answer)

    async def run() -> None:
        failure = await rt.check_client(setting, form.password or None)
        form.tested = (True, failure)
        answer.value, answer.color = said()
        _redraw(answer)

    ctx.page.run_task(run)


def _redraw(control: ft.Control) -> None:
    try:
        control.update()
    except Exception:  # the screen was left meanwhile
        pass
