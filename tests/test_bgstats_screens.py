"""BG Stats in the screens, in process (no browser): Settings' export of plays for a period, a BG Stats export
picked with "Import a file", and how the history, the scoreboard and the statistics show a game known by its
final totals only."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_history_stats_settings import FakePicker
from test_ui_core_harness import App

from scorekeeper.exchange.bgstats import Period
from scorekeeper.exchange.bgstats_import import import_bgstats_text
from scorekeeper.ui.views.settings import bgstats as settings_bgstats
from scorekeeper.ui.views.settings import transfer as settings_view
from tests.run_alone import run_alone

FIXTURE = Path(__file__).parent / "fixtures" / "bgstats_export.json"
RACKO_PLAY = "c0000000000040008000000000000001"


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data", width=390)


def test_a_picked_bg_stats_export_is_imported_and_shown(app: App) -> None:
    app.go("/settings")
    settings_view.handle_picked(
        app.ctx, [SimpleNamespace(bytes=FIXTURE.read_bytes(), path=None, name="x.json")]
    )
    assert (
        "BG Stats: 5 plays imported, 3 of other games skipped, 1 play skipped that could not be read, 5 new "
        "players. Play by play: Racko of 2026-10-30: its number of players or its options are not ones the game "
        "allows."
    ) in app.text()
    settings_view.handle_picked(
        app.ctx, [SimpleNamespace(bytes=FIXTURE.read_bytes(), path=None, name="x.json")]
    )
    assert "BG Stats: 0 plays imported, 5 already here, 3 of other games skipped" in " ".join(app.text())

    app.go("/history")
    listed = "\n".join(app.text())
    assert "Final scores only" in listed and "Rounds: 0" not in listed
    app.go(f"/history/{RACKO_PLAY}")
    assert "Won by Anna" in app.text()
    app.go(f"/match/{RACKO_PLAY}")
    shown = app.text()
    assert "Imported with its final totals only: its rounds are not known." in shown
    assert "525" in shown and not app.has("enter-round") and not app.has("undo")
    app.go("/stats")
    assert "Finished games: 5. A shared first place counts as a win for each." in app.text()
    assert "Score progression of the latest game" not in app.text()  # no rounds to draw


def test_a_file_that_is_neither_export_is_refused(app: App) -> None:
    app.go("/settings")
    settings_view.handle_picked(app.ctx, [SimpleNamespace(bytes=b'{"plays": 3}', path=None, name="x.json")])
    assert any(t.startswith("The file was not imported: ") for t in app.text())
    assert app.store.list_matches() == []


def test_the_plays_of_a_period_are_downloaded_in_a_browser(app: App) -> None:
    import_bgstats_text(app.store, FIXTURE.read_bytes())
    app.go("/settings")
    assert app.has("export-bgstats") and app.has("bgstats-period-month")
    picker = FakePicker(None)
    october = Period(date(2026, 10, 1), date(2026, 10, 10))
    run_alone(settings_bgstats.export_action(app.ctx, picker, True, lambda: october)(None))
    (call,) = picker.calls
    assert call["file_name"].startswith("scorekeeper-bgstats-") and call["file_name"].endswith(".json")
    document: dict[str, Any] = json.loads(call["src_bytes"])
    assert [p["playDate"] for p in document["plays"]] == ["2026-10-02 19:00:00", "2026-10-09 18:30:00"]
    assert any(t.startswith("Download started: scorekeeper-bgstats-") for t in app.text())


def test_the_periods() -> None:
    today = date(2026, 12, 5)
    assert settings_bgstats.period_of("all", today) is None
    assert settings_bgstats.period_of("month", today) == Period(date(2026, 12, 1), today)
    assert settings_bgstats.period_of("year", today) == Period(date(2026, 1, 1), today)
    chosen = settings_bgstats.period_of("days", today, date(2026, 3, 1), date(2026, 3, 31))
    assert chosen == Period(date(2026, 3, 1), date(2026, 3, 31))
