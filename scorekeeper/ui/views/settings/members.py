"""Settings, members (on an owner device of the served app only): who besides the owner sees the games and keeps
score (see scorekeeper/server/rights.py). The member devices, each with when it was added and last seen and a way to
unpair it; pairing another one by a QR code of a fresh member link (good once, for a few minutes); and the switch
that makes every browser that opens the app a member, for a game night at home.
"""

from __future__ import annotations

import time

import flet as ft

from scorekeeper.server import owner_devices as owners
from scorekeeper.server import owner_session as owner
from scorekeeper.server import permissions
from scorekeeper.server import table_runtime as rt
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import labelled_switch, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.views.settings.owner import device_row, pairing_panel


def everyone_switch(ctx: AppContext) -> ft.Control:
    """The owner's one switch for a game night at home: every browser that opens the app is a member."""
    on = permissions.everyone_member(ctx.saved_settings())
    switch = ft.Switch(
        value=on,
        on_change=lambda e: ctx.update_settings(**{permissions.EVERYONE_MEMBER: bool(e.control.value)}),
    )
    note = (
        ctx.t(
            "Anyone who can open this address sees the games and keeps score. Turn this off on the internet."
        )
        if on
        else ctx.t(
            "Other browsers are visitors: they join a table by its code and see only their seat or the board."
        )
    )
    return ft.Column(
        [
            labelled_switch(
                "everyone-member",
                switch,
                ctx.t("Everyone who opens the app is a member (a game night at home)"),
            ),
            tag("everyone-member-note", ft.Text(note, size=13)),
        ],
        spacing=4,
    )


def members_section(ctx: AppContext) -> ft.Control | None:
    """The section, for an owner device of the served app (the desktop window serves nobody)."""
    if not ctx.served or not ctx.still_owner():
        return None
    devices = owner.members(ctx.store)
    listed = sorted(devices.devices(), key=lambda d: -d.last_seen)

    def pair(_: object = None) -> None:
        link = owner.member_link(rt.base_url(ctx.page), owners.MEMBER_LINKS.mint(owners.PAIRING_SECONDS))
        ctx.session.member_pairing = (link, time.time() + owners.PAIRING_SECONDS)
        ctx.rerender()

    rows: list[ft.Control] = [
        ft.Text(
            ctx.t(
                "Member devices see the games, the players and the statistics, and keep score. Settings, export, "
                "import, backups and deleting stay with the owner devices unless you allow members below."
            ),
            size=13,
        ),
        everyone_switch(ctx),
        *(device_row(ctx, device, devices, "member") for device in listed),
        ft.Row(
            [
                tag(
                    "member-pair",
                    ft.FilledButton(ctx.t("Pair a member device"), icon=ft.Icons.QR_CODE, on_click=pair),
                )
            ],
            wrap=True,
        ),
    ]
    pairing = ctx.session.member_pairing
    if pairing is not None and owners.MEMBER_LINKS.pending(pairing[0].rsplit("#member=", 1)[-1]):
        rows.append(pairing_panel(ctx, *pairing, prefix="member"))
    else:  # used (the other device is listed now) or expired
        ctx.session.member_pairing = None
    return tag("member-devices", section(ctx.t("Member devices"), *rows))
