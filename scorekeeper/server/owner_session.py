"""Which session is the owner's: proved by a token in the browser's storage, never by its address.

The rule (see scorekeeper/server/owner_devices.py for the tokens):
- the desktop window (not served) is the owner's own app: owner, nothing to prove;
- a served session is a guest, unless its browser holds a valid owner-device token, or brings an owner link's
  one-time token (the page has put it into storage, see web_index.py), which it trades for a device token here;
- a device signed out in Settings is a guest from its next screen on.

A served session starts only once this is decided (`identify`, one or two round trips to the browser's storage),
so an owner never sees a guest's screen first and is never sent away from a lobby on a reload.

Below the screens: a session is known here only as `Visit` (what this module reads and sets of the app's
context, `ui.context.AppContext`), so the server never imports the UI.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import flet as ft

from scorekeeper.games.messages import N_
from scorekeeper.server import owner_devices as owners
from scorekeeper.store import Store

log = logging.getLogger(__name__)


class Notes(Protocol):
    """What this module keeps in a session's state (`ui.session_state.SessionState`)."""

    notices: dict[str, bool | str]
    """Notice identifier -> True until shown, then the route it is shown on."""
    owner_device_token: str | None
    member_device_token: str | None
    unknown_device: bool


class Visit(Protocol):
    """A session as the owner's and members' sign-in sees it (`ui.context.AppContext` is one): its page,
    store, route and words, and the device it has proved to be."""

    guest: bool
    owner_device: str | None
    owner_active: Callable[[], bool] | None
    member_device: str | None
    member_active: Callable[[], bool] | None

    @property
    def page(self) -> ft.Page: ...

    @property
    def store(self) -> Store: ...

    @property
    def route(self) -> str: ...

    @property
    def session(self) -> Notes: ...

    @property
    def t(self) -> Callable[..., str]: ...

    def browser_storage(self) -> ft.SharedPreferences: ...


LINK_KEY = "scorekeeper.owner_link"
"""Client-storage key of an owner link's one-time token (put there by the page, see web_index.py)."""
DEVICE_KEY = "scorekeeper.owner_device"
"""Client-storage key of this browser's owner-device token."""
WELCOME = "owner-welcome"
"""Notice (and its identifier): this session has just become an owner device (its first view says what that means)."""
LINK_REFUSED = "owner-link-refused"
"""Notice (and its identifier): the session brought an owner link that was used already or has expired."""
MEMBER_LINK_KEY = "scorekeeper.member_link"
"""Client-storage key of a member link's one-time token (put there by the page, see web_index.py)."""
MEMBER_DEVICE_KEY = "scorekeeper.member_device"
"""Client-storage key of this browser's member-device token."""
MEMBER_WELCOME = "member-welcome"
"""Notice (and its identifier): this session has just become a member device."""
MEMBER_LINK_REFUSED = "member-link-refused"
"""Notice (and its identifier): the session brought a member link that was used already or has expired."""
UNKNOWN = "device-unknown"
"""Notice (and its identifier): the browser's storage did not answer, so this device could not be recognised.
Flet's web client, reconnected to a restarted server, answers no service call until the page is loaded anew."""


def registry(store: Store | None) -> owners.OwnerDevices:
    """The owner devices of the store's data folder."""
    root = getattr(getattr(store, "layout", None), "root", None)
    return owners.devices_of(Path(root) if root is not None else None)


def members(store: Store | None) -> owners.OwnerDevices:
    """The member devices of the store's data folder."""
    root = getattr(getattr(store, "layout", None), "root", None)
    return owners.members_of(Path(root) if root is not None else None)


def prefs(ctx: Visit) -> ft.SharedPreferences:
    return ctx.browser_storage()


def owner_link(base: str, token: str) -> str:
    """The link that makes a browser an owner device (the token after `#`: never sent to a server)."""
    return f"{base.rstrip('/')}/#owner={token}"


def member_link(base: str, token: str) -> str:
    """The link that makes a browser a member device (like `owner_link`)."""
    return f"{base.rstrip('/')}/#member={token}"


def device_name(user_agent: str | None) -> str:
    """A short name for a browser from its user agent ("Chrome on Android"); the agent itself if unknown."""
    agent = user_agent or ""
    browsers = (
        ("Edge", r"Edg/"),
        ("Opera", r"OPR/"),
        ("Firefox", r"Firefox/"),
        ("Chrome", r"Chrome/|CriOS/"),
        ("Safari", r"Safari/"),
    )
    systems = (
        ("Android", r"Android"),
        ("iPhone", r"iPhone"),
        ("iPad", r"iPad"),
        ("Windows", r"Windows"),
        ("macOS", r"Mac OS X|Macintosh"),
        ("ChromeOS", r"CrOS"),
        ("Linux", r"Linux"),
    )
    browser = next((name for name, pattern in browsers if re.search(pattern, agent)), "")
    system = next((name for name, pattern in systems if re.search(pattern, agent)), "")
    if browser and system:
        return f"{browser} · {system}"
    return browser or system or agent[:60] or "?"


