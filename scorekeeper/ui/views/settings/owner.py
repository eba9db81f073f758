"""Settings, owner devices (on an owner device of the served app only): the browsers that hold the host's rights,
each with when it was added and last seen and a way to sign it out, "sign out other devices", and pairing
another device by a QR code of a fresh owner link (good once, for a few minutes; see scorekeeper/server/owner_session.py).
"""

from __future__ import annotations

import time
from datetime import datetime

import flet as ft
from babel.dates import format_datetime

from scorekeeper.server import owner_devices as owners
from scorekeeper.server import owner_session as owner
from scorekeeper.server import table_runtime as rt
from scorekeeper.server.owner_devices import OwnerDevice
from scorekeeper.ui.components.extras_common import language
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def when(ctx: AppContext, epoch: float) -> str:
    """A moment in the app's language (date and time, short)."""
    return format_datetime(datetime.fromtimestamp(epoch), format="short", locale=language(ctx))


def device_row(
    ctx: AppContext, device: OwnerDevice, devices: owners.OwnerDevices | None = None, prefix: str = "owner"
) -> ft.Control:
    """An owner device (or, with `devices` the member devices and `prefix` "member", a member device) with when
    it was added and last seen, and a button that signs it out."""
    kept = devices if devices is not None else owner.registry(ctx.store)
    mine = prefix == "owner" and device.id == ctx.owner_device
    title = device.name + (f" · {ctx.t('this device')}" if mine else "")
    details = ctx.t(
        "Added {added}, last seen {seen}", added=when(ctx, device.added), seen=when(ctx, device.last_seen)
    )

    def sign_out(_: object = None) -> None:
        kept.revoke(device.id)
        if mine:
            owner.forget_device(ctx)
        ctx.notify(ctx.t("{device} is signed out.", device=device.name))
        ctx.rerender()

    button = ft.OutlinedButton(ctx.t("Sign out"), icon=ft.Icons.LOGOUT, on_click=sign_out)
    return tag(
        f"{prefix}-device-{device.id}",
        ft.Container(
            ft.Row(
                [
                    ft.Icon(ft.Icons.VERIFIED_USER if mine else ft.Icons.DEVICES_OUTLINED),
                    ft.Column(
                        [ft.Text(title, weight=ft.FontWeight.BOLD), ft.Text(details, size=13)],
                        spacing=2,
                        expand=True,
                    ),
                    tag(f"{prefix}-device-sign-out-{device.id}", button),
                ],
                wrap=False,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            padding=ft.Padding.symmetric(vertical=4),
        ),
    )


def pairing_panel(ctx: AppContext, link: str, until: float, prefix: str = "owner") -> ft.Control:
    """A pairing link as a QR code and as text, until it is used or has expired (`prefix` "member": a member
    link)."""
    minutes = max(1, round((until - time.time()) / 60))

    def done(_: object = None) -> None:
        if prefix == "owner":
            ctx.session.pairing = None
        else:
            ctx.session.member_pairing = None
        ctx.rerender()

    size = 200 if ctx.narrow else 240
    return tag(
        f"{prefix}-pairing",
        ft.Container(
            ft.Column(
                [
                    ft.Text(
                        ctx.t(
                            "Scan this code with the other device, or open the link there. It works once, for "
                            "{minutes} minutes.",
                            minutes=minutes,
                        )
                    ),
                    ft.Row(
                        [tag(f"{prefix}-pair-qr", ft.Image(src=rt.qr_png(link), width=size, height=size))],
                        alignment=ft.MainAxisAlignment.CENTER,
                    ),
                    ft.Semantics(  # selectable (to copy it), and named for screen readers
                        content=ft.Text(link, selectable=True, size=12, font_family="monospace"),
                        identifier=f"{prefix}-pair-link",
                        label=link,
                    ),
                    ft.Row([tag(f"{prefix}-pair-done", ft.TextButton(ctx.t("Done"), on_click=done))]),
                ],
                spacing=8,
            ),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=8,
            padding=12,
        ),
    )


def owner_section(ctx: AppContext) -> ft.Control | None:
    """The section, for an owner device of the served app (the desktop window pairs nothing: it serves none)."""
    if not ctx.served or not ctx.still_owner():
        return None
    devices = owner.registry(ctx.store)
    listed = sorted(devices.devices(), key=lambda d: (d.id != ctx.owner_device, -d.last_seen))

    def sign_out_others(_: object = None) -> None:
        devices.revoke_others(str(ctx.owner_device))
        ctx.notify(ctx.t("The other devices are signed out."))
        ctx.rerender()

    def pair(_: object = None) -> None:
        link = owner.owner_link(rt.base_url(ctx.page), owners.LINKS.mint(owners.PAIRING_SECONDS))
        ctx.session.pairing = (link, time.time() + owners.PAIRING_SECONDS)
        ctx.rerender()

    rows: list[ft.Control] = [
        ft.Text(
            ctx.t(
                "These browsers have the host's rights. Any other browser is a guest, also on this computer."
            ),
            size=13,
        ),
        *(device_row(ctx, device) for device in listed),
    ]
    buttons: list[ft.Control] = [
        tag("owner-pair", ft.FilledButton(ctx.t("Pair another device"), icon=ft.Icons.QR_CODE, on_click=pair))
    ]
    if len(listed) > 1:
        buttons.append(
            tag(
                "owner-sign-out-others",
                ft.OutlinedButton(ctx.t("Sign out other devices"), on_click=sign_out_others),
            )
        )
    rows.append(ft.Row(buttons, wrap=True))
    pairing = ctx.session.pairing
    if pairing is not None and owners.LINKS.pending(pairing[0].rsplit("#owner=", 1)[-1]):
        rows.append(pairing_panel(ctx, *pairing))
    else:  # used (the other device is listed now) or expired
        ctx.session.pairing = None
    return tag("owner-devices", section(ctx.t("Owner devices"), *rows))
