"""What needs a host where there is none: in the static web build (Python in the browser, capabilities.py) the
live table and sync are shown as unavailable, with one line on how to get them, instead of failing when used.
The screens stay the same screens; only these parts choose by capability."""

from __future__ import annotations

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.ui.components.layout import section
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext


def host_needed() -> bool:
    """Whether this build has no host (the live table, hosting and sync cannot run)."""
    return IN_BROWSER


def table_unavailable(ctx: AppContext) -> ft.Control:
    """The home screen's "Host a table", switched off, with how to get it."""
    return tag(
        "host-table-unavailable",
        ft.Column(
            [
                ft.Row(
                    [
                        ft.FilledTonalButton(
                            ctx.t("Host a table"),
                            icon=ft.Icons.QR_CODE_2,
                            disabled=True,
                            height=52,
                            expand=True,
                        )
                    ]
                ),
                ft.Text(
                    ctx.t(
                        "Hosting a table needs the app served by a computer: run `make table` there and open "
                        "the address it prints."
                    ),
                    size=13,
                ),
            ],
            spacing=4,
        ),
    )


def sync_unavailable(ctx: AppContext) -> ft.Control:
    """The Settings screen's sync section, as one line on how to get it."""
    return tag(
        "sync-unavailable",
        section(
            ctx.t("Sync"),
            ft.Text(
                ctx.t(
                    "Sync needs the app served by a computer: run `make web` there, or export a file here and "
                    "import it there."
                ),
                size=13,
            ),
        ),
    )