def become_owner(ctx: Visit, device: owners.OwnerDevice) -> None:
    """This session is the owner's from now on (as long as `device` is not signed out)."""
    ctx.guest = False
    ctx.owner_device = device.id
    devices = registry(ctx.store)
    ctx.owner_active = lambda: devices.active(device.id)


def traded(
    ctx: Visit,
    links: owners.LinkTokens,
    devices: owners.OwnerDevices,
    token: str,
    notices: tuple[str, str],
) -> tuple[str, owners.OwnerDevice] | None:
    """A link's one-time token traded for a new device of `devices` (its token, to keep in this browser; the
    device), with the welcome notice; None, with the refusal notice, for a token that was used already, has
    expired or was never minted. `notices`: (welcome, refused)."""
    welcome, refused = notices
    if not links.redeem(token):
        ctx.session.notices[refused] = True
        return None
    ctx.session.notices[welcome] = True
    return devices.add(device_name(getattr(ctx.page, "client_user_agent", None)))


def redeem_link(ctx: Visit, token: str) -> bool:
    """Trade an owner link's one-time token for an owner-device token kept in this browser; False (and the
    session stays a guest) for a token that was used already, has expired or was never minted."""
    made = traded(ctx, owners.LINKS, registry(ctx.store), token, (WELCOME, LINK_REFUSED))
    if made is None:
        return False
    ctx.session.owner_device_token, device = made  # the token until the browser has it (see identify)
    become_owner(ctx, device)
    return True


def become_member(ctx: Visit, device: owners.OwnerDevice) -> None:
    """This session is a member's from now on (as long as `device` is not unpaired)."""
    ctx.member_device = device.id
    devices = members(ctx.store)
    ctx.member_active = lambda: devices.active(device.id)


def redeem_member_link(ctx: Visit, token: str) -> bool:
    """Trade a member link's one-time token for a member-device token kept in this browser; False for a token
    that was used already, has expired or was never minted (the session stays what it was)."""
    made = traded(ctx, owners.MEMBER_LINKS, members(ctx.store), token, (MEMBER_WELCOME, MEMBER_LINK_REFUSED))
    if made is None:
        return False
    ctx.session.member_device_token, device = made
    become_member(ctx, device)
    return True


def sign_in(ctx: Visit, device_token: str) -> bool:
    """A browser showing an owner-device token: owner if the device is still signed in."""
    device = registry(ctx.store).check(device_token)
    if device is None:
        return False
    become_owner(ctx, device)
    return True


async def identify(ctx: Visit) -> None:
    """Decide whether this served session is the owner's, a member's or a visitor's, from the browser's storage
    (see the module docstring). A browser that does not answer stays a visitor. A browser that is an owner
    device already and opens another owner link stays the one device it is (the link is used up, no second
    entry is listed)."""
    storage = prefs(ctx)
    try:
        # All asked at once: each question is a round trip to the browser, before the first screen.
        link, device_token, member_link_token, member_token = await asyncio.gather(
            storage.get(LINK_KEY),
            storage.get(DEVICE_KEY),
            storage.get(MEMBER_LINK_KEY),
            storage.get(MEMBER_DEVICE_KEY),
        )
        ctx.session.unknown_device = (
            False  # the browser answered (asked again after a reload: `Shell.on_connect`)
        )
        ctx.session.notices.pop(UNKNOWN, None)
        await identify_member(ctx, storage, member_link_token, member_token)
        if isinstance(link, str) and link:
            await storage.remove(LINK_KEY)  # good once, and gone from the browser at once
        if isinstance(device_token, str) and device_token:
            if sign_in(ctx, device_token):
                if isinstance(link, str) and link:
                    owners.LINKS.redeem(link)
                return
            await storage.remove(DEVICE_KEY)  # signed out: forget the dead token
        if isinstance(link, str) and link and redeem_link(ctx, link):
            minted, ctx.session.owner_device_token = ctx.session.owner_device_token, None
            if minted is not None:  # always, after a redeemed link
                await storage.set(DEVICE_KEY, minted)
    except Exception:  # no storage, or it did not answer: a visitor until the page is loaded anew
        log.info("the browser's storage did not answer: the session is a visitor", exc_info=True)
        ctx.session.notices[UNKNOWN] = ctx.session.unknown_device = True


