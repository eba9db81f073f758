"""The game-night screens in process (test_ui_core_harness): the list from the history, one night with its
ranking, taking a game out and adding it again, and the summary picture (its lines and a real PNG)."""

from __future__ import annotations

import dataclasses
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image
from test_ui_core_harness import App

from scorekeeper.model.match import Match
from scorekeeper.stats.game_nights import ALONE
from scorekeeper.ui.components.night_picture import Line, picture
from scorekeeper.ui.views.game_night import night_matches, nights, summary_lines

EVENING = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def played(
    app: App, game: str, names: list[str], totals: list[int], minutes: tuple[int, int], place: str
) -> Match:
    """A finished match known by its totals, played from `minutes[0]` to `minutes[1]` after 18:00."""
    start, end = (EVENING + timedelta(minutes=m) for m in minutes)
    match = Match.new(game, {"players": len(names)}, [n.lower() for n in names], names=names)
    match = dataclasses.replace(
        match,
        final_totals=totals,
        status="finished",
        place=place,
        created=start.isoformat(),
        clock=[[start.isoformat(), end.isoformat()]],
    )
    return app.store.save_match(match)


def evening(app: App) -> list[Match]:
    """Three games at Anna's (one per game), and one the same evening elsewhere."""
    return [
        played(app, "racko", ["Anna", "Ben"], [520, 310], (0, 40), "Anna's"),
        played(app, "ruckzuck", ["Anna", "Ben", "Cleo"], [12, 3, 3], (50, 80), "Anna's"),
        played(app, "rage", ["Anna", "Ben", "Cleo"], [40, 95, 60], (100, 160), "anna's "),
        played(app, "racko", ["Dan", "Eve"], [500, 100], (0, 30), "Club"),
    ]


@pytest.fixture
def app(tmp_path: Path) -> App:
    return App(tmp_path / "data")


def test_a_night_from_the_history_with_its_ranking(app: App) -> None:
    racko, ruck, rage, club = evening(app)
    app.go("/history")
    app.tap("history-nights")
    assert app.ctx.route == "/nights"
    assert app.has(f"night-{racko.id}") and not app.has(f"night-{club.id}")  # a game alone is no night listed
    app.tap(f"night-{racko.id}")
    assert app.ctx.route == f"/night/{racko.id}"
    text = app.screen_text()
    assert "Anna's" in text and "Players: Anna, Ben, Cleo" in text and "Total time played: 2 h 10 min" in text
    # Racko: Anna 1, Ben 0; Ruck Zuck (lowest wins): Ben, Cleo 1.5 each, Anna 0; Rage: Ben 2, Cleo 1, Anna 0
    ranking = app.find("night-ranking")
    from test_ui_core_harness import texts

    cells = texts(ranking)
    assert cells[5:] == [
        "1.",
        "Ben",
        "3.5",
        "2",
        "3",
        "2.",
        "Cleo",
        "2.5",
        "1",
        "2",
        "3.",
        "Anna",
        "1",
        "1",
        "3",
    ]
    for match in (racko, ruck, rage):
        assert app.has(f"night-match-{match.id}")


def test_take_a_game_out_and_add_it_again(app: App) -> None:
    racko, ruck, rage, _club = evening(app)
    app.go(f"/night/{ruck.id}")
    app.tap(f"night-out-{ruck.id}")
    assert app.store.get_match(ruck.id).night == ALONE  # type: ignore[union-attr]
    listed = {n.key: n.ids for n in nights(app.ctx)}
    assert listed[racko.id] == (racko.id, rage.id) and listed[ruck.id] == (ruck.id,)
    app.go(f"/night/{racko.id}")
    app.tap("night-add")
    app.tap(f"night-add-{ruck.id}")
    assert app.has(f"night-match-{ruck.id}")
    assert app.store.get_match(ruck.id).night == racko.id  # type: ignore[union-attr]
    assert {n.key: n.ids for n in nights(app.ctx)}[racko.id] == (racko.id, ruck.id, rage.id)


def test_the_summary_picture_says_who_played_and_is_a_png(app: App) -> None:
    racko, *_ = evening(app)
    everything = nights(app.ctx)
    night = next(n for n in everything if racko.id in n.ids)
    matches = night_matches(app.ctx, night)
    from scorekeeper.stats.game_nights import ranking
    from scorekeeper.ui.views.game_night import results

    lines = summary_lines(app.ctx, night, matches, ranking(results(matches)))
    words = " | ".join(line.words for line in lines)
    for name in ("Anna", "Ben", "Cleo"):
        assert name in words
    assert "Dan" not in words
    assert [line.cells[1] for line in lines if line.kind == "row"] == ["Player", "Ben", "Cleo", "Anna"]
    assert "Racko: Won by Anna · 40 min" in words and "Total time played: 2 h 10 min" in words
    data = picture(lines)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.width == 1080 and image.height > 400
    background = Image.new("RGB", image.size, image.getpixel((5, 200)))
    from PIL import ImageChops

    assert ImageChops.difference(image.convert("RGB"), background).getbbox() is not None  # something drawn


def test_the_picture_fits_long_names_and_accents() -> None:
    lines = [
        Line("title", "Spieleabend"),
        Line("text", "Grüße aus Köln · Soirée à l’hôtel " * 4),
        Line("row", cells=("1.", "Maximiliane-Alexandrine von und zu Hohenberg", "12,5", "3", "4")),
    ]
    image = Image.open(io.BytesIO(picture(lines)))
    assert image.height > 300  # the long line wrapped


def test_in_german(app: App) -> None:
    racko, *_ = evening(app)
    app.ctx.update_settings(language="de")
    app.go(f"/night/{racko.id}")
    text = app.screen_text()
    assert "Spieleabend" in text and "Rangliste" in text and "Gespielte Zeit insgesamt" in text


def test_without_pillow_the_night_opens_and_offers_no_picture(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The static build's Python has no Pillow: the game night's screen still imports and opens there, without
    "Save picture" (it could not be drawn); everything else of the night is shown."""
    import subprocess
    import sys

    blocked = "import sys; sys.modules['PIL'] = None; import scorekeeper.ui.views.game_night as night;"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            blocked + " from scorekeeper.ui.components import night_picture as p; print(p.DRAWN)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr[-1500:]
    racko, *_ = evening(app)
    night = next(n for n in nights(app.ctx) if racko.id in n.ids)
    app.go(f"/night/{night.key}")
    assert app.has("night-picture") and app.has("night-add")
    import scorekeeper.ui.views.game_night as screen

    monkeypatch.setattr(screen, "DRAWN", False)
    app.go("/nights")
    app.go(f"/night/{night.key}")
    assert not app.has("night-picture") and app.has("night-add")
