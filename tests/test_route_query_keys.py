"""Screens take only the query keys they declare (issue 50, finding 4): `/settings?ctx=1` gave the settings
screen's `build` a second context and failed it (an error screen, a traceback in the log). Every other key is
dropped before the screen is built. In-process sessions through the UI harness."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.model.match import Match
from scorekeeper.ui.routes import ROUTES, declared, resolve
from tests.test_route_rights import concrete
from tests.test_server_roles import Device
from tests.test_table_ui import fresh_host  # noqa: F401  (autouse: no table left behind)

FAILED = "Something went wrong"
ODD_KEYS = ("ctx", "self", "route", "_", "kwargs", "match_id", "index", "code", "saved_id", "page")


def test_declared_keeps_only_the_named_parameters() -> None:
    def build(ctx: object, match_id: str, index: str | None = None, **_: str) -> object:
        return ctx, match_id, index

    params = {"match_id": "m1", "index": "2", "ctx": "1", "junk": "x", "_": "y"}
    assert declared(build, params) == {"match_id": "m1", "index": "2"}  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["ctx", "junk", "_"])
def test_settings_with_a_foreign_query_key_is_the_settings_screen(tmp_path: Path, key: str) -> None:
    owner = Device(tmp_path, None, served=False)
    owner.go(f"/settings?{key}=1")
    assert FAILED not in owner.screen_text()
    assert owner.ctx.route.startswith("/settings") and owner.has("data-where"), owner.screen_text()[:400]


def test_every_screen_builds_with_every_odd_key(tmp_path: Path) -> None:
    """Each route of the app, with a query naming the context and the other screens' parameters: the screen
    is built (a screen's own named part is taken from the path, never from the query)."""
    owner = Device(tmp_path, None, served=False)
    ids = [owner.store.add_player(name).id for name in ("Anna", "Ben")]
    match = owner.store.save_match(Match.new("racko", {"players": 2}, ids, names=["Anna", "Ben"]))
    query = "&".join(f"{key}=1" for key in ODD_KEYS)
    for pattern, _module in ROUTES:
        route = concrete(pattern).replace("/m0", f"/{match.id}")
        owner.go(f"{route}?{query}")
        assert FAILED not in owner.screen_text(), (route, owner.screen_text()[:400])
        _, params = resolve(f"{route}?{query}")
        if "match_id" in pattern.groupindex:
            assert params["match_id"] == match.id  # the path's part wins over the query's
