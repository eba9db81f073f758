"""Undo and redo in the app come from the match's stored history: they survive a reload,
work from another session showing the match, and never take back another device's change silently."""

from __future__ import annotations

from pathlib import Path

from test_ui_core_harness import App


def _with_round(app: App) -> str:
    """A Racko game with one round entered through the quick form."""
    summary = app.start_match("racko", ["Anna", "Ben"], 0)
    # The 2-player rule needs the caller's run in the quick form.
    for identifier in ("mode-quick", "caller-0", "run-0-3", "count-1-4", "save-round"):
        app.tap(identifier)
    assert app.ctx.route == f"/match/{summary.id}"
    assert app.store.get_match(summary.id).totals() == [75, 20]
    return summary.id


def test_undo_and_redo_survive_a_reload(tmp_path: Path) -> None:
    first = App(tmp_path / "data")
    match_id = _with_round(first)
    reloaded = App(tmp_path / "data")  # a reload of the page, or another device
    reloaded.go(f"/match/{match_id}")
    assert reloaded.find("undo").tooltip.startswith("Undo: ")
    reloaded.tap("undo")
    assert reloaded.store.get_match(match_id).rounds == []
    assert "Undone." in reloaded.screen_text() or not reloaded.has("undo")
    reloaded.tap("redo")
    assert len(reloaded.store.get_match(match_id).rounds) == 1


def test_undo_on_a_stale_screen_keeps_the_other_devices_round(tmp_path: Path) -> None:
    phone = App(tmp_path / "data")
    match_id = _with_round(phone)
    tablet = App(tmp_path / "data")
    match = tablet.store.get_match(match_id)
    match = match.with_round({"counts": [3, None], "runs": [1, 3], "callers": [1], "blitz": False})
    match = tablet.store.save_match(match)  # the phone's screen still shows round 1 only
    phone.tap("undo")
    assert len(phone.store.get_match(match_id).rounds) == 2
    assert "changed on another device" in phone.screen_text()
