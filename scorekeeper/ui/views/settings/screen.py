"""Settings: language and theme (applied at once), export and import (`settings/transfer.py`), where the data
lives and its backups (`settings/data.py`), and what guests may do.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.capabilities import IN_BROWSER
from scorekeeper.release import VERSION
from scorekeeper.server import permissions, pin_tries, rights
from scorekeeper.ui.components.extras_common import pills
from scorekeeper.ui.components.layout import screen, section
from scorekeeper.ui.components.widgets import labelled_switch, tag
from scorekeeper.ui.context import AppContext
from scorekeeper.ui.i18n import LANGUAGES
from scorekeeper.ui.views.settings.aside import aside_section
from scorekeeper.ui.views.settings.data import data_section
from scorekeeper.ui.views.settings.members import members_section
from scorekeeper.ui.views.settings.owner import owner_section
from scorekeeper.ui.views.settings.sync import sync_section
from scorekeeper.ui.views.settings.transfer import transfer_section


def about_section(ctx: AppContext) -> ft.Control:
    """The owner's "About": the release this app is (scorekeeper/release.py, the same in every build: the static
    web app has no package metadata). CHANGELOG.md says what it changed and with which releases it syncs."""
    line = ctx.t("Scorekeeper version {version}", version=VERSION)
    return section(ctx.t("About"), tag("app-version", ft.Text(line, size=13)))


def visitor_section(ctx: AppContext) -> ft.Control:
    """What a visitor reads in Settings: what it may do, and how to become a member or the owner."""
    text = ctx.t(
        "This browser is a visitor: it joins a table by its code and sees its own seat or the board. To see the "
        "games and keep score, ask the owner to pair it as a member (Settings, Member devices)."
    )
    rows: list[ft.Control] = [tag("visitor-note", ft.Text(text))]
    hint = ctx.t(
        "The owner? Open the owner link the app prints when it starts, or pair this browser in "
        "Settings on an owner device."
    )
    rows.append(tag("owner-hint", ft.Text(hint, size=13)))
    return section(ctx.t("Visitor"), *rows)


def guests_section(ctx: AppContext) -> ft.Control:
    """The owner decides whether members may change settings, import, export, back up and delete (optionally
    after a PIN); a member enters that PIN here."""
    saved = ctx.saved_settings() if ctx.guest else ctx.settings
    saved = saved if isinstance(saved, dict) else {}
    return guest_side(ctx, saved) if ctx.guest else host_side(ctx, saved)


def guest_side(ctx: AppContext, saved: dict[str, Any]) -> ft.Control:
    """What a member sees of the members' rights: what it may do, and the owner's PIN to unlock more (tries are
    limited: `pin_tries`)."""
    if ctx.may(permissions.SETTINGS):
        return section(ctx.t("Members"), ft.Text(ctx.t("The host lets this device change everything.")))
    text = ctx.t(
        "This device is a member: it can view the games and keep score. Settings, export, import, backups "
        "and deleting stay with the host computer."
    )
    rows: list[ft.Control] = [tag("guest-note", ft.Text(text))]
    # the owner on a browser not paired yet (host rights come from the owner link, not the address)
    if ctx.served:
        hint = ctx.t(
            "The owner? Open the owner link the app prints when it starts, or pair this browser in "
            "Settings on an owner device."
        )
        rows.append(tag("owner-hint", ft.Text(hint, size=13)))
    if saved.get(permissions.GUESTS_ALLOWED) is True and permissions.guest_pin(saved):
        field = ft.TextField(
            label=ctx.t("Host PIN"),
            password=True,
            width=200,
            max_length=32,
            keyboard_type=ft.KeyboardType.NUMBER,
        )

        def unlock(_: object = None) -> None:
            # tries are limited per session, per address and host-wide; while refused, nothing is compared
            verdict = pin_tries.GUARD.check(
                pin_tries.session_of(ctx),
                ctx.session.address,  # recorded when the session was made (never the client's word)
                lambda: permissions.pin_matches(saved, field.value or ""),
            )
            if verdict.right:
                ctx.unlocked = permissions.pin_fingerprint(saved)
                ctx.rerender()
            elif verdict.refused:
                ctx.error(
                    ctx.t.plural(
                        "Too many wrong PINs. Please try again in {n} minute.",
                        "Too many wrong PINs. Please try again in {n} minutes.",
                        verdict.minutes,
                    )
                )
            else:
                ctx.error(ctx.t("That is not the host's PIN."))

        field.on_submit = unlock
        rows.append(
            ft.Row(
                [
                    tag("guest-pin", field),
                    tag("guest-unlock", ft.OutlinedButton(ctx.t("Unlock"), on_click=unlock)),
                ],
                wrap=True,
            )
        )
    return section(ctx.t("Members"), *rows)


def host_side(ctx: AppContext, saved: dict[str, Any]) -> ft.Control:
    """The owner's switch for what members may do besides keeping score, and the PIN they must enter first (a
    new one at least `pin_tries.MIN_LENGTH` characters)."""
    allowed = saved.get(permissions.GUESTS_ALLOWED) is True
    switch = ft.Switch(
        value=allowed,
        on_change=lambda e: ctx.update_settings(**{permissions.GUESTS_ALLOWED: bool(e.control.value)}),
    )
    rows: list[ft.Control] = [
        ft.Text(
            ctx.t("Members view the games and keep score. Visitors never do any of the following."),
            size=13,
        ),
        labelled_switch(
            "guests-allowed", switch, ctx.t("Members may change settings, export, import, back up and delete")
        ),
    ]
    if allowed:
        pin = ft.TextField(
            label=ctx.t("PIN members must enter (empty: none)"),
            value=permissions.guest_pin(saved),
            width=260,
            max_length=12,
            keyboard_type=ft.KeyboardType.NUMBER,
        )

        def save_pin(_: object = None) -> None:
            entered = (pin.value or "").strip()
            if entered == permissions.guest_pin(saved):  # unchanged (an older, shorter PIN keeps working)
                return
            if pin_tries.too_short(entered):  # nothing is saved
                ctx.error(
                    ctx.t(
                        "A PIN needs at least {n} characters. The PIN was not changed.",
                        n=pin_tries.MIN_LENGTH,
                    )
                )
                return
            ctx.update_settings(**{permissions.GUEST_PIN: entered})

        pin.on_blur = pin.on_submit = save_pin
        rows.append(tag("guest-pin-setting", pin))
    return section(ctx.t("What members may do"), *rows)


def build(ctx: AppContext, **_: str) -> ft.View:
    current_language = str(ctx.settings.get("language", "en"))
    current_theme = str(ctx.settings.get("theme", "system"))
    themes = [("light", ctx.t("Light")), ("dark", ctx.t("Dark")), ("system", ctx.t("Like the system"))]
    shown: list[ft.Control] = [
        section(
            ctx.t("Language"),
            pills(
                list(LANGUAGES.items()),
                current_language,
                lambda code: ctx.update_settings(language=code),
                prefix="language",
            ),
        ),
        section(
            ctx.t("Theme"),
            pills(themes, current_theme, lambda theme: ctx.update_settings(theme=theme), prefix="theme"),
        ),
    ]
    if ctx.role() == rights.VISITOR:  # its own language and theme only: nothing of the data set or the host
        return screen(ctx, "/settings", ctx.t("Settings"), [*shown, visitor_section(ctx)])
    controls: list[ft.Control] = [
        *shown,
        *([transfer_section(ctx)] if ctx.may(permissions.IMPORT) and ctx.may(permissions.EXPORT) else []),
        data_section(ctx),
        *([aside] if (aside := aside_section(ctx)) is not None else []),  # games set aside: Try again
        *([owned] if (owned := owner_section(ctx)) is not None else []),
        *([members] if (members := members_section(ctx)) is not None else []),
        guests_section(ctx),
        # last: a section added here pushes nothing the earlier screens' players (and tests) know further down
        *([synced] if (synced := sync_section(ctx)) else []),  # the static build syncs from the browser too
        *([hub] if (hub := _hub_section(ctx)) is not None else []),  # this server as the devices' sync hub
    ]
    if not ctx.guest:  # the version tells an attacker which flaws to try: the owner's only
        controls.append(about_section(ctx))
    return screen(ctx, "/settings", ctx.t("Settings"), controls)


def _hub_section(ctx: AppContext) -> ft.Control | None:
    """The hub's section, imported only where a server runs: the static build (a browser serves no hub) has no
    WebDAV server library, which the hub's modules import."""
    if IN_BROWSER:
        return None
    from scorekeeper.ui.views.settings.hub import hub_section

    return hub_section(ctx)