async def identify_member(ctx: Visit, storage: ft.SharedPreferences, link: Any, device_token: Any) -> None:
    """A member device's token, or a member link to trade for one (before the owner's: an owner device that
    is also paired as a member is simply the owner)."""
    if isinstance(link, str) and link:
        await storage.remove(MEMBER_LINK_KEY)  # good once, and gone from the browser at once
    if isinstance(device_token, str) and device_token:
        device = members(ctx.store).check(device_token)
        if device is not None:
            become_member(ctx, device)
            if isinstance(link, str) and link:
                owners.MEMBER_LINKS.redeem(link)
            return
        await storage.remove(MEMBER_DEVICE_KEY)  # unpaired: forget the dead token
    if isinstance(link, str) and link and redeem_member_link(ctx, link):
        minted, ctx.session.member_device_token = ctx.session.member_device_token, None
        if minted is not None:
            await storage.set(MEMBER_DEVICE_KEY, minted)


def forget_device(ctx: Visit) -> None:
    """This browser signed itself out: drop the token it keeps."""
    try:
        ctx.page.run_task(prefs(ctx).remove, DEVICE_KEY)
    except Exception:  # no client storage (in-process tests): nothing kept
        pass


def console_lines(base: str, token: str, *, first_time: bool) -> list[str]:
    """What the server prints at every start: the owner link, and once, what changed."""
    lines = []
    if first_time:
        lines.append(
            "scorekeeper: host rights now come from an owner link, no longer from being on this computer: "
            "open the link below once in each browser you use as the host (other browsers are guests)."
        )
    lines.append(
        f"scorekeeper owner link (good once; pair more devices in Settings): {owner_link(base, token)}"
    )
    return lines


def shown_here(ctx: Visit, key: str) -> bool:
    """A notice stays on the screen it first appeared on (also when that screen is drawn again for another
    width) until it is dismissed or the person goes elsewhere."""
    notices = ctx.session.notices
    where = notices.get(key)
    if where is True:
        where = notices[key] = ctx.route
    if where is None or where != ctx.route:
        notices.pop(key, None)
        return False
    return True


GOOD_NEWS = (ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER)
BAD_NEWS = (ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER)
NOTICES: tuple[tuple[str, str, tuple[str, str], ft.IconData], ...] = (
    (
        WELCOME,
        N_(
            "This browser is now an owner device: it has the host's rights. Other browsers are guests, even on "
            "this computer, until you pair them in Settings."
        ),
        GOOD_NEWS,
        ft.Icons.VERIFIED_USER_OUTLINED,
    ),
    (
        MEMBER_WELCOME,
        N_(
            "This browser is now a member device: it sees the games and keeps score. The owner can unpair it "
            "in Settings."
        ),
        GOOD_NEWS,
        ft.Icons.GROUP_OUTLINED,
    ),
    (
        LINK_REFUSED,
        N_(
            "This owner link was used already or has expired, so this browser is a guest. Restart the app for "
            "a new link, or pair this browser in Settings on an owner device."
        ),
        BAD_NEWS,
        ft.Icons.INFO_OUTLINE,
    ),
    (
        MEMBER_LINK_REFUSED,
        N_(
            "This member link was used already or has expired. Ask the owner for a new one (Settings, Member "
            "devices)."
        ),
        BAD_NEWS,
        ft.Icons.INFO_OUTLINE,
    ),
    (
        UNKNOWN,
        N_(
            "This page reconnected to the host but could not tell who this device is. Reload the page to "
            "continue as the owner or a member."
        ),
        BAD_NEWS,
        ft.Icons.REFRESH,
    ),
)
"""The notices above the first screen: identifier, text, colours (background, text) and icon."""


def notice(ctx: Visit) -> ft.Control | None:
    """Once, above the first screen: this browser has just become an owner or a member device (what that means:
    rights come from a link, never from the address), or the link it brought was refused."""
    found = next((entry for entry in NOTICES if shown_here(ctx, entry[0])), None)
    if found is None:
        return None
    identifier, english, (background, foreground), icon = found
    text = ctx.t(english)
    banner = ft.Container(bgcolor=background, padding=12, border_radius=8)
    tagged = ft.Semantics(content=banner, identifier=identifier)

    def dismiss(_: Any = None) -> None:
        ctx.session.notices.pop(identifier, None)
        # the tag goes with it: a tag over hidden content is drawn as Flutter's red error box
        tagged.visible = False
        tagged.update()

    # the icon carries the name: a tooltip alone leaves the button unnamed for a screen reader on the web
    # (ui.components.widgets.icon_button, which this layer cannot import)
    label = ctx.t("Dismiss")
    close = ft.IconButton(
        ft.Icon(ft.Icons.CLOSE, color=foreground, semantics_label=label), tooltip=label, on_click=dismiss
    )
    banner.content = ft.Row(
        [
            ft.Icon(icon, color=foreground),
            ft.Text(text, color=foreground, expand=True),
            ft.Semantics(content=close, identifier=f"{identifier}-dismiss"),
        ],
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
    return tagged
