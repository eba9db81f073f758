"""What the static web build lacks, said on screen: there (Python in the browser, capabilities.py) the live table
and sync are shown as unavailable, with one line on how to get them, instead of failing when used; and a notice
says when the browser keeps the data only for the tab or may clear it. The screens stay the same screens; only
these parts choose by capability."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.ui.components.widgets import tag
from scorekeeper.ui.context import AppContext

PERSISTED_KEY = "scorekeeper.storage_persisted"
"""SharedPreferences key where the static build's page leaves the browser's answer to
`navigator.storage.persist()` (scorekeeper/static/build.py)."""
NOTICE_SHOWN_KEY = "scorekeeper.storage_notice_shown"
"""Set once the "may clear the data" notice was shown: it comes once per browser, not at every start."""


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


async def tell_storage(ctx: AppContext, problem: str | None) -> None:
    """Say when the data does not last: no IndexedDB at all (at every start: nothing is kept), or the browser
    refused persistent storage (it may then clear the data when space runs low: said once, then remembered
    under NOTICE_SHOWN_KEY)."""
    if problem is not None:
        ctx.notify(
            ctx.t("This browser keeps no data for the app: games saved now are lost when the tab closes."),
            error=True,
        )
        return
    prefs = ctx.browser_storage()
    try:
        granted = await prefs.get(PERSISTED_KEY)
        shown = granted is False and await prefs.get(NOTICE_SHOWN_KEY)
    except Exception:  # no answer from the page's storage: nothing to tell
        return
    if granted is False and not shown:
        ctx.notify(
            ctx.t(
                "The browser may clear the app's data when space runs low. Add the app to the home screen, "
                "and export your games now and then (Settings)."
            )
        )
        try:
            await prefs.set(NOTICE_SHOWN_KEY, True)
        except Exception:  # not remembered: said again at the next start, which is no harm
            pass


def copy_failure_teller(ctx: AppContext) -> Callable[[str | None], None]:
    """What the app does when the browser's copies of the data have settled (scorekeeper/static/worker.py): a copy
    that failed (the browser's storage full, or IndexedDB gone) is said once when the trouble starts, not at
    every later save, and again if it comes back after a copy that worked."""
    failing = False

    def settled(error: str | None) -> None:
        nonlocal failing
        if error is not None and not failing:
            ctx.notify(
                ctx.t(
                    "The browser did not keep the last change: it will be lost when the tab closes. Free some "
                    "space, then export your games (Settings)."
                ),
                error=True,
            )
        failing = error is not None

    return settled
