"""Undo and redo from the match's stored history in a real browser: after a page reload the undo of the last
round is still offered, and redo brings it back."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PHONE, browser_tabs, served

from scorekeeper.model.match import Match
from scorekeeper.store import Store

pytestmark = pytest.mark.browser


def test_undo_and_redo_after_a_page_reload(chromium, tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store.open(data)
    ids = [store.add_player(name).id for name in ("Anna", "Ben")]
    match = store.save_match(Match.new("racko", {}, ids, names=["Anna", "Ben"]))
    match = match.with_round({"counts": [None, 3], "runs": [3, 1], "callers": [0], "blitz": False})
    match = store.save_match(match, "Round 1")
    store.close()
    with served(data) as url, browser_tabs(chromium, url) as tab:
        ui = tab("undo_history", PHONE)
        ui.open(f"/match/{match.id}", ready="undo")
        ui.shot("undo-offered")
        ui.tap("undo")
        ui.wait("redo")
        assert Store.open(data).get_match(match.id).rounds == []
        ui.open(f"/match/{match.id}", ready="redo")  # a reload of the page: redo is still there
        ui.tap("redo")
        ui.wait("undo")
        ui.shot("redone")
        assert len(Store.open(data).get_match(match.id).rounds) == 1
