"""Settings, "This server as a sync hub" (an owner device of the served app only): the switch that makes this server
the hub the owner's and members' devices sync with (server/dav_hub.py), and, while it is on, the address a device
enters and what it uses as password: its own pairing token, which it got from the owner or member link it was
paired with (nothing to type on a device of this app; another WebDAV client takes the token as password).

While the hub is on and no other target is set, this server's own games sync with the hub by themselves.
"""

from __future__ import annotations

from pathlib import Path

import flet as ft

from scorekeeper.server import dav_hub, table_runtime
from scorekeeper.server import sync_runtime as rt
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import labelled_switch, tag
from scorekeeper.ui.context import AppContext


def hub_address(ctx: AppContext) -> str:
    """The hub's address as devices reach it (the public address behind a proxy, else this server's)."""
    return table_runtime.base_url(ctx.page).rstrip("/") + dav_hub.PATH + "/"


def switch_hub(ctx: AppContext, on: bool) -> None:
    """Switch the hub on or off; this server's own sync follows at once (the hub folder, unless another target
    is set)."""
    dav_hub.switch(Path(ctx.store.data_dir), on)
    rt.for_store(ctx.store).apply(ctx.settings)
    ctx.rerender()


def hub_section(ctx: AppContext) -> ft.Control | None:
    """The section, for an owner device of the served app (the desktop window serves nobody)."""
    if not ctx.served or not ctx.still_owner():
        return None
    data = Path(ctx.store.data_dir)
    on = dav_hub.is_on(data)
    switch = ft.Switch(value=on, on_change=lambda e: switch_hub(ctx, bool(e.control.value)))
    rows: list[ft.Control] = [
        labelled_switch(
            "hub-switch", switch, ctx.t("This server is a sync hub for my devices and my members' devices")
        ),
    ]
    if on:
        address = hub_address(ctx)
        rows += [
            ft.Text(ctx.t("Address for sync on a device:"), size=13),
            tag("hub-address", ft.Text(address, weight=ft.FontWeight.BOLD)),
            tag(
                "hub-how",
                ft.Text(
                    ctx.t(
                        "A paired device (through its owner or member link) signs in with its own pairing token: "
                        "nothing else to type. Another WebDAV app takes any user name and that token as password. "
                        "A device whose pairing ends is refused at once."
                    ),
                    size=13,
                ),
            ),
        ]
        if rt.saved_target(ctx.settings) is None:
            rows.append(
                tag(
                    "hub-own",
                    ft.Text(ctx.t("This server's own games sync with the hub by themselves."), size=13),
                )
            )
        else:
            rows.append(
                tag(
                    "hub-own",
                    ft.Text(
                        ctx.t(
                            "This server syncs with the target above; stop that sync to sync with the hub."
                        ),
                        size=13,
                    ),
                )
            )
    else:
        rows.append(
            tag(
                "hub-off",
                ft.Text(
                    ctx.t(
                        "Off: nobody can sync with this server. Your devices can still sync with a folder or "
                        "a WebDAV server."
                    ),
                    size=13,
                ),
            )
        )
    return tag("hub-section", section(ctx.t("This server as a sync hub"), *rows))
