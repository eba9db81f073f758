"""Owner rights for the benchmarks and the browser tests: the app served with a known owner token, and browser
contexts that open the app as an owner device.

A served session is a guest unless its browser proves to be an owner device (scorekeeper/server/owner_session.py). A server
started with `owner_env()` accepts `OWNER_TOKEN` as an owner link's token every time
(`SCOREKEEPER_OWNER_TOKEN`); a context of `OwnerBrowser` carries it in its storage before the app's page loads
(what the page itself does with an owner link, see web_index.py), so the app makes it an owner device on its
first load, the proper way. `new_context(owner=False)` gives a context that is a guest, as any other browser.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from scorekeeper.server.owner_devices import ENV_TOKEN

OWNER_TOKEN = secrets.token_urlsafe(24)
"""The owner token of the servers this process starts for tests and benchmarks."""
LINK_KEY = "flutter.scorekeeper.owner_link"
DEVICE_KEY = "flutter.scorekeeper.owner_device"


def owner_env(token: str = OWNER_TOKEN) -> dict[str, str]:
    """Environment for a served app that takes `token` as an owner link's token."""
    return {ENV_TOKEN: token}


def owner_script(token: str = OWNER_TOKEN) -> str:
    """A context init script: before the page's own scripts, leave the owner link's token in storage unless the
    browser is an owner device already (the app removes the token once it has traded it for a device's)."""
    return (
        "(() => { try {"
        f" if (!localStorage.getItem({json.dumps(DEVICE_KEY)}))"
        f" localStorage.setItem({json.dumps(LINK_KEY)}, {json.dumps(json.dumps(token))});"
        " } catch (e) {} })();"
    )


class OwnerBrowser:
    """A Playwright browser whose new contexts (and pages) are owner devices of a server started with
    `owner_env()`; everything else is the browser's own."""

    def __init__(self, browser: Any, token: str = OWNER_TOKEN) -> None:
        self.browser = browser
        self.token = token

    def new_context(self, *, owner: bool = True, **options: Any) -> Any:
        context = self.browser.new_context(**options)
        if owner:
            context.add_init_script(owner_script(self.token))
        return context

    def new_page(self, *, owner: bool = True, **options: Any) -> Any:
        page = self.browser.new_page(**options)  # its own context, closed with the page
        if owner:
            page.context.add_init_script(owner_script(self.token))
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)
