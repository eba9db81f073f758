"""History, statistics, rules and settings screens, in process (no browser): what they show for stored data,
their filters, language and theme switching, export and import handlers."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest
from test_history_stats_data import Seeded, seed_store
from test_ui_core_harness import App, texts, walk

from scorekeeper.exchange.transfer import export_json_text
from scorekeeper.store import Store
from scorekeeper.ui.views.rulebook import RULES_DIR, rules_text
from scorekeeper.ui.views.settings import importing as settings_import
from scorekeeper.ui.views.settings import transfer as settings_view
from tests.run_alone import run_alone

GAMES = ("racko", "ruckzuck", "rage")


@pytest.fixture
def seeded_dir(tmp_path: Path) -> tuple[Path, Seeded]:
    with Store.open(tmp_path) as store:
        seeded = seed_store(store)
    return tmp_path, seeded


@pytest.fixture
def app(seeded_dir: tuple[Path, Seeded]) -> App:
    return App(seeded_dir[0], width=390)


def markdown_text(app: App) -> str:
    return "\n".join(node.value for node in walk(app.view) if isinstance(node, ft.Markdown))


def test_rules_exist_for_every_game_in_every_language_with_the_same_sections() -> None:
    for game in GAMES:
        sections = {}
        for language in ("en", "de", "nl", "fr"):
            path = RULES_DIR / language / f"{game}.md"
            assert path.is_file(), path
            sections[language] = path.read_text(encoding="utf-8").count("\n## ")
        assert len(set(sections.values())) == 1, (game, sections)
        assert sections["en"] >= 4


# ------------------------------------------------------------------ history


def test_history_lists_games_in_progress_and_finished_games(
    app: App, seeded_dir: tuple[Path, Seeded]
) -> None:
    # Games in progress are listed too, first, with "Continue".
    seeded = seeded_dir[1]
    app.go("/history")
    for match_id in (seeded.racko, seeded.rage, seeded.ruckzuck, seeded.running):
        assert app.has(f"history-{match_id}")
    assert "Finished games: 3" in app.text() and "Games in progress: 1" in app.text()
    assert not app.has(f"history-continue-{seeded.racko}")
    app.tap(f"history-continue-{seeded.running}")
    assert app.ctx.route == f"/match/{seeded.running}"


def test_history_filters_by_game_and_player(app: App, seeded_dir: tuple[Path, Seeded]) -> None:
    seeded = seeded_dir[1]
    app.go("/history")
    app.tap("history-game-rage")
    assert app.ctx.route == "/history?game=rage"
    assert app.has(f"history-{seeded.rage}") and not app.has(f"history-{seeded.racko}")
    app.go("/history")
    app.tap(f"history-player-{seeded.players['Cy']}")
    assert app.has(f"history-{seeded.rage}") and app.has(f"history-{seeded.ruckzuck}")
    assert not app.has(f"history-{seeded.racko}")  # Cy did not play the Racko game
    app.go(f"/history?game=racko&player={seeded.players['Cy']}")
    assert app.has(f"history-{seeded.running}") and not app.has(f"history-{seeded.racko}")


def test_history_detail_shows_the_scoreboard_and_chart(app: App, seeded_dir: tuple[Path, Seeded]) -> None:
    seeded = seeded_dir[1]
    app.go("/history")
    app.tap(f"history-{seeded.racko}")
    assert app.ctx.route == f"/history/{seeded.racko}"
    text = app.text()
    assert "Won by Ann" in text
    assert "530" in text and "110" in text  # 7 calls x 75 + 5 for Ann, 7 x 5 + 75 for Bob
    assert app.has("progression-chart")


def test_history_detail_of_an_unknown_game(app: App) -> None:
    app.go("/history/doesnotexist")
    assert "This game was not found." in app.text()


def test_empty_history_says_so(tmp_path: Path) -> None:
    app = App(tmp_path)
    app.go("/history")
    assert "No games yet. Games appear here once they start." in app.text()


# ------------------------------------------------------------------ statistics


def test_statistics_show_win_shares_and_player_cards(app: App, seeded_dir: tuple[Path, Seeded]) -> None:
    seeded = seeded_dir[1]
    app.go("/stats")
    text = app.text()
    # Ann won Racko and Rage, Bob won Ruck Zuck: 2 of 3 and 1 of 3 wins.
    assert "Ann · wins: 2 (66.7%)" in text and "Bob · wins: 1 (33.3%)" in text
    assert app.has("win-share-chart") and app.has("progression-chart")
    assert app.has(f"stats-racko-{seeded.players['Ann']}")
    assert app.has(f"stats-ruckzuck-{seeded.players['Cy']}")
    assert not app.has(f"stats-racko-{seeded.players['Cy']}")  # Cy's Racko game is still running


def test_statistics_filter_by_game(app: App, seeded_dir: tuple[Path, Seeded]) -> None:
    seeded = seeded_dir[1]
    app.go("/stats")
    app.tap("stats-game-ruckzuck")
    assert app.ctx.route == "/stats?game=ruckzuck"
    assert "Bob · wins: 1 (100%)" in app.text()
    assert app.has(f"stats-ruckzuck-{seeded.players['Bob']}")
    assert not app.has(f"stats-rage-{seeded.players['Bob']}")


def test_statistics_in_german_use_german_numbers(app: App) -> None:
    app.ctx.update_settings(language="de")
    app.go("/stats")
    text = app.text()
    assert "Ann · Siege: 2 (66,7\u00a0%)" in text  # babel keeps the no-break space before %
    assert "Anteil an den Siegen" in text


def test_home_shows_a_game_in_progress_with_each_name_apart_from_its_points(
    app: App, seeded_dir: tuple[Path, Seeded]
) -> None:
    # "Computer 2 0" read as one number too many: a name and its points are joined by the language's colon
    running = seeded_dir[1].running
    with Store.open(seeded_dir[0]) as store:
        match = store.get_match(running)
    assert match is not None
    points = dict(zip(match.names, match.totals(), strict=True))
    leader, other = sorted(points, key=lambda name: -points[name])
    app.go("/")
    assert f"{leader}: {points[leader]} · {other}: {points[other]}" in texts(app.find(f"continue-{running}"))
    app.ctx.update_settings(language="fr")
    app.go("/")
    assert f"{leader}\u00a0: {points[leader]}" in " ".join(texts(app.find(f"continue-{running}")))


def test_empty_statistics_say_so(tmp_path: Path) -> None:
    app = App(tmp_path)
    app.go("/stats")
    assert "No finished games yet. Statistics appear after the first one." in app.text()


# ------------------------------------------------------------------ rules


def test_rules_show_the_chosen_game_in_the_app_language(app: App) -> None:
    app.go("/rules")
    assert markdown_text(app).startswith("# Racko")
    app.tap("rules-game-rage")
    assert app.ctx.route == "/rules?game=rage"
    assert "forbidden" not in markdown_text(app) and "Bidding" in markdown_text(app)
    app.ctx.update_settings(language="fr")
    assert "Annonces" in markdown_text(app)
    assert rules_text("rage", "xx") == rules_text("rage", "en")  # an unknown language falls back to English


# ------------------------------------------------------------------ settings


def test_language_switch_applies_at_once_and_is_saved(app: App, seeded_dir: tuple[Path, Seeded]) -> None:
    app.go("/settings")
    app.tap("language-nl")
    assert app.ctx.t.language == "nl"
    assert "Taal" in app.text() and "Instellingen" in app.text()
    assert app.store.get_setting("language") == "nl"


def test_theme_switch(app: App) -> None:
    app.go("/settings")
    app.tap("theme-dark")
    assert app.page.theme_mode == ft.ThemeMode.DARK
    assert app.store.get_setting("theme") == "dark"
    app.tap("theme-light")
    assert app.page.theme_mode == ft.ThemeMode.LIGHT


def test_settings_show_where_the_data_lives(app: App, seeded_dir: tuple[Path, Seeded]) -> None:
    app.go("/settings")
    assert str(seeded_dir[0]) in app.text()


def test_save_a_copy_writes_an_export_that_imports_elsewhere(app: App, tmp_path_factory: Any) -> None:
    app.go("/settings")
    app.tap("save-copy")
    copies = list((Path(app.store.data_dir) / "exports").glob("scorekeeper-*.json"))
    assert len(copies) == 1
    assert any("Saved to" in t for t in app.text())
    other = App(tmp_path_factory.mktemp("other"))
    imported, message = settings_import.import_content(other.ctx, copies[0].read_bytes())
    assert imported
    assert message == "Imported: 4 new games, 0 updated, 0 already here, 3 new players."
    again = settings_import.import_content(other.ctx, copies[0].read_bytes())
    assert again == (True, "Nothing new to import: everything in the file is already here.")


def test_a_bad_file_is_refused_and_changes_nothing(app: App) -> None:
    before = [s.id for s in app.store.list_matches()]
    data = json.loads(export_json_text(app.store))
    data["matches"][0]["rounds"][0] = {"nonsense": True}
    imported, message = settings_import.import_content(app.ctx, json.dumps(data))
    assert not imported and message.startswith("The file was not imported: ")
    assert [s.id for s in app.store.list_matches()] == before
    imported, message = settings_import.import_content(app.ctx, b"not json at all")
    assert not imported


def test_a_picked_file_is_imported_from_its_bytes_or_its_path(app: App, tmp_path_factory: Any) -> None:
    export = export_json_text(app.store).encode("utf-8")
    other = App(tmp_path_factory.mktemp("picked"))
    other.go("/settings")
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export, path=None, name="x.json")])
    assert len(other.store.list_matches()) == 4
    assert any(t.startswith("Imported: 4 new games") for t in other.text())
    path = tmp_path_factory.mktemp("file") / "export.json"
    path.write_bytes(export)
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=None, path=str(path), name="export.json")])
    assert any(t.startswith("Nothing new to import") for t in other.text())
    settings_view.handle_picked(other.ctx, [])  # a closed dialog does nothing


def test_an_import_brings_the_other_devices_language(app: App, tmp_path_factory: Any) -> None:
    app.store.set_setting("language", "de")
    export = export_json_text(app.store)
    other = App(tmp_path_factory.mktemp("lang"))
    other.go("/settings")
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export.encode(), path=None, name="e.json")])
    assert other.ctx.t.language == "de"
    assert "Sprache" in other.text()


class FakePicker:
    """Stands in for the FilePicker service: records what a save dialog was given."""

    def __init__(self, answer: str | None) -> None:
        self.answer = answer
        self.calls: list[dict[str, Any]] = []
        self.on_result = None

    async def save_file(self, **kwargs: Any) -> str | None:
        self.calls.append(kwargs)
        return self.answer


@pytest.mark.parametrize("kind", ["json", "csv"])
def test_export_in_a_browser_hands_over_the_bytes(app: App, kind: str) -> None:
    app.go("/settings")
    picker = FakePicker(None)
    app.ctx.session.file_picker = picker
    app.page.web = True
    run_alone(settings_view.export_action(app.ctx, kind)(None))
    (call,) = picker.calls
    assert call["file_name"].endswith(f".{kind}")
    data = call["src_bytes"]
    if kind == "csv":
        assert data.startswith("\ufeff".encode())
    else:
        assert len(json.loads(data)["matches"]) == 4
    assert any(t.startswith("Download started: scorekeeper-") for t in app.text())


def test_export_on_a_desktop_reports_the_chosen_path(app: App) -> None:
    app.go("/settings")
    app.ctx.session.file_picker = FakePicker("/home/ann/scores.json")
    app.page.web = False
    run_alone(settings_view.export_action(app.ctx, "json")(None))
    assert "Saved to /home/ann/scores.json" in app.text()


def test_set_aside_files_are_listed(app: App) -> None:
    data_dir = Path(app.store.data_dir)
    (data_dir / "players.json.corrupt-20260101T000000").write_text("{broken")
    app.go("/settings")
    assert any("players.json.corrupt-20260101T000000" in t for t in app.text())


def test_an_import_shows_its_progress_then_its_result(
    app: App, tmp_path_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big import shows a progress bar under the import button that follows the games written;
    then the screen says what was imported. No dialog: one opened and closed by the server within one import was
    left open in a slow browser, modal, with no way out."""
    export = export_json_text(app.store).encode("utf-8")
    other = App(tmp_path_factory.mktemp("progress"))
    other.go("/settings")
    seen: list[float] = []
    real = settings_import.import_content

    def watching(ctx: Any, content: Any, progress: Any = None) -> Any:
        def spy(done: int, total: int, *phase: Any) -> None:
            progress(done, total, *phase)
            (bar,) = [c for c in walk(other.find("import-progress")) if isinstance(c, ft.ProgressBar)]
            if not phase:  # the games written (the saving phase after them has no measure)
                seen.append(bar.value)

        assert other.has("import-progress")  # on screen before the first game is written
        return real(ctx, content, spy)

    monkeypatch.setattr(settings_import, "import_content", watching)
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export, path=None, name="x.json")])
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)
    assert not [d for d in other.page._dialogs.controls if isinstance(d, ft.AlertDialog) and d.open]
    assert other.find("import-result").value.startswith("Imported: 4 new games")
    assert not other.has("import-progress")
    assert len(other.store.list_matches()) == 4
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=b"not json", path=None, name="y.json")])
    assert other.find("import-result").value.startswith("The file was not imported")
    assert len(other.store.list_matches()) == 4


def test_a_picked_file_is_imported_off_the_event_loop(
    app: App, tmp_path_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file picked on a phone (its bytes) or a desktop (its path) is imported on a worker thread, as an uploaded
    one is: the picker's handler returns at once, Flet's event loop stays free for every session, and the
    progress under the import button reaches the screen while the games are written."""
    export = export_json_text(app.store).encode("utf-8")
    other = App(tmp_path_factory.mktemp("loop"))
    other.go("/settings")
    loop = other.connection.loop
    runner = threading.Thread(target=loop.run_forever, daemon=True)  # the server's event loop
    runner.start()
    started, release, shown = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[str, bool]] = []
    real_import, real_show = settings_import.import_content, settings_import.apply_imported_settings

    def held(ctx: Any, content: Any, progress: Any = None) -> Any:
        def spy(done: int, total: int, *phase: Any) -> None:
            progress(done, total, *phase)
            (label,) = [c for c in walk(other.find("import-progress")) if isinstance(c, ft.Text)]
            seen.append((str(label.value), threading.current_thread() is not runner))

        started.set()
        assert release.wait(10)  # held until the test has seen the handler return
        return real_import(ctx, content, spy)

    def showing(ctx: Any) -> None:
        real_show(ctx)
        shown.set()

    monkeypatch.setattr(settings_import, "import_content", held)
    monkeypatch.setattr(settings_import, "apply_imported_settings", showing)
    try:
        files = [SimpleNamespace(bytes=export, path=None, name="x.json", size=len(export))]
        handler = asyncio.run_coroutine_threadsafe(settings_view.on_picked(other.ctx, None, files), loop)
        handler.result(timeout=10)  # the handler is done ...
        assert started.wait(10)  # ... while the import has started and is held
        assert not other.has("import-result") and len(other.store.list_matches()) == 0
        assert other.find("import-progress") is not None
        release.set()
        assert shown.wait(10)
    finally:
        release.set()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(10)
    assert seen and all(off_loop for _, off_loop in seen)
    assert seen[0][0].startswith("Writing the games…")
    assert other.find("import-result").value.startswith("Imported: 4 new games")
    assert len(other.store.list_matches()) == 4


def test_a_desktop_pick_reads_its_path_off_the_event_loop(
    app: App, tmp_path_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desktop's path goes the same way: `on_picked` hands the reading and the import to a worker."""
    path = tmp_path_factory.mktemp("file") / "export.json"
    path.write_bytes(export_json_text(app.store).encode("utf-8"))
    other = App(tmp_path_factory.mktemp("desktop"))
    other.go("/settings")
    handed: list[Any] = []
    monkeypatch.setattr(
        "scorekeeper.ui.views.settings.upload.in_background",
        lambda ctx, work, *args: handed.append((work, args)),
    )
    chosen = SimpleNamespace(bytes=None, path=str(path), name="e.json")
    run_alone(settings_view.on_picked(other.ctx, None, [chosen]))
    assert (
        len(handed) == 1 and len(other.store.list_matches()) == 0
    )  # nothing read or imported in the handler
    work, args = handed[0]
    work(*args)
    assert len(other.store.list_matches()) == 4
    assert other.find("import-result").value.startswith("Imported: 4 new games")


@pytest.mark.parametrize(("language", "written"), [("en", "277,000"), ("de", "277.000")])
def test_the_import_summary_writes_counts_the_languages_way(app: App, language: str, written: str) -> None:
    """Issue follow-up: "Imported: 277000 new games" read as one long number; counts get the language's
    thousands separator."""
    app.ctx.update_settings(language=language)
    report = SimpleNamespace(
        changed=True, matches_added=277_000, matches_updated=12_345, matches_unchanged=1_000, matches_kept=0,
        players_added=1_500,
    )  # fmt: skip
    text = settings_import.import_summary(app.ctx, report)
    assert written in text
    assert ("12,345" if language == "en" else "12.345") in text
    assert ("1,500" if language == "en" else "1.500") in text
    assert "277000" not in text


def test_the_progress_says_when_the_games_are_written_but_not_yet_saved(
    app: App, tmp_path_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the last game is written the import still commits and writes the index (seconds on a big file): the
    progress says so instead of sitting at 100 %. The store reports the phase; the screen words it."""
    from scorekeeper.exchange.transfer import ImportPhase

    export = export_json_text(app.store).encode("utf-8")
    other = App(tmp_path_factory.mktemp("saving"))
    other.ctx.update_settings(language="de")
    other.go("/settings")
    seen: list[tuple[Any, str, Any]] = []
    real = settings_import.import_content

    def watching(ctx: Any, content: Any, progress: Any = None) -> Any:
        def spy(done: int, total: int, phase: Any = ImportPhase.WRITING) -> None:
            progress(done, total, phase)
            (label,) = [c for c in walk(other.find("import-progress")) if isinstance(c, ft.Text)]
            (bar,) = [c for c in walk(other.find("import-progress")) if isinstance(c, ft.ProgressBar)]
            seen.append((phase, str(label.value), bar.value))

        return real(ctx, content, spy)

    monkeypatch.setattr(settings_import, "import_content", watching)
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export, path=None, name="x.json")])
    phases = [phase for phase, _, _ in seen]
    assert phases[-1] == ImportPhase.SAVING and set(phases[:-1]) == {ImportPhase.WRITING}
    assert seen[-2][1] == "Die Spiele werden geschrieben… 100 %"
    assert seen[-1][1] == "Die Spiele werden gespeichert…" and seen[-1][2] is None  # no percent to show
    assert len(other.store.list_matches()) == 4


def test_a_second_import_while_one_runs_is_refused_with_a_message(
    app: App, tmp_path_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen is free while a file is imported on a worker: a second file picked meanwhile is refused (it
    would share the progress line and wait for the first anyway), and nothing of it is imported."""
    export = export_json_text(app.store).encode("utf-8")
    other = App(tmp_path_factory.mktemp("twice"))
    other.go("/settings")
    said: list[str] = []
    monkeypatch.setattr(other.ctx, "error", said.append)
    real = settings_import.import_content

    def during_the_first(ctx: Any, content: Any, progress: Any = None) -> Any:
        settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export, path=None, name="again.json")])
        return real(ctx, content, progress)

    monkeypatch.setattr(settings_import, "import_content", during_the_first)
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export, path=None, name="x.json")])
    assert said == ["An import is already running. Please wait until it is done."]
    assert other.find("import-result").value.startswith("Imported: 4 new games")
    monkeypatch.setattr(settings_import, "import_content", real)
    settings_view.handle_picked(other.ctx, [SimpleNamespace(bytes=export, path=None, name="y.json")])
    assert said == ["An import is already running. Please wait until it is done."]  # the next one may run
    assert other.find("import-result").value.startswith("Nothing new to import")
